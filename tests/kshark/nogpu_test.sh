#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# nogpu_test.sh TEST_GPU_JOBS PLUGIN RINGS_HELPER FORMATS_DIR GPU.dat GPU.truth.json LAUNCHER LIST_TEST
# Traces without GPU jobs next to one with: (1) no GPU event formats at all (the plugin
# declines the stream), (2) GPU formats but no GPU records (a time slice before the first
# GPU event). Loaded together with a GPU trace: no crash, nothing found, the GPU stream
# still right; the ring helper (and so gpu-kshark) says, for each, that it has no GPU
# events, as gpu-latency does (one line naming the file, then the record hint), and
# gpu-kshark's other errors are one line too (list_test.py errors). Exit 77 when
# trace-cmd is missing or cannot write the traces here.
set -u
t=$1 plugin=$2 helper=$3 formats=$4 gpu=$5 truth=$6 launcher=$7 list_test=$8
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v trace-cmd >/dev/null 2>&1 || { echo "SKIP: no trace-cmd"; exit 77; }
if ! "$here/make_nogpu_trace.sh" "$formats" "$tmp/noformats.dat" || [ ! -s "$tmp/noformats.dat" ]; then
	echo "SKIP: cannot write a trace without GPU formats here"
	exit 77
fi
# the first 50 us of the GPU trace: GPU formats, but no GPU record yet
first=$(trace-cmd report "$gpu" 2>/dev/null | awk '$0 ~ /: *[a-z_]+:/ {
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }')
start=$(awk -v f="$first" 'BEGIN { printf "%.6f", f - 0.00001 }')
end=$(awk -v f="$first" 'BEGIN { printf "%.6f", f + 0.00005 }')
trace-cmd split -i "$gpu" -o "$tmp/early.dat" "$start" "$end" >/dev/null 2>&1
mv "$tmp/early.dat.1" "$tmp/early.dat" 2>/dev/null
if [ ! -s "$tmp/early.dat" ]; then
	echo "SKIP: trace-cmd split failed"
	exit 77
fi
if trace-cmd report "$tmp/early.dat" 2>/dev/null | grep -q "gpu_scheduler\|drm_sched\|drm_run_job"; then
	echo "FAIL: the early slice has GPU events"
	exit 1
fi

rc=0
"$t" "$plugin" "$tmp/noformats.dat" - "$tmp/early.dat" - "$gpu" "$truth" || rc=1
for f in "$tmp/noformats.dat" "$tmp/early.dat"; do
	if "$helper" "$f" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL: the ring helper accepts $f, a trace without GPU events"
		rc=1
	fi
	if [ -s "$tmp/out" ]; then
		echo "FAIL: rings listed for $f: $(cat "$tmp/out")"
		rc=1
	fi
	head -n 1 "$tmp/err" | grep -q "^gpu-kshark-rings: $f: no GPU scheduler events" || {
		echo "FAIL: $f: the error does not say 'no GPU scheduler events': $(cat "$tmp/err")"
		rc=1
	}
done
python3 "$list_test" errors "$launcher" "$gpu" "$tmp/noformats.dat" || rc=1
exit $rc

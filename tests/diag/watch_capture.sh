#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
# watch_capture.sh CAPTURE.SH TOOL: trace-cmd gpu-latency --watch for real,
# inside the qemu capture guest (Debian 6.1 kernel, gpu-sched.ko driven by
# mock_gpu.ko), with --explain --fail-if 'max.total>50ms' and --save-dir; checks the
# rolling summaries, the alert, the exit code 3, the saved trace (readable,
# holds the 80 ms job) and that the tracefs instance was created and removed
# while the top-level buffer stayed untouched.
set -euo pipefail

capture=$1
tool=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gst-watch-capture.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

GST_WATCH_BIN=$tool "$capture" watch "$tmp/watch.dat"
w=$tmp/watch.watch
fail=0
bad() { echo "FAIL: $*"; fail=1; }

echo "---- watch output (guest)"
cat "$w/watch-output.txt"
echo "----"
grep -q '^watching GPU jobs (tracefs instance gpu-latency-watch-' "$w/watch-output.txt" ||
	bad "no start line"
n=$(grep -cE '^\[ *[0-9.]+s\] gfx +jobs +[0-9]+' "$w/watch-output.txt" || true)
[ "$n" -ge 2 ] || bad "only $n per-interval gfx summaries"
grep -qE '^\[ *[0-9.]+s\] comp +jobs' "$w/watch-output.txt" || bad "no comp summary"
grep -qE "^\[ *[0-9.]+s\] ALERT .*max.total" "$w/watch-output.txt" || bad "no ALERT line"
grep -qE "^\[ *[0-9.]+s\] saved the last 5 s: .*alert-1.dat" "$w/watch-output.txt" ||
	bad "no saved-trace line"
grep -q '^stopped after' "$w/watch-output.txt" || bad "no final line"
grep -qE "^\[ *[0-9.]+s\]   why: worst (gfx|comp) job of " "$w/watch-output.txt" ||
	bad "no --explain 'why' line at the alert"
[ "$(cat "$w/watch-exit.txt")" = 3 ] || bad "exit code $(cat "$w/watch-exit.txt"), expected 3"
grep -q '^gpu-latency-watch-' "$w/instances-during.txt" || bad "no instance while watching"
if grep -q 'gpu-latency-watch' "$w/instances-before.txt" "$w/instances-after.txt"; then
	bad "instance left behind: $(cat "$w/instances-after.txt")"
fi
[ ! -s "$w/top-set_event.txt" ] || bad "top-level set_event changed: $(cat "$w/top-set_event.txt")"
echo "top-level: tracing_on $(cat "$w/top-tracing_on.txt"), buffer_size_kb $(cat "$w/top-buffer_size_kb.txt"), set_event '$(cat "$w/top-set_event.txt")'"

# the saved trace: trace-cmd reads it; the report finds the 80 ms job
trace-cmd report "$tmp/watch.dat" > /dev/null || bad "trace-cmd report cannot read the saved trace"
rc=0
"$tool" -q --fail-if 'max.total>50ms' "$tmp/watch.dat" > "$tmp/report.txt" || rc=$?
[ $rc = 3 ] || bad "report on the saved trace: exit $rc, expected 3 (the 80 ms job)"
sed -n '1,12p' "$tmp/report.txt" || true
"$tool" -q --explain --fence-path "$tmp/watch.dat" > "$tmp/explain.txt" || true
sed -n '/^Why/,$p' "$tmp/explain.txt" || true
[ $fail = 0 ] && echo "ok: watch in the guest: summaries, alert, saved trace, instance removed"
exit $fail

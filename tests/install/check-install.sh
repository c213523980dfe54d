#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# Install the build into a temporary DESTDIR and check that every installed
# part works from there: the gpu-latency tool, the trace-cmd front, the man
# page, the libtraceevent plugin and (when built) the KernelShark plugin; that
# the install writes nothing outside DESTDIR and replaces no file that is not ours.
# Everything happens under WORK (in the build tree).
set -euo pipefail

build=$1 prefix=$2 tep_dir=$3 ks_dir=$4 samples=$5 kshark=$6 work=$7
rm -rf "$work"
mkdir -p "$work"
root=$work/root
fail() { echo "FAIL: $*" >&2; exit 1; }

# a foreign trace-cmd where the front's bindir copy would go: left alone, said why
mkdir -p "$root$prefix/bin"
printf '#!/bin/sh\necho foreign trace-cmd\n' > "$root$prefix/bin/trace-cmd"
chmod +x "$root$prefix/bin/trace-cmd"
foreign_sum=$(sha256sum < "$root$prefix/bin/trace-cmd")

DESTDIR=$root cmake --install "$build" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "cmake --install"; }
log=$(cat "$work/install.log")
# every file the install wrote (cmake lists them, without DESTDIR, in install_manifest.txt)
# is under the prefix and landed under DESTDIR: an absolute destination would not have
n=0
while read -r f; do
	case "$f" in "$prefix"/*) ;; *) fail "installed outside the prefix: $f" ;; esac
	[ -f "$root$f" ] || fail "installed outside DESTDIR: $f"
	n=$((n + 1))
done < "$build/install_manifest.txt"
[ "$n" -gt 5 ] || fail "install_manifest.txt lists $n files"
# ... and every one of them is on the list the install-time guard checks (an install() that
# bypasses gst_install_target / gst_install_files could replace a foreign file unchecked)
while read -r f; do
	rel=${f#"$prefix"/}
	grep -qxF -- "$rel" "$build/gst-install-files.cmake" || grep -qxF -- "$f" "$build/gst-install-files.cmake" ||
		fail "installed without the guard checking it: $f (use gst_install_files/gst_install_target)"
done < "$build/install_manifest.txt"
[ "$(sha256sum < "$root$prefix/bin/trace-cmd")" = "$foreign_sum" ] ||
	fail "the install replaced a foreign $prefix/bin/trace-cmd"
grep -q "not installing the trace-cmd front as $prefix/bin/trace-cmd (not installed by gpu-sched-trace)" <<<"$log" ||
	fail "no message about the foreign bin/trace-cmd: $log"
rm "$root$prefix/bin/trace-cmd"
# the manifest lists what was written, with sha256 (the next install's guard reads it)
mf=$root$prefix/share/gpu-sched-trace/installed-files
[ -f "$mf" ] || fail "no manifest $mf"
sum=$(sha256sum < "$root$prefix/bin/trace-cmd-gpu-latency" | cut -d' ' -f1)
grep -qxF "$sum  $prefix/bin/trace-cmd-gpu-latency" "$mf" || fail "manifest lacks the tool: $(cat "$mf")"
# the one-line note for plain trace-cmd report (the default prefix is not searched)
case "$tep_dir" in
/usr/lib/*/traceevent/plugins) ;;
*) grep -qxF -- "-- gpu-sched-trace: for plain \`trace-cmd report\` (without the front): export TRACEEVENT_PLUGIN_DIR=$tep_dir" <<<"$log" ||
	fail "no export TRACEEVENT_PLUGIN_DIR=$tep_dir note: $log" ;;
esac

bin=$root$prefix/bin
trace=$samples/steady-617.dat

# the tool, installed
[ -x "$bin/trace-cmd-gpu-latency" ] || fail "no $bin/trace-cmd-gpu-latency"
out=$("$bin/trace-cmd-gpu-latency" "$trace")
grep -q "kernel era   6.17+" <<<"$out" || fail "installed gpu-latency: no era line"

# linked against the installed libgpulat.so.1 (not a static copy), found through a
# RUNPATH relative to the binary ($ORIGIN), so the DESTDIR copy is the one loaded
dyn=$(readelf -d "$bin/trace-cmd-gpu-latency")
grep -q "NEEDED.*\[libgpulat.so.1\]" <<<"$dyn" || fail "installed gpu-latency: no libgpulat.so.1: $dyn"
grep -q "RUNPATH.*\[\$ORIGIN/[^]:]*\]" <<<"$dyn" || fail "installed gpu-latency: RUNPATH: $dyn"
libs=$(ldd "$bin/trace-cmd-gpu-latency")
grep -q "libgpulat.so.1 => $bin/.*/libgpulat.so.1 " <<<"$libs" ||
	fail "installed gpu-latency does not load the installed libgpulat.so.1: $libs"

# the man page
[ -f "$root$prefix/share/man/man1/trace-cmd-gpu-latency.1.gz" ] || fail "man page not installed"
man=$prefix/share/man/man1/trace-cmd-gpu-latency.1.gz

# the trace-cmd front: our word goes to our tool, any other to the real trace-cmd;
# it finds both from its own location, with only its own directory on PATH
front=$root$prefix/libexec/gpu-sched-trace/bin/trace-cmd
[ -x "$front" ] || fail "trace-cmd front not installed"
export HOME=$work/home	# no ~/.local plugins
mkdir -p "$HOME"
unset TRACEEVENT_PLUGIN_DIR GST_TRACE_CMD_FRONTS
fpath=$(dirname "$front"):/usr/bin:/bin
# (outputs are captured first: grep -q closing a pipe early trips pipefail)
out=$(PATH=$fpath trace-cmd gpu-latency "$trace")
grep -q "kernel era   6.17+" <<<"$out" || fail "front: 'trace-cmd gpu-latency' did not run the tool"
out=$(PATH=$fpath trace-cmd report -N "$trace")
grep -q "drm_sched_job_queue:" <<<"$out" ||
	fail "front: 'trace-cmd report' did not reach the real trace-cmd"
# plain `trace-cmd report` through the front decodes: it set TRACEEVENT_PLUGIN_DIR
out=$(PATH=$fpath trace-cmd report -V6 "$trace" 2>&1)
grep -q "registering plugin: $root$tep_dir/plugin_gpu_sched.so" <<<"$out" ||
	fail "front: trace-cmd report did not load the installed plugin"
grep -q "drm_sched_job_queue: *dev=0000:03:00.0 ring=gfx fence=" <<<"$out" ||
	fail "front: trace-cmd report did not decode drm_sched_job_queue"
# a relocated install (the whole tree moved) still uses its own tools and plugin
mv "$root" "$work/moved"
out=$(PATH=$work/moved$prefix/libexec/gpu-sched-trace/bin:/usr/bin:/bin trace-cmd gpu-latency "$trace")
grep -q "kernel era   6.17+" <<<"$out" || fail "relocated front: 'trace-cmd gpu-latency'"
libs=$(ldd "$work/moved$prefix/bin/trace-cmd-gpu-latency")
grep -q "libgpulat.so.1 => $work/moved$prefix/bin/.*/libgpulat.so.1 " <<<"$libs" ||
	fail "relocated gpu-latency does not load its own libgpulat.so.1: $libs"
out=$(PATH=$work/moved$prefix/libexec/gpu-sched-trace/bin:/usr/bin:/bin trace-cmd report -V6 "$trace" 2>&1)
grep -q "registering plugin: $work/moved$tep_dir/plugin_gpu_sched.so" <<<"$out" ||
	fail "relocated front: not its own plugin"
mv "$work/moved" "$root"
# our word with our tool missing: an error naming it, not the real trace-cmd's usage
mv "$bin/trace-cmd-gpu-latency" "$work/tool"
rc=0
out=$(PATH=$fpath trace-cmd gpu-latency "$trace" 2>&1) || rc=$?
[ "$rc" = 127 ] && grep -q "trace-cmd-gpu-latency not found" <<<"$out" ||
	fail "front without its tool: rc $rc: $out"
mv "$work/tool" "$bin/trace-cmd-gpu-latency"

# the libtraceevent plugin, from its installed directory
[ -f "$root$tep_dir/plugin_gpu_sched.so" ] || fail "no plugin in $root$tep_dir"
out=$(TRACEEVENT_PLUGIN_DIR=$root$tep_dir trace-cmd report -V6 "$trace" 2>&1)
grep -q "registering plugin: $root$tep_dir/plugin_gpu_sched.so" <<<"$out" ||
	fail "trace-cmd did not load the installed plugin"
grep -q "drm_sched_job_queue: *dev=0000:03:00.0 ring=gfx fence=" <<<"$out" ||
	fail "installed plugin did not format drm_sched_job_queue"

# the KernelShark plugin and its launcher (a stand-in kernelshark shows what it is given)
if [ "$kshark" = ON ]; then
	[ -f "$root$ks_dir/plugin-gpu_jobs.so" ] || fail "KernelShark plugin not installed in $ks_dir"
	[ -x "$bin/gpu-kshark" ] || fail "gpu-kshark launcher not installed"
	[ -f "$root$prefix/share/man/man1/gpu-kshark.1.gz" ] || fail "gpu-kshark man page not installed"
	out=$("$bin/gpu-kshark-rings" "$trace")
	grep -q gfx <<<"$out" || fail "installed gpu-kshark-rings"
	printf '#!/bin/sh\necho "TEP=$TRACEEVENT_PLUGIN_DIR ARGS=$*"\n' > "$work/kernelshark"
	chmod +x "$work/kernelshark"
	out=$(KERNELSHARK=$work/kernelshark GPU_KSHARK_SESSION=$work/s.json "$bin/gpu-kshark" "$trace")
	[ "$out" = "TEP=$root$tep_dir ARGS=-p $root$ks_dir/plugin-gpu_jobs.so -s $work/s.json" ] ||
		fail "gpu-kshark: not this install's plugins: $out"
fi

# the front, installed again: its bindir copy now (ours to replace on the next install)
DESTDIR=$root cmake --install "$build" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "cmake --install (second)"; }
[ -x "$root$prefix/bin/trace-cmd" ] || fail "front not installed as $prefix/bin/trace-cmd"
DESTDIR=$root cmake --install "$build" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "cmake --install over our own files"; }

# a foreign file where one of ours goes: the install refuses before it writes anything
printf 'not ours\n' > "$root$prefix/bin/trace-cmd-gpu-latency"
rm "$root$man"
if DESTDIR=$root cmake --install "$build" > "$work/install.log" 2>&1; then
	fail "cmake --install replaced a foreign $prefix/bin/trace-cmd-gpu-latency"
fi
grep -q "$root$prefix/bin/trace-cmd-gpu-latency: not installed by gpu-sched-trace" "$work/install.log" ||
	fail "refusal does not name the file: $(cat "$work/install.log")"
[ "$(cat "$root$prefix/bin/trace-cmd-gpu-latency")" = "not ours" ] || fail "foreign file changed"
[ ! -e "$root$man" ] || fail "the refused install still wrote files"

echo "install: all parts work from $root$prefix"

#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# Build the .deb with CPack (into WORK), check its control fields and file list, extract
# it with dpkg-deb -x and run every installed part from the extracted tree: the
# libtraceevent plugin under plain trace-cmd report (TRACEEVENT_PLUGIN_DIR into the tree),
# trace-cmd gpu-latency through the front, the KernelShark plugin headless (test_gpu_jobs,
# against the trace's truth file) and gpu-kshark. Nothing is installed on the system.
#
#   check-deb.sh BUILD WORK TRACE TRUTH TEP_SYSTEM_DIR KS_SYSTEM_DIR [TEST_GPU_JOBS [SESSION_TESTS]]
#
# With libgpulat there is also gpu-sched-trace-dev: extracted into the same tree, a program
# (SESSION_TESTS/session-jobs.c) is built with nothing but `pkg-config gpulat` pointing into
# the tree, run against the tree's libgpulat.so.1, and its job counts checked against the
# trace's truth (SESSION_TESTS/check_jobs.py).
#
# TEP_SYSTEM_DIR / KS_SYSTEM_DIR are the directories Debian's libtraceevent and KernelShark
# search (KS_SYSTEM_DIR from KernelShark's own KsCmakeDef.hpp; empty: no KernelShark plugin).
set -euo pipefail

build=$1 work=$2 trace=$3 truth=$4 tep_sys=$5 ks_sys=$6 test_jobs=${7:-} session_tests=${8:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/pkg" "$work/home"
export HOME=$work/home
unset TRACEEVENT_PLUGIN_DIR GST_TRACE_CMD_FRONTS

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1 ||
	{ cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pkg/gpu-sched-trace_*.deb)
dev=$(ls "$work"/pkg/gpu-sched-trace-dev_*.deb 2>/dev/null || true)
echo "built $deb $dev"
"$(dirname "$0")/check-deb-contents.sh" "$deb" "$tep_sys" "$ks_sys" "$dev"

# extract and use each part from there
x=$work/x
dpkg-deb -x "$deb" "$x"

out=$(TRACEEVENT_PLUGIN_DIR=$x$tep_sys trace-cmd report -V6 "$trace" 2>&1)
grep -q "registering plugin: $x$tep_sys/plugin_gpu_sched.so" <<<"$out" ||
	fail "trace-cmd report did not load the extracted plugin"
grep -q "drm_sched_job_queue: *dev=0000:03:00.0 ring=gfx fence=" <<<"$out" ||
	fail "extracted plugin did not decode drm_sched_job_queue"

fpath=$x/usr/libexec/gpu-sched-trace/bin:/usr/bin:/bin
a=$(PATH=$fpath trace-cmd gpu-latency -q "$trace")
b=$("$x/usr/bin/trace-cmd-gpu-latency" -q "$trace")
[ -n "$a" ] && [ "$a" = "$b" ] || fail "extracted front: trace-cmd gpu-latency"
grep -q "kernel era   6.17+" <<<"$("$x/usr/bin/trace-cmd-gpu-latency" "$trace")" ||
	fail "extracted trace-cmd-gpu-latency: no era line"
out=$(PATH=$fpath trace-cmd report -V6 "$trace" 2>&1)
grep -q "registering plugin: $x$tep_sys/plugin_gpu_sched.so" <<<"$out" ||
	fail "extracted front: trace-cmd report without the extracted plugin"

# the profile.d snippet puts the front first on PATH, once
p=$(PATH=/usr/bin:/bin sh -c ". '$x/etc/profile.d/gpu-sched-trace.sh'; . '$x/etc/profile.d/gpu-sched-trace.sh'; echo \$PATH")
[ "$p" = "/usr/libexec/gpu-sched-trace/bin:/usr/bin:/bin" ] || fail "profile.d snippet: PATH=$p"

if [ -n "$ks_sys" ]; then
	ks=$x$ks_sys/plugin-gpu_jobs.so
	if [ -n "$test_jobs" ]; then
		"$test_jobs" "$ks" "$trace" "$truth" > "$work/kshark.log" 2>&1 ||
			{ cat "$work/kshark.log"; fail "extracted KernelShark plugin vs $truth"; }
	fi
	printf '#!/bin/sh\necho "TEP=$TRACEEVENT_PLUGIN_DIR ARGS=$*"\n' > "$work/kernelshark"
	chmod +x "$work/kernelshark"
	out=$(KERNELSHARK=$work/kernelshark GPU_KSHARK_SESSION=$work/s.json \
	      "$x/usr/bin/gpu-kshark" "$trace")
	[ "$out" = "TEP=$x$tep_sys ARGS=-p $ks -s $work/s.json" ] ||
		fail "extracted gpu-kshark: not the tree's plugins: $out"
	out=$("$x/usr/bin/gpu-kshark-rings" -h)
	grep -qF "$ks" <<<"$out" || fail "extracted gpu-kshark-rings: default plugin not the tree's"
fi
if [ -n "$dev" ]; then
	dpkg-deb -x "$dev" "$x"
	libdir=$(dirname "$tep_sys")
	libdir=$(dirname "$libdir")
	grep -qx "prefix=/usr" "$x$libdir/pkgconfig/gpulat.pc" ||
		fail "the -dev gpulat.pc: $(head -1 "$x$libdir/pkgconfig/gpulat.pc"), not prefix=/usr"
	if [ -n "$session_tests" ] && [ -f "$session_tests/session-jobs.c" ]; then
		mkdir -p "$work/consumer"
		cp "$session_tests/session-jobs.c" "$work/consumer/"
		flags=$(PKG_CONFIG_PATH=$x$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$x \
			pkg-config --cflags --libs gpulat) || fail "pkg-config gpulat in the extracted -dev"
		host=$(pkg-config --cflags --libs libtracecmd libtraceevent)
		# shellcheck disable=SC2086
		(cd "$work/consumer" && cc -o session-jobs session-jobs.c $flags $host) ||
			fail "building against the extracted gpu-sched-trace-dev"
		# (captured first: grep -q closing the pipe early trips pipefail)
		libs=$(LD_LIBRARY_PATH=$x$libdir ldd "$work/consumer/session-jobs")
		grep -q "$x$libdir/libgpulat.so.1" <<<"$libs" ||
			fail "not linked to the extracted libgpulat.so.1"
		LD_LIBRARY_PATH=$x$libdir python3 "$session_tests/check_jobs.py" \
			"$work/consumer/session-jobs" --file "$trace" || fail "libgpulat from the .deb: job counts"
	fi
fi
echo "deb: every part works from the extracted package"

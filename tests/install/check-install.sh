#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# Install the build into a temporary DESTDIR and check that every installed
# part works from there: the gpu-latency tool, the trace-cmd front, the man
# page, the libtraceevent plugin and (when built) the KernelShark plugin.
set -euo pipefail

build=$1 prefix=$2 tep_dir=$3 ks_dir=$4 samples=$5 kshark=$6
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

DESTDIR=$root cmake --install "$build" > "$root.log" 2>&1 || { cat "$root.log"; fail "cmake --install"; }
rm -f "$root.log"

bin=$root$prefix/bin
trace=$samples/steady-617.dat

# the tool, installed
[ -x "$bin/trace-cmd-gpu-latency" ] || fail "no $bin/trace-cmd-gpu-latency"
out=$("$bin/trace-cmd-gpu-latency" "$trace")
grep -q "kernel era   6.17+" <<<"$out" || fail "installed gpu-latency: no era line"

# the man page
man=$(find "$root" -name trace-cmd-gpu-latency.1 | head -1)
[ -n "$man" ] || fail "man page not installed"

# the trace-cmd front: our word goes to our tool, any other to the real trace-cmd
front=$(find "$root" -path '*gpu-sched-trace/bin/trace-cmd' | head -1)
[ -n "$front" ] || fail "trace-cmd front not installed"
# (outputs are captured first: grep -q closing a pipe early trips pipefail)
out=$(PATH=$(dirname "$front"):$bin:$PATH trace-cmd gpu-latency "$trace")
grep -q "kernel era   6.17+" <<<"$out" || fail "front: 'trace-cmd gpu-latency' did not run the tool"
out=$(PATH=$(dirname "$front"):$bin:$PATH trace-cmd report -N "$trace")
grep -q "drm_sched_job_queue:" <<<"$out" ||
	fail "front: 'trace-cmd report' did not reach the real trace-cmd"

# the libtraceevent plugin, from its installed directory
[ -f "$root$tep_dir/plugin_gpu_sched.so" ] || fail "no plugin in $root$tep_dir"
out=$(TRACEEVENT_PLUGIN_DIR=$root$tep_dir trace-cmd report -V6 "$trace" 2>&1)
grep -q "registering plugin: $root$tep_dir/plugin_gpu_sched.so" <<<"$out" ||
	fail "trace-cmd did not load the installed plugin"
grep -q "drm_sched_job_queue: *dev=0000:03:00.0 ring=gfx fence=" <<<"$out" ||
	fail "installed plugin did not format drm_sched_job_queue"

# the KernelShark plugin and its launcher
if [ "$kshark" = ON ]; then
	ks=$(find "$root" -name 'plugin-gpu_jobs.so' | head -1)
	[ -n "$ks" ] || fail "KernelShark plugin not installed under $ks_dir"
	[ -x "$bin/gpu-kshark" ] || fail "gpu-kshark launcher not installed"
	[ -n "$(find "$root" -name gpu-kshark.1)" ] || fail "gpu-kshark man page not installed"
	out=$("$bin/gpu-kshark-rings" "$trace")
	grep -q gfx <<<"$out" || fail "installed gpu-kshark-rings"
fi
echo "install: all parts work from $root$prefix"

#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# ctest -L deb-install (root; DISABLED unless -DGST_DEB_INSTALL_TESTS=ON; CI runs it):
# install the .deb with dpkg, check the three uses on a sample trace, purge it again.
#  1. plain `trace-cmd report` (the system's /usr/bin/trace-cmd, no TRACEEVENT_PLUGIN_DIR)
#     loads the plugin from libtraceevent's own directory and decodes;
#  2. `trace-cmd gpu-latency` works in a login shell (/etc/profile.d puts the front on PATH);
#  3. `kernelshark -p gpu_jobs` (by name) loads the package's plugin (under Xvfb; dlopen
#     seen with LD_DEBUG=files, and no "plugin ... not found").
# The system's trace-cmd must be untouched: sha256 of /usr/bin/trace-cmd before and after,
# and `dpkg -V trace-cmd` clean. A gpu-sched-trace package already installed is left alone
# (the test fails instead).
#
#   check-dpkg.sh BUILD WORK TRACE TEP_SYSTEM_DIR KS_SYSTEM_DIR
set -euo pipefail

build=$1 work=$2 trace=$3 tep_sys=$4 ks_sys=$5
fail() { echo "FAIL: $*" >&2; exit 1; }
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: dpkg -i needs root"
	exit 77
fi
if grep -q installed <<<"$(dpkg-query -W -f='${Status}' gpu-sched-trace 2>/dev/null || true)"; then
	fail "a gpu-sched-trace package is already installed; not touching it"
fi
rm -rf "$work"
mkdir -p "$work/pkg" "$work/home/cache"
tc=/usr/bin/trace-cmd
before=$(sha256sum "$tc")

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1 ||
	{ cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/pkg/gpu-sched-trace_*.deb)
dev=$(ls "$work"/pkg/gpu-sched-trace-dev_*.deb 2>/dev/null || true)
pkgs="gpu-sched-trace"
[ -z "$dev" ] || pkgs="gpu-sched-trace-dev gpu-sched-trace"

installed=0
cleanup() {
	if [ "$installed" = 1 ]; then
		# shellcheck disable=SC2086
		dpkg -P $pkgs > "$work/purge.log" 2>&1 || cat "$work/purge.log" >&2
	fi
}
trap cleanup EXIT
# shellcheck disable=SC2086
dpkg -i "$deb" $dev > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; installed=1; fail "dpkg -i"; }
installed=1
# shellcheck disable=SC2086
dpkg -L $pkgs > "$work/files"
if [ -n "$dev" ]; then
	v=$(pkg-config --modversion gpulat) || fail "pkg-config gpulat after installing -dev"
	[ "$v" = "$(dpkg-query -W -f='${Version}' gpu-sched-trace-dev)" ] || fail "gpulat.pc version $v"
fi

# 1. plain trace-cmd report, as a user would type it
out=$(env -i HOME="$work/home" PATH=/usr/bin:/bin trace-cmd report -V6 "$trace" 2>&1)
grep -q "registering plugin: $tep_sys/plugin_gpu_sched.so" <<<"$out" ||
	fail "plain trace-cmd report did not load $tep_sys/plugin_gpu_sched.so"
grep -q "drm_sched_job_queue: *dev=0000:03:00.0 ring=gfx fence=" <<<"$out" ||
	fail "plain trace-cmd report did not decode drm_sched_job_queue"

# 2. trace-cmd gpu-latency in a login shell
out=$(env -i HOME="$work/home" TERM=dumb bash -lc "trace-cmd gpu-latency '$trace'" 2>&1) ||
	fail "login shell: trace-cmd gpu-latency: $out"
grep -q "kernel era   6.17+" <<<"$out" || fail "login shell: trace-cmd gpu-latency: $out"
out=$(env -i HOME="$work/home" TERM=dumb bash -lc "trace-cmd report -N '$trace'" 2>&1)
grep -q "drm_sched_job_queue:" <<<"$out" || fail "login shell: trace-cmd report through the front"

# 3. kernelshark -p gpu_jobs, by name
if [ -n "$ks_sys" ] && command -v xvfb-run > /dev/null && command -v kernelshark > /dev/null; then
	printf '[General]\nnoRootWarn=true\n' > "$work/home/cache/setting.ini"
	rc=0
	env -i HOME="$work/home" PATH=/usr/bin:/bin KS_USER_CACHE_DIR="$work/home/cache" \
		XDG_RUNTIME_DIR="$work/home" LD_DEBUG=files \
		timeout 10 xvfb-run -a kernelshark -p gpu_jobs "$trace" > "$work/ks.log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 124 ] || { tail -20 "$work/ks.log"; fail "kernelshark exited $rc"; }
	grep -q "plugin .*plugin-gpu_jobs.so not found" "$work/ks.log" &&
		fail "kernelshark -p gpu_jobs: plugin not found"
	grep -q "file=$ks_sys/plugin-gpu_jobs.so .*dynamically loaded" "$work/ks.log" ||
		{ grep -i plugin "$work/ks.log" | tail; fail "kernelshark -p gpu_jobs did not load $ks_sys/plugin-gpu_jobs.so"; }
	grep -qxF "$ks_sys/plugin-gpu_jobs.so" "$work/files" || fail "the loaded plugin is not the package's"
else
	echo "note: kernelshark -p gpu_jobs not checked (no KernelShark plugin, xvfb-run or kernelshark)"
fi

# remove it again: nothing left, the system's trace-cmd as it was
# shellcheck disable=SC2086
dpkg -P $pkgs > "$work/purge.log" 2>&1 || { cat "$work/purge.log"; fail "dpkg -P"; }
installed=0
while read -r f; do
	[ -d "$f" ] || [ ! -e "$f" ] || fail "left after dpkg -P: $f"
done < "$work/files"
[ "$(sha256sum "$tc")" = "$before" ] || fail "$tc changed"
dpkg -V trace-cmd || fail "dpkg -V trace-cmd reports changes"
echo "deb-install: installed, used (report, gpu-latency, kernelshark -p gpu_jobs), purged; $tc untouched"

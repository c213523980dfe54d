#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
# capture_smoke.sh CAPTURE.SH: record the "steady" scenario under qemu and
# check the trace with trace-cmd report (gpu_scheduler events on every ring).
set -euo pipefail

capture=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gst-capture-smoke.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$capture" steady "$tmp/steady.dat"
trace-cmd report -N "$tmp/steady.dat" > "$tmp/report.txt"

fail=0
for ev in drm_sched_job drm_run_job drm_sched_process_job dma_fence_signaled; do
	n=$(grep -c " $ev:" "$tmp/report.txt" || true)
	echo "$ev: $n"
	[ "$n" -gt 0 ] || { echo "FAIL: no $ev events"; fail=1; }
done
# steady uses rings gfx and comp: both must queue and run jobs
for ring in gfx comp; do
	q=$(grep " drm_sched_job:" "$tmp/report.txt" | grep -c "ring=$ring," || true)
	r=$(grep " drm_run_job:" "$tmp/report.txt" | grep -c "ring=$ring," || true)
	echo "ring $ring: queued $q run $r"
	if [ "$q" -eq 0 ] || [ "$r" -eq 0 ]; then
		echo "FAIL: ring $ring has no jobs"
		fail=1
	fi
	[ "$q" -eq "$r" ] || { echo "FAIL: ring $ring queued $q != run $r"; fail=1; }
done
q=$(grep -c " drm_sched_job:" "$tmp/report.txt" || true)
d=$(grep -c " drm_sched_process_job:" "$tmp/report.txt" || true)
[ "$q" -eq "$d" ] || { echo "FAIL: $q jobs queued but $d completed"; fail=1; }
exit $fail

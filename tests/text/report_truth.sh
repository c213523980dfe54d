#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
#
# report_truth.sh TRUTH_CHECK PLUGIN_DIR WORKDIR TRACE.dat
#
# The text path against the generator's ground truth: `trace-cmd report`
# text of TRACE.dat, read by the text reader, gives the truth's jobs, stages
# and statistics within the text's resolution:
#   -N        (the kernel's print formats)   within 1 us
#   -N -t     (nanosecond timestamps)        exactly
#   plugin    (plugin_gpu_sched.so loaded)   within 1 us
# Exit 77 (skip) without trace-cmd.
set -eu
check=$1 plugins=$2 work=$3 dat=$4
command -v trace-cmd >/dev/null 2>&1 || { echo "SKIP: trace-cmd not installed"; exit 77; }
mkdir -p "$work"
name=$(basename "$dat" .dat)
fail=0

trace-cmd report -N "$dat" > "$work/$name.txt" 2>/dev/null
"$check" --text "$work/$name.txt" --tol 1000 "$dat" || fail=1

trace-cmd report -N -t "$dat" > "$work/$name.ns.txt" 2>/dev/null
"$check" --text "$work/$name.ns.txt" "$dat" || fail=1

# only our plugin (and libtraceevent's own, as a user has them). Before 5.19
# the plugin prints the ring's name; the address the trace holds (what tells
# 5.7-5.18 from 5.19+) only with raw=1, as ring_ptr=.
raw=
if grep -q '"ring_label": "0x' "${dat%.dat}.truth.json" 2>/dev/null; then
	raw="-O gpu_sched:raw=1"
fi
# shellcheck disable=SC2086
TRACEEVENT_PLUGIN_DIR=$plugins trace-cmd report $raw "$dat" > "$work/$name.plugin.txt" 2>/dev/null
grep -q 'fence=' "$work/$name.plugin.txt" || { echo "$name: plugin not loaded"; fail=1; }
"$check" --text "$work/$name.plugin.txt" --tol 1000 "$dat" || fail=1

rm -f "$work/$name.txt" "$work/$name.ns.txt" "$work/$name.plugin.txt"
exit $fail

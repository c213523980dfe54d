#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# mk-tracefs.sh GEN SCENARIO DIR: DIR.dat and DIR/ (cpuN.raw, tracing/) from
# gpu-trace-gen --raw-dir, with tracing/ completed into the tracefs lookalike
# libtracefs reads the formats from (tracefs_local_events() wants an enable
# file per event system and a per_cpu/cpuN directory per CPU).
set -e
gen=$1 sc=$2 dir=$3
rm -rf "$dir" "$dir.dat"
mkdir -p "$(dirname "$dir")"
"$gen" -q -s "$sc" --raw-dir "$dir" -o "$dir.dat"
for d in "$dir"/tracing/events/*/; do
	: > "$d/enable"
done
for f in "$dir"/cpu*.raw; do
	c=$(basename "$f" .raw)
	mkdir -p "$dir/tracing/per_cpu/$c"
done

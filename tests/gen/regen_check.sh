#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# regen_check.sh GPU-TRACE-GEN SAMPLES-DIR: regenerating the samples gives the
# committed files byte for byte (so committed truth never drifts from the
# generator), and every scenario has its committed sample.
set -e
gen=${1:?usage: regen_check.sh GPU-TRACE-GEN SAMPLES-DIR}
dir=${2:?usage: regen_check.sh GPU-TRACE-GEN SAMPLES-DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for s in $("$gen" --list | awk '{print $1}'); do
	"$gen" -q -s "$s" -o "$tmp/$s.dat"
	for f in "$s.dat" "$s.truth.json"; do
		if ! cmp -s "$tmp/$f" "$dir/$f"; then
			echo "$f differs from a fresh generation (run the regen-samples target)"
			status=1
		fi
	done
done
exit $status

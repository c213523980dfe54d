#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# determinism.sh GPU-TRACE-GEN: every scenario generated twice gives identical
# bytes (trace and truth), for file version 7 and 6; the streaming --events
# mode too.
set -e
gen=${1:?usage: determinism.sh GPU-TRACE-GEN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in $("$gen" --list | awk '{print $1}'); do
	for v in 7 6; do
		"$gen" -q -s "$s" --file-version $v -o "$tmp/a.dat"
		"$gen" -q -s "$s" --file-version $v -o "$tmp/b.dat"
		cmp "$tmp/a.dat" "$tmp/b.dat"
		cmp "$tmp/a.truth.json" "$tmp/b.truth.json"
	done
done
"$gen" -q -s steady-617 --events 300000 --seed 7 -o "$tmp/a.dat"
"$gen" -q -s steady-617 --events 300000 --seed 7 -o "$tmp/b.dat"
cmp "$tmp/a.dat" "$tmp/b.dat"
cmp "$tmp/a.truth.json" "$tmp/b.truth.json"
# a different seed gives a different trace
"$gen" -q -s steady --seed 2 -o "$tmp/c.dat"
"$gen" -q -s steady --seed 3 -o "$tmp/d.dat"
! cmp -s "$tmp/c.dat" "$tmp/d.dat"
echo "deterministic"

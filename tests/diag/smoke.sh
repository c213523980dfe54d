#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# smoke.sh TOOL DIR...: --explain --fence-path (text and JSON) on every trace
# of the directories: exit 0, valid JSON with the "explain" and "fence_path" keys.
set -e
tool=${1:?usage: smoke.sh TOOL DIR...}
shift
n=0
for dir in "$@"; do
	for dat in "$dir"/*.dat; do
		[ -e "$dat" ] || continue
		"$tool" -q --explain --fence-path "$dat" > /dev/null ||
			{ echo "FAIL: text $dat"; exit 1; }
		"$tool" -q --explain --fence-path --json "$dat" |
			python3 -c 'import json,sys; o=json.load(sys.stdin); assert "explain" in o and "fence_path" in o and "rings" in o["fence_path"]' ||
			{ echo "FAIL: json $dat"; exit 1; }
		n=$((n + 1))
	done
done
echo "ok: $n traces"

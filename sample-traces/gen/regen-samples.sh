#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# Regenerate the committed generated samples: regen-samples.sh GEN OUTDIR
# Every scenario of `GEN --list`, default seed and file version.
set -e
gen=${1:?usage: regen-samples.sh GPU-TRACE-GEN OUTDIR}
out=${2:?usage: regen-samples.sh GPU-TRACE-GEN OUTDIR}
for s in $("$gen" --list | awk '{print $1}'); do
	"$gen" -q -s "$s" -o "$out/$s.dat"
done

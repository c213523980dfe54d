#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
#
# real.sh TOOL NAME.dat WORKDIR
#
# A real capture (sample-traces/real/NAME.dat, Debian 6.1 kernel under qemu)
# with the tracefs text of the SAME recording beside it, written by the kernel
# (NAME.trace.txt.gz default layout, .trace-noirq.txt.gz without irq-info,
# .trace-latency.txt.gz latency-format): each gives the trace.dat's jobs and
# stages within the text's 1 us (latency-format: after its constant offset);
# the log on stdin too; a grep for glxgears gives glxgears's jobs.
set -u
tool=$1 dat=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
base=${dat%.dat}
name=$(basename "$base")
mkdir -p "$work"
fail=0
for v in trace trace-noirq trace-latency; do
	gzip -dc "$base.$v.txt.gz" > "$work/$name.$v.txt" || exit 1
done
python3 "$here/same_jobs.py" "$tool" "$dat" "$work/$name.trace.txt" --tol 1000 || fail=1
python3 "$here/same_jobs.py" "$tool" "$dat" "$work/$name.trace-noirq.txt" --tol 1000 || fail=1
python3 "$here/same_jobs.py" "$tool" "$dat" "$work/$name.trace-latency.txt" --tol 2000 \
	--relative || fail=1
python3 "$here/same_jobs.py" "$tool" "$dat" "$work/$name.trace.txt" --tol 1000 --stdin ||
	fail=1
# (the kms captures of --frames have no glxgears: no grep case there)
if grep -q ' glxgears-' "$work/$name.trace.txt"; then
	grep ' glxgears-' "$work/$name.trace.txt" > "$work/$name.glxgears.txt"
	python3 "$here/same_jobs.py" "$tool" "$dat" "$work/$name.glxgears.txt" --tol 1000 \
		--grep glxgears || fail=1
fi
# the header of the kernel's own text
"$tool" "$work/$name.trace.txt" | grep -q 'input        text log (tracefs, hashed pointers), timestamps to 1 us' ||
	{ echo "$name: header does not say tracefs text, hashed pointers, 1 us"; fail=1; }
exit $fail

#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
#
# cli.sh TOOL SAMPLES WORKDIR
#
# trace-cmd gpu-latency on text logs, end to end through the session:
#  - the trace-cmd report text of a trace (file and "-" on stdin) gives the
#    same jobs and stages as the trace.dat within 1 us (same_jobs.py);
#  - a grep for one process gives that process's jobs and says run and done
#    are not in the log;
#  - text that is no ftrace log, a function_graph log and a log without GPU
#    events: exit 1, one line on stderr naming the file, nothing on stdout.
# Exit 77 (skip) without trace-cmd.
set -u
tool=$1 samples=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v trace-cmd >/dev/null 2>&1 || { echo "SKIP: trace-cmd not installed"; exit 77; }
mkdir -p "$work"
fail=0

for t in steady deps-617 amdgpu era-57; do
	trace-cmd report -N "$samples/$t.dat" > "$work/$t.txt" 2>/dev/null
	python3 "$here/same_jobs.py" "$tool" "$samples/$t.dat" "$work/$t.txt" --tol 1000 ||
		fail=1
done
python3 "$here/same_jobs.py" "$tool" "$samples/steady.dat" "$work/steady.txt" --tol 1000 \
	--stdin || fail=1
grep ' glxgears-' "$work/steady.txt" > "$work/glxgears.txt"
python3 "$here/same_jobs.py" "$tool" "$samples/steady.dat" "$work/glxgears.txt" --tol 1000 \
	--grep glxgears || fail=1

# errors: $1 file, $2 expected text on the one stderr line
expect_error()
{
	"$tool" "$1" > "$work/out" 2> "$work/err"
	rc=$?
	if [ $rc != 1 ] || [ -s "$work/out" ] || [ "$(grep -c . "$work/err")" != 1 ] ||
	   ! grep -q "$1: .*$2" "$work/err"; then
		echo "FAIL: $1: exit $rc, stdout $(wc -c < "$work/out") bytes, stderr:"
		cat "$work/err"
		fail=1
	else
		echo "ok: $(cat "$work/err")"
	fi
}
printf 'hello\nthis is no ftrace log\n' > "$work/notes.txt"
expect_error "$work/notes.txt" "nor an ftrace text log"
printf '# tracer: function_graph\n#\n 1)   0.123 us    |  do_sys_open();\n' > "$work/graph.txt"
expect_error "$work/graph.txt" "function_graph tracer"
grep ' sched_switch:' "$work/steady.txt" > "$work/nogpu.txt"
"$tool" "$work/nogpu.txt" > "$work/out" 2> "$work/err"
if [ $? != 1 ] || [ -s "$work/out" ] || ! head -1 "$work/err" | grep -q "nogpu.txt: no GPU scheduler events"; then
	echo "FAIL: a log without GPU events:"; cat "$work/err"; fail=1
else
	echo "ok: $(head -1 "$work/err")"
fi
exit $fail

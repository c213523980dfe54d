#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# make_nogpu_trace.sh FORMATS_DIR OUT.dat - a small trace.dat without any GPU event or
# GPU event format (only power/cpu_idle on one CPU), written with `trace-cmd restore`
# from a tracing-dir lookalike; needs no root and no tracefs.
set -e
formats=${1:?usage: make_nogpu_trace.sh FORMATS_DIR OUT.dat}
out=${2:?usage: make_nogpu_trace.sh FORMATS_DIR OUT.dat}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fake=$tmp/tracing
mkdir -p "$fake/events/power/cpu_idle"
cp "$formats/linux-6.18-host/header_page" "$formats/linux-6.18-host/header_event" "$fake/"
cp "$fake/header_page" "$fake/header_event" "$fake/events/"
cp -r "$formats/derived/ftrace" "$fake/events/ftrace"
cp "$formats/linux-6.18-host/power/cpu_idle/format" "$fake/events/power/cpu_idle/"
printf '1 init\n' > "$fake/saved_cmdlines"
printf '[local] global\n' > "$fake/trace_clock"
: > "$fake/printk_formats"

id=$(sed -n 's/^ID: //p' "$fake/events/power/cpu_idle/format")
python3 - "$tmp/cpu0.raw" "$id" <<'PY'
import struct, sys
out, eid = sys.argv[1], int(sys.argv[2])
events = b''
for i in range(8):
    # u32 header: type_len 4 (16-byte payload), time delta 1 us
    events += struct.pack('<I', 4 | (1000 << 5))
    # common_type, flags, preempt_count, pid; state, cpu_id
    events += struct.pack('<HBBiII', eid, 0, 0, 0, i % 2, 0)
page = struct.pack('<QQ', 1000000000, len(events)) + events
sys.stdout.flush()
open(out, 'wb').write(page + b'\0' * (4096 - len(page)))
PY

trace-cmd restore -c -t "$fake" -k /nonexistent -o "$tmp/head.dat" >/dev/null 2>&1
trace-cmd restore -i "$tmp/head.dat" -o "$out" "$tmp/cpu0.raw" >/dev/null 2>&1

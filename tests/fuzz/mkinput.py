#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""mkinput: hand-written fuzz_core inputs (fuzz-input.h) for reproducers.

    mkinput.py f2 OUT     done stamped before run on the same job (F2)
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "damaged"))
import mkdat  # noqa: E402

FORMATS = os.path.normpath(os.path.join(HERE, "..", "..", "data", "formats"))


def build(formats, records, flags=0, base_ts=1000000000):
    """formats: [(system, text)]; records: [(cpu, ts, payload)]"""
    b = bytearray(struct.pack("<BBBBBBBBQ", flags, 0, 0, 10, 3, 0, 0, 0, base_ts))
    for sysname, text in formats:
        b += ("%%%%SYS %s\n" % sysname).encode() + text.encode()
    b += b"\0"
    ts = base_ts
    for cpu, t, payload in records:
        b += struct.pack("<BBiH", 0, cpu, t - ts, len(payload)) + payload
        ts = t
    return bytes(b)


def f2(out):
    t = mkdat.Trace(FORMATS)
    fm = []
    for n in ("drm_sched_job", "drm_run_job", "drm_sched_process_job"):
        f = t.load("linux-6.1-debian", "gpu_scheduler", n)
        fm.append(("gpu_scheduler", f.text))
    base = {"entity": 0xffff888000001000, "fence": 0xffff888100000000, "name": "gfx",
            "id": 1, "job_count": 1, "hw_job_count": 1}
    q = 1000000000
    recs = [(0, q, t.by_name["drm_sched_job"].encode(1000, base)),
            (1, q + 5000000, t.by_name["drm_run_job"].encode(1000, base)),
            (1, q + 1000000, t.by_name["drm_sched_process_job"].encode(0, {"fence": base["fence"]}))]
    with open(out, "wb") as fh:
        fh.write(build(fm, recs))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "f2":
        f2(sys.argv[2])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)

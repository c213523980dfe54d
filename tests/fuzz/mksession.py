#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""mksession.py: write the seeds of fuzz_session (tests/fuzz/session-corpus).

  tests/fuzz/mksession.py [OUT_DIR]

Each seed is the 8 option bytes of fuzz_session.c, a filter name when one is
asked for, then a file: a seed trace.dat of reader-corpus/, a small sample
trace, or the first lines of `trace-cmd report` of one (text-log input).
Re-run it when fuzz_session.c's input layout changes.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "session-corpus")

# byte 0 features, byte 1 filters (see fuzz_session.c)
EXPLAIN, FENCE, CONTEXT, AT_DONE, NO_STATS, FRAMES, LEARN, PERFETTO = (1 << i for i in range(8))
DEV, RING, COMM, PIDS, START, END, TWICE, STOP = (1 << i for i in range(8))


def seed(name, data, feat=0, filt=0, thr=0, top=0x0a, irq=0xff, pid=0, start=0, b7=0,
         fname=None):
    hdr = bytes([feat, filt, thr, top, irq, pid, start, b7])
    if fname is not None:
        hdr += fname.encode() + b"\0"
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(hdr + data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def text(dat, lines):
    out = subprocess.run(["trace-cmd", "report", dat], capture_output=True, check=True).stdout
    return b"".join(out.splitlines(keepends=True)[:lines])


def main():
    os.makedirs(OUT, exist_ok=True)
    rc = os.path.join(HERE, "reader-corpus")
    st = os.path.join(TOP, "sample-traces")
    seed("dat-steady-617-v7-explain", read(rc + "/gen-steady-617-v7"),
         feat=EXPLAIN | FENCE | PERFETTO)
    seed("dat-amdgpu-v6-context", read(rc + "/gen-amdgpu-v6"), feat=CONTEXT | AT_DONE | PERFETTO,
         filt=PIDS, pid=100)
    seed("dat-deps-v7-ring", read(rc + "/gen-deps-v7"), feat=EXPLAIN, filt=RING,
         fname="gfx_0.0.0")
    seed("dat-two-gpus-v7-dev-twice", read(rc + "/gen-two-gpus-v7"), feat=FENCE,
         filt=DEV | TWICE, fname="0000:0b:00.0")
    seed("dat-lost-events-v7-nostats", read(rc + "/gen-lost-events-v7"),
         feat=NO_STATS | PERFETTO | CONTEXT)
    seed("dat-era-57-v6-window", read(rc + "/gen-era-57-v6"), filt=START | END, top=0x23,
         start=246, b7=60, thr=4)
    seed("dat-era-pre57-v6-stop", read(rc + "/gen-era-pre57-v6"), filt=STOP, b7=2)
    # TRACECLOCK and HOOK options, parsed by libtracecmd at open (T20, T21)
    seed("dat-clock-hook-v7-explain", read(rc + "/gen-clock-hook-v7"), feat=EXPLAIN | FRAMES)
    seed("dat-amdgpu-617-v7-irqname", read(rc + "/gen-amdgpu-617-v7"), feat=EXPLAIN | FENCE,
         irq=0xfe, fname="amdgpu")
    seed("dat-frames-vrr-learn", read(st + "/frames-vrr.dat"), feat=FRAMES | LEARN | EXPLAIN)
    seed("dat-frames-deps", read(st + "/frames-deps.dat"), feat=FRAMES | PERFETTO, top=0x31)
    seed("txt-frames-vrr", text(st + "/frames-vrr.dat", 700), feat=FRAMES | LEARN | PERFETTO)
    seed("txt-steady-comm", text(st + "/steady-617.dat", 500), feat=EXPLAIN | FENCE, filt=COMM,
         fname="game")
    seed("txt-i915", text(st + "/i915.dat", 500), feat=EXPLAIN | CONTEXT)
    seed("txt-deps-twice", text(st + "/deps.dat", 500), filt=TWICE | STOP, b7=4)


if __name__ == "__main__":
    main()

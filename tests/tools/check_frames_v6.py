#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""--frames on a version 6 trace, read by both readers, against the truth.

usage: check_frames_v6.py GEN TOOL WORKDIR SCENARIO

A v6 trace_clock=mono trace keeps its clock in a TRACECLOCK option and after
its flyrecord CPU table; the frames report must find it whether lib/read-zstd.c
(which never loads libtracecmd's CPU data) or libtracecmd reads the records
(GPULAT_ZSTD_READER=0). The generator writes the option as trace-cmd record
does, and its truth (sample-traces/gen/frames.c) says which vblank instant a
trace of that clock has; check_frames.py compares the rest.
"""
import os
import subprocess
import sys


def main():
    gen, tool, work, scen = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    dat = os.path.join(work, f"{scen}-v6.dat")
    subprocess.run([gen, "-q", "-s", scen, "--seed", "1", "--file-version", "6", "-o", dat],
                   check=True)
    here = os.path.dirname(os.path.abspath(__file__))
    failed = 0
    for reader in ("1", "0"):
        env = dict(os.environ, GPULAT_ZSTD_READER=reader)
        p = subprocess.run([sys.executable, os.path.join(here, "check_frames.py"), tool, dat,
                            os.path.join(work, f"{scen}-v6.truth.json")], env=env)
        if p.returncode:
            print(f"GPULAT_ZSTD_READER={reader}: check_frames.py failed")
            failed = 1
    sys.exit(failed)


if __name__ == "__main__":
    main()

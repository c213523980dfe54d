#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""A v6 CPU whose data ends inside a page (FINDINGS T16).

    partial_page.py TOOL SEED WORKDIR

libtracecmd 1.3.1 loads every page that starts inside a CPU's data, the
partial last one too. SEED is fuzz_reader's T16 input: CPU 0 holds 11264
bytes (two empty pages and 3072 bytes of a third whose commit is damaged).
From it, written to WORKDIR:
  - commit 3064: fits a page but not the 3072 bytes left (3056 after the
    header): refused, "commit size past the end of the CPU data";
  - commit 3056: the page's events end with the data: no refusal of the page
    (whatever the report then says of the rest);
  - CPU 0 of 8192 + 10 bytes: a page cut inside its 16-byte header: refused.
Each refusal is one line naming the file, exit 1, never a crash.
"""
import os
import struct
import subprocess
import sys

tool, seed, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
d = bytearray(open(seed, "rb").read())
# the flyrecord CPU table: (u64 offset, u64 size) per CPU after the label
tab = d.index(b"flyrecord\0") + 10
off, size = struct.unpack_from("<QQ", d, tab)
assert (off, size) == (16384, 11264), (off, size)
last = off + 8192            # the partial page, 3072 bytes of it in CPU 0
failures = 0


def run(name, data, want):
    global failures
    path = os.path.join(work, name)
    open(path, "wb").write(data)
    p = subprocess.run([tool, path], capture_output=True, text=True, timeout=60)
    err = [l for l in p.stderr.splitlines() if "warning:" not in l]
    ok = p.returncode >= 0 and (
        (want is None and not any("page at offset %d" % last in l for l in err)) or
        (want is not None and p.returncode == 1 and len(err) == 1 and
         err[0].endswith("%s: truncated or damaged trace-cmd data file (%s)" % (path, want))))
    print("%s: %s (exit %d) %s" % ("ok" if ok else "FAIL", name, p.returncode, err))
    failures += not ok


def commit(c):
    x = bytearray(d)
    struct.pack_into("<Q", x, last + 8, c)
    return x


run("past-data", commit(3064),
    "CPU 0 page at offset %d: commit size past the end of the CPU data" % last)
run("fits-data", commit(3056), None)
x = bytearray(d)
struct.pack_into("<Q", x, tab + 8, 8192 + 10)
run("cut-header", x, "CPU 0 page at offset %d: cut inside its header" % last)
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""The v7 section walk of libtracecmd's tracecmd_open_head() (FINDINGS T17).

    strings_walk.py TOOL SEED WORKDIR

libtracecmd 1.3.1 collects a v7 file's STRINGS sections by walking every
section header from the first to the end of the file, skipping each with
lseek(size, SEEK_CUR), and allocates a STRINGS section's size before it
reads it. SEED is a zstd v7 trace from the generator; its sections are
found here from the file's own header (man 5 trace-cmd.dat.v7), and from it,
written to WORKDIR:
  - back: the event formats' size negative, seeking to the first header
    (the loop of T17): refused;
  - back-self: a size of -16, the same header again: refused;
  - before-start: a size that seeks before the file's start, which ends
    libtracecmd's walk: not refused by the walk;
  - strings-bomb: the compressed STRINGS block declares 2 GiB: refused;
  - strings-frame: its compressed size runs past the file: refused;
  - strings-raw: an uncompressed STRINGS section of 4 GiB - 1: refused.
Each refusal is one line naming the file, exit 1, never a crash or a hang.
"""
import os
import struct
import subprocess
import sys

tool, seed, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
d = bytes(open(seed, "rb").read())
assert d[10:12] == b"7\0", "not a v7 file"
# magic, version, endian, long size, page size; compressor, its version
p = 18
for _ in range(2):
    p = d.index(b"\0", p) + 1
p += 8                           # the first options section's offset
first = p
sections = {}                    # id -> header offset, in file order
while p + 16 <= len(d):
    sid, flags, _, size = struct.unpack_from("<HHIQ", d, p)
    sections.setdefault(sid, p)
    p += 16
    if sid == 15:
        assert flags & 1, "expected a compressed STRINGS section"
        csize, = struct.unpack_from("<I", d, p)
        p += 8 + csize
    else:
        p += size
assert 18 in sections and 15 in sections, sections
fmt, strings = sections[18], sections[15]
failures = 0


def run(name, data, want):
    global failures
    path = os.path.join(work, name)
    open(path, "wb").write(data)
    try:
        r = subprocess.run([tool, path], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        print("FAIL: %s: a hang (30 s)" % name)
        failures += 1
        return
    err = [l for l in r.stderr.splitlines() if "warning:" not in l]
    if want is None:
        ok = r.returncode in (0, 1) and not any("into the file" in l for l in err)
    else:
        ok = r.returncode == 1 and len(err) == 1 and err[0].endswith(
            "%s: truncated or damaged trace-cmd data file (%s)" % (path, want))
    print("%s: %s (exit %d) %s" % ("ok" if ok else "FAIL", name, r.returncode, err))
    failures += not ok


def patch(off, fmt_, value):
    x = bytearray(d)
    struct.pack_into(fmt_, x, off, value)
    return bytes(x)


back = "section at %d has a size that points back into the file" % fmt
run("back", patch(fmt + 8, "<q", first - (fmt + 16)), back)
run("back-self", patch(fmt + 8, "<q", -16), back)
run("before-start", patch(fmt + 8, "<q", -(fmt + 16) - 4096), None)
run("strings-bomb", patch(strings + 20, "<I", 1 << 31),
    "strings section at %d damaged" % strings)
run("strings-frame", patch(strings + 16, "<I", len(d)),
    "strings section at %d damaged" % strings)
raw = patch(strings + 2, "<H", 0)            # flags: not compressed
raw = raw[:strings + 8] + struct.pack("<Q", 0xffffffff) + raw[strings + 16:]
run("strings-raw", raw, "strings section at %d runs past the file" % strings)
run("seed", d, None)
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Make broken or GPU-less trace files from a good version 6 trace.dat.

usage: mkbad.py KIND GOOD_V6.dat OUT

KIND:
  truncated   the file cut in the middle of its CPU data
  short       only the first 4 KiB (headers cut)
  nogpu       the gpu_scheduler / dma_fence / amdgpu systems renamed: a real
              trace of sched/irq/power events without any GPU event format
  norecords   the GPU event formats kept but their IDs moved to unused
              numbers: the formats are there, no record is a GPU event
  badlayout   the GPU scheduler events' key fields renamed (fence, id, name,
              fence_context, ...): formats of a layout the tool cannot bind

Version 6 stores the formats uncompressed; every edit keeps the byte length,
so the section sizes stay right.
"""
import re
import sys


def rename_systems(d):
    # a system name is a NUL-terminated string after the previous format text
    for old, new in ((b"gpu_scheduler", b"gpu_xcheduler"), (b"gpu_sched", b"gpu_xched"),
                     (b"dma_fence", b"xma_fence"), (b"fence", b"xence"),
                     (b"amdgpu", b"xmdgpu")):
        d = re.sub(rb"(?<=[\0\n])" + old + rb"\0", new + b"\0", d)
    return d


GPU_EVENT = re.compile(rb"name: ((?:drm_|dma_fence_|amdgpu_)\w+)\nID: (\d+)\n")


def move_ids(d):
    used = {int(m) for m in re.findall(rb"\nID: (\d+)\n", d)}
    out = bytearray(d)
    for m in GPU_EVENT.finditer(d):
        digits = len(m.group(2))
        new = next(n for n in range(9 * 10 ** (digits - 1), 10 ** digits) if n not in used)
        used.add(new)
        s, e = m.span(2)
        out[s:e] = str(new).encode()
    return bytes(out)


def rename_fields(d):
    out = bytearray(d)
    for m in re.finditer(rb"name: drm_\w+\nID: \d+\nformat:\n(.*?)\n\nprint fmt", d, re.S):
        s, e = m.span(1)
        block = d[s:e]
        for field in (b"fence", b"id", b"name", b"fence_context", b"fence_seqno", b"dev",
                      b"entity", b"ctx", b"seqno"):
            block = block.replace(b" " + field + b";", b" " + b"x" * len(field) + b";")
        out[s:e] = block
    return bytes(out)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    kind, src, dst = sys.argv[1:]
    with open(src, "rb") as f:
        d = f.read()
    if not d.startswith(b"\x17\x08\x44tracing6\0"):
        sys.exit(f"mkbad: {src} is not a version 6 trace.dat")
    if kind == "truncated":
        d = d[:len(d) * 3 // 4]
    elif kind == "short":
        d = d[:4096]
    elif kind == "nogpu":
        d = rename_systems(d)
    elif kind == "norecords":
        d = move_ids(d)
    elif kind == "badlayout":
        d = rename_fields(d)
    else:
        sys.exit(f"mkbad: unknown kind {kind}")
    with open(dst, "wb") as f:
        f.write(d)


if __name__ == "__main__":
    main()

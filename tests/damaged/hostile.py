#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""hostile.py: well-formed but hostile trace.dat files (v6, 6.1 layout), streamed
page by page so that millions of records cost the writer little memory.

    hostile.py KIND OUT.dat [N [BASE]]

KIND (N scales it; the files are made at test time, never committed):
  inflight N   N jobs queued and run, never completed (10^6: the tracker cap)
  procs N      N processes (distinct pid and comm), one complete job each
  rings N      N distinct ring names, one complete job each
  records N    one event type with N records (drm_sched_process_job of one
               fence that no job holds: N orphan completions)
  hugestr N    32 jobs whose ring name is a ~4000-byte string (a record
               fills its page) and a comm of N bytes in saved_cmdlines
  emptycpu N   N CPUs in the file, only the last one has records (jobs)
  future N     N complete jobs, then one job whose done is stamped 2^63 ns
               (292 years) after its run: a record from the future
  zbomb N BASE a v7 zstd trace BASE whose largest CPU data is overwritten
               in place with up to N chunks of 64 MiB of empty pages each
               (a ~2 KB zstd frame per chunk): a decompression bomb
Each writer prints its ground truth as one JSON line on stdout (jobs,
complete, incomplete, rings, procs), computed from what it wrote.
"""
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkdat  # noqa: E402
from mkdat import PAGE  # noqa: E402

ERA = "linux-6.1-debian"
T0 = 1000000000          # 1 s: the first record
FENCE0 = 0xffff888200000000
ENTITY = 0xffff888100200000


class Writer:
    """one trace: formats + comms + per-CPU page streams in temp files"""

    def __init__(self, path, ncpus=1, formats_dir=None):
        self.path = path
        self.t = mkdat.Trace(formats_dir or mkdat.formats_dir_default())
        for ev in ("drm_sched_job", "drm_run_job", "drm_sched_process_job"):
            self.t.load(ERA, "gpu_scheduler", ev)
        self.fmt = self.t.by_name
        self.ncpus = ncpus
        self.cpu = [None] * ncpus   # [fh, page bytearray, page_ts, last_ts, bytes written]

    def comm(self, pid, name):
        self.t.comm(pid, name)

    def _flush(self, c):
        st = self.cpu[c]
        if st[2] is None:
            return
        st[0].write(struct.pack("<QQ", st[2], len(st[1])) + st[1] +
                    b"\0" * (PAGE - 16 - len(st[1])))
        st[4] += PAGE
        st[1] = bytearray()
        st[2] = None

    def raw(self, c, ts, payload):
        """append one record (time order per CPU is the caller's job)"""
        st = self.cpu[c]
        if st is None:
            st = self.cpu[c] = [open("%s.cpu%d" % (self.path, c), "wb"), bytearray(),
                                None, 0, 0]
        n = len(payload)
        need = (8 + n) if n > 112 else (4 + n)
        # a page full, or a gap a TIME_EXTEND (59 bits) cannot hold: a new page
        if st[2] is not None and (len(st[1]) + need + 8 > PAGE - 16 or ts - st[3] >= 1 << 59):
            self._flush(c)
        if st[2] is None:
            st[2] = st[3] = ts
        delta = ts - st[3]
        if delta >= (1 << 27):
            st[1] += struct.pack("<II", 30 | ((delta & ((1 << 27) - 1)) << 5), delta >> 27)
            delta = 0
        st[3] = ts
        if n > 112:
            st[1] += struct.pack("<II", delta << 5, n + 4) + payload
        else:
            st[1] += struct.pack("<I", (n // 4) | (delta << 5)) + payload

    def event(self, c, ts, name, pid, values):
        self.raw(c, ts, self.fmt[name].encode(pid, values))

    def close(self):
        for c in range(self.ncpus):
            if self.cpu[c]:
                self._flush(c)
                self.cpu[c][0].close()
        # the header of a trace without records, then its CPU table patched
        self.t.events = {c: [] for c in range(self.ncpus)}
        tmp = self.path + ".hdr"
        self.t.write(tmp)
        with open(tmp, "rb") as fh:
            hdr = bytearray(fh.read())
        os.unlink(tmp)
        table = hdr.rfind(b"flyrecord\0") + 10
        off = len(hdr)
        for c in range(self.ncpus):
            size = self.cpu[c][4] if self.cpu[c] else 0
            struct.pack_into("<QQ", hdr, table + 16 * c, off, size)
            off += size
        with open(self.path, "wb") as out:
            out.write(hdr)
            for c in range(self.ncpus):
                if not self.cpu[c]:
                    continue
                name = "%s.cpu%d" % (self.path, c)
                with open(name, "rb") as fh:
                    while True:
                        b = fh.read(1 << 20)
                        if not b:
                            break
                        out.write(b)
                os.unlink(name)


def templates(w, pid, ring):
    """queue, run and done payloads of one job + the offsets to patch"""
    q = bytearray(w.fmt["drm_sched_job"].encode(pid, {
        "entity": ENTITY, "fence": 0, "name": ring, "id": 0, "job_count": 1,
        "hw_job_count": 0}))
    r = bytearray(w.fmt["drm_run_job"].encode(pid, {
        "entity": ENTITY, "fence": 0, "name": ring, "id": 0, "job_count": 0,
        "hw_job_count": 1}))
    d = bytearray(w.fmt["drm_sched_process_job"].encode(0, {"fence": 0}))
    off = {n: {f["name"]: f["offset"] for f in w.fmt[n].fields}
           for n in ("drm_sched_job", "drm_run_job", "drm_sched_process_job")}
    return q, r, d, off


def job(w, c, ts, q, r, d, off, jid, fence, done=True, pid=None, run_dt=10000,
        done_dt=100000):
    """one job: queue at ts, run 10 us later, done 100 us after the run"""
    for buf, ev in ((q, "drm_sched_job"), (r, "drm_run_job")):
        struct.pack_into("<Q", buf, off[ev]["fence"], fence)
        struct.pack_into("<Q", buf, off[ev]["id"], jid)
        if pid is not None:
            struct.pack_into("<i", buf, 4, pid)
    w.raw(c, ts, bytes(q))
    w.raw(c, ts + run_dt, bytes(r))
    if done:
        struct.pack_into("<Q", d, off["drm_sched_process_job"]["fence"], fence)
        w.raw(c, ts + run_dt + done_dt, bytes(d))


def gen_inflight(path, n):
    w = Writer(path)
    w.comm(4242, "inflight")
    q, r, d, off = templates(w, 4242, "gfx")
    for i in range(n):
        job(w, 0, T0 + i * 1000, q, r, d, off, i + 1, FENCE0 + i * 0x100, done=False,
            run_dt=500)
    w.close()
    return {"jobs": n, "complete": 0, "incomplete": n, "rings": 1, "procs": 1}


def gen_procs(path, n):
    """one complete job per process; jobs do not overlap (done before the next queue)"""
    w = Writer(path)
    q, r, d, off = templates(w, 1, "gfx")
    for i in range(n):
        pid = 1000 + i
        w.comm(pid, "hp%07d" % i)
        job(w, 0, T0 + i * 200000, q, r, d, off, i + 1, FENCE0 + i * 0x100, pid=pid,
            done_dt=100000)
    w.close()
    return {"jobs": n, "complete": n, "incomplete": 0, "rings": 1, "procs": n}


def gen_rings(path, n):
    w = Writer(path)
    w.comm(4242, "manyrings")
    d = bytearray(w.fmt["drm_sched_process_job"].encode(0, {"fence": 0}))
    for i in range(n):
        ring = "r%07d" % i
        ts = T0 + i * 200000
        fence = FENCE0 + i * 0x100
        for ev, dt, jc, hw in (("drm_sched_job", 0, 1, 0), ("drm_run_job", 10000, 0, 1)):
            w.event(0, ts + dt, ev, 4242, {"entity": ENTITY + i * 0x1000, "fence": fence,
                                           "name": ring, "id": 1, "job_count": jc,
                                           "hw_job_count": hw})
        struct.pack_into("<Q", d, 8, fence)
        w.raw(0, ts + 110000, bytes(d))
    w.close()
    return {"jobs": n, "complete": n, "incomplete": 0, "rings": n, "procs": 1}


def gen_records(path, n):
    """N completions of a fence no job holds: N orphan dones, nothing in flight"""
    w = Writer(path)
    d = w.fmt["drm_sched_process_job"].encode(0, {"fence": FENCE0})
    # whole pages built once: the same record 1 us apart
    evh = struct.pack("<I", (len(d) // 4) | (1000 << 5))
    per_page = (PAGE - 16 - 8) // (4 + len(d))
    body = (evh + d) * per_page
    w.cpu[0] = [open(path + ".cpu0", "wb"), bytearray(), None, 0, 0]
    ts = T0
    left = n
    while left > 0:
        k = min(per_page, left)
        b = body if k == per_page else (evh + d) * k
        w.cpu[0][0].write(struct.pack("<QQ", ts, len(b)) + b + b"\0" * (PAGE - 16 - len(b)))
        w.cpu[0][4] += PAGE
        ts += 1000 * k
        left -= k
    w.close()
    return {"jobs": n, "complete": 0, "incomplete": 0, "orphan_done": n, "rings": 0,
            "procs": 0}


def gen_hugestr(path, n):
    w = Writer(path)
    w.comm(4242, "H" * max(n, 1))
    # 4096-byte page: 16 header, 8 event header, 48 fixed bytes, the string + NUL
    ring = ("ring-" + "x" * 4096)[:PAGE - 16 - 8 - 48 - 8]
    for i in range(32):
        ts = T0 + i * 200000
        for ev, dt in (("drm_sched_job", 0), ("drm_run_job", 10000)):
            w.event(0, ts + dt, ev, 4242, {"entity": ENTITY, "fence": FENCE0 + i * 0x100,
                                           "name": ring, "id": i + 1, "job_count": 1,
                                           "hw_job_count": 1})
        w.event(0, ts + 110000, "drm_sched_process_job", 0, {"fence": FENCE0 + i * 0x100})
    w.close()
    return {"jobs": 32, "complete": 32, "incomplete": 0, "rings": 1, "procs": 1,
            "ring_len": len(ring)}


def gen_emptycpu(path, n):
    n = max(n, 2)
    w = Writer(path, ncpus=n)
    w.comm(4242, "lastcpu")
    q, r, d, off = templates(w, 4242, "gfx")
    for i in range(100):
        job(w, n - 1, T0 + i * 200000, q, r, d, off, i + 1, FENCE0 + i * 0x100)
    w.close()
    return {"jobs": 100, "complete": 100, "incomplete": 0, "rings": 1, "procs": 1,
            "cpus": n}


def gen_future(path, n):
    w = Writer(path)
    w.comm(4242, "future")
    q, r, d, off = templates(w, 4242, "gfx")
    for i in range(n):
        job(w, 0, T0 + i * 200000, q, r, d, off, i + 1, FENCE0 + i * 0x100)
    ts = T0 + n * 200000
    job(w, 0, ts, q, r, d, off, n + 1, FENCE0 + n * 0x100, done_dt=1 << 63)
    w.close()
    return {"jobs": n + 1, "complete": n + 1, "incomplete": 0, "rings": 1, "procs": 1,
            "future_ts": ts + 10000 + (1 << 63)}


def _zstd(data, decompress=False):
    """the zstd command (scripts/install-deps): Python 3.11 has no zstd module"""
    args = ["zstd", "-q", "-c"] + (["-d"] if decompress else ["-19"])
    return subprocess.run(args, input=data, stdout=subprocess.PIPE, check=True).stdout


def zstd_cpu_table(b):
    """[(cpu, offset, size)] of the top buffer of a v7 zstd trace.dat (the
    options sections, as lib/read-zstd.c reads them)"""
    if b[3:10] != b"tracing" or b[10:12] != b"7\0":
        raise ValueError("not a trace.dat v7")
    i = 12 + 2 + 4
    comp_end = b.index(b"\0", i)
    if b[i:comp_end] != b"zstd":
        raise ValueError("not zstd compressed")
    i = b.index(b"\0", comp_end + 1) + 1
    (opt,) = struct.unpack_from("<Q", b, i)
    for _ in range(64):
        _id, flags, _desc, size = struct.unpack_from("<HHIQ", b, opt)
        body = b[opt + 16:opt + 16 + size]
        if flags & 1:
            csize, _usize = struct.unpack_from("<II", body, 0)
            body = _zstd(body[8:8 + csize], decompress=True)
        j, nxt = 0, 0
        while j + 6 <= len(body):
            oid, osz = struct.unpack_from("<HI", body, j)
            data = body[j + 6:j + 6 + osz]
            j += 6 + osz
            if oid == 0:
                (nxt,) = struct.unpack_from("<Q", data, 0)
                break
            if oid == 3:                      # BUFFER: offset, name, clock, page, cpus
                k = 8
                name_end = data.index(b"\0", k)
                if name_end != k:
                    continue                  # not the top buffer
                k = data.index(b"\0", name_end + 1) + 1
                _page, ncpu = struct.unpack_from("<II", data, k)
                k += 8
                out = []
                for _c in range(ncpu):
                    cpu, off, sz = struct.unpack_from("<IQQ", data, k)
                    out.append((cpu, off, sz))
                    k += 20
                return out
        if not nxt:
            break
        opt = nxt
    raise ValueError("no top BUFFER option")


def gen_zbomb(path, n, base=None):
    """a v7 zstd trace (@base, from gpu-trace-gen) whose largest CPU data is
    overwritten in place with chunks that each declare and hold 64 MiB of empty
    pages (~2 KB compressed each): n chunks at most, as many as fit"""
    with open(base, "rb") as fh:
        b = bytearray(fh.read())
    cpu, off, size = max(zstd_cpu_table(b), key=lambda x: x[2])
    usize = 64 << 20
    frame = _zstd(bytes(usize))
    chunk = struct.pack("<II", len(frame), usize) + frame
    k = max(1, min(n, (size - 4) // len(chunk)))
    blob = struct.pack("<I", k) + chunk * k
    if len(blob) > size:
        raise ValueError("CPU %d data (%d bytes) too small for one chunk" % (cpu, size))
    b[off:off + len(blob)] = blob
    with open(path, "wb") as fh:
        fh.write(b)
    return {"cpu": cpu, "chunks": k, "declared_bytes": k * usize, "file_bytes": len(b)}


KINDS = {"inflight": gen_inflight, "procs": gen_procs, "rings": gen_rings,
         "records": gen_records, "hugestr": gen_hugestr, "emptycpu": gen_emptycpu,
         "future": gen_future, "zbomb": gen_zbomb}


def main():
    if len(sys.argv) not in (3, 4, 5) or sys.argv[1] not in KINDS:
        sys.stderr.write(__doc__)
        return 2
    n = int(sys.argv[3]) if len(sys.argv) >= 4 else 1000
    extra = sys.argv[4:5]
    print(json.dumps(KINDS[sys.argv[1]](sys.argv[2], n, *extra), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""mkdat: a minimal trace.dat (version 6) writer for hostile test traces.

It writes what `man 5 trace-cmd.dat.v6` describes: header_page/header_event,
no ftrace formats, the given event format texts, empty kallsyms and printk
formats, saved cmdlines, no options, and flyrecord CPU data made of 4096-byte
ring-buffer pages. Payloads are encoded FROM THE FORMAT TEXT (offsets and
sizes parsed from it), so a format with a field missing, renamed, resized,
moved or added gives a consistent trace with that foreign layout.

    from mkdat import Trace
    t = Trace(formats_dir)                    # data/formats
    t.add_format("gpu_scheduler", text)       # or t.load("linux-6.1-debian", ...)
    t.event(cpu, ts, "drm_sched_job", pid, {"fence": 0x..., "name": "gfx", ...})
    t.write("x.dat")

CLI (used by the tests):
    mkdat.py hang OUT.dat JOBS   queued jobs that never run nor complete
"""
import os
import re
import struct
import sys

PAGE = 4096
FIELD_RE = re.compile(r"field:([^;]*?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\[[^\]]*\])?;\s*"
                      r"offset:(-?\d+);\s*size:(\d+);\s*signed:(\d+);")


class Format:
    def __init__(self, system, text):
        self.system = system
        self.text = text
        m = re.search(r"^name: (\S+)", text, re.M)
        self.name = m.group(1) if m else "?"
        m = re.search(r"^ID: (\d+)", text, re.M)
        self.id = int(m.group(1)) if m else 0
        self.fields = []
        for m in FIELD_RE.finditer(text):
            typ, name, arr, off, size, signed = m.groups()
            self.fields.append({
                "type": typ.strip() + (arr or ""), "name": name, "offset": int(off),
                "size": int(size), "signed": int(signed),
                "dyn": "__data_loc" in typ or "__rel_loc" in typ,
                "rel": "__rel_loc" in typ,
                "array": arr is not None and "__data_loc" not in typ,
            })
        self.fixed = max((f["offset"] + f["size"] for f in self.fields), default=8)

    def encode(self, pid, values, endian="<"):
        """payload bytes: common fields + values by name (unknown names ignored)"""
        buf = bytearray(self.fixed)
        tail = bytearray()
        vals = dict(values)
        vals.setdefault("common_type", self.id)
        vals.setdefault("common_pid", pid)
        for f in self.fields:
            if f["name"] not in vals:
                continue
            v = vals[f["name"]]
            off, size = f["offset"], f["size"]
            if off < 0 or off + size > len(buf):
                continue
            if f["dyn"]:
                s = (v.encode() if isinstance(v, str) else bytes(v)) + b"\0"
                pos = self.fixed + len(tail)
                rel = pos - (off + size) if f["rel"] else pos
                loc = (len(s) << 16) | (rel & 0xffff)
                buf[off:off + 4] = struct.pack(endian + "I", loc)
                tail += s
            elif f["array"] or isinstance(v, (str, bytes)):
                s = v.encode() if isinstance(v, str) else bytes(v)
                s = s[:size].ljust(size, b"\0")
                buf[off:off + size] = s
            else:
                v = int(v) & ((1 << (8 * size)) - 1) if size <= 8 else 0
                if size in (1, 2, 4, 8):
                    buf[off:off + size] = v.to_bytes(size, "little" if endian == "<" else "big")
        out = bytes(buf + tail)
        return out + b"\0" * (-len(out) % 4)


class Trace:
    def __init__(self, formats_dir=None, endian="<", keep_order=False):
        self.formats_dir = formats_dir
        self.endian = endian
        self.keep_order = keep_order   # no sort: with page_break(), time may go backwards
        self.formats = []          # Format, in file order
        self.by_name = {}
        self.events = {}           # cpu -> [(ts, payload)]
        self.comms = {}
        self.printk = b""          # the printk formats section, as is

    def add_format(self, system, text):
        f = Format(system, text)
        self.formats.append(f)
        self.by_name[f.name] = f
        return f

    def load(self, era_dir, system, name, edit=None):
        """add data/formats/ERA/SYSTEM/NAME/format, optionally edited by edit(text)"""
        path = os.path.join(self.formats_dir, era_dir, system, name, "format")
        with open(path) as fh:
            text = fh.read()
        if edit:
            text = edit(text)
        return self.add_format(system, text)

    def comm(self, pid, name):
        self.comms[pid] = name

    def event(self, cpu, ts, name, pid, values):
        f = self.by_name[name]
        self.events.setdefault(cpu, []).append((ts, f.encode(pid, values, self.endian)))

    def page_break(self, cpu):
        """the next event of @cpu starts a new page (its ts may then be earlier)"""
        self.events.setdefault(cpu, []).append((None, None))

    def raw(self, cpu, ts, payload):
        self.events.setdefault(cpu, []).append((ts, bytes(payload) + b"\0" * (-len(payload) % 4)))

    # ---- ring-buffer pages ------------------------------------------------
    def _evhdr(self, type_len, delta):
        """u32 {type_len:5, time_delta:27}: bitfields start at the MSB on big-endian"""
        if self.endian == ">":
            return (type_len << 27) | delta
        return type_len | (delta << 5)

    def _pages(self, evs):
        e = self.endian
        out = bytearray()
        page = bytearray()
        page_ts = last = None

        def flush():
            nonlocal page, page_ts
            if page_ts is None:
                return
            hdr = struct.pack(e + "QQ", page_ts, len(page))
            out.extend(hdr + page + b"\0" * (PAGE - 16 - len(page)))
            page = bytearray()
            page_ts = None

        for ts, payload in (evs if self.keep_order else
                            sorted((x for x in evs if x[0] is not None), key=lambda x: x[0])):
            if ts is None:
                flush()
                continue
            n = len(payload)
            need = (8 + n) if n > 112 else (4 + n)
            if page_ts is not None and len(page) + need + 8 > PAGE - 16:
                flush()
            if page_ts is None:
                page_ts = ts
                last = ts
            delta = ts - last
            if delta >= (1 << 27):
                page.extend(struct.pack(e + "II", self._evhdr(30, delta & ((1 << 27) - 1)),
                                        delta >> 27))
                delta = 0
            last = ts
            if n > 112:
                page.extend(struct.pack(e + "II", self._evhdr(0, delta), n + 4) + payload)
            else:
                page.extend(struct.pack(e + "I", self._evhdr(n // 4, delta)) + payload)
        flush()
        return bytes(out)

    def write(self, path, header_dir=None):
        e = self.endian
        hd = header_dir or os.path.join(self.formats_dir, "linux-6.18-host")
        with open(os.path.join(hd, "header_page"), "rb") as fh:
            header_page = fh.read()
        with open(os.path.join(hd, "header_event"), "rb") as fh:
            header_event = fh.read()
        b = bytearray()
        b += b"\x17\x08\x44tracing6\0"
        b += bytes([1 if e == ">" else 0, 8])
        b += struct.pack(e + "I", PAGE)
        b += b"header_page\0" + struct.pack(e + "Q", len(header_page)) + header_page
        b += b"header_event\0" + struct.pack(e + "Q", len(header_event)) + header_event
        b += struct.pack(e + "I", 0)                    # ftrace formats
        systems = []
        for f in self.formats:
            if f.system not in systems:
                systems.append(f.system)
        b += struct.pack(e + "I", len(systems))
        for s in systems:
            fl = [f for f in self.formats if f.system == s]
            b += s.encode() + b"\0" + struct.pack(e + "I", len(fl))
            for f in fl:
                t = f.text.encode("latin1")
                b += struct.pack(e + "Q", len(t)) + t
        b += struct.pack(e + "I", 0)                    # kallsyms
        b += struct.pack(e + "I", len(self.printk)) + self.printk
        cmd = "".join("%d %s\n" % (p, c) for p, c in sorted(self.comms.items())).encode()
        b += struct.pack(e + "Q", len(cmd)) + cmd
        cpus = max(self.events.keys(), default=0) + 1
        b += struct.pack(e + "I", cpus)
        b += b"options  \0" + struct.pack(e + "H", 0)
        b += b"flyrecord\0"
        datas = [self._pages(self.events.get(c, [])) for c in range(cpus)]
        table_at = len(b)
        b += b"\0" * (16 * cpus)
        off = (len(b) + PAGE - 1) // PAGE * PAGE
        for c in range(cpus):
            struct.pack_into(e + "QQ", b, table_at + 16 * c, off, len(datas[c]))
            off += len(datas[c])
        b += b"\0" * (-len(b) % PAGE)
        with open(path, "wb") as fh:
            fh.write(b)
            for d in datas:
                fh.write(d)


def formats_dir_default():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "data", "formats"))


def write_hang(path, jobs, formats_dir=None):
    """JOBS drm_sched_job (queue) events on one ring, never run nor done (6.1 layout).

    Written page by page straight to the file: memory stays small for millions."""
    fd = formats_dir or formats_dir_default()
    t = Trace(fd)
    f = t.load("linux-6.1-debian", "gpu_scheduler", "drm_sched_job")
    t.load("linux-6.1-debian", "gpu_scheduler", "drm_run_job")
    t.load("linux-6.1-debian", "gpu_scheduler", "drm_sched_process_job")
    t.comm(4242, "hangapp")
    # one template payload; id and fence patched per job
    base = bytearray(f.encode(4242, {"entity": 0xffff888100200000, "fence": 0, "name": "gfx",
                                     "id": 0, "job_count": 1, "hw_job_count": 0}))
    fo = {x["name"]: x["offset"] for x in f.fields}
    n = len(base)
    per_page = (PAGE - 16 - 8) // (4 + n)
    pages = (jobs + per_page - 1) // per_page
    # header with the cpu table pointing at data we stream afterwards
    t.events = {0: []}
    tmp = path + ".hdr"
    t.write(tmp)
    with open(tmp, "rb") as fh:
        hdr = bytearray(fh.read())
    os.unlink(tmp)
    # the single cpu entry is the last 16 bytes before the page padding
    idx = hdr.rfind(b"flyrecord\0") + 10
    off = (idx + 16 + PAGE - 1) // PAGE * PAGE
    struct.pack_into("<QQ", hdr, idx, off, pages * PAGE)
    hdr = hdr[:off].ljust(off, b"\0")
    ts = 1000000000
    evh = struct.pack("<I", (n // 4) | (1000 << 5))
    with open(path, "wb") as fh:
        fh.write(hdr)
        j = 0
        for _ in range(pages):
            k = min(per_page, jobs - j)
            body = bytearray()
            for i in range(k):
                struct.pack_into("<Q", base, fo["fence"], 0xffff888200000000 + (j + i) * 0x100)
                struct.pack_into("<Q", base, fo["id"], j + i + 1)
                body += evh + base
            fh.write(struct.pack("<QQ", ts, len(body)) + body +
                     b"\0" * (PAGE - 16 - len(body)))
            ts += 1000 * k
            j += k


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "hang":
        write_hang(sys.argv[2], int(sys.argv[3]))
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)

# SPDX-License-Identifier: LGPL-2.1
"""datpages.py: a trace.dat's ring-buffer pages and formats as a tracefs lookalike.

  pages(trace_cmd, dat, outdir) -> number of CPUs

`trace-cmd convert --file-version 6 --compression none` first (v7 files hold
zstd-compressed pages), then the v6 layout of `man 5 trace-cmd.dat.v6` is read
here, independently of libtracecmd's reader: the per-CPU data of the
flyrecord section is copied page by page to OUTDIR/cpuN.raw, as trace_pipe_raw
gives it, and the header and format sections become OUTDIR/tracing/
(header_page, header_event, events/SYS/EVENT/format, an enable file per
system, saved_cmdlines, per_cpu/cpuN/): what --watch reads from tracefs.
"""
import os
import struct
import subprocess


class Dat:
    def __init__(self, data):
        self.d, self.o = data, 0

    def take(self, n):
        b = self.d[self.o:self.o + n]
        if len(b) != n:
            raise ValueError('truncated at offset %d' % self.o)
        self.o += n
        return b

    def u(self, fmt):
        return struct.unpack('<' + fmt, self.take(struct.calcsize(fmt)))[0]

    def cstr(self):
        end = self.d.index(b'\0', self.o)
        s = self.d[self.o:end].decode()
        self.o = end + 1
        return s

    def sized(self, fmt):
        return self.take(self.u(fmt))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)


def event_name(fmt):
    for line in fmt.decode(errors='replace').splitlines():
        if line.startswith('name: '):
            return line[6:].strip()
    raise ValueError('an event format without a name line')


def pages(trace_cmd, dat, outdir):
    v6 = outdir + '.v6.dat'
    os.makedirs(outdir, exist_ok=True)
    p = subprocess.run([trace_cmd, 'convert', '--file-version', '6', '--compression', 'none',
                        '-i', dat, '-o', v6], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode:
        raise ValueError('trace-cmd convert: ' + p.stderr.strip()[:200])
    with open(v6, 'rb') as f:
        r = Dat(f.read())
    os.unlink(v6)
    if r.take(10) != b'\x17\x08Dtracing' or r.cstr() != '6':
        raise ValueError('not a v6 trace.dat')
    if r.u('B') != 0:
        raise ValueError('big endian trace')
    r.u('B')  # long size
    page_size = r.u('I')
    tdir = os.path.join(outdir, 'tracing')
    for name in ('header_page', 'header_event'):
        if r.cstr() != name:
            raise ValueError('no ' + name)
        write(os.path.join(tdir, 'events', name), r.sized('Q'))
    for _ in range(r.u('I')):
        fmt = r.sized('Q')
        write(os.path.join(tdir, 'events', 'ftrace', event_name(fmt), 'format'), fmt)
    for _ in range(r.u('I')):
        system = r.cstr()
        write(os.path.join(tdir, 'events', system, 'enable'), b'0\n')
        for _ in range(r.u('I')):
            fmt = r.sized('Q')
            write(os.path.join(tdir, 'events', system, event_name(fmt), 'format'), fmt)
    r.sized('I')  # kallsyms
    write(os.path.join(tdir, 'printk_formats'), r.sized('I'))
    write(os.path.join(tdir, 'saved_cmdlines'), r.sized('Q'))
    ncpus = r.u('I')
    word = r.take(10)
    if word == b'options  \0':
        while r.u('H'):
            r.sized('I')
        word = r.take(10)
    if word != b'flyrecord\0':
        raise ValueError('no flyrecord section (latency trace?)')
    for cpu in range(ncpus):
        off, size = r.u('Q'), r.u('Q')
        if size % page_size:
            raise ValueError('cpu %d: %d bytes, not whole %d-byte pages' % (cpu, size, page_size))
        write(os.path.join(outdir, 'cpu%d.raw' % cpu), r.d[off:off + size])
        os.makedirs(os.path.join(tdir, 'per_cpu', 'cpu%d' % cpu), exist_ok=True)
    return ncpus

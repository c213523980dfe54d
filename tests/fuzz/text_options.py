#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""The options libtracecmd parses at open (FINDINGS T20-T24).

    text_options.py TOOL TRACE_CMD SEED_V6 SEED_V7 WORKDIR [PLUGIN_DIR]

libtracecmd 1.3.1 dereferences NULL on a TRACECLOCK text whose "[clock]"
word is brackets only, on the same in the clock text after a v6 file's CPU
table, and on a HOOK option it cannot parse; it writes 4 GiB past an empty
CPUSTAT or PROCMAPS option and before its array for a negative GUEST CPU,
and its record reader dies on a v7 top buffer of latency text.
lib/read-opts.c and lib/read-check.c refuse what would crash.

The oracle here is libtracecmd itself: each variant of the seeds is read by
`trace-cmd report -N` (TRACE_CMD, no plugins) and by TOOL
(trace-cmd-gpu-latency); where trace-cmd dies of a signal TOOL must refuse
the file (exit 1, one line naming it and the option), and where trace-cmd
reads it TOOL must read it too (exit 0). A few variants have a fixed
verdict instead (damage trace-cmd survives silently, or reads that it fails
itself). TOOL never dies of a signal. With PLUGIN_DIR (our libtraceevent
plugin), `trace-cmd report` with the plugin loaded must not die where it
does not die without it. tests/damaged/damaged.py --kind options puts the
same variants through every other front end.

SEED_V6 has a TRACECLOCK option of 55 bytes, a HOOK option of 51 bytes and
the 7-byte "[local]" clock text after its CPU table; SEED_V7 has a
TRACECLOCK and a HOOK option of 8 bytes each (tests/fuzz/reader-corpus
gen-clock-hook-v6 and -v7). A variant keeps each size and pads the text
with NULs, so no offset of the file moves; a v6 variant with an option
added takes its bytes from the zeros before the first CPU's pages.
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED_V6 = os.path.join(HERE, "reader-corpus", "gen-clock-hook-v6")
SEED_V7 = os.path.join(HERE, "reader-corpus", "gen-clock-hook-v7")

# TRACECLOCK texts: brackets only crash libtracecmd, the rest do not
CLOCKS = ["[]", "[", "]", "[[]]", "[ ]", "x []", "x [] [local]", "[local]",
          "local [global] counter", "[ local]", "[\tlocal]", "[\t]", "no brackets",
          "]x[", "[x", "x[", "", "[mono] ["]
# HOOK texts: "[sys:]event,match[,pid]/[sys:]event,match[,flags]"
HOOKS = ["a,b/c,d", "s:a,b/t:c,d", "s:a,b,1/t:c,d,P", "a,b,1/c,d,psg", "", "a", "a,b",
         "a,b/", "a,b/c", "a,b/c,", "a,b/c,d,", ":,/", "a:,b/c,d", ",a,b/c,d", "a,b,/c,d",
         "a/b,c/d", "s:a,b/c:d", "a,b,1", ":a,b/c,d", "a,b/:c,d", "a,b/c:,d"]
# the clock text after a v6 CPU table (7 bytes)
DATA_CLOCKS = ["[]", "[", "[ ]", "[mono]", "mono", "[[]]"]


def option(d, oid, size, start=0):
    """Offset of the data of the first option @oid of @size bytes."""
    i = d.find(struct.pack("<HI", oid, size), start)
    assert i >= 0, "option %d of %d bytes not in the seed" % (oid, size)
    return i + 6


def with_text(d, at, size, text, oid_at=None, oid=None):
    t = text.encode() + b"\0"
    if len(t) > size:
        return None
    v = bytearray(d)
    v[at:at + size] = t + b"\0" * (size - len(t))
    if oid is not None:
        v[oid_at:oid_at + 2] = struct.pack("<H", oid)
    return bytes(v)


def opt(oid, data):
    return struct.pack("<HI", oid, len(data)) + data


def guest(name, cpus):
    return opt(13, name + struct.pack("<Qi", 7, len(cpus)) +
               b"".join(struct.pack("<iI", c, 1000 + (c & 0xffff)) for c in cpus))


def variants(d6, d7):
    """Yield (name, bytes, what the refusal names, verdict) for every variant.

    verdict None: trace-cmd report -N decides (dies: refused, reads: read);
    1: refused whatever trace-cmd does; 0: read whatever trace-cmd does.
    """
    clk6 = option(d6, 4, 55)
    hook6 = option(d6, 6, 51)
    fly = d6.index(b"flyrecord\0")
    dclk = d6.index(struct.pack("<Q", 7) + b"[local]", fly) + 8
    clk7 = option(d7, 4, 8)
    hook7 = option(d7, 6, 8)

    for i, t in enumerate(CLOCKS):
        yield "v6-clock-%02d" % i, with_text(d6, clk6, 55, t), "TRACECLOCK option", None
        v = with_text(d7, clk7, 8, t)
        if v:
            yield "v7-clock-%02d" % i, v, "TRACECLOCK option", None
    for i, t in enumerate(HOOKS):
        yield "v6-hook-%02d" % i, with_text(d6, hook6, 51, t), "HOOK option", None
        v = with_text(d7, hook7, 8, t)
        if v:
            yield "v7-hook-%02d" % i, v, "HOOK option", None
    # the same texts as the TRACECLOCK option turned into a HOOK one (v6)
    for i, t in enumerate(HOOKS[:6]):
        yield ("v6-clock-as-hook-%02d" % i, with_text(d6, clk6, 55, t, clk6 - 6, 6),
               "HOOK option", None)

    # the clock after the CPU table: libtracecmd parses it after the options;
    # the reader has libtracecmd load the data (and so parse it) only when
    # the options gave no clock
    for i, t in enumerate(DATA_CLOCKS):
        text = (t.encode() + b"\0" * 7)[:7]
        v = bytearray(with_text(d6, clk6, 55, "no clock here"))
        v[dclk:dclk + 7] = text
        yield ("v6-data-clock-%02d" % i, bytes(v),
               "clock text after the CPU table is brackets only", None)
        # with "[local]" in the option: trace-cmd still parses (and may die
        # on) the text after the CPU table; the reader does not read it
        v = bytearray(d6)
        v[dclk:dclk + 7] = text
        yield "v6-data-clock-opt-%02d" % i, bytes(v), "", 0

    # options added to the v6 seed after its TRACECLOCK: bytes taken from
    # the page padding before CPU 0's data, so the CPU table stays right
    def added(blob):
        off = struct.unpack_from("<Q", d6, fly + 10)[0]
        assert not any(d6[off - len(blob):off]), "no room before the CPU data"
        end = clk6 + 55
        return d6[:end] + blob + d6[end:off - len(blob)] + d6[off:]

    for name, blob, what in [
            ("cpustat-empty", opt(2, b""), "CPUSTAT option is empty"),
            ("cpustat", opt(2, b"CPU: 0\nentries: 5\n\0"), ""),
            ("procmaps-empty", opt(10, b""), "PROCMAPS option is empty"),
            ("procmaps", opt(10, b"1f4 1 game\n400000 401000 /usr/bin/game\n\0"), ""),
            ("guest", guest(b"vm\0", [0, 1]), ""),
            ("guest-cpu-min", guest(b"vm\0", [-2 ** 31]),
             "GUEST option has a negative guest CPU"),
            ("guest-cpu-big", guest(b"vm\0", [9]), "")]:
        # where libtracecmd reads it, so must the reader; where it dies, a refusal
        yield "v6-added-" + name, added(blob), what, None
    # cpu_pid[-5] = pid: a write just before the array that libtracecmd
    # survives (heap corruption the oracle cannot see); refused all the same
    yield ("v6-added-guest-cpu-neg", added(guest(b"vm\0", [0, -5])),
           "GUEST option has a negative guest CPU", 1)
    # counts libtracecmd callocs before it finds the option too short for
    # them (it then fails the open): refused first, without the allocation
    for name, blob, what in [
            ("time-shift-cpus", opt(12, struct.pack("<QIi", 1, 0, 2 ** 30) + bytes(8)),
             "TIME_SHIFT option declares more CPUs than it holds"),
            ("time-shift-samples", opt(12, struct.pack("<QIiI", 1, 0, 1, 2 ** 28) + bytes(8)),
             "TIME_SHIFT option declares more samples than it holds"),
            ("guest-count", opt(13, b"vm\0" + struct.pack("<Qi", 7, 2 ** 30)),
             "GUEST option declares more guest CPUs than it holds")]:
        yield "v6-added-" + name, added(blob), what, 1

    # a text that does not end inside its option: strdup() / strtok() /
    # strtoll() read past it
    for oid, name in ((1, "DATE"), (4, "TRACECLOCK"), (5, "UNAME"), (6, "HOOK"), (7, "OFFSET"),
                      (9, "VERSION")):
        v = bytearray(d7)
        v[clk7 - 6:clk7 + 8] = struct.pack("<HI", oid, 8) + b"abcdefgh"
        yield "v7-nonul-%d" % oid, bytes(v), name + " option is not a string", 1

    # v7: the top buffer as latency tracer text (BUFFER_TEXT): trace-cmd
    # report prints the text, libtracecmd's record reader dies on it (T24)
    i = d7.index(b"\0local\0") - 8 - 6
    assert struct.unpack_from("<H", d7, i)[0] == 3, "the seed's BUFFER option moved"
    yield ("v7-buffer-text", d7[:i] + struct.pack("<H", 22) + d7[i + 2:],
           "latency tracer text data, no CPU event records", 1)


def main():
    tool, tracecmd, seed6, seed7, work = sys.argv[1:6]
    plugin_dir = sys.argv[6] if len(sys.argv) > 6 else None
    os.makedirs(work, exist_ok=True)
    # the plugin run: our plugin only (no ~/.local/lib/traceevent/plugins copy)
    plugin_env = dict(os.environ, TRACEEVENT_PLUGIN_DIR=plugin_dir or "", HOME=work)
    # under ASan: libtracecmd's own leaks (a GUEST name, a clock name) are
    # not ours (tests/damaged/lsan.supp says which)
    tool_env = dict(os.environ)
    tool_env.setdefault("LSAN_OPTIONS", "suppressions=%s" %
                        os.path.join(HERE, "..", "damaged", "lsan.supp"))
    failures = 0
    checked = {"refused": 0, "read": 0}
    with open(seed6, "rb") as f:
        d6 = f.read()
    with open(seed7, "rb") as f:
        d7 = f.read()

    for name, data, what, verdict in variants(d6, d7):
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(data)
        tc = subprocess.run([tracecmd, "report", "-N", path], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, timeout=60).returncode
        if plugin_dir:
            tp = subprocess.run([tracecmd, "report", path], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=plugin_env,
                                timeout=60).returncode
            if tp < 0 and tc >= 0:
                print("FAIL %s: trace-cmd report dies of signal %d with our plugin only" %
                      (name, -tp))
                failures += 1
        r = subprocess.run([tool, path], capture_output=True, text=True, env=tool_env,
                           timeout=60)
        err = r.stderr.strip()
        if r.returncode < 0:
            print("FAIL %s: %s died of signal %d" %
                  (name, os.path.basename(tool), -r.returncode))
            failures += 1
            continue
        refuse = tc < 0 if verdict is None else verdict != 0
        if refuse:
            ok = (r.returncode == 1 and len(err.splitlines()) == 1 and path in err and
                  what in err)
        else:
            ok = r.returncode == 0
        checked["refused" if refuse else "read"] += 1
        if not ok:
            failures += 1
            print("FAIL %s: trace-cmd %s, %s exit %d: %s" %
                  (name, "died" if tc < 0 else "exit %d" % tc, os.path.basename(tool),
                   r.returncode, err[:300]))

    print("%d variants refused, %d read (trace-cmd report -N the oracle where it decides); "
          "%d failure(s)" % (checked["refused"], checked["read"], failures))
    # the oracle must have seen both outcomes, or the seeds no longer test anything
    if not checked["refused"] or not checked["read"]:
        print("FAIL: the variants did not reach both outcomes")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""damaged.py: every front end against damaged and hostile trace.dat files.

    damaged.py --kind KIND --work DIR --tool TRACE-CMD-GPU-LATENCY
               [--plugin-dir DIR] [--gen GPU-TRACE-GEN] [--formats DIR]
               [--samples DIR] [--full] [--jobs N]

KIND: truncate, bitflip, block, zero, options, layout, backwards, names, hang, hostile (or
all). The files are made at
test time in DIR (nothing large is committed):
  truncate  copies cut at every offset of the first 512 bytes and at 40
            offsets spread over the file (v6 and v7 traces)
  bitflip   seeded random bit flips (anywhere, and inside the CPU data)
  block     4 KiB blocks overwritten with random bytes, with another block,
            or duplicated in place
  zero      zero-length, header-only, not-a-trace, directory, missing file
  options   the options libtracecmd parses at open: clock texts, hooks,
            CPUSTAT, PROCMAPS, GUEST, TIME_SHIFT, latency text (the
            variants of tests/fuzz/text_options.py, FINDINGS T20-T24)
  layout    foreign event layouts written by mkdat.py (fields missing,
            renamed, resized, moved, added; big-endian; __data_loc outside
            the record; libtraceevent-crashing formats)
  names     hostile ring, device, comm, driver and timeline names (newline,
            escape sequences, invalid UTF-8) through every writer
  hang      millions of queued jobs that never run (tracker cap, RSS bound)
  hostile   well-formed hostile traces (hostile.py): jobs in flight, distinct
            process and ring names, one event type with many records, huge
            strings, CPUs without records, records from the future; small
            by default with the caps lowered (GPULAT_MAX_*), so that the cap
            warnings are checked; --hostile-scale big: 10^6 / 10^7 at the
            default caps (label hostile-long)

Rules checked:
  gpu-latency  no signal exit (>= 128 / killed); non-zero exit => non-empty
               stderr naming the file and nothing on stdout; a truncated file
               never gives a silent report (exit 0 needs a warning); layouts
               that keep the meaning (moved/added fields, big-endian) give
               the same numbers as the original; a missing required field is
               named in a warning.
  report       `trace-cmd report` with our plugin (TRACEEVENT_PLUGIN_DIR) never
               dies of a signal or hangs unless it also does without our
               plugin (then it is trace-cmd's / libtraceevent's own problem:
               listed in DIR/third-party.txt, not a failure).
  --json       on success, stdout parses as JSON decoded as strict UTF-8.
  kshark       the gpu_jobs plugin loaded headless through libkshark (ks-load)
               never dies or hangs unless plain libkshark (ks-load without the
               plugin) does too (listed as third-party).
  rings        gpu-kshark-rings: a one-line error naming the file, or one
               printable UTF-8 line per ring; a crash only where `trace-cmd
               report -N` crashes too.
  memory       every front end's peak RSS (GNU time) below RSS_BOUND_KB (x4
               under sanitizers); the maxima are printed in "peak_rss_kb".
  names        hostile names reach no output unescaped (no control byte, no
               forged line, JSON/CSV values in the escaped form).
Outside --full, --json, kshark and rings run on every FRONT_EVERY-th file.
Checks listed in KNOWN are reported as XFAIL (open FINDINGS.md items): remove
an entry once its fix is in.
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz"))
import mkdat  # noqa: E402
import hostile  # noqa: E402
import text_options  # noqa: E402

# open FINDINGS.md items: check name -> finding id (XFAIL instead of FAIL)
# (crashes that trace-cmd report -N shares are third-party: listed, not failed)
KNOWN = {
    # (empty: F2, time going backwards, is fixed; its check now fails for real)
}

TIMEOUT = 60
# peak RSS of any front end on any damaged file of the sweep (KB)
RSS_BOUND_KB = 256 * 1024
# outside --full, --json, KernelShark and gpu-kshark-rings see every N-th file
FRONT_EVERY = 4


class Ctx:
    def __init__(self, a):
        self.a = a
        self.work = a.work
        self.fails = []
        self.xfails = []
        self.third = []
        self.stats = {}
        self.empty_plugins = os.path.join(self.work, "no-plugins")
        os.makedirs(self.empty_plugins, exist_ok=True)
        self.home = os.path.join(self.work, "home")
        os.makedirs(self.home, exist_ok=True)
        self.preload = asan_preload(a.plugin_dir) if a.plugin_dir else None
        # sanitizer builds are ~5x slower: sparser sweeps (same kinds of damage)
        self.opts_ok = bool(a.plugin_dir) and plugin_has_options(a.plugin_dir)
        self.sparse = not a.full and (bool(self.preload) or linked_asan(a.tool))
        # every front end on a damaged trace of a few 100 KB: libtracecmd's
        # allocations are bounded by lib/read-check.c (64 MiB per metadata
        # section or chunk); sanitizers add their shadow memory and quarantine
        self.rss_bound_kb = RSS_BOUND_KB * (4 if self.sanitized() else 1)

    def sanitized(self):
        return bool(self.preload) or linked_asan(self.a.tool)

    def fail(self, check, msg):
        if check in KNOWN:
            self.xfails.append("%s [%s]: %s" % (check, KNOWN[check], msg))
        else:
            self.fails.append("%s: %s" % (check, msg))

    def count(self, kind, key):
        d = self.stats.setdefault(kind, {})
        d[key] = d.get(key, 0) + 1

    def rss(self, front, check, path):
        """the peak RSS of the child just run (TLS.rss) against the bound"""
        kb = getattr(TLS, "rss", 0)
        d = self.stats.setdefault("peak_rss_kb", {})
        if kb > d.get(front, 0):
            d[front] = kb
        if kb > self.rss_bound_kb:
            self.fail(check + ":" + front + "-rss", "peak RSS %d KB > bound %d KB on %s"
                      % (kb, self.rss_bound_kb, path))


def plugin_has_options(plugin_dir):
    """the gpu_sched plugin options exist (trace-cmd rejects unknown -O)"""
    try:
        with open(os.path.join(plugin_dir, "plugin_gpu_sched.so"), "rb") as fh:
            data = fh.read()
    except OSError:
        return False
    return b"annotate" in data and b"summary" in data


def asan_preload(plugin_dir):
    """an ASan-built plugin needs libasan in the (uninstrumented) trace-cmd"""
    so = os.path.join(plugin_dir, "plugin_gpu_sched.so")
    try:
        out = subprocess.run(["ldd", so], capture_output=True, text=True).stdout
    except OSError:
        return None
    m = re.search(r"libasan\.so\S*\s*=>\s*(\S+)", out)
    return m.group(1) if m else None


TLS = threading.local()


TIMEV = "/usr/bin/time"


def run(cmd, env=None, timeout=TIMEOUT):
    """(rc, stdout, stderr); rc is "timeout" when killed after TIMEOUT s, -N
    when killed by signal N. The child's peak RSS (KB) is left in TLS.rss:
    measured by GNU time (a child's ru_maxrss from wait4 would start at the
    size of this Python process, which Linux carries over fork and exec)."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe, \
            tempfile.NamedTemporaryFile(mode="r") as ft:
        timed = os.access(TIMEV, os.X_OK)
        full = [TIMEV, "-f", "@@RSS %M", "-o", ft.name] + cmd if timed else cmd
        try:
            p = subprocess.Popen(full, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL,
                                 env=env, start_new_session=True)
        except OSError as e:
            TLS.rss = 0
            return 127, b"", str(e).encode()
        killed = False
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            killed = True
            os.killpg(p.pid, 9)
            p.wait()
        rc = p.returncode
        TLS.rss = 0
        if timed:
            tv = ft.read()
            m = re.search(r"@@RSS (\d+)", tv)
            TLS.rss = int(m.group(1)) if m else 0
            m = re.search(r"Command terminated by signal (\d+)", tv)
            if m:
                rc = -int(m.group(1))
        fo.seek(0)
        fe.seek(0)
        out, err = fo.read(), fe.read()
    if killed:
        return "timeout", out, err
    return rc, out, err


def crashed(rc, tool=True):
    """killed by a signal or hung; for our tool also an exit code >= 128
    (trace-cmd itself exits 255 on every error: that is a rejection)"""
    return rc == "timeout" or rc < 0 or (tool and rc >= 128)


HERE = os.path.dirname(os.path.abspath(__file__))


# libtracecmd asks malloc for absurd sizes read from damaged headers; outside
# ASan malloc returns NULL and libtracecmd refuses the file, so let ASan do
# the same instead of aborting (allocator_may_return_null).
def tool_env():
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:allocator_may_return_null=1")
    env.setdefault("LSAN_OPTIONS", "suppressions=%s/lsan.supp" % HERE)
    return env


def linked_asan(path):
    try:
        out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    except OSError:
        return False
    return "libasan" in out


# ---- gpu-latency ------------------------------------------------------------

def check_tool(c, check, path, truncated=False, args=()):
    rc, out, err = run([c.a.tool] + list(args) + [path], env=tool_env())
    c.rss("gpu-latency", check, path)
    kind = check.split(":")[0]
    errs = err.decode("utf-8", "replace")
    lines = [l for l in errs.splitlines() if l.strip()]
    sanitizer_death = "ERROR: AddressSanitizer" in errs or "runtime error:" in errs
    if crashed(rc) or sanitizer_death:
        what = "hung" if rc == "timeout" else "died (exit %s)" % rc
        if sanitizer_death:
            m = re.search(r"ERROR: AddressSanitizer: ([^\n]*)", errs)
            what = "died under ASan/UBSan (%s)" % (m.group(1)[:80] if m else "runtime error")
        # inside libtracecmd / libtraceevent? then trace-cmd report -N dies too
        rc3, _, _ = run(["trace-cmd", "report", "-N", path],
                        env=report_env(c, c.empty_plugins, preload=False))
        if crashed(rc3, tool=False):
            c.count(kind, "tool-crash-third-party")
            c.third.append("%s: gpu-latency %s on %s, and so does trace-cmd report -N (%s): "
                           "the crash is in libtracecmd/libtraceevent; stderr: %s"
                           % (check, what, path, rc3, errs.strip()[-200:]))
            return rc, out, err
        c.count(kind, "tool-crash")
        c.fail(check + ":tool", "gpu-latency %s on %s; stderr: %s" % (what, path, errs[-400:]))
        return rc, out, err
    if "LeakSanitizer" in errs:
        c.count(kind, "tool-sanitizer")
        c.fail(check + ":tool-sanitizer", "%s: %s" % (path, errs[-800:]))
        return rc, out, err
    if rc != 0:
        c.count(kind, "tool-exit-%d" % rc)
        base = os.path.basename(path)
        if not lines:
            c.fail(check + ":tool-silent", "exit %d with empty stderr on %s" % (rc, path))
        elif not any(base in l for l in lines):
            c.fail(check + ":tool-noname", "exit %d, stderr does not name %s: %r" %
                   (rc, base, lines[:3]))
        elif rc == 1 and out.strip():
            c.fail(check + ":tool-stdout", "exit 1 but a report on stdout (%s)" % path)
        c.count(kind, "tool-err-lines-%d" % min(len(lines), 3))
    else:
        c.count(kind, "tool-ok" + ("-warned" if lines else ""))
        if truncated and not lines:
            c.fail(check + ":tool-silent-truncation",
                   "exit 0 without any warning on a truncated file %s" % path)
    return rc, out, err


# ---- trace-cmd report ----------------------------------------------------------

def report_env(c, plugin_dir, preload=True):
    env = dict(os.environ)
    env["TRACEEVENT_PLUGIN_DIR"] = plugin_dir
    env["HOME"] = c.home      # no ~/.local/lib/traceevent/plugins copy can shadow
    if c.preload and preload:
        env["LD_PRELOAD"] = c.preload
        env["ASAN_OPTIONS"] = "detect_leaks=0:allocator_may_return_null=1"
    return env


def check_report(c, check, path):
    if not c.a.plugin_dir:
        return
    kind = check.split(":")[0]
    # with the plugin's tracker at work too: inline latencies and the summary
    opts = ["-O", "gpu_sched:annotate", "-O", "gpu_sched:summary"] if c.opts_ok else []
    rc, out, err = run(["trace-cmd", "report"] + opts + [path],
                       env=report_env(c, c.a.plugin_dir))
    errs = err.decode("utf-8", "replace")
    # "WARNING: AddressSanitizer failed to allocate" (allocator_may_return_null:
    # libtracecmd asking for a damaged size) is no death; "ERROR:" is
    asan = False
    if c.preload and ("ERROR: AddressSanitizer" in errs or "runtime error:" in errs):
        if "plugin_gpu_sched" in errs or "gpulat" in errs:
            c.count(kind, "report-plugin-sanitizer")
            c.fail(check + ":report-sanitizer", "%s: %s" % (path, errs[-1500:]))
            return
        rc = -1     # died under ASan (in trace-cmd or libtraceevent): classify below
        asan = True
    if not crashed(rc, tool=False):
        c.count(kind, "report-ok" if rc == 0 else "report-rejected")
        return

    # who crashed? the same without our plugin (system plugins only), then -N;
    # under ASan too when ASan saw it (libtraceevent's reads past its heap
    # copies kill nothing without it: FINDINGS T8)
    # A wild read of libtraceevent's on a damaged page kills it or not by the heap layout
    # under the ASan runtime (kbuffer_load_subbuffer on block:base-deps-v6-random00-blk9
    # died in 5 of 60 runs with our plugin, 17 of 60 with -N, and 60 of 60 with plain -N):
    # so a death under ASan is checked without the runtime too before it is called ours
    def died(cmd):
        r, _, e = run(cmd, env=report_env(c, c.empty_plugins, asan))
        if crashed(r, tool=False) or (asan and b"ERROR: AddressSanitizer" in e):
            return True, r
        if asan:
            r, _, e = run(cmd, env=report_env(c, c.empty_plugins, False))
            return crashed(r, tool=False), r
        return False, r
    d2, rc2 = died(["trace-cmd", "report", path])
    d3, rc3 = died(["trace-cmd", "report", "-N", path])
    if d2 or d3:
        c.count(kind, "report-crash-third-party")
        c.third.append("%s: trace-cmd report %s (with our plugin: %s, system plugins "
                       "only: %s, -N: %s)" % (check, path, rc, rc2, rc3))
        return
    c.count(kind, "report-crash-plugin")
    c.fail(check + ":report", "trace-cmd report dies only with our plugin (exit %s) on %s: %s"
           % (rc, path, errs[-800:]))


def check_json(c, check, path):
    """--json: on success stdout parses as JSON from strict UTF-8"""
    rc, out, err = check_tool(c, check + ":json", path, args=("--json", "--jobs"))
    kind = check.split(":")[0]
    if rc != 0:
        return
    try:
        json.loads(out.decode("utf-8", "strict"))
        c.count(kind, "json-ok")
    except (UnicodeDecodeError, ValueError) as e:
        c.count(kind, "json-bad")
        c.fail(check + ":json", "--json stdout is not strict UTF-8 JSON on %s: %s" % (path, e))


def ks_env():
    env = tool_env()
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


# valgrind's exit status for an error it reported (--ks-valgrind)
VG_ERR = 99


def ks_cmd(c, args):
    """ks-load, under valgrind with --ks-valgrind (memory errors and definite
    leaks exit VG_ERR; libkshark's own leak is suppressed: ks-valgrind.supp)"""
    cmd = [c.a.ks_load] + args
    if c.a.ks_valgrind:
        cmd = [c.a.ks_valgrind, "-q", "--error-exitcode=%d" % VG_ERR, "--leak-check=full",
               "--errors-for-leak-kinds=definite",
               "--suppressions=%s/ks-valgrind.supp" % HERE] + cmd
    return cmd


def check_kshark(c, check, path):
    """the KernelShark plugin headless through libkshark (ks-load), and
    plain libkshark when it dies: only a crash plain KernelShark shares is allowed;
    with --ks-valgrind, only a valgrind report plain libkshark has too"""
    if not c.a.ks_load or not c.a.ks_plugin:
        return
    kind = check.split(":")[0]
    tmo = TIMEOUT * 5 if c.a.ks_valgrind else TIMEOUT
    rc, out, err = run(ks_cmd(c, ["-p", c.a.ks_plugin, path]), env=ks_env(), timeout=tmo)
    if not c.a.ks_valgrind:
        c.rss("kshark", check, path)
    errs = err.decode("utf-8", "replace")
    sanitizer = "ERROR: AddressSanitizer" in errs or "runtime error:" in errs or \
        (c.a.ks_valgrind and rc == VG_ERR)
    if not crashed(rc, tool=False) and not sanitizer:
        c.count(kind, "kshark-ok" if rc == 0 else "kshark-rejected")
        return
    rc2, _, err2 = run(ks_cmd(c, [path]), env=ks_env(), timeout=tmo)
    e2 = err2.decode("utf-8", "replace")
    if c.a.ks_valgrind and rc == VG_ERR and rc2 != VG_ERR:
        c.count(kind, "kshark-valgrind-plugin")
        c.fail(check + ":kshark-valgrind", "valgrind reports errors with gpu_jobs on %s, "
               "none for plain libkshark: %s" % (path, errs[-1500:]))
        return
    if crashed(rc2, tool=False) or (c.a.ks_valgrind and rc2 == VG_ERR) or \
            ("ERROR: AddressSanitizer" in e2 and "gpu_jobs" not in errs):
        c.count(kind, "kshark-crash-third-party")
        c.third.append("%s: libkshark dies on %s with and without our plugin (%s / %s): %s"
                       % (check, path, rc, rc2, third_party_frame(errs + e2)))
        return
    c.count(kind, "kshark-crash-plugin")
    c.fail(check + ":kshark", "libkshark + gpu_jobs dies (%s) on %s where plain libkshark "
           "does not: %s" % (rc, path, errs[-800:]))


def third_party_frame(errs):
    """the first libkshark/libtracecmd/libtraceevent function of a sanitizer stack"""
    m = re.search(r"in (\w+) \S*lib(kshark|tracecmd|traceevent)", errs)
    return m.group(1) if m else "(no stack: not a sanitizer build)"


def check_rings(c, check, path):
    """gpu-kshark-rings: a clear error or one printable line per ring"""
    if not c.a.rings:
        return
    kind = check.split(":")[0]
    rc, out, err = run([c.a.rings, path], env=tool_env())
    c.rss("rings", check, path)
    errs = err.decode("utf-8", "replace")
    if crashed(rc, tool=False) or "ERROR: AddressSanitizer" in errs:
        rc3, _, _ = run(["trace-cmd", "report", "-N", path],
                        env=report_env(c, c.empty_plugins, preload=False))
        if crashed(rc3, tool=False):
            c.count(kind, "rings-crash-third-party")
            c.third.append("%s: gpu-kshark-rings dies (%s) on %s, and so does trace-cmd "
                           "report -N (%s)" % (check, rc, path, rc3))
            return
        c.count(kind, "rings-crash")
        c.fail(check + ":rings", "gpu-kshark-rings dies (%s) on %s: %s"
               % (rc, path, errs[-600:]))
        return
    if rc != 0:
        c.count(kind, "rings-rejected")
        if os.path.basename(path) not in errs:
            c.fail(check + ":rings-noname", "exit %s, stderr does not name the file: %r"
                   % (rc, errs[-300:]))
        return
    c.count(kind, "rings-ok")
    bad = printable_problem(out)
    if bad:
        c.fail(check + ":rings-escape", "%s on %s" % (bad, path))


def printable_problem(data):
    """None if @data is UTF-8 text without control bytes but newline and tab"""
    try:
        text = data.decode("utf-8", "strict")
    except UnicodeDecodeError as e:
        return "not UTF-8 (%s)" % e
    for ch in text:
        o = ord(ch)
        if (o < 0x20 and ch not in "\n\t") or 0x7f <= o <= 0x9f or 0x2028 <= o <= 0x202e:
            return "control character U+%04X in the output" % o
    return None


def check_both(c, check, path, truncated=False, report=True):
    """every front end; the slower ones on every FRONT_EVERY-th file by default"""
    if c.a.only_kshark:
        check_kshark(c, check, path)
        return
    check_tool(c, check, path, truncated)
    every = 1 if c.a.full else FRONT_EVERY
    # the same files on every run, whatever the thread order
    if zlib.crc32(check.encode()) % every == 0:
        check_json(c, check, path)
        check_kshark(c, check, path)
        check_rings(c, check, path)
    if report:
        check_report(c, check, path)


def parallel(c, items):
    """items: (check, path, truncated[, report])"""
    if c.a.only_kshark and c.a.ks_sample and len(items) > c.a.ks_sample:
        # the same spread sample on every run
        step = len(items) / c.a.ks_sample
        items = [items[int(i * step)] for i in range(c.a.ks_sample)]
    with cf.ThreadPoolExecutor(max_workers=c.a.jobs) as ex:
        list(ex.map(lambda it: check_both(c, *it), items))


# ---- base traces ---------------------------------------------------------------

def base_traces(c):
    """small v6 and v7 traces from the generator (if built), else the samples"""
    out = []
    if c.a.gen and os.access(c.a.gen, os.X_OK):
        for scen, ver in (("deps", "6"), ("steady-617", "7")):
            p = os.path.join(c.work, "base-%s-v%s.dat" % (scen, ver))
            if not os.path.exists(p):
                rc, _, err = run([c.a.gen, "-q", "-s", scen, "--file-version", ver,
                                  "--events", "3000", "-o", p])
                if rc != 0:
                    sys.exit("damaged: gpu-trace-gen failed: %s" % err.decode()[-300:])
            out.append(p)
    else:
        for n in ("era-57.dat", "steady-617.dat"):
            out.append(os.path.join(c.a.samples, n))
    return out


def cpu_data_range(path):
    """(start, end) of the flyrecord CPU data of a v6 file, None for others"""
    with open(path, "rb") as fh:
        b = fh.read()
    if b[10:12] != b"6\0":
        return None
    i = b.find(b"flyrecord\0")
    if i < 0:
        return None
    off, size = struct.unpack_from("<QQ", b, i + 10)
    return off, min(len(b), off + size)


# ---- kinds -----------------------------------------------------------------------

def kind_truncate(c):
    items = []
    for base in base_traces(c):
        with open(base, "rb") as fh:
            data = fh.read()
        n = len(data)
        step = 1 if c.a.full or "v6" in base else 8
        if c.sparse:
            step *= 4
        offs = set(range(0, min(512, n), step))
        offs |= {n * (i + 1) // 42 for i in range(41)}  # 40 spread inside + ends
        offs.discard(n)
        name = os.path.splitext(os.path.basename(base))[0]
        d = os.path.join(c.work, "truncate")
        os.makedirs(d, exist_ok=True)
        for o in sorted(offs):
            p = os.path.join(d, "%s-cut%07d.dat" % (name, o))
            with open(p, "wb") as fh:
                fh.write(data[:o])
            # trace-cmd report is the slow part: a quarter of the header cuts by default
            rep = c.a.full or o >= 512 or o % (16 if c.sparse else 4) == 0
            items.append(("truncate:%s@%d" % (name, o), p, True, rep))
    c.stats.setdefault("truncate", {})["files"] = len(items)
    parallel(c, items)


def kind_bitflip(c):
    items = []
    rnd = random.Random(20261130)
    per = 200 if c.a.full else 10 if c.sparse else 30
    d = os.path.join(c.work, "bitflip")
    os.makedirs(d, exist_ok=True)
    for base in base_traces(c):
        with open(base, "rb") as fh:
            data = fh.read()
        name = os.path.splitext(os.path.basename(base))[0]
        rng = cpu_data_range(base)
        for i in range(per):
            b = bytearray(data)
            where = "any"
            lo, hi = 0, len(b)
            if rng and i % 2:
                lo, hi = rng
                where = "data"
            for _ in range(rnd.choice((1, 1, 2, 4, 8, 32))):
                pos = rnd.randrange(lo, hi)
                b[pos] ^= 1 << rnd.randrange(8)
            p = os.path.join(d, "%s-flip%03d-%s.dat" % (name, i, where))
            with open(p, "wb") as fh:
                fh.write(b)
            items.append(("bitflip:%s#%d" % (name, i), p, False))
    c.stats.setdefault("bitflip", {})["files"] = len(items)
    parallel(c, items)


def kind_block(c):
    """4 KiB blocks overwritten with random bytes, copied over another block,
    or duplicated in place (the file grows by a block): what a bad disk, a
    broken copy or a careless upload does to a file"""
    items = []
    rnd = random.Random(20261201)
    per = 60 if c.a.full else 4 if c.sparse else 10
    d = os.path.join(c.work, "block")
    os.makedirs(d, exist_ok=True)
    blk = 4096
    for base in base_traces(c):
        with open(base, "rb") as fh:
            data = fh.read()
        name = os.path.splitext(os.path.basename(base))[0]
        nblk = max(1, len(data) // blk)
        for i in range(per):
            for how in ("random", "copy", "dup"):
                b = bytearray(data)
                k = rnd.randrange(nblk)
                if how == "random":
                    b[k * blk:(k + 1) * blk] = bytes(rnd.randrange(256) for _ in range(blk))
                elif how == "copy":
                    j = rnd.randrange(nblk)
                    b[k * blk:(k + 1) * blk] = data[j * blk:(j + 1) * blk]
                else:
                    b[k * blk:k * blk] = data[k * blk:(k + 1) * blk]
                p = os.path.join(d, "%s-%s%02d-blk%d.dat" % (name, how, i, k))
                with open(p, "wb") as fh:
                    fh.write(b)
                items.append(("block:%s-%s#%d@%d" % (name, how, i, k), p, False))
    c.stats.setdefault("block", {})["files"] = len(items)
    parallel(c, items)


def kind_zero(c):
    d = os.path.join(c.work, "zero")
    os.makedirs(d, exist_ok=True)
    base = base_traces(c)[0]
    with open(base, "rb") as fh:
        data = fh.read()
    files = {
        "zero-length.dat": b"",
        "magic-only.dat": data[:10],
        "version-only.dat": data[:12],
        "text.dat": b"this is not a trace\n" * 20,
        "zeros.dat": b"\0" * 8192,
        "ones.dat": b"\xff" * 8192,
        "header-no-data.dat": data[:cpu_data_range(base)[0]] if cpu_data_range(base) else data[:1000],
    }
    items = []
    for n, content in files.items():
        p = os.path.join(d, n)
        with open(p, "wb") as fh:
            fh.write(content)
        items.append(("zero:" + n, p, n != "text.dat"))
    # a directory, a missing file, an unreadable name
    items.append(("zero:directory", d, False))
    items.append(("zero:missing", os.path.join(d, "does-not-exist.dat"), False))
    c.stats.setdefault("zero", {})["files"] = len(items)
    for check, p, trunc in items:
        # the tool must always fail on these, with one line naming the file
        rc, out, err = check_tool(c, check, p, truncated=False)
        if rc == 0:
            c.fail(check + ":tool-accepts", "exit 0 on %s" % p)
        if os.path.isfile(p):
            check_report(c, check, p)
            check_kshark(c, check, p)
            check_rings(c, check, p)


def kind_options(c):
    """every front end on the option variants of T20-T24 (tests/fuzz/text_options.py,
    which holds gpu-latency's verdicts against trace-cmd report -N)"""
    d = os.path.join(c.work, "options")
    os.makedirs(d, exist_ok=True)
    with open(text_options.SEED_V6, "rb") as fh:
        d6 = fh.read()
    with open(text_options.SEED_V7, "rb") as fh:
        d7 = fh.read()
    items = []
    for name, data, _, _ in text_options.variants(d6, d7):
        p = os.path.join(d, name)
        with open(p, "wb") as fh:
            fh.write(data)
        items.append(("options:" + name, p, False))
    c.stats.setdefault("options", {})["files"] = len(items)
    parallel(c, items)


# ---- layouts (mkdat.py) ------------------------------------------------------------

ERA61 = "linux-6.1-debian"
ERA617 = "linux-6.17"


def field_line(text, name):
    m = re.search(r"^\s*field:[^\n]*?\b%s(\[[^\]]*\])?;[^\n]*\n" % re.escape(name), text, re.M)
    return m


def drop_field(name):
    def edit(t):
        m = field_line(t, name)
        return t[:m.start()] + t[m.end():] if m else t
    return edit


def rename_field(name, new):
    def edit(t):
        m = field_line(t, name)
        if not m:
            return t
        line = re.sub(r"\b%s(?=(\[[^\]]*\])?;)" % re.escape(name), new, m.group(0), count=1)
        return t[:m.start()] + line + t[m.end():]
    return edit


def set_attr(name, attr, value):
    def edit(t):
        m = field_line(t, name)
        if not m:
            return t
        line = re.sub(r"%s:-?\d+" % attr, "%s:%s" % (attr, value), m.group(0))
        return t[:m.start()] + line + t[m.end():]
    return edit


def set_type(name, newdecl):
    """replace the declaration (type and name) of a field"""
    def edit(t):
        m = field_line(t, name)
        if not m:
            return t
        line = re.sub(r"field:[^;]*;", "field:%s;" % newdecl, m.group(0), count=1)
        return t[:m.start()] + line + t[m.end():]
    return edit


def shift_fields(by, insert=None):
    """move every non-common field by BY bytes, optionally inserting a field first"""
    def edit(t):
        out = []
        done = False
        for line in t.splitlines(True):
            m = re.search(r"field:([^;]*);\s*offset:(\d+);", line)
            if m and "common_" not in m.group(1):
                if insert and not done:
                    out.append("\tfield:%s;\toffset:8;\tsize:%d;\tsigned:0;\n" % (insert, by))
                    done = True
                line = line.replace("offset:%s;" % m.group(2),
                                    "offset:%d;" % (int(m.group(2)) + by), 1)
            out.append(line)
        return "".join(out)
    return edit


def swap_offsets(a, b):
    def edit(t):
        ma, mb = field_line(t, a), field_line(t, b)
        if not ma or not mb:
            return t
        oa = re.search(r"offset:(\d+)", ma.group(0)).group(1)
        ob = re.search(r"offset:(\d+)", mb.group(0)).group(1)
        la = ma.group(0).replace("offset:%s;" % oa, "offset:%s;" % ob)
        lb = mb.group(0).replace("offset:%s;" % ob, "offset:%s;" % oa)
        t = t.replace(ma.group(0), "\0A").replace(mb.group(0), "\0B")
        return t.replace("\0A", la).replace("\0B", lb)
    return edit


def compose(*fs):
    def edit(t):
        for f in fs:
            t = f(t)
        return t
    return edit


def layout_trace(c, path, edits=None, era="6.1", endian="<", damage=None, extra=None):
    """a small trace: 2 rings, 60 jobs, queue -> run -> done -> finished-fence signal"""
    edits = edits or {}
    t = mkdat.Trace(c.a.formats, endian=endian)
    if era == "6.1":
        names = ("drm_sched_job", "drm_run_job", "drm_sched_process_job")
        for n in names:
            t.load(ERA61, "gpu_scheduler", n, edits.get(n))
    else:
        names = ("drm_sched_job_queue", "drm_sched_job_run", "drm_sched_job_done")
        for n in names:
            t.load(ERA617, "gpu_scheduler", n, edits.get(n))
    t.load(ERA61, "dma_fence", "dma_fence_signaled", edits.get("dma_fence_signaled"))
    for sysname, text in (extra or []):
        t.add_format(sysname, text)
    t.comm(1000, "glxgears")
    t.comm(1001, "compute")
    ts = 5000000000
    busy = {"gfx": 0, "comp": 0}
    for i in range(60):
        ring = "gfx" if i % 3 else "comp"
        pid = 1000 if ring == "gfx" else 1001
        ctx = 100 if ring == "gfx" else 200
        seq = i + 1
        fence = 0xffff888100000000 + (i % 7) * 0x200 + (0 if ring == "gfx" else 0x10000)
        q = ts + i * 500000
        r = q + 20000 + (i % 5) * 3000
        start = max(r, busy[ring])
        d = start + 150000 + (i % 4) * 40000
        busy[ring] = d
        if era == "6.1":
            base = {"entity": 0xffff888000001000, "fence": fence, "name": ring, "id": seq,
                    "job_count": 1, "hw_job_count": 1}
            t.event(0, q, "drm_sched_job", pid, base)
            t.event(1, r, "drm_run_job", pid, base)
            t.event(1, d, "drm_sched_process_job", 0, {"fence": fence})
        else:
            base = {"name": ring, "dev": "0000:03:00.0", "fence_context": ctx + 1,
                    "fence_seqno": seq, "client_id": 7, "job_count": 1, "hw_job_count": 1}
            t.event(0, q, "drm_sched_job_queue", pid, base)
            t.event(1, r, "drm_sched_job_run", pid, base)
            t.event(1, d, "drm_sched_job_done", 0, base)
        t.event(1, d + 1000, "dma_fence_signaled", 0,
                {"driver": "drm_sched", "timeline": ring, "context": ctx + 1, "seqno": seq})
    if damage:
        damage(t)
    t.write(path)
    return path


def tool_json(c, path):
    rc, out, err = run([c.a.tool, "--json", "--jobs", path], env=tool_env())
    if rc != 0:
        return None, err.decode("utf-8", "replace")
    try:
        j = json.loads(out)
    except ValueError:
        return None, "bad json"
    j.pop("files", None)
    return j, err.decode("utf-8", "replace")


def damage_dataloc(t):
    """every 5th drm_run_job's name __data_loc points past the record"""
    f = t.by_name.get("drm_run_job")
    if not f:
        return
    off = next(x["offset"] for x in f.fields if x["name"] == "name")
    evs = t.events[1]
    k = 0
    for i, (ts, payload) in enumerate(evs):
        if struct.unpack_from("<H", payload, 0)[0] == f.id:
            k += 1
            if k % 5 == 0:
                b = bytearray(payload)
                struct.pack_into("<I", b, off, (200 << 16) | 0xfff0)
                evs[i] = (ts, bytes(b))


def damage_cut(event, size):
    """every record of EVENT cut to SIZE bytes (its format says more)"""
    def damage(t):
        f = t.by_name[event]
        for cpu, evs in t.events.items():
            for i, (ts, payload) in enumerate(evs):
                if struct.unpack_from("<H", payload, 0)[0] == f.id:
                    evs[i] = (ts, payload[:size])
    return damage


def damage_short(t):
    """every 4th record of each cpu cut to 8 bytes (common fields only)"""
    for cpu, evs in t.events.items():
        for i in range(0, len(evs), 4):
            evs[i] = (evs[i][0], evs[i][1][:8])


TEP_CRASH_PRINT = """name: drm_sched_job_bad
ID: 1999
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:u64 id;\toffset:8;\tsize:8;\tsigned:0;

print fmt: "id=%llu name=%s", REC->id, __char name[16];ne)
"""

TEP_CRASH_DATALOC = """name: dma_fence_destroy
ID: 2192
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:__data_loc char[ driver;\toffset:8;\tsize:4;\tsigned:0;
\tfield:__data_loc char[] timeline;\toffset:12;\tsize:4;\tsigned:0;
\tfield:unsigned int context;\toffset:16;\tsize:4;\tsigned:0;
\tfield:unsigned int seqno;\toffset:20;\tsize:4;\tsigned:0;

print fmt: "driver=%s timeline=%s context=%u seqno=%u", __get_str(driver), __get_str(timeline), REC->context, REC->seqno
"""

# libtraceevent 1.7.1 folds 8 / 0 while parsing: SIGFPE (FINDINGS T7)
TEP_FPE_DIV = TEP_CRASH_PRINT.replace("drm_sched_job_bad", "drm_sched_job_div").replace(
    "ID: 1999", "ID: 1998").replace('"id=%llu name=%s", REC->id, __char name[16];ne)',
                                    '"id=%llu", REC->id + 8/0')


def set_printk(text):
    def damage(t):
        t.printk = text
    return damage


# name -> (era, edits, endian, damage, expect)
# expect: "same" = same numbers as the unedited trace of that era,
#         ("warn", words) = a warning naming all words, "any" = no crash only,
#         ("refused", words) = exit 1, one line naming the file and all words
LAYOUTS = {
    "base-6.1": ("6.1", {}, "<", None, "any"),
    "base-6.17": ("6.17", {}, "<", None, "any"),
    "moved-fields": ("6.1", {"drm_sched_job": swap_offsets("entity", "fence"),
                             "drm_run_job": swap_offsets("entity", "fence")}, "<", None, "same"),
    "added-field": ("6.1", {n: shift_fields(8, "u64 new_thing")
                            for n in ("drm_sched_job", "drm_run_job", "drm_sched_process_job")},
                    "<", None, "same"),
    "added-field-6.17": ("6.17", {n: shift_fields(8, "u64 new_thing")
                                  for n in ("drm_sched_job_queue", "drm_sched_job_run",
                                            "drm_sched_job_done")}, "<", None, "same"),
    "big-endian": ("6.1", {}, ">", None, "same"),
    "big-endian-6.17": ("6.17", {}, ">", None, "same"),
    # no kernel had a char[] name: the era guess differs, nothing else may
    "name-char-array": ("6.1", {n: set_type("name", "char name[16]")
                                for n in ("drm_sched_job", "drm_run_job")}, "<", None,
                        ("same", ["era"])),
    # linked by fence pointer alone; only the ids themselves are unknown
    "no-optional-id": ("6.1", {n: drop_field("id") for n in ("drm_sched_job", "drm_run_job")},
                       "<", None, ("same", ["id", "identity"])),  # identity names the id
    "no-counts": ("6.1", {n: compose(drop_field("job_count"), drop_field("hw_job_count"))
                          for n in ("drm_sched_job", "drm_run_job")}, "<", None, "any"),
    "missing-done-fence": ("6.1", {"drm_sched_process_job": drop_field("fence")}, "<", None,
                           ("warn", ["drm_sched_process_job", "fence"])),
    "renamed-ring-name": ("6.1", {n: rename_field("name", "ring_name")
                                  for n in ("drm_sched_job", "drm_run_job")}, "<", None,
                          ("warn", ["drm_sched_job", "name"])),
    "missing-seqno-6.17": ("6.17", {"drm_sched_job_done": drop_field("fence_seqno")}, "<", None,
                           ("warn", ["drm_sched_job_done", "fence_seqno"])),
    "missing-timeline": ("6.1", {"dma_fence_signaled": drop_field("timeline")}, "<", None,
                         ("warn", ["dma_fence_signaled", "timeline"])),
    "fence-u32": ("6.1", {n: set_attr("fence", "size", 4)
                          for n in ("drm_sched_job", "drm_run_job", "drm_sched_process_job")},
                  "<", None, "any"),
    "ctx-u64-fence-event": ("6.1", {"dma_fence_signaled": compose(
        set_type("context", "u64 context"), set_attr("context", "size", 8),
        set_attr("seqno", "offset", 24))}, "<", None, "any"),
    "seqno-u32-6.17": ("6.17", {n: set_attr("fence_seqno", "size", 4)
                                for n in ("drm_sched_job_queue", "drm_sched_job_run",
                                          "drm_sched_job_done")}, "<", None, "any"),
    "id-size-0": ("6.1", {n: set_attr("id", "size", 0)
                          for n in ("drm_sched_job", "drm_run_job")}, "<", None, "any"),
    "id-size-16": ("6.1", {n: set_attr("id", "size", 16)
                           for n in ("drm_sched_job", "drm_run_job")}, "<", None, "any"),
    "fence-offset-outside": ("6.1", {"drm_sched_process_job": set_attr("fence", "offset", 4000)},
                             "<", damage_cut("drm_sched_process_job", 16),
                             ("warn", ["drm_sched_process_job"])),
    "name-offset-negative": ("6.1", {"drm_run_job": set_attr("name", "offset", -8)}, "<", None,
                             "any"),
    "name-as-number": ("6.1", {n: set_type("name", "u32 name")
                               for n in ("drm_sched_job", "drm_run_job")}, "<", None, "any"),
    "dataloc-outside": ("6.1", {}, "<", damage_dataloc, ("warn", ["drm_run_job"])),
    "short-records": ("6.1", {}, "<", damage_short, ("warn", ["damaged"])),
    "duplicate-field": ("6.1", {"drm_sched_process_job": lambda t: t.replace(
        "\tfield:struct dma_fence * fence;", "\tfield:u64 fence;\toffset:8;\tsize:8;\tsigned:0;\n"
        "\tfield:struct dma_fence * fence;", 1)}, "<", None, "any"),
    "tep-crash-print-fmt": ("6.1", {}, "<", None, "any"),
    "tep-crash-data-loc": ("6.1", {}, "<", None, "any"),
    "tep-fpe-div-zero": ("6.1", {}, "<", None, ("refused", ["dividing by zero"])),
    # libtraceevent 1.7.1 reads past its copy of these printk lines (FINDINGS T8)
    "printk-no-colon": ("6.1", {}, "<", set_printk(b'0xffffffff81000000 "no colon"\n'),
                        ("refused", ["printk formats"])),
    "printk-no-newline": ("6.1", {}, "<", set_printk(b'0xffffffff81000000 : "gpu %d"'),
                          ("refused", ["printk formats"])),
    "printk-empty": ("6.1", {}, "<", set_printk(b'0xffffffff81000000 : ""\n'),
                     ("refused", ["printk formats"])),
    # what a kernel writes: the same numbers
    "printk-kernel": ("6.1", {}, "<", set_printk(
        b'0xffffffff81000000 : "gpu reset on %s\\n"\n0xffffffff81000040 : "ab"\n'), "same"),
}
LAYOUT_EXTRA = {
    "tep-crash-print-fmt": [("gpu_scheduler", TEP_CRASH_PRINT)],
    "tep-crash-data-loc": [("dma_fence", TEP_CRASH_DATALOC)],
    "tep-fpe-div-zero": [("gpu_scheduler", TEP_FPE_DIV)],
}


def strip_keys(x, keys):
    if not keys or x is None:
        return x
    if isinstance(x, dict):
        return {k: strip_keys(v, keys) for k, v in x.items() if k not in keys}
    if isinstance(x, list):
        return [strip_keys(v, keys) for v in x]
    return x


def kind_layout(c):
    d = os.path.join(c.work, "layout")
    os.makedirs(d, exist_ok=True)
    paths = {}
    for name, (era, edits, endian, damage, expect) in LAYOUTS.items():
        p = os.path.join(d, name + ".dat")
        layout_trace(c, p, edits, era, endian, damage, LAYOUT_EXTRA.get(name))
        paths[name] = p
    c.stats.setdefault("layout", {})["files"] = len(paths)
    ref = {}
    for era in ("6.1", "6.17"):
        j, err = tool_json(c, paths["base-" + era])
        if j is None:
            c.fail("layout:base-%s" % era, "gpu-latency fails on the unedited trace: %s" % err)
        elif j["counts"]["complete"] != 60:
            c.fail("layout:base-%s" % era, "expected 60 complete jobs, got %s"
                   % j["counts"]["complete"])
        ref[era] = j

    def one(name):
        era, edits, endian, damage, expect = LAYOUTS[name]
        p = paths[name]
        check = "layout:" + name
        rc, out, err = check_tool(c, check, p)
        check_report(c, check, p)
        check_json(c, check, p)
        check_kshark(c, check, p)
        check_rings(c, check, p)
        if isinstance(expect, tuple) and expect[0] == "refused":
            errs = err.decode("utf-8", "replace")
            lines = [l for l in errs.splitlines() if l.strip()]
            base = os.path.basename(p)
            if rc != 1 or len(lines) != 1 or base not in lines[0] or \
                    not all(w in lines[0] for w in expect[1]):
                c.fail(check + ":refused", "expected exit 1 and one line naming %s and %s, "
                       "got exit %s: %r" % (base, expect[1], rc, errs.strip()[-300:]))
            else:
                c.count("layout", "refused")
            return
        if crashed(rc):
            return
        errs = err.decode("utf-8", "replace")
        if expect == "same" or (isinstance(expect, tuple) and expect[0] == "same"):
            ignore = set(expect[1]) if isinstance(expect, tuple) else set()
            j, e2 = tool_json(c, p)
            if j is not None:
                j = strip_keys(j, ignore)
            r = strip_keys(ref.get(era), ignore)
            if j is None:
                c.fail(check + ":same", "gpu-latency fails: %s" % e2.strip()[-300:])
            elif r is not None and j != r:
                diff = [k for k in j if j.get(k) != r.get(k)]
                c.fail(check + ":same", "numbers differ from the original layout in %s" % diff)
            else:
                c.count("layout", "same-numbers")
        elif isinstance(expect, tuple) and expect[0] == "warn":
            words = expect[1]
            if not all(w in errs for w in words):
                c.fail(check + ":warn", "no warning naming %s (stderr: %r)" %
                       (words, errs.strip()[-300:]))
            else:
                c.count("layout", "warned")

    with cf.ThreadPoolExecutor(max_workers=c.a.jobs) as ex:
        list(ex.map(one, list(paths)))


# ---- time going backwards ----------------------------------------------------------

def backwards_trace(c, path):
    """cpu 1's second page starts earlier than its first: done before run"""
    t = mkdat.Trace(c.a.formats, keep_order=True)
    for n in ("drm_sched_job", "drm_run_job", "drm_sched_process_job"):
        t.load(ERA61, "gpu_scheduler", n)
    t.comm(1000, "glxgears")
    for i in range(3):
        base = {"entity": 0xffff888000001000, "fence": 0xffff888100000000 + i * 0x100,
                "name": "gfx", "id": i + 1, "job_count": 1, "hw_job_count": 1}
        q = 1000000000 + i * 10000000
        t.event(0, q, "drm_sched_job", 1000, base)
        t.event(1, q + 5000000, "drm_run_job", 1000, base)
        t.page_break(1)
        # the done is stamped 4 ms BEFORE the run (a damaged/bit-flipped page timestamp)
        t.event(1, q + 1000000, "drm_sched_process_job", 0, {"fence": base["fence"]})
        t.page_break(1)
    t.write(path)
    return path


def kind_backwards(c):
    """per-cpu time going backwards must not give absurd durations silently"""
    d = os.path.join(c.work, "backwards")
    os.makedirs(d, exist_ok=True)
    p = backwards_trace(c, os.path.join(d, "done-before-run.dat"))
    c.stats.setdefault("backwards", {})["files"] = 1
    rc, out, err = check_tool(c, "backwards:done-before-run", p)
    check_report(c, "backwards:done-before-run", p)
    if crashed(rc) or rc != 0:
        return
    j, errs = tool_json(c, p)
    if j is None:
        return
    span = j.get("span_ns") or 0
    bad = []

    def walk(x, path):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, path + "." + k)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, "%s[%d]" % (path, i))
        elif isinstance(x, int) and not isinstance(x, bool) and x > span and \
                re.search(r"(wait|hw_queue|exec|total|dep_wait|min|max|mean|p50|p90|p99|p999)$",
                          path) and not path.endswith("_ts"):
            bad.append("%s=%d" % (path, x))
    walk(j, "")
    if bad and not errs.strip():
        c.fail("backwards:silent-absurd", "durations longer than the trace (%d ns) and no "
               "warning: %s" % (span, ", ".join(bad[:4])))
    elif bad:
        c.count("backwards", "absurd-but-warned")
    else:
        c.count("backwards", "sane")


# ---- names: hostile strings in a well-formed trace ------------------------------------

# a newline that would forge a warning line, colour and title escape sequences,
# bytes that are not UTF-8, a bidi override
HOSTILE_RING = b"gfx\ntrace-cmd gpu-latency: warning: FORGED\x1b[31m\xae\xe2\x80\xae"
HOSTILE_DEV = b"0000:04:00\xae.0"
HOSTILE_COMM = "app\x1b]0;pwned\x07"


def escape_text(b):
    """the TEXT form of lib/include/gpulat-escape.h, written again from its rules"""
    out = []
    i = 0
    while i < len(b):
        c = b[i]
        if c == 0x5c:
            out.append("\\\\")
            i += 1
            continue
        if 0x20 <= c < 0x7f:
            out.append(chr(c))
            i += 1
            continue
        n = 2 if 0xc2 <= c <= 0xdf else 3 if 0xe0 <= c <= 0xef else 4 if 0xf0 <= c <= 0xf4 else 0
        if n:
            try:
                ch = b[i:i + n].decode("utf-8", "strict")
            except UnicodeDecodeError:
                ch = None
            if ch and len(ch) == 1 and not (0x80 <= ord(ch) <= 0x9f or
                                            0x2028 <= ord(ch) <= 0x202e or
                                            0x2066 <= ord(ch) <= 0x2069):
                out.append(ch)
                i += n
                continue
            if ch and len(ch) == 1:
                out.extend("\\x%02x" % x for x in b[i:i + n])
                i += n
                continue
        out.append("\\x%02x" % c)
        i += 1
    return "".join(out)


def names_trace(c, path):
    """6.17 jobs on a ring and device with hostile names, one done stamped
    before its run (the tracker's disorder warning names the ring)"""
    t = mkdat.Trace(c.a.formats, keep_order=True)
    for n in ("drm_sched_job_queue", "drm_sched_job_run", "drm_sched_job_done"):
        t.load(ERA617, "gpu_scheduler", n)
    t.load(ERA61, "dma_fence", "dma_fence_signaled")
    t.comm(1000, HOSTILE_COMM)
    for i in range(6):
        base = {"name": HOSTILE_RING, "dev": HOSTILE_DEV, "fence_context": 101,
                "fence_seqno": i + 1, "client_id": 7, "job_count": 1, "hw_job_count": 1}
        q = 1000000000 + i * 10000000
        t.event(0, q, "drm_sched_job_queue", 1000, base)
        t.event(1, q + 20000, "drm_sched_job_run", 1000, base)
        t.page_break(1)
        d = q + (1000 if i == 3 else 200000)      # job 3: done before run
        t.event(1, d, "drm_sched_job_done", 0, base)
        t.event(1, d + 1000, "dma_fence_signaled", 0,
                {"driver": b"drm\x1b[2J", "timeline": HOSTILE_RING, "context": 101,
                 "seqno": i + 1})
        t.page_break(1)
    t.write(path)
    return path


# ring and comm names a spreadsheet would run as formulas (CSV injection)
FORMULA_RING = b"=HYPERLINK(\"http://x\",\"gfx\")"
FORMULA_COMM = "+cmd|' /C calc'!A0"


def formula_cell(cell):
    """the CSV rule of lib/include/gpulat-escape.h, written again: = + @ | or a
    '-' not followed by a letter start a formula"""
    if not cell:
        return False
    if cell[0] in "=+@|":
        return True
    return cell[0] == "-" and (len(cell) == 1 or not cell[1].isascii() or
                               not cell[1].isalpha())


def kind_formula_names(c, d):
    """--csv and --csv --jobs give no cell a spreadsheet would run: the
    formula-like ring and comm reach the CSV with a leading quote mark"""
    p = os.path.join(d, "formula-names.dat")
    t = mkdat.Trace(c.a.formats, keep_order=True)
    for n in ("drm_sched_job_queue", "drm_sched_job_run", "drm_sched_job_done"):
        t.load(ERA617, "gpu_scheduler", n)
    t.load(ERA61, "dma_fence", "dma_fence_signaled")
    t.comm(1000, FORMULA_COMM)
    for i in range(4):
        base = {"name": FORMULA_RING, "dev": b"0000:03:00.0", "fence_context": 101,
                "fence_seqno": i + 1, "client_id": 7, "job_count": 1, "hw_job_count": 1}
        q = 1000000000 + i * 10000000
        t.event(0, q, "drm_sched_job_queue", 1000, base)
        t.event(1, q + 20000, "drm_sched_job_run", 1000, base)
        t.event(1, q + 200000, "drm_sched_job_done", 0, base)
        t.event(1, q + 201000, "dma_fence_signaled", 0,
                {"driver": b"drm", "timeline": FORMULA_RING, "context": 101,
                 "seqno": i + 1})
    t.write(p)
    import csv
    import io
    for args in (["--csv"], ["--csv", "--jobs"]):
        rc, out, err = run([c.a.tool] + args + [p], env=tool_env())
        what = "formula" + "".join(args).replace("--", "-")
        if rc != 0:
            c.fail("names:" + what, "exit %s: %r" % (rc, err[-300:]))
            continue
        rows = list(csv.reader(io.StringIO(out.decode("utf-8", "replace"))))
        cells = [x for row in rows for x in row]
        bad = [x for x in cells if formula_cell(x)]
        if bad:
            c.fail("names:" + what, "CSV cells a spreadsheet would run: %r" % bad[:3])
        elif "'" + FORMULA_RING.decode() not in cells:
            c.fail("names:" + what, "no cell holds the quoted ring %r: %r"
                   % ("'" + FORMULA_RING.decode(), cells[:40]))
        else:
            c.count("names", what)


def kind_names(c):
    """every front end shows trace strings escaped: no control byte on the
    terminal, no forged line, strict UTF-8 JSON and CSV holding the TEXT form"""
    d = os.path.join(c.work, "names")
    os.makedirs(d, exist_ok=True)
    p = names_trace(c, os.path.join(d, "hostile-names.dat"))
    c.stats.setdefault("names", {})["files"] = 1
    ring, dev = escape_text(HOSTILE_RING), escape_text(HOSTILE_DEV)

    def clean(what, data):
        bad = printable_problem(data)
        if bad:
            c.fail("names:" + what, "%s: %r" % (bad, data[-300:]))
        else:
            c.count("names", what + "-clean")

    for args, what in (((), "text"), (("--top", "20"), "text-top"),
                       (("--explain",), "explain")):
        rc, out, err = run([c.a.tool] + list(args) + [p], env=tool_env())
        if rc != 0:
            c.fail("names:" + what, "exit %s: %r" % (rc, err[-300:]))
            continue
        clean(what, out)
        clean(what + "-stderr", err)
        forged = [l for l in err.decode("utf-8", "replace").splitlines()
                  if "FORGED" in l and not l.startswith("trace-cmd gpu-latency: warning: ") or
                  l.startswith("trace-cmd gpu-latency: warning: FORGED")]
        if forged:
            c.fail("names:%s-forged" % what, "a trace string started a line: %r" % forged)
        if ring not in out.decode("utf-8", "replace"):
            c.fail("names:" + what + "-ring", "the ring's escaped name %r is not in the "
                   "report" % ring)
        if what == "text" and "out of time order" not in err.decode("utf-8", "replace"):
            c.fail("names:disorder", "no disorder warning naming the ring: %r" % err[-300:])
    rc, out, err = run([c.a.tool, "--json", "--jobs", p], env=tool_env())
    try:
        j = json.loads(out.decode("utf-8", "strict"))
        jobs = j.get("jobs") or []
        if not jobs or any(x.get("ring") != ring or x.get("dev") != dev for x in jobs):
            c.fail("names:json-values", "jobs do not carry the escaped ring/dev %r %r: %r"
                   % (ring, dev, jobs[:1]))
        else:
            c.count("names", "json-values")
    except (UnicodeDecodeError, ValueError) as e:
        c.fail("names:json", "not strict UTF-8 JSON: %s" % e)
    rc, out, err = run([c.a.tool, "--csv", "--jobs", p], env=tool_env())
    clean("csv", out)
    try:
        import csv
        import io
        rows = list(csv.reader(io.StringIO(out.decode("utf-8", "strict"))))
        if not any(ring in row for row in rows):
            c.fail("names:csv-values", "no CSV cell holds the escaped ring %r" % ring)
    except (UnicodeDecodeError, ValueError) as e:
        c.fail("names:csv", "not UTF-8 CSV: %s" % e)
    kind_formula_names(c, d)
    if c.a.plugin_dir:
        opts = ["-O", "gpu_sched:annotate", "-O", "gpu_sched:summary"] if c.opts_ok else []
        rc, out, err = run(["trace-cmd", "report"] + opts + [p],
                           env=report_env(c, c.a.plugin_dir))
        # trace-cmd prints the comm itself (plain trace-cmd report does too): check
        # what follows the event name, which our plugin prints
        ours = b"\n".join(l.split(b": ", 2)[-1] for l in out.splitlines()
                          if b"drm_sched_job" in l or b"dma_fence" in l)
        clean("report", ours)
        summary = out[out.find(b"gpu_sched: job latency summary"):] \
            if b"gpu_sched: job latency summary" in out else b""
        clean("report-summary", summary)
    if c.a.rings:
        rc, out, err = run([c.a.rings, p], env=tool_env())
        clean("rings", out)
        if ring not in out.decode("utf-8", "replace"):
            c.fail("names:rings-ring", "gpu-kshark-rings does not show %r: %r" % (ring, out))
    if c.a.ks_load and c.a.ks_plugin:
        rc, out, err = run([c.a.ks_load, "-p", c.a.ks_plugin, p], env=ks_env())
        if crashed(rc, tool=False) or not re.search(rb"jobs [1-9]", out):
            c.fail("names:kshark", "ks-load exit %s: %r %r" % (rc, out[-200:], err[-300:]))
        clean("kshark-stderr", err)


# ---- hang: millions of open jobs -----------------------------------------------------

def kind_hang(c):
    jobs = c.a.hang_jobs
    p = os.path.join(c.work, "hang-%d.dat" % jobs)
    mkdat.write_hang(p, jobs, c.a.formats)
    c.stats.setdefault("hang", {})["files"] = 1
    c.stats["hang"]["jobs"] = jobs
    timev = "/usr/bin/time"
    cmd = [c.a.tool, p]
    if os.access(timev, os.X_OK):
        cmd = [timev, "-f", "@@RSS %M"] + cmd
    rc, out, err = run(cmd, env=tool_env(), timeout=600)
    errs = err.decode("utf-8", "replace")
    m = re.search(r"@@RSS (\d+)", errs)
    rss_kb = int(m.group(1)) if m else None
    if rss_kb is None:
        import resource
        rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    c.stats["hang"]["peak_rss_kb"] = rss_kb
    if crashed(rc) or (isinstance(rc, int) and rc != 0):
        c.fail("hang:tool", "gpu-latency exit %s on %d open jobs: %s" % (rc, jobs, errs[-400:]))
        return
    text = out.decode("utf-8", "replace")
    m = re.search(r"jobs\s+(\d+)\s+\((\d+) complete, (\d+) incomplete", text)
    if not m or int(m.group(1)) != jobs or int(m.group(3)) != jobs:
        c.fail("hang:count", "expected %d incomplete jobs, report says %r" %
               (jobs, m.group(0) if m else text[:300]))
    cap = 1 << 20
    if jobs > cap and not re.search(r"in flight|cap|max", errs):
        c.fail("hang:cap-warning", "the tracker cap (%d) was hit but nothing said so: %r"
               % (cap, errs[-300:]))
    # generous: ~600 bytes per open job up to the cap, plus 64 MB (x3 under ASan)
    bound = 64 * 1024 + min(jobs, cap) * 600 // 1024
    if linked_asan(c.a.tool):
        bound *= 3
    c.stats["hang"]["rss_bound_kb"] = bound
    if rss_kb > bound:
        c.fail("hang:rss", "peak RSS %d KB > bound %d KB for %d open jobs" % (rss_kb, bound, jobs))


# ---- hostile: well-formed traces built to exhaust memory or time ---------------------

# peak RSS of gpu-latency on any hostile trace, at any scale (KB): the caps of
# lib/caps.c keep 10^6 names or jobs in flight under it (x4 under sanitizers)
HOSTILE_RSS_KB = 768 * 1024


def hostile_run(c, check, path, env_caps=None, args=()):
    """gpu-latency on @path (caps from @env_caps): (rc, stdout text, stderr text)"""
    env = tool_env()
    for k in ("GPULAT_MAX_OPEN", "GPULAT_MAX_GROUPS", "GPULAT_MAX_TASKS"):
        env.pop(k, None)
    env.update(env_caps or {})
    rc, out, err = run([c.a.tool] + list(args) + [path], env=env, timeout=1800)
    kb = getattr(TLS, "rss", 0)
    d = c.stats.setdefault("hostile", {})
    d["peak_rss_kb:" + check] = kb
    errs = err.decode("utf-8", "replace")
    bound = HOSTILE_RSS_KB * (4 if c.sanitized() else 1)
    if crashed(rc) or rc != 0:
        c.fail("hostile:" + check, "gpu-latency exit %s on %s: %s" % (rc, path, errs[-600:]))
    elif kb > bound:
        c.fail("hostile:%s:rss" % check, "peak RSS %d KB > %d KB on %s" % (kb, bound, path))
    else:
        c.count("hostile", check + "-ok")
    for l in errs.splitlines():
        if l.strip() and os.path.basename(path) not in l:
            c.fail("hostile:%s:warning-name" % check, "a line not naming the file: %r" % l)
            break
    return rc, out.decode("utf-8", "replace"), errs


def hostile_jobs(c, check, text, want):
    """the headline's job counts against the writer's truth"""
    m = re.search(r"jobs\s+(\d+)\s+\((\d+) complete, (\d+) incomplete, (\d+) lost, "
                  r"(\d+) orphan", text)
    got = tuple(int(x) for x in m.groups()) if m else None
    exp = (want["jobs"], want["complete"], want["incomplete"], 0, want.get("orphan_done", 0))
    if got != exp:
        c.fail("hostile:%s:jobs" % check, "expected jobs/complete/incomplete/lost/orphan %s, "
               "report says %s" % (exp, m.group(0) if m else text[:300]))


def hostile_warned(c, check, errs, pattern, want=True):
    n = len(re.findall(pattern, errs))
    if want and n != 1:
        c.fail("hostile:%s:cap-warning" % check, "expected one warning /%s/, got %d: %r"
               % (pattern, n, errs[-400:]))
    elif not want and n:
        c.fail("hostile:%s:no-cap-warning" % check, "cap warning /%s/ below the cap: %r"
               % (pattern, errs[-400:]))


def hostile_others(c, check, text, label, jobs):
    """the "(others)" row of the process or ring table holds the jobs beyond the cap"""
    m = re.search(r"^\s+\(others\)%s\s+(\d+)" % re.escape(label), text, re.M)
    if not m or int(m.group(1)) != jobs:
        c.fail("hostile:%s:others" % check, "expected an (others)%s row with %d jobs: %r"
               % (label, jobs, m.group(0) if m else None))


def kind_hostile(c):
    d = os.path.join(c.work, "hostile")
    os.makedirs(d, exist_ok=True)
    big = c.a.hostile_scale == "big"
    # (kind, N, caps lowered to reach them with small traces)
    small_cap = 1000
    n_names = 1000000 if big else 3 * small_cap
    caps = {} if big else {"GPULAT_MAX_OPEN": str(small_cap), "GPULAT_MAX_GROUPS": str(small_cap),
                           "GPULAT_MAX_TASKS": str(small_cap)}
    cap_open = 1 << 20 if big else small_cap
    cap_groups = 16384 if big else small_cap
    files = {}

    def make(kind, n):
        p = os.path.join(d, "%s-%d.dat" % (kind, n))
        truth = hostile.KINDS[kind](p, n)
        files[kind] = p
        return p, truth

    # jobs in flight beyond the tracker cap: all reported incomplete, one warning
    n = 1200000 if big else 3 * small_cap
    p, t = make("inflight", n)
    rc, out, errs = hostile_run(c, "inflight", p, caps)
    if rc == 0:
        hostile_jobs(c, "inflight", out, t)
        hostile_warned(c, "inflight", errs, r"more than %d GPU jobs in flight" % cap_open)
    # distinct processes and rings beyond the group cap: an "(others)" row,
    # one warning; --explain's diagnosis capped too
    for kind, label, what in (("procs", "-0", "processes"), ("rings", "", "rings")):
        p, t = make(kind, n_names)
        for args in ((), ("--explain",)):
            check = kind + ("-explain" if args else "")
            rc, out, errs = hostile_run(c, check, p, caps, args)
            if rc != 0:
                continue
            hostile_jobs(c, check, out, t)
            hostile_warned(c, check, errs, r"more than %d %s: %d jobs of the others"
                           % (cap_groups, what, n_names - cap_groups))
            hostile_others(c, check, out, label, n_names - cap_groups)
            if args:
                hostile_warned(c, check, errs, r"diagnosis memory cap hit")
        if not big:
            # below the caps: every group listed, nothing said
            rc, out, errs = hostile_run(c, kind + "-below-cap", p)
            if rc == 0:
                hostile_jobs(c, kind + "-below-cap", out, t)
                hostile_warned(c, kind + "-below-cap", errs, r"more than \d+", want=False)
    # one event type with many records: streamed, RSS does not grow with them
    p, t = make("records", 10000000 if big else 200000)
    rc, out, errs = hostile_run(c, "records", p)
    if rc == 0:
        hostile_jobs(c, "records", out, t)
    # (a 1 MiB comm takes trace-cmd report minutes, without our plugin too)
    huge = (1 << 20) if big else 65536
    for kind, n in (("hugestr", huge), ("emptycpu", 64), ("future", 100)):
        p, t = make(kind, n)
        rc, out, errs = hostile_run(c, kind, p)
        if rc == 0:
            hostile_jobs(c, kind, out, t)
        if kind == "emptycpu" and not re.search(r"^\s+CPUs\s+%d\b" % n, out, re.M):
            c.fail("hostile:emptycpu:cpus", "the headline does not say %d CPUs: %r"
                   % (n, out[:400]))
        if kind == "future" and rc == 0:
            # the done 2^63 ns after its run: exact, no wrap, the longest job
            m = re.search(r"^\s+1\s+\S+\s+\S+\s+(\S+)", out[out.find("Worst"):], re.M)
            if not m or m.group(1) != "9223372036.855s":
                c.fail("hostile:future:total", "the worst job is not the 2^63 ns one: %r"
                       % (m.group(0) if m else out[-400:]))
    # a record stamped 2^64 - 1 ("no time" inside lib): skipped with a warning
    p = os.path.join(d, "future-max.dat")
    w = hostile.Writer(p)
    w.comm(4242, "future")
    q, r, dn, off = hostile.templates(w, 4242, "gfx")
    for i in range(10):
        hostile.job(w, 0, hostile.T0 + i * 200000, q, r, dn, off, i + 1,
                    hostile.FENCE0 + i * 0x100)
    ts = hostile.T0 + 10 * 200000
    hostile.job(w, 0, ts, q, r, dn, off, 11, hostile.FENCE0 + 0x5000,
                done_dt=(1 << 64) - 1 - ts - 10000)
    w.close()
    files["future-max"] = p
    rc, out, errs = hostile_run(c, "future-max", p)
    if rc == 0:
        hostile_jobs(c, "future-max", out, {"jobs": 11, "complete": 10, "incomplete": 1})
        hostile_warned(c, "future-max", errs, r"largest time \(2\^64 - 1 ns\); skipped")
        if not re.search(r"^\s+span\s+1\.000000 - 1\.002010 ", out, re.M):
            c.fail("hostile:future-max:span", "span not that of the other records: %r"
                   % out[:300])
    # a zstd bomb: chunks of 64 MiB of empty pages in ~2 KB frames, in place of a
    # CPU's data: refused before libtracecmd keeps them all (lib/read-check.c)
    v7 = [b for b in base_traces(c) if "-v7" in b or b.endswith("steady-617.dat")]
    if v7 and shutil.which("zstd"):
        p = os.path.join(d, "zbomb.dat")
        t = hostile.gen_zbomb(p, 1000, v7[0])
        files["zbomb"] = p
        env = tool_env()
        rc, out, err = run([c.a.tool, p], env=env)
        kb = getattr(TLS, "rss", 0)
        c.stats["hostile"]["peak_rss_kb:zbomb"] = kb
        c.stats["hostile"]["zbomb_declared_mb"] = t["declared_bytes"] >> 20
        errs = err.decode("utf-8", "replace")
        lines = [l for l in errs.splitlines() if l.strip()]
        if rc != 1 or len(lines) != 1 or "zbomb.dat" not in lines[0] or \
                "decompression bomb" not in lines[0] or out.strip():
            c.fail("hostile:zbomb", "expected exit 1 and one line naming the file and the "
                   "bomb, got %s: %r" % (rc, errs[-400:]))
        elif kb > 64 * 1024 * (4 if c.sanitized() else 1):
            c.fail("hostile:zbomb:rss", "peak RSS %d KB refusing a bomb" % kb)
        else:
            c.count("hostile", "zbomb-refused")
    # the other front ends on the small files: trace-cmd report with our plugin,
    # KernelShark headless, gpu-kshark-rings (no crash their own does not have)
    if not big:
        for kind, p in sorted(files.items()):
            check_report(c, "hostile:" + kind, p)
            # plain libkshark keeps the bomb's chunks itself (~330 MB, FINDINGS T10)
            if kind != "zbomb":
                check_kshark(c, "hostile:" + kind, p)
            check_rings(c, "hostile:" + kind, p)
    c.stats["hostile"]["files"] = len(files)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--plugin-dir")
    ap.add_argument("--gen")
    ap.add_argument("--formats", default=mkdat.formats_dir_default())
    ap.add_argument("--samples")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--jobs", type=int, default=6)
    ap.add_argument("--hang-jobs", type=int, default=200000)
    ap.add_argument("--hostile-scale", choices=("small", "big"), default="small")
    ap.add_argument("--ks-load", help="tests/damaged ks-load (libkshark headless)")
    ap.add_argument("--ks-plugin", help="plugin-gpu_jobs.so")
    ap.add_argument("--rings", help="gpu-kshark-rings")
    ap.add_argument("--ks-valgrind", help="valgrind: run ks-load under it (errors fail)")
    ap.add_argument("--only-kshark", action="store_true",
                    help="check only the KernelShark front end (kinds that sweep files)")
    ap.add_argument("--ks-sample", type=int, default=0,
                    help="with --only-kshark: at most N files per kind (0: all)")
    a = ap.parse_args()
    if not os.access(a.tool, os.X_OK):
        print("damaged: %s not built, skipped" % a.tool)
        return 0
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    c = Ctx(a)
    if a.plugin_dir:
        for d in ("/usr/lib/x86_64-linux-gnu/traceevent/plugins", "/usr/lib/traceevent/plugins"):
            if os.path.exists(os.path.join(d, "plugin_gpu_sched.so")):
                print("damaged: WARNING an installed %s/plugin_gpu_sched.so is loaded before "
                      "the one under test" % d)
    kinds = ["zero", "truncate", "bitflip", "block", "options", "layout", "backwards", "names",
             "hang", "hostile"] \
        if a.kind == "all" else a.kind.split(",")
    for k in kinds:
        globals()["kind_" + k](c)
    print("damaged: %s" % json.dumps(c.stats, sort_keys=True))
    with open(os.path.join(a.work, "third-party.txt"), "w") as fh:
        fh.write("".join(t + "\n" for t in c.third))
    for t in c.third:
        print("THIRD-PARTY (not our plugin): " + t)
    for x in c.xfails:
        print("XFAIL " + x)
    for f in c.fails[:50]:
        print("FAIL " + f)
    if c.fails:
        print("damaged: %d failure(s)" % len(c.fails))
        return 1
    print("damaged: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

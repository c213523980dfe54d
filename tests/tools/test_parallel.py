#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""test_parallel.py: -j N for one report gives the -j1 report, byte for byte.

    test_parallel.py TOOL SAMPLES_DIR WORK_DIR FORMATS_DIR MKDAT_DIR

lib/read-par.c decodes a zstd trace.dat with N threads and merges what they
copied in the single-thread order. Checked here on every sample trace (all
v7 zstd, so every one goes through the threads): text and --json with -j2
and -j4, --jobs --json (every job in emission order), --explain --json
(context events: sched, irq, power) and --csv with -j2, all against -j1,
stdout, stderr and exit code; since the threads decode the events (their
own string tables, mapped back at the merge), also the text --explain and
--frames reports (context events merged in time order, vblank frames;
-j4 and -j2), and a ring and a command filter taken from each trace's own
-j1 report. Every .dat under SAMPLES_DIR is read, the real captures in
real/ too. Then a trace whose per-CPU time goes backwards
(pages stamped earlier than the one before, the case where leaving records
out of a stream could change the merge order) and two files merged, both
converted to v7 zstd with `trace-cmd convert`.
"""
import json
import os
import shutil
import subprocess
import sys

fails = []


def run(tool, args):
    p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def same(tool, what, args, jobs):
    base = run(tool, ["-j1"] + args)
    for j in jobs:
        got = run(tool, ["-j%d" % j] + args)
        if got != base:
            part = [n for n, a, b in zip(("exit", "stdout", "stderr"), base, got) if a != b]
            fails.append("%s -j%d: %s differ from -j1" % (what, j, ", ".join(part)))
    return base


def filters(report):
    """a ring and a process filter from a -j1 JSON report: ones that select jobs"""
    try:
        d = json.loads(report)
    except ValueError:
        return []
    out = []
    rings = d.get("rings") or []
    if rings:
        r = rings[-1]
        out.append(["--ring", "%s/%s" % (r["dev"], r["ring"]) if r.get("dev") else r["ring"]])
    procs = d.get("processes") or []
    if procs and procs[0].get("comm"):
        out.append(["--comm", procs[0]["comm"]])
    return out


def is_v7(path):
    with open(path, "rb") as fh:
        head = fh.read(16)
    return head[10:11] == b"7"


def backwards_trace(mkdat_dir, formats, path):
    """
    Three CPUs. Job i: queued on cpu 0 at q, run on cpu 1 or 2 at q + 2 ms,
    then an event that is not ours (amdgpu_bo_create, left out by the
    threads) at q + 2.9 ms, then a new page stamped back at q + 0.5 ms with
    the job's done. The next job is queued at q + 2.5 ms: the single-thread
    merge takes the done after it (its CPU's head stays at 2.9 ms until the
    left-out record is taken), so two jobs are open at once (open_peak 2);
    merging by the done's own timestamp would close the job first.
    """
    sys.path.insert(0, mkdat_dir)
    import mkdat
    t = mkdat.Trace(formats, keep_order=True)
    for n in ("drm_sched_job", "drm_run_job", "drm_sched_process_job"):
        t.load("linux-6.1-debian", "gpu_scheduler", n)
    t.load("linux-6.1-debian", "amdgpu", "amdgpu_bo_create")
    t.comm(1000, "glxgears")
    t.comm(1001, "weston")
    for i in range(12):
        pid = 1000 + i % 2
        cpu = 1 + i % 2
        base = {"entity": 0xffff888000001000 + (i % 2) * 0x1000,
                "fence": 0xffff888100000000 + i * 0x100,
                "name": "gfx" if i % 3 else "comp", "id": i + 1, "job_count": 1,
                "hw_job_count": 1}
        q = 1000000000 + i * 2500000
        t.event(0, q, "drm_sched_job", pid, base)
        t.event(cpu, q + 2000000, "drm_run_job", pid, base)
        t.event(cpu, q + 2900000, "amdgpu_bo_create", pid, {"bo": 0x1000 + i})
        t.page_break(cpu)
        t.event(cpu, q + 500000 + (i % 4) * 100000, "drm_sched_process_job", 0,
                {"fence": base["fence"]})
        t.page_break(cpu)
    t.write(path)


def convert(v6, v7):
    p = subprocess.run(["trace-cmd", "convert", "--file-version", "7", "--compression",
                        "zstd", "-i", v6, "-o", v7], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode == 0 and os.path.exists(v7) and is_v7(v7)


def main():
    tool, samples, work, formats, mkdat_dir = [os.path.abspath(a) for a in sys.argv[1:6]]
    os.makedirs(work, exist_ok=True)
    traces = sorted(os.path.relpath(os.path.join(d, f), samples)
                    for d, _, files in os.walk(samples) for f in files if f.endswith(".dat"))
    if not traces:
        print("no sample traces")
        return 77
    v7 = 0
    for name in traces:
        p = os.path.join(samples, name)
        v7 += is_v7(p)
        same(tool, name, [p], (2, 4))
        rc, out, _ = same(tool, name + " --json", ["--json", p], (2, 4))
        if rc == 0 and not out.startswith(b"{"):
            fails.append("%s --json: no JSON report" % name)
        same(tool, name + " --jobs --json", ["--jobs", "--json", p], (2,))
        same(tool, name + " --explain --json", ["--explain", "--json", p], (2,))
        same(tool, name + " --csv", ["--csv", p], (2,))
        same(tool, name + " --explain", ["--explain", p], (4,))
        same(tool, name + " --frames", ["--frames", p], (2,))
        for flt in filters(out):
            same(tool, "%s %s --json" % (name, " ".join(flt)), flt + ["--json", p], (2,))
    if not v7:
        fails.append("no v7 (zstd) sample trace: the threads were never used")
    two = [os.path.join(samples, n) for n in ("steady.dat", "two-gpus.dat")]
    if all(os.path.exists(p) for p in two):
        same(tool, "steady.dat + two-gpus.dat --json", ["--json"] + two, (2, 3))

    if shutil.which("trace-cmd"):
        for d in ("v6", "v7"):
            os.makedirs(os.path.join(work, d), exist_ok=True)
        v6 = os.path.join(work, "v6", "backwards.dat")
        bz = os.path.join(work, "v7", "backwards.dat")
        backwards_trace(mkdat_dir, formats, v6)
        if convert(v6, bz):
            # the same name in both reports: run from each directory
            os.chdir(os.path.join(work, "v6"))
            ref = run(tool, ["--jobs", "--json", "backwards.dat"])
            os.chdir(os.path.join(work, "v7"))
            rc, out, err = same(tool, "backwards v7 --jobs --json",
                                ["--jobs", "--json", "backwards.dat"], (2, 3))
            if rc != 0 or b'"open_peak": 2' not in out:
                fails.append("backwards v7: exit %d, open_peak not 2 (%s)" % (rc, err[:200]))
            # the v7 copy is read by our zstd reader (threads), the v6 one by libtracecmd
            if (rc, out) != ref[:2]:
                fails.append("backwards: the v7 copy's report differs from the v6 file's")
        else:
            fails.append("trace-cmd convert to v7 zstd failed")
    else:
        print("SKIP backwards: no trace-cmd")

    for f in fails:
        print("FAIL " + f)
    print("%d traces (%d v7), %d failures" % (len(traces), v7, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Every error path of trace-cmd gpu-latency: exit 1, nothing on stdout, one
clear first line on stderr that names the file.

usage: test_errors.py TOOL GEN WORKDIR

GEN is gpu-trace-gen (writes the good traces the broken ones are made from).
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PREFIX = "trace-cmd gpu-latency: "
failures = []


def run(tool, args, cwd=None):
    return subprocess.run([tool] + args, capture_output=True, text=True, cwd=cwd, timeout=60)


def expect_error(name, tool, args, path, words, cwd=None, hint=False, last=False):
    """rc 1, empty stdout, first stderr line names @path and has all @words
    (@last: the last line does, after the file's own warnings)."""
    p = run(tool, args, cwd)
    lines = p.stderr.splitlines()
    first = (lines[-1] if last else lines[0]) if lines else ""
    problems = []
    if p.returncode != 1:
        problems.append(f"exit {p.returncode}, expected 1")
    if p.stdout:
        problems.append(f"{len(p.stdout)} bytes on stdout: {p.stdout[:120]!r}")
    if not first.startswith(PREFIX):
        problems.append(f"first stderr line does not start with {PREFIX!r}")
    if path and f" {path}: " not in first + " ":
        problems.append(f"first stderr line does not name {path}")
    for w in words:
        if w not in first:
            problems.append(f"first stderr line lacks {w!r}")
    if hint:
        text = p.stderr
        for era in ("6.17+", "5.7-6.16", "4.16-5.6"):
            if era not in text:
                problems.append(f"no record hint for {era}")
        if "trace-cmd record -e gpu_scheduler" not in text:
            problems.append("no trace-cmd record line")
    elif not last:
        # the error is one line (warnings may not precede it)
        if len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr, expected 1")
    status = "ok" if not problems else "FAIL"
    print(f"{status}: {name}: {first}")
    for pr in problems:
        print(f"      {pr}")
        failures.append(f"{name}: {pr}")


def gen(gen_tool, scenario, out, version):
    subprocess.run([gen_tool, "-s", scenario, "-o", out, "--file-version", str(version), "-q"],
                   check=True, capture_output=True)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, gen_tool, work = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    j = lambda *a: os.path.join(work, *a)

    good6, good7, good617 = j("good6.dat"), j("good7.dat"), j("good617.dat")
    gen(gen_tool, "steady", good6, 6)
    gen(gen_tool, "steady", good7, 7)
    gen(gen_tool, "steady-617", good617, 7)
    for kind in ("truncated", "short", "nogpu", "norecords", "badlayout"):
        subprocess.run([sys.executable, os.path.join(HERE, "mkbad.py"), kind, good6,
                        j(f"{kind}.dat")], check=True)
    # a driver's own events without the scheduler's: v3d and msm with their
    # gpu_scheduler and dma_fence systems renamed away
    for drv in ("v3d", "msm"):
        gen(gen_tool, drv, j(f"{drv}6.dat"), 6)
        subprocess.run([sys.executable, os.path.join(HERE, "mkbad.py"), "nogpu",
                        j(f"{drv}6.dat"), j(f"{drv}-only.dat")], check=True)
    with open(good7, "rb") as f:
        d = f.read()
    with open(j("truncated7.dat"), "wb") as f:
        f.write(d[:len(d) // 2])
    open(j("empty.dat"), "wb").close()
    with open(j("text.dat"), "w") as f:
        f.write("this is not a trace\n")
    with open(j("tiny.dat"), "wb") as f:
        f.write(b"\x17\x08")

    e = expect_error
    e("missing file", tool, [j("missing.dat")], j("missing.dat"), ["No such file"])
    e("default trace.dat missing", tool, [], "trace.dat", ["No such file"], cwd=work)
    e("empty file", tool, [j("empty.dat")], j("empty.dat"), ["empty"])
    e("not a trace", tool, [j("text.dat")], j("text.dat"), ["not a trace-cmd data file"])
    e("two bytes", tool, [j("tiny.dat")], j("tiny.dat"), ["not a trace-cmd data file"])
    e("directory", tool, [work], work, ["directory"])
    e("truncated v6 (CPU data)", tool, [j("truncated.dat")], j("truncated.dat"), ["truncated"])
    e("truncated v6 (headers)", tool, [j("short.dat")], j("short.dat"), ["truncated"])
    e("truncated v7", tool, [j("truncated7.dat")], j("truncated7.dat"),
      ["truncated or damaged"])
    e("no GPU events", tool, [j("nogpu.dat")], j("nogpu.dat"), ["no GPU scheduler events"],
      hint=True)
    e("v3d events only", tool, [j("v3d-only.dat")], j("v3d-only.dat"),
      ["only v3d driver events", "v3d:v3d_submit_cl", "gpu_scheduler events"], hint=True)
    e("msm events only", tool, [j("msm-only.dat")], j("msm-only.dat"),
      ["only msm driver events", "drm_msm_gpu:msm_gpu_submit", "gpu_scheduler events"],
      hint=True)
    e("GPU formats, no GPU records", tool, [j("norecords.dat")], j("norecords.dat"),
      ["no GPU scheduler events"], hint=True)
    e("unknown layout", tool, [j("badlayout.dat")], j("badlayout.dat"), ["layout"])
    fz = lambda name: os.path.join(HERE, "..", "fuzz", "reader-corpus", name)
    # F7: a negative record length on a v6 page loops libtracecmd (plain trace-cmd report
    # too); the file's own layout warning comes first, the error is the last line
    e("F7 page loop", tool, ["-j1", fz("F7-reader-loop-v6")], fz("F7-reader-loop-v6"),
      ["run back on their page"], last=True)
    # F9: a v6 file whose data section says "latency" (text): libtracecmd opens it,
    # then tracecmd_peek_data() dies on its missing CPU data
    e("F9 latency data", tool, [fz("F9-latency-v6")], fz("F9-latency-v6"),
      ["latency tracer text data"])
    # F10: a v7 CPUCOUNT option of 2^25 made the merge allocate a stream per CPU (2.7 GB)
    e("F10 CPU count", tool, [fz("F10-reader-cpus-oom")], fz("F10-reader-cpus-oom"),
      ["CPU count 33554436 larger than 8192"])
    e("incompatible layouts (5.19 + 6.17 merged)", tool, [good6, good617], good617,
      ["incompatible layout"])
    e("error in the second file", tool, [good7, j("text.dat")], j("text.dat"),
      ["not a trace-cmd data file"])
    e("error in the --compare base", tool, ["--compare", j("text.dat"), good7], j("text.dat"),
      ["not a trace-cmd data file"])
    e("-o into a missing directory", tool, ["-o", j("no", "such", "dir", "out.txt"), good7],
      j("no", "such", "dir", "out.txt"), ["No such file"])
    # usage errors: also rc 1 and nothing on stdout
    e("bad --threshold", tool, ["--threshold", "fast", good7], None, ["--threshold"])
    e("bad --top", tool, ["--top", "x", good7], None, ["--top"])
    e("bad --by", tool, ["--by", "speed", good7], None, ["--by"])
    e("bad --start", tool, ["--start", "1.2.3", good7], None, ["--start"])
    e("--end before --start", tool, ["--start", "5", "--end", "4", good7], None, ["--end"])
    e("bad --fail-if quantity", tool, ["--fail-if", "p99.speed>5ms", good7], None,
      ["--fail-if"])
    e("bad --fail-if value", tool, ["--fail-if", "p99.exec>fast", good7], None, ["--fail-if"])
    e("bad --fail-if selector", tool, ["--fail-if", "color=red,p99.exec>5ms", good7], None,
      ["--fail-if"])
    e("relative gate without --compare", tool, ["--fail-if", "p99.exec>+10%", good7], None,
      ["--compare"])
    e("unknown option", tool, ["--frobnicate", good7], None, ["--help"])

    # the good files work (the broken ones were made from them)
    for g in (good6, good7, good617):
        p = run(tool, ["-q", g])
        if p.returncode != 0 or not p.stdout:
            failures.append(f"good file {g}: exit {p.returncode}")
            print(f"FAIL: good file {g}: exit {p.returncode} {p.stderr.strip()}")
        else:
            print(f"ok: good file {os.path.basename(g)}")

    if failures:
        print(f"{len(failures)} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

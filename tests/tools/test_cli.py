#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Options of trace-cmd gpu-latency, checked against generated traces and their truth.

usage: test_cli.py TOOL GEN WORKDIR

  - the text report: sections, trace-cmd style timestamps, default trace.dat, -o
  - CSV: the header lines are a stable interface (summary, --jobs, --compare)
  - JSON: --hist, --top, --by
  - filters: --ring, --dev, --pid, --comm, --start/--end select exactly the jobs
    the truth file says
  - several files (a trace cut by `trace-cmd split`): merged in time, each
    file's rings with that file's own numbers (jobs never link across files)
  - --compare: a trace against itself has zero deltas; rings of one side only
  - --fail-if: exit 0 / 3, messages, relative gates
  - --owners: a trace of thousands of processes and clients (shape-procs10k): the text
    tables list the N with the most jobs (counted from the truth), most first, and
    say how many more there are; --owners 0 lists all; JSON keeps every one
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import re

from tcheck import check, finish, run

CSV_HEADER = ("group,dev,ring,pid,comm,client_id,jobs,complete,incomplete,lost,busy_ns,"
              "busy_pct,max_depth,avg_depth,hangs,start_measured,done_late,exec_measured,"
              "metric,n,min,max,mean,stddev,p50,p90,p99,p999,"
              "exact,max_ts,max_cpu")
CSV_JOBS_HEADER = ("index,dev,ring,pid,comm,client_id,id,fence_ptr,fence_ctx,fence_seqno,"
                   "status,queue_ts,queue_cpu,run_ts,run_cpu,done_ts,done_cpu,signal_ts,"
                   "signal_cpu,start_ts,wait,hw_queue,exec,total,dep_wait,job_count,"
                   "hw_job_count,n_deps,start_timing,exec_timing,done_timing,kernel_job,"
                   "lost_stages,hang")
CSV_COMPARE_HEADER = "dev,ring,metric,stat,base,current,delta,delta_pct"
TS_CPU = re.compile(r"\b\d+\.\d{6} \[\d{3}\]")


def js(tool, args):
    p = run(tool, ["--json", "-q"] + args)
    if p.returncode != 0:
        raise RuntimeError(f"{args}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


def truth_jobs(truth, pred):
    return [j for j in truth["jobs"] if pred(j)]


def first_seen(j):
    for st in ("queue", "run", "done", "signal"):
        if j.get(f"{st}_ts") is not None:
            return j[f"{st}_ts"]
    return None


def test_text(tool, trace, work):
    p = run(tool, [trace])
    out = p.stdout
    check("text: exit 0", p.returncode == 0, p.stderr)
    for section in ("kernel era", "span", "devices", "rings", "jobs", "CPUs", "lost events",
                    "\nRings", "\nRing latency", "\nProcesses", "\nWorst ", "\nStalls",
                    "\nIncomplete jobs"):
        check(f"text: has {section.strip()!r}", section in out)
    check("text: timestamps as trace-cmd report prints them (sec.usec [cpu])",
          len(TS_CPU.findall(out)) > 10)
    check("text: no trailing blanks", not any(l != l.rstrip() for l in out.splitlines()))
    # default file and -o
    shutil.copy(trace, os.path.join(work, "trace.dat"))
    p2 = run(tool, [], cwd=work)
    check("text: reads ./trace.dat by default", p2.returncode == 0 and
          p2.stdout.replace("trace.dat", "X") == run(tool, ["trace.dat"], cwd=work).stdout
          .replace("trace.dat", "X"))
    outf = os.path.join(work, "out.txt")
    p3 = run(tool, ["-o", outf, trace])
    with open(outf) as f:
        check("-o FILE: report in the file, nothing on stdout",
              p3.returncode == 0 and not p3.stdout and f.read() == out)
    p4 = run(tool, ["--hist", trace])
    check("--hist: histograms in the text report",
          "Histograms" in p4.stdout and "distribution" in p4.stdout)


def test_csv(tool, trace, truth):
    p = run(tool, ["--csv", trace])
    lines = p.stdout.splitlines()
    check("csv: stable header", lines and lines[0] == CSV_HEADER, lines[:1])
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    gfx_exec = [r for r in rows if r["group"] == "ring" and r["metric"] == "exec"]
    truth_rings = {(r["dev"], r["ring_label"]): r for r in truth["rings"]}
    ok = True
    for r in gfx_exec:
        t = truth_rings.get((r["dev"], r["ring"]))
        ok &= t is not None and int(r["p99"]) == t["exec"]["p99"] and int(r["jobs"]) == t["jobs"]
    check("csv: ring rows carry the truth's numbers", ok and gfx_exec)
    p = run(tool, ["--csv", "--jobs", trace])
    lines = p.stdout.splitlines()
    check("csv --jobs: stable header", lines and lines[0] == CSV_JOBS_HEADER, lines[:1])
    check("csv --jobs: one row per job", len(lines) - 1 == len(truth["jobs"]),
          f"{len(lines) - 1} rows, {len(truth['jobs'])} jobs")
    p = run(tool, ["--csv", "--compare", trace, trace])
    check("csv --compare: stable header",
          p.stdout.splitlines()[:1] == [CSV_COMPARE_HEADER], p.stdout[:200])


def test_json_options(tool, trace):
    d = js(tool, ["--hist", trace])
    r = d["rings"][0]
    n = sum(b["count"] for b in r["hist"]["exec"])
    check("json --hist: histogram counts add up to n", n == r["exec"]["n"], f"{n} {r['exec']}")
    d = js(tool, ["--top", "3", trace])
    check("json --top 3: three worst jobs", len(d["worst"]) == 3)
    totals = [j["total"] for j in d["worst"]]
    check("json: worst jobs sorted by total", totals == sorted(totals, reverse=True), totals)
    d = js(tool, ["--by", "exec", "--top", "1", trace])
    best = max(r["exec"]["max"] for r in d["rings"])
    check("json --by exec: the worst job has the largest exec",
          d["worst"] and d["worst"][0]["exec"] == best and d["worst_by"] == "exec")
    d = js(tool, ["--threshold", "1ms", trace])
    d2 = js(tool, ["--threshold", "100ms", trace])
    check("--threshold: a lower threshold finds more stalls",
          len(d["stalls"]) > len(d2["stalls"]) and d["stall_threshold_ns"] == 1000000 and
          all(s["gap_ns"] > 1000000 for s in d["stalls"]))


def test_job_objects(tool, trace):
    """--jobs rows are written without json-c; they must equal the json-c job
    objects of "worst" (same members, same order, same values)."""
    d = js(tool, ["--jobs", "--top", "50", trace])
    jobs = {j["index"]: j for j in d["jobs"]}
    ok, why = True, ""
    for w in d["worst"]:
        j = jobs.get(w["index"])
        if j is None or list(w) != list(j):
            ok, why = False, f"{w.get('index')}: {list(w)} / {list(j or {})}"
            break
        diff = [k for k in w if k != "deps" and w[k] != j[k]]
        if diff:
            ok, why = False, f"job {w['index']}: {diff}"
            break
    check("json --jobs rows equal the json-c job objects", ok and d["worst"], why)
    check("json --jobs: deps listed for every job", all(len(j["deps"]) == j["n_deps"]
                                                        for j in d["jobs"]))


def test_filters(tool, trace, truth, name):
    jobs = truth["jobs"]
    ring = jobs[0]["ring_label"]
    d = js(tool, ["--ring", ring, trace])
    want = truth_jobs(truth, lambda j: j["ring_label"] == ring)
    check(f"{name} --ring {ring}: only that ring, its job count",
          {r["ring"] for r in d["rings"]} == {ring} and d["counts"]["jobs"] == len(want),
          (d["counts"]["jobs"], len(want)))
    pid = jobs[-1]["pid"]
    d = js(tool, ["--pid", str(pid), trace])
    want = truth_jobs(truth, lambda j: j["pid"] == pid)
    check(f"{name} --pid {pid}", d["counts"]["jobs"] == len(want) and
          [p["pid"] for p in d["processes"]] == [pid], (d["counts"]["jobs"], len(want)))
    comm = jobs[0]["comm"]
    d = js(tool, ["--comm", comm, trace])
    want = truth_jobs(truth, lambda j: j["comm"] == comm)
    check(f"{name} --comm {comm}", d["counts"]["jobs"] == len(want),
          (d["counts"]["jobs"], len(want)))
    two = sorted({j["ring_label"] for j in jobs})[:2]
    d = js(tool, ["--ring", ",".join(two), trace])
    want = truth_jobs(truth, lambda j: j["ring_label"] in two)
    check(f"{name} --ring A,B", d["counts"]["jobs"] == len(want))
    # time window: a job counts when its first seen stage is inside
    first, last = truth["first_ts"], truth["last_ts"]
    lo = first + (last - first) // 4
    hi = first + (last - first) // 2
    fmt = lambda ns: f"{ns // 10**9}.{ns % 10**9 // 1000:06d}"
    lo_ns = (lo // 1000) * 1000
    hi_ns = (hi // 1000) * 1000
    d = js(tool, ["--start", fmt(lo), "--end", fmt(hi), trace])
    want = truth_jobs(truth, lambda j: lo_ns <= first_seen(j) <= hi_ns)
    check(f"{name} --start/--end: the jobs first seen in the window",
          d["counts"]["jobs"] == len(want), (d["counts"]["jobs"], len(want)))
    check(f"{name} --start/--end: span is the window", d["span_ns"] == hi_ns - lo_ns,
          (d["span_ns"], hi_ns - lo_ns))
    devs = sorted({j["dev"] for j in jobs if j["dev"]})
    if devs:
        d = js(tool, ["--dev", devs[0], trace])
        want = truth_jobs(truth, lambda j: j["dev"] == devs[0])
        check(f"{name} --dev {devs[0]}", d["counts"]["jobs"] == len(want) and
              all(r["dev"] == devs[0] for r in d["rings"]))


def test_pointer_rings(tool, trace, truth):
    """5.7-5.18: rings are traced as the address of their name. --ring takes the
    name the fence timelines give (the generator's ring), the label, and the
    address; JSON keeps the address as ring_ptr."""
    for r in truth["rings"]:
        want = truth_jobs(truth, lambda j: j["ring_label"] == r["ring_label"])
        for spec in (r["ring"], r["ring_label"]):
            d = js(tool, ["--ring", spec, trace])
            got = [(x["ring"], x.get("ring_ptr")) for x in d["rings"]]
            check(f"era-57 --ring {spec}: ring {r['ring']} ({r['ring_label']}), "
                  f"{len(want)} jobs",
                  got == [(r["ring"], r["ring_label"])] and
                  d["counts"]["jobs"] == len(want), (got, d["counts"]["jobs"], len(want)))
    d = js(tool, ["--jobs", trace])
    bad = [j for j in d["jobs"] if j.get("ring_ptr") is None or j["ring"].startswith("0x")]
    check("era-57 --jobs: every job has its ring's name and ring_ptr", not bad, bad[:1])
    p = run(tool, ["-q", "--fail-if", f"ring={truth['rings'][0]['ring']},jobs>0", trace])
    check("era-57 ring=NAME gate selects the named ring", p.returncode == 3, p.stderr)


def test_ring_label(tool, trace, truth):
    """--ring takes the report's label dev/ring (two GPUs, same ring names)."""
    r = truth["rings"][0]
    label = f"{r['dev']}/{r['ring']}"
    want = truth_jobs(truth, lambda j: j["dev"] == r["dev"] and j["ring"] == r["ring"])
    d = js(tool, ["--ring", label, trace])
    check(f"two-gpus --ring {label}: that device's ring only",
          [(x["dev"], x["ring"]) for x in d["rings"]] == [(r["dev"], r["ring"])] and
          d["counts"]["jobs"] == len(want), (d["rings"], len(want)))


def test_merge(tool, trace, work):
    """Several files are read merged in time; jobs never link across files, so
    each file's rings are its own and carry the numbers of that file alone."""
    parts = os.path.join(work, "part.dat")
    p = subprocess.run(["trace-cmd", "split", "-i", trace, "-o", parts, "-m", "700", "-r"],
                       capture_output=True, text=True)
    files = sorted(f for f in os.listdir(work) if f.startswith("part.dat."))
    if p.returncode != 0 or len(files) < 2:
        print(f"skip: trace-cmd split did not split ({p.returncode}) {p.stderr[:200]}")
        return
    files = [os.path.join(work, f) for f in files]
    merged = js(tool, files)
    summary = lambda s: {k: v for k, v in s.items()
                         if k not in ("max_cpu", "max_job_index")}
    key = lambda r: (r["jobs"], r["complete"], r["busy_ns"], r["max_depth"],
                     [summary(r[m]) for m in ("wait", "hw_queue", "exec", "total", "dep_wait")])
    ok = True
    for k, f in enumerate(files):
        single = {(r["dev"], r["ring"]): key(r) for r in js(tool, [f])["rings"]}
        mine = {(r["dev"], r["ring"]): key(r) for r in merged["rings"] if r["file"] == k}
        if single != mine:
            ok = False
            print(f"      file {k}: {single}\n      merged: {mine}")
    check(f"merge: {len(files)} files, each file's rings carry that file's numbers", ok)
    total = sum(js(tool, [f])["counts"]["jobs"] for f in files)
    check("merge: job count is the sum over the files", merged["counts"]["jobs"] == total)
    check("merge: span covers all files",
          merged["first_ts"] == js(tool, [files[0]])["first_ts"] and
          merged["last_ts"] == js(tool, [files[-1]])["last_ts"])
    p = run(tool, files)
    check("merge: text names each file's rings", all(os.path.basename(f) + ":" in p.stdout
                                                       for f in files))


def test_compare(tool, trace, other):
    d = js(tool, ["--compare", trace, trace])
    ok = all(r[m][s]["delta"] in (0, None) for r in d["rings"]
             for m in ("wait", "hw_queue", "exec", "total") for s in ("p50", "p90", "p99", "max"))
    check("compare: a trace against itself has zero deltas", ok and d["rings"])
    p = run(tool, ["--compare", trace, trace])
    check("compare: text", p.returncode == 0 and "Ring latency, base -> current" in p.stdout)
    d = js(tool, ["--compare", trace, other])
    rb = {(r["dev"], r["ring"]) for r in d["base"]["rings"]}
    rc = {(r["dev"], r["ring"]) for r in d["current"]["rings"]}
    names_b = {n for dev, n in rb if not dev}
    names_c = {n for dev, n in rc if not dev}
    # one side before 6.17 (no devices): a ring of the same name on the other
    # side is the same ring (issue 16), listed once with the current's device
    for n in {n for _, n in rb} & {n for _, n in rc}:
        if (n in names_b) != (n in names_c):
            rb = {(dev, m) for dev, m in rb if m != n}
            rc = rc | set()
            rb |= {(dev, m) for dev, m in rc if m == n}
    check("compare: rings of both sides are listed (matched by device and name)",
          {(r["dev"], r["ring"]) for r in d["rings"]} == rb | rc)
    one_side = [r for r in d["rings"] if r["jobs"] is None or r["jobs_base"] is None]
    check("compare: a ring on one side only has null on the other",
          len(one_side) == len(rb ^ rc))


def test_gates(tool, trace, truth, other):
    rings = {r["ring_label"]: r for r in truth["rings"]}
    name, r = next(iter(rings.items()))
    p99 = r["exec"]["p99"]
    below = f"{max(p99 - 1, 0)}ns"
    above = f"{p99}ns"
    p = run(tool, ["-q", "--fail-if", f"ring={name},p99.exec>{above}", trace])
    check("gate holds: exit 0", p.returncode == 0 and p.stdout, (p.returncode, p.stderr))
    p = run(tool, ["-q", "--fail-if", f"ring={name},p99.exec>{below}", trace])
    check("gate fails: exit 3, report still printed, message on stderr",
          p.returncode == 3 and p.stdout and f"ring {name}" in p.stderr and "failed" in p.stderr,
          (p.returncode, p.stderr))
    p = run(tool, ["-q", "--fail-if", f"ring={name},p99.exec>={above}", trace])
    check("gate >= fails at equality", p.returncode == 3, p.returncode)
    p = run(tool, ["-q", "--json", "--fail-if", "p99.total>1ns", trace])
    check("gate without selector checks every ring",
          p.returncode == 3 and p.stderr.count("failed") == len(rings) and json.loads(p.stdout))
    p = run(tool, ["-q", "--fail-if", "ring=no-such-ring,p99.exec>1s", trace])
    check("gate on a ring that does not exist fails", p.returncode == 3 and "no ring" in p.stderr)
    p = run(tool, ["-q", "--fail-if", "busy>100%", "--fail-if", "incomplete>0", trace])
    inc = sum(1 for j in truth["jobs"] if j["status"] == "incomplete")
    check("gates busy>100% and incomplete>0", p.returncode == (3 if inc else 0),
          (p.returncode, p.stderr))
    comm = truth["jobs"][0]["comm"]
    p = run(tool, ["-q", "--fail-if", f"comm={comm},jobs<1", trace])
    check("gate on a process", p.returncode == 0, p.stderr)
    p = run(tool, ["-q", "--fail-if", f"comm={comm},jobs>=1", trace])
    check("gate on a process fails", p.returncode == 3 and f"process {comm}" in p.stderr,
          p.stderr)
    p = run(tool, ["-q", "--compare", trace, "--fail-if", "p99.total>+0%", trace])
    check("relative gate against itself holds", p.returncode == 0, p.stderr)
    p = run(tool, ["-q", "--compare", trace, "--fail-if", "p99.total>-50%", trace])
    check("relative gate -50% fails against itself", p.returncode == 3, p.stderr)


OWNER_ROW = re.compile(r"^  (\S+)\s+(\d+)\s+\d+\s")
MORE = re.compile(r"^  \.\.\. (\d+) more (processes|clients) ")


def owner_tables(text):
    """{'Processes': ([(name, jobs)...], more), 'Clients': ...} of a text report"""
    tables, cur = {}, None
    for line in text.splitlines():
        if line.startswith("Processes (") or line.startswith("Clients ("):
            cur = line.split(" ")[0]
            tables[cur] = ([], 0)
            continue
        if cur is None:
            continue
        if not line.strip():
            cur = None
            continue
        m = MORE.match(line)
        if m:
            tables[cur] = (tables[cur][0], int(m.group(1)))
            continue
        m = OWNER_ROW.match(line)
        if m and m.group(1) not in ("process", "client"):
            tables[cur][0].append((m.group(1), int(m.group(2))))
    return tables


def test_owners(tool, trace, truth):
    procs, clients = {}, {}
    for j in truth["jobs"]:
        if j.get("queue_ts") is None:
            continue
        key = f"{j['comm']}-{j['pid']}"
        procs[key] = procs.get(key, 0) + 1
        if j.get("client_id") is not None:
            clients[str(j["client_id"])] = clients.get(str(j["client_id"]), 0) + 1
    check("owners: the trace has more than 20 processes and clients",
          len(procs) > 20 and len(clients) > 20, f"{len(procs)} {len(clients)}")
    for args, limit in (([], 20), (["--owners", "7"], 7), (["--owners", "0"], None)):
        p = run(tool, args + [trace])
        t = owner_tables(p.stdout)
        for name, want in (("Processes", procs), ("Clients", clients)):
            rows, more = t.get(name, ([], -1))
            n = len(want) if limit is None else min(limit, len(want))
            counts = [c for _, c in rows]
            top = sorted(want.values(), reverse=True)[:n]
            check(f"owners {args}: {name}: {n} rows", len(rows) == n, f"{len(rows)} rows")
            check(f"owners {args}: {name}: rows have their true job counts",
                  all(want.get(k) == c for k, c in rows), rows[:5])
            if limit is not None:
                check(f"owners {args}: {name}: the ones with the most jobs, most first",
                      counts == top, f"{counts[:8]} vs {top[:8]}")
            check(f"owners {args}: {name}: says how many more",
                  more == len(want) - n, f"{more} vs {len(want) - n}")
    d = js(tool, [trace])
    check("owners: JSON keeps every process", len(d["processes"]) == len(procs),
          f"{len(d['processes'])} vs {len(procs)}")
    p = run(tool, ["--owners", "-1", trace])
    check("owners: a bad count is refused in one line",
          p.returncode == 1 and "--owners" in p.stderr and len(p.stderr.splitlines()) == 1,
          p.stderr)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, gen, work = (os.path.abspath(a) for a in sys.argv[1:])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    def make(scenario, *extra):
        out = os.path.join(work, f"{scenario}.dat")
        subprocess.run([gen, "-s", scenario, "-o", out, "-q", *extra], check=True)
        with open(os.path.join(work, f"{scenario}.truth.json")) as f:
            return out, json.load(f)

    steady, t_steady = make("steady")
    two, t_two = make("two-gpus")
    hang, t_hang = make("hang")
    e57, t_e57 = make("era-57")
    procs, t_procs = make("shape-procs10k", "--events", "60000")

    test_text(tool, steady, work)
    test_csv(tool, steady, t_steady)
    test_json_options(tool, steady)
    test_job_objects(tool, steady)
    test_job_objects(tool, os.path.join(work, "two-gpus.dat"))
    test_filters(tool, steady, t_steady, "steady")
    test_filters(tool, two, t_two, "two-gpus")
    test_filters(tool, hang, t_hang, "hang")
    test_pointer_rings(tool, e57, t_e57)
    test_ring_label(tool, two, t_two)
    test_merge(tool, steady, work)
    test_compare(tool, steady, two)
    test_gates(tool, steady, t_steady, two)
    test_gates(tool, hang, t_hang, two)
    test_owners(tool, procs, t_procs)

    return finish("problem(s)")


if __name__ == "__main__":
    sys.exit(main())

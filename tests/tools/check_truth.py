#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Compare `trace-cmd gpu-latency --json --jobs` with a generated trace's truth file.

usage: check_truth.py TOOL TRACE.dat TRACE.truth.json

Checked, field by field (docs/truth-format.md):
  - the trace: era, first/last timestamp, CPUs, lost events, number of jobs
  - per ring (matched by dev + ring name: before 5.19 the name the fence
    timelines give, the address as ring_ptr): jobs, complete, incomplete, lost,
    busy_ns, busy_pct, max_depth (not on rings with a job in a lost-events
    window: its true stage time is unknowable) and, for wait/hw_queue/exec/total/dep_wait,
    n/min/max/mean/p50/p90/p99/p999 (stddev to 1e-6 relative)
  - every job (matched by ring + id, or dev + fence context:seqno on 6.17+, or
    ring + queue timestamp): status, pid, comm, every stage timestamp and CPU,
    start_ts and the five metrics; for jobs that did not complete only the
    stages the trace still holds and lost_stages.
  - what the driver's events measured or reported (docs/truth-format.md):
    per complete job start_timing, exec_timing (absent from the truth:
    derived) and done_timing, per job hang (absent: none) and kernel_job
    (amdgpu kernel work; absent: a client's job), the clients (6.17+: the
    truth's client ids of jobs that are no kernel work), per dependency
    (where the truth says) scheduled fence, unschedulable and producer ring; per ring hangs,
    start_measured, exec_measured and done_late, counted from the truth's
    jobs; and the same per-job values in the --csv --jobs columns.
Exit 0 when everything matches, 1 with a list of the differences.
No pip packages: json and subprocess only.
"""
import csv
import io
import json
import math
import subprocess
import sys

METRICS = ("wait", "hw_queue", "exec", "total", "dep_wait")
STATS = ("n", "min", "max", "mean", "p50", "p90", "p99", "p999")
STAGES = ("queue", "run", "done", "signal")
MAX_REPORTED = 40


class Diff:
    def __init__(self):
        self.items = []
        self.checked = 0

    def eq(self, what, ours, truth):
        self.checked += 1
        if ours != truth:
            self.items.append(f"{what}: report {ours!r}, truth {truth!r}")

    def close(self, what, ours, truth, rel=1e-6):
        self.checked += 1
        if ours is None or truth is None:
            if ours != truth:
                self.items.append(f"{what}: report {ours!r}, truth {truth!r}")
            return
        if not math.isclose(ours, truth, rel_tol=rel, abs_tol=1e-6):
            self.items.append(f"{what}: report {ours!r}, truth {truth!r}")


def run_tool(tool, trace, fmt="--json"):
    p = subprocess.run([tool, fmt, "--jobs", "-q", trace], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"check_truth: {tool} failed ({p.returncode}): {p.stderr.strip()}")
    if fmt == "--csv":
        return list(csv.DictReader(io.StringIO(p.stdout)))
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError as e:
        sys.exit(f"check_truth: the report is not JSON: {e}")


# the driver fields of a job (lib/track-{i915,xe,hw}.c), truth defaults
DRIVER_JOB = ("start_timing", "exec_timing", "done_timing", "hang")
DRIVER_TIMING = DRIVER_JOB[:3]


def driver_truth(t):
    return {"start_timing": t.get("start_timing"),
            "exec_timing": t.get("exec_timing", "derived"),
            "done_timing": t.get("done_timing"),
            "hang": sorted(t.get("hang") or [])}


def driver_counts(jobs):
    """per ring counts of the driver fields, from per-job values"""
    c = {"hangs": 0, "start_measured": 0, "exec_measured": 0, "done_late": 0}
    for v in jobs:
        c["hangs"] += bool(v["hang"])
        c["start_measured"] += v["start_timing"] == "measured"
        c["exec_measured"] += v["exec_timing"] == "measured"
        c["done_late"] += v["done_timing"] == "late"
    return c


def ring_key(dev, label):
    return (dev or "", label)


def shown_ring(truth, x):
    """The ring name a report prints: before 5.19 the trace holds only the
    name's address (ring_label); the drm_sched fence timelines give the name
    (the generator's ring) when dma_fence events were recorded."""
    if truth.get("options", {}).get("dma_fence"):
        return x["ring"]
    return x["ring_label"]


def job_keys(j, ring_label, era):
    """Keys a job can be found by, best first."""
    keys = []
    dev = j.get("dev") or ""
    if j.get("id") is not None:
        keys.append(("id", dev, ring_label, j["id"]))
    if era == "6.17+" and j.get("fence_ctx") is not None:
        keys.append(("fence", dev, j["fence_ctx"], j["fence_seqno"]))
    if j.get("queue_ts") is not None:
        keys.append(("queue", dev, ring_label, j["queue_ts"]))
    return keys


def compare_rings(d, ours, truth):
    # rings with a job in a lost-events window: when that job's missing stage
    # happened is unknowable from the trace, so its depth interval is too
    # (the same rule as tests/lib/truth_check.c)
    lost_rings = {ring_key(j["dev"], shown_ring(truth, j)) for j in truth["jobs"]
                  if j.get("lost_stages")}
    our_rings = {ring_key(r["dev"], r["ring"]): r for r in ours["rings"]}
    truth_rings = {ring_key(r["dev"], shown_ring(truth, r)): r for r in truth["rings"]}
    d.eq("ring names", sorted(our_rings), sorted(truth_rings))
    for key, t in sorted(truth_rings.items()):
        o = our_rings.get(key)
        if o is None:
            continue
        name = "/".join(x for x in key if x)
        # the address stays available where the trace names the ring by it
        d.eq(f"ring {name} ring_ptr", o.get("ring_ptr"),
             t["ring_label"] if t["ring_label"] != t["ring"] else None)
        for f in ("jobs", "complete", "incomplete", "lost", "busy_ns", "max_depth"):
            if f == "max_depth" and key in lost_rings:
                continue
            d.eq(f"ring {name} {f}", o.get(f), t.get(f))
        d.close(f"ring {name} busy_pct", o.get("busy_pct"), t.get("busy_pct"))
        tj = [driver_truth(j) for j in truth["jobs"] if j["status"] == "complete" and
              ring_key(j["dev"], shown_ring(truth, j)) == key]
        for f, v in driver_counts(tj).items():
            d.eq(f"ring {name} {f}", o.get(f), t.get(f, v) if f == "hangs" else v)
        for m in METRICS:
            tm, om = t.get(m), o.get(m)
            if tm is None:
                continue
            for s in STATS:
                ov = om.get(s)
                tv = tm.get(s)
                if tm.get("n") == 0 and s != "n":
                    continue        # no values: truth may say 0 or null
                d.eq(f"ring {name} {m}.{s}", ov, tv)
            if tm.get("n"):
                d.close(f"ring {name} {m}.stddev", om.get("stddev"), tm.get("stddev"))


def compare_jobs(d, ours, truth):
    era = truth["era"]
    index = {}
    for j in ours.get("jobs", []):
        for k in job_keys(j, j.get("ring"), era):
            index.setdefault(k, []).append(j)
    d.eq("number of jobs", len(ours.get("jobs", [])), len(truth["jobs"]))
    used = set()
    for t in truth["jobs"]:
        o = None
        for k in job_keys(t, shown_ring(truth, t), era):
            cand = [c for c in index.get(k, []) if id(c) not in used]
            if cand:
                o = cand[0]
                break
        name = f"job {t['index']} ({t.get('ring_label')} id={t.get('id')} " \
               f"fence={t.get('fence_ctx')}:{t.get('fence_seqno')})"
        if o is None:
            d.items.append(f"{name}: not in the report")
            continue
        used.add(id(o))
        d.eq(f"{name} status", o["status"], t["status"])
        lost = set(t.get("lost_stages") or [])
        d.eq(f"{name} lost_stages", sorted(o.get("lost_stages") or []), sorted(lost))
        if "queue" not in lost:     # the submitter is only known from the queue event
            d.eq(f"{name} pid", o["pid"], t["pid"])
            d.eq(f"{name} comm", o["comm"], t["comm"])
        for st in STAGES:
            if st in lost:
                continue
            if st == "signal" and not truth.get("options", {}).get("dma_fence", True):
                continue
            d.eq(f"{name} {st}_ts", o.get(f"{st}_ts"), t.get(f"{st}_ts"))
            if t.get(f"{st}_ts") is not None:
                d.eq(f"{name} {st}_cpu", o.get(f"{st}_cpu"), t.get(f"{st}_cpu"))
        # what the driver reported, whether or not the job completed
        d.eq(f"{name} hang", sorted(o.get("hang") or []), driver_truth(t)["hang"])
        if "queue" not in lost:     # amdgpu kernel work: named by its queue's client_id
            d.eq(f"{name} kernel_job", o.get("kernel_job"), t.get("kernel_job"))
        if t["status"] != "complete":
            continue
        d.eq(f"{name} start_ts", o.get("start_ts"), t.get("start_ts"))
        for m in METRICS:
            d.eq(f"{name} {m}", o.get(m), t.get(m))
        want = driver_truth(t)
        for f in DRIVER_TIMING:
            d.eq(f"{name} {f}", o.get(f), want[f])
        # 6.17+ dependencies: on a scheduled fence, blocked (unschedulable
        # while unsignalled, not the racy events of signalled ones)
        ours_deps = {(x["fence_ctx"], x["fence_seqno"]): x for x in o.get("deps") or []}
        for td in t.get("deps") or []:
            if "unschedulable" not in td:
                continue
            od = ours_deps.get((td["fence_ctx"], td["fence_seqno"]))
            dn = f"{name} dep {td['fence_ctx']}:{td['fence_seqno']}"
            if od is None:
                d.items.append(f"{dn}: not in the report")
                continue
            d.eq(f"{dn} unschedulable", od.get("unschedulable"), td["unschedulable"])
            d.eq(f"{dn} scheduled", od.get("scheduled"), td["scheduled"])
            d.eq(f"{dn} ring", od.get("ring"), td["ring"])


def compare_csv(d, ours, rows):
    """the driver columns of --csv --jobs equal the JSON jobs (checked above)"""
    by_index = {str(j["index"]): j for j in ours.get("jobs", [])}
    d.eq("CSV jobs", len(rows), len(by_index))
    for r in rows:
        j = by_index.get(r["index"])
        if j is None:
            d.items.append(f"CSV job {r['index']}: not in the JSON")
            continue
        for f in DRIVER_JOB:
            want = "|".join(j[f] or []) if f == "hang" else (j[f] or "")
            d.eq(f"CSV job {r['index']} {f}", r.get(f), want)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, trace, truth_path = sys.argv[1:]
    with open(truth_path) as f:
        truth = json.load(f)
    ours = run_tool(tool, trace)
    d = Diff()

    d.eq("era", ours["era"], truth["era"])
    d.eq("first_ts", ours["first_ts"], truth["first_ts"])
    d.eq("last_ts", ours["last_ts"], truth["last_ts"])
    d.eq("cpus", ours["cpus"], truth["cpus"])
    counts = truth.get("counts", {})
    if "events" in counts:
        d.eq("events", ours["counts"]["events"], counts["events"])
    if "gpu_events" in counts:
        d.eq("gpu_events", ours["counts"]["gpu_events"], counts["gpu_events"])
    if "lost_events" in counts:
        d.eq("lost_events", ours["counts"]["lost_events"], counts["lost_events"])
    d.eq("jobs", ours["counts"]["jobs"], len(truth["jobs"]))
    compare_rings(d, ours, truth)
    compare_jobs(d, ours, truth)
    compare_csv(d, ours, run_tool(tool, trace, "--csv"))
    if truth["era"] == "6.17+":
        # clients are the DRM clients of the queue events, never kernel work
        want = {j["client_id"] for j in truth["jobs"] if j.get("client_id") is not None
                and not j.get("kernel_job") and "queue" not in (j.get("lost_stages") or [])}
        d.eq("client ids", sorted({c["client_id"] for c in ours.get("clients", [])}),
             sorted(want))

    if d.items:
        print(f"{trace}: {len(d.items)} of {d.checked} checks differ from {truth_path}:")
        for line in d.items[:MAX_REPORTED]:
            print("  " + line)
        if len(d.items) > MAX_REPORTED:
            print(f"  ... {len(d.items) - MAX_REPORTED} more")
        return 1
    print(f"{trace}: {d.checked} checks match {truth_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

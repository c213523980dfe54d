#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Compare `trace-cmd gpu-latency --json --jobs` on a real captured trace with its facts.

usage: check_facts.py TOOL TRACE.dat TRACE.facts.json

The facts (sample-traces/capture/facts.py) come from `trace-cmd report` text,
independently of lib/: per ring the number of queued, run and done jobs, the
number of jobs never done, and every job's queue/run/done timestamps and CPUs,
submitter and queue counts, keyed by ring + job id.
Exit 0 when everything matches, 1 with a list of the differences.
"""
import json
import subprocess
import sys

MAX_REPORTED = 40


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, trace, facts_path = sys.argv[1:]
    with open(facts_path) as f:
        facts = json.load(f)
    p = subprocess.run([tool, "--json", "--jobs", "-q", trace], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"check_facts: {tool} failed ({p.returncode}): {p.stderr.strip()}")
    ours = json.loads(p.stdout)
    diffs = []
    checked = 0

    def eq(what, a, b):
        nonlocal checked
        checked += 1
        if a != b:
            diffs.append(f"{what}: report {a!r}, facts {b!r}")

    rings = {r["ring"]: r for r in ours["rings"]}
    eq("rings", sorted(rings), sorted(facts["rings"]))
    jobs = ours.get("jobs", [])
    for name, fr in facts["rings"].items():
        r = rings.get(name)
        if not r:
            continue
        ring_jobs = [j for j in jobs if j["ring"] == name]
        eq(f"ring {name} jobs", r["jobs"], fr["queued"])
        eq(f"ring {name} complete", r["complete"], fr["done"])
        eq(f"ring {name} jobs with a run", sum(1 for j in ring_jobs if j["run_ts"] is not None),
           fr["run"])
    eq("incomplete jobs", ours["counts"]["incomplete"], facts["incomplete_jobs"])
    eq("done events matching no job", ours["counts"]["orphan_done"],
       facts["unmatched_done_events"])
    eq("run events without queue", ours["counts"]["orphan_run"], facts["run_without_queue"])

    index = {(j["ring"], j["id"]): j for j in jobs}
    eq("number of jobs", len(jobs), len(facts["jobs"]))
    for fj in facts["jobs"]:
        name = f"job {fj['ring']}:{fj['id']}"
        o = index.get((fj["ring"], fj["id"]))
        if o is None:
            diffs.append(f"{name}: not in the report")
            continue
        for st in ("queue", "run", "done"):
            eq(f"{name} {st}_ts", o[f"{st}_ts"], fj.get(f"{st}_ts"))
            if fj.get(f"{st}_ts") is not None:
                eq(f"{name} {st}_cpu", o[f"{st}_cpu"], fj.get(f"{st}_cpu"))
        eq(f"{name} pid", o["pid"], fj["pid"])
        eq(f"{name} comm", o["comm"], fj["pid_comm"])
        eq(f"{name} fence_ptr", o["fence_ptr"], fj["fence"])
        eq(f"{name} job_count", o["job_count"], fj["job_count_at_queue"])
        if fj.get("run_ts") is not None:
            eq(f"{name} hw_job_count", o["hw_job_count"], fj["hw_job_count_at_run"])
        # the metrics follow from the stage times (docs/truth-format.md)
        if fj.get("run_ts") is not None:
            eq(f"{name} wait", o["wait"], fj["run_ts"] - fj["queue_ts"])
        if fj.get("done_ts") is not None:
            eq(f"{name} total", o["total"], fj["done_ts"] - fj["queue_ts"])

    if diffs:
        print(f"{trace}: {len(diffs)} of {checked} checks differ from {facts_path}:")
        for line in diffs[:MAX_REPORTED]:
            print("  " + line)
        if len(diffs) > MAX_REPORTED:
            print(f"  ... {len(diffs) - MAX_REPORTED} more")
        return 1
    print(f"{trace}: {checked} checks match {facts_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

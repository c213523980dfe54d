#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Issue 16 item 8: lost events and hangs are loud. Expected values come from
the generator's truth files (lost-events, hang) and from the hand-checked facts
of the real stall.dat (sample-traces/real/README.md), never from the tool.
Each check failed on the code before the change (no warning, no headline).

usage: test_loud.py TOOL SAMPLES
"""
import json
import sys

from tcheck import check, finish, run


def fmt_ts(ns):
    return "%d.%06d" % (ns // 1000000000, ns % 1000000000 // 1000)


def stopped_rings(jobs, last_ts, threshold=16666667):
    """ring -> (pending, last done, silent ns) for rings that stopped completing:
    jobs pending at the end, nothing done and the oldest pending job waiting
    for longer than the threshold (docs/gpu-latency.md)"""
    out = {}
    for ring in sorted({j["ring"] for j in jobs}):
        rj = [j for j in jobs if j["ring"] == ring]
        pend = [j for j in rj if j.get("done_ts") is None]
        done = [j["done_ts"] for j in rj if j.get("done_ts") is not None]
        if not pend or not done:
            continue
        oldest = min(j["queue_ts"] for j in pend)
        if last_ts - max(done) > threshold and last_ts - oldest > threshold:
            out[ring] = (len(pend), max(done), last_ts - max(done))
    return out


def main():
    tool, s = sys.argv[1], sys.argv[2]

    # lost events: one warning line on stderr, the report on stdout as before
    truth = json.load(open(f"{s}/lost-events.truth.json"))
    nlost = truth["counts"]["lost_events"]
    njobs = sum(1 for j in truth["jobs"] if j["status"] == "lost")
    for args in ([], ["--json"], ["--csv"]):
        p = run(tool, args + [f"{s}/lost-events.dat"])
        warn = [l for l in p.stderr.splitlines() if "warning" in l]
        check(f"lost events {args}: one warning naming {nlost} events and {njobs} lost jobs",
              p.returncode == 0 and p.stdout and len(warn) == 1 and
              f"lost {nlost} events in " in warn[0] and f"; {njobs} jobs " in warn[0] and
              "lost-events.dat" in warn[0], (p.returncode, p.stderr))
    p = run(tool, ["-q", f"{s}/lost-events.dat"])
    check("-q silences the lost-events warning", p.returncode == 0 and not p.stderr, p.stderr)
    p = run(tool, [f"{s}/steady.dat"])
    check("no warning without lost events", p.returncode == 0 and "lost" not in p.stderr,
          p.stderr)

    # hangs: one headline per ring that stopped completing, text and JSON
    cases = []
    t = json.load(open(f"{s}/hang.truth.json"))
    cases.append(("hang.dat", stopped_rings(t["jobs"], t["last_ts"])))
    t = json.load(open(f"{s}/steady.truth.json"))
    cases.append(("steady.dat", stopped_rings(t["jobs"], t["last_ts"])))
    # real/stall.dat, hand-checked: gfx id=101 never done; the last event is at
    # 7.855224; the newest done of gfx comes from the facts' job list
    f = json.load(open(f"{s}/real/stall.facts.json"))
    last_done = max(j["done_ts"] for j in f["jobs"] if j["ring"] == "gfx" and j.get("done_ts"))
    check("facts: stall.dat has one incomplete gfx job", f["incomplete_jobs"] == 1, f)
    cases.append(("real/stall.dat", {"gfx": (1, last_done, None)}))
    check("hang.dat truth has a stopped gfx ring (test sanity)", "gfx" in cases[0][1], cases[0])
    for name, want in cases:
        dat = f"{s}/{name}"
        p = run(tool, [dat])
        got = [l.split(None, 1)[1] for l in p.stdout.splitlines() if l.startswith("  STOPPED")]
        d = json.loads(run(tool, ["--json", dat]).stdout)
        check(f"{name}: {len(want)} STOPPED header line(s)", len(got) == len(want), got)
        check(f"{name}: JSON headlines are the text's", d["headlines"] == got,
              (d["headlines"], got))
        rings = {r["ring"]: r for r in d["rings"]}
        for ring, (pend, done, silent) in want.items():
            s_job = "job" if pend == 1 else "jobs"
            head = f"{ring}: {pend} {s_job} pending after {fmt_ts(done)}, nothing completed for "
            check(f"{name}: headline of {ring} says {head!r}",
                  any(h.startswith(head) for h in got), got)
            r = rings.get(ring, {})
            check(f"{name}: {ring} last_done_ts {done}", r.get("last_done_ts") == done, r)
            if silent is not None:
                check(f"{name}: {ring} stopped_ns {silent}", r.get("stopped_ns") == silent,
                      r.get("stopped_ns"))
        for ring, r in rings.items():
            if ring not in want:
                check(f"{name}: {ring} did not stop", r["stopped_ns"] == 0, r["stopped_ns"])
    # a gate on it
    p = run(tool, ["--fail-if", "ring=gfx,stopped>0", f"{s}/hang.dat"])
    check("--fail-if 'ring=gfx,stopped>0' fails on hang.dat", p.returncode == 3, p.stderr)
    p = run(tool, ["--fail-if", "stopped>0", f"{s}/steady.dat"])
    check("--fail-if 'stopped>0' passes on steady.dat", p.returncode == 0, p.stderr)

    return finish()


if __name__ == "__main__":
    sys.exit(main())

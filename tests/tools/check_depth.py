#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Queue depth of a long generated trace against its truth, computed here.

usage: check_depth.py TOOL GEN WORKDIR [SHAPE EVENTS]

Generates SHAPE (default shape-backlog) with EVENTS (default 400000) events,
seed 1, into WORKDIR (kept for the next run), and compares the max_depth
and avg_depth of every ring and device in `TOOL -j1 --json` with the ones
computed here from the truth file's jobs: a job counts from its queue_ts to
its done_ts (a done before a queue at the same time; to the end of the span
without a done), the average over the span (last_ts - first_ts).

The traces of tests/tools' truth checks are small: their statistics never
sweep their reorder queues before the end. Here the gfx rings' backlog grows
to ~9000 jobs in flight, so the queues are swept early, up to the tracker's
horizon (lib/stats.c horizon()): a sweep past a job still to come would show
as a wrong depth. Exit 0 when every value matches, 1 with the differences.
"""
import json
import os
import subprocess
import sys


def truth_depth(jobs, key, last_ts, first_ts):
    """{key: (max_depth, avg_depth)} from the truth's jobs"""
    ev = {}
    for j in jobs:
        q = j.get("queue_ts")
        if q is None:
            continue
        k = key(j)
        ev.setdefault(k, []).append((q, 1))
        d = j.get("done_ts")
        if d is not None and d >= q:
            ev[k].append((d, 0))
    out = {}
    span = last_ts - first_ts
    for k, v in ev.items():
        # a done (0) before a queue (1) at the same time
        v.sort()
        cur = best = 0
        area = 0
        last = None
        for t, up in v:
            if last is not None and t > last:
                area += cur * (t - last)
            if last is None or t > last:
                last = t
            cur += 1 if up else -1
            best = max(best, cur)
        if last is not None and last_ts > last:
            area += cur * (last_ts - last)
        out[k] = (best, area / span if span else 0.0)
    return out


def main():
    if len(sys.argv) not in (4, 6):
        sys.exit(__doc__.strip().split("\n")[2])
    tool, gen, work = sys.argv[1:4]
    shape, events = (sys.argv[4], sys.argv[5]) if len(sys.argv) == 6 else ("shape-backlog",
                                                                           "400000")
    os.makedirs(work, exist_ok=True)
    dat = os.path.join(work, "%s-%s.dat" % (shape, events))
    truth = dat[:-4] + ".truth.json"
    if not os.path.exists(truth):
        p = subprocess.run([gen, "-s", shape, "-o", dat, "--events", events, "--seed", "1",
                            "--no-event-truth", "-q"], capture_output=True, text=True)
        if p.returncode:
            sys.exit("check_depth: %s: %s" % (gen, p.stderr.strip()[-300:]))
    with open(truth) as f:
        tr = json.load(f)
    p = subprocess.run([tool, "-j1", "--json", dat], capture_output=True, text=True)
    if p.returncode:
        sys.exit("check_depth: %s exit status %d: %s" % (tool, p.returncode, p.stderr[-300:]))
    rep = json.loads(p.stdout)
    first, last = tr["first_ts"], tr["last_ts"]
    if (rep["first_ts"], rep["last_ts"]) != (first, last):
        sys.exit("check_depth: span %s..%s, truth %s..%s" % (rep["first_ts"], rep["last_ts"],
                                                              first, last))
    want = {"rings": truth_depth(tr["jobs"], lambda j: (j["dev"], j["ring"]), last, first),
            "devices": truth_depth(tr["jobs"], lambda j: j["dev"], last, first)}
    bad = 0
    seen = 0
    for kind, key in (("rings", lambda g: (g["dev"], g["ring"])), ("devices", lambda g: g["dev"])):
        for g in rep.get(kind, []):
            if "max_depth" not in g:
                continue
            w = want[kind].get(key(g), (0, 0.0))
            seen += 1
            if g["max_depth"] != w[0] or abs(g["avg_depth"] - w[1]) > 1e-9 * max(1.0, w[1]):
                print("MISMATCH %s %s: max_depth %d avg_depth %.6f, truth %d %.6f"
                      % (kind, key(g), g["max_depth"], g["avg_depth"], w[0], w[1]))
                bad += 1
    if not seen:
        sys.exit("check_depth: no depth in the report")
    print("%s: %d groups, %d mismatches" % (os.path.basename(dat), seen, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

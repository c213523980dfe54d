#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Submit-gap stalls against the generator's schedule (issue 16, item 9).

    check_stalls.py TOOL TRACE.dat TRUTH.json

A stall is a process that was submitting at a steady pace and stopped; an
idle client or submit jitter is not. The truth file's jobs are the
generator's schedule: for each process, its pauses are the gaps between
consecutive submissions (of at least 1 ms: one frame's jobs on several rings
are one submission) longer than both the stall threshold and 1.5 x the
process's median gap. Only processes whose schedule has a pace are checked:
at least 8 gaps, 80 % of them within 20 % of the median (a VRR game or a
client throttled by a full ring has no pace to depart from). `trace-cmd gpu-latency --json` must list exactly those
as submit_gap stalls (same start and end), nothing else: the 60 Hz clients of
`steady` none at all, `stutter`'s game each of its injected pauses.
"""
import json
import statistics
import re
import subprocess
import sys


def main():
    tool, trace, truth_path = sys.argv[1:4]
    truth = json.load(open(truth_path))
    out = subprocess.run([tool, "--json", "-q", trace], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (tool, out.returncode, out.stderr.strip()))
    rep = json.loads(out.stdout)
    thr = rep["stall_threshold_ns"]

    subs = {}
    for j in truth["jobs"]:
        if j["queue_ts"] is not None:
            subs.setdefault(j["pid"], []).append(j["queue_ts"])
    want = set()
    checked = set()
    for pid, ts in subs.items():
        ts.sort()
        gaps = [(a, b) for a, b in zip(ts, ts[1:]) if b - a >= 1000000]
        if len(gaps) < 8:
            continue	# too few submissions for a pace: only idle gaps
        med = statistics.median(b - a for a, b in gaps)
        if sum(1 for a, b in gaps if abs(b - a - med) <= 0.2 * med) < 0.8 * len(gaps):
            continue
        checked.add(pid)
        want |= {(pid, a, b) for a, b in gaps if b - a > thr and b - a > 1.5 * med}

    got = {(s["pid"], s["start_ts"], s["end_ts"]) for s in rep["stalls"]
           if s["kind"] == "submit_gap" and s["pid"] in checked}
    if rep["stalls_total"] > len(rep["stalls"]):
        sys.exit("FAIL: only %d of %d stalls listed" % (len(rep["stalls"]), rep["stalls_total"]))
    bad = False
    for x in sorted(want - got):
        print("FAIL: pid %d paused %.3f ms at %d: not reported" % (x[0], (x[2] - x[1]) / 1e6, x[1]))
        bad = True
    for x in sorted(got - want):
        print("FAIL: pid %d: gap of %.3f ms at %d reported as a stall, but the process "
              "kept its pace" % (x[0], (x[2] - x[1]) / 1e6, x[1]))
        bad = True
    # the text tables show "TS [CPU]" like trace-cmd report, or TS alone when
    # the event's CPU is unknown (an i915 ring idle ends at no event): never
    # a negative CPU such as "[-01]"
    txt = subprocess.run([tool, "-q", "--top", "50", trace], capture_output=True, text=True)
    for line in txt.stdout.splitlines():
        if re.search(r"\[-\d+\]", line):
            print("FAIL: a negative CPU in the text report: %r" % line)
            bad = True
            break
    if bad:
        sys.exit(1)
    print("ok: %s: %d processes with a pace, %d submit-gap stalls, each a pause of the "
          "schedule; %d idle gaps" % (truth["scenario"], len(checked), len(got),
                                       rep["idle_gaps_total"]))


if __name__ == "__main__":
    main()

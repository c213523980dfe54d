#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Issue 16 item 6 for stalls: every stall row names the job that ended the
gap the way `trace-cmd report` (the gpu_sched plugin) prints it, so one grep
finds it. Independent checks:
  - generated traces: the expected job comes from the generator's truth (the
    job of the process queued at end_ts for a submit gap, the job that started
    on the ring at end_ts for a ring idle gap), its identity built from the
    truth's fence ctx:seqno (6.17+) or RING#ID + finished-fence handle;
  - every trace: `trace-cmd report` with our plugin prints the identity on
    the lines of one job, and for a submit gap one of them is its queue event
    at end_ts; for a ring idle gap the job's lines span end_ts.

usage: test_stall_identity.py TOOL TRACE_CMD PLUGIN_DIR SAMPLES
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# the truth's identities, the rule of tests/tools/test_identity.py
from tcheck import check, finish  # noqa: E402
from test_identity import identity, number  # noqa: E402

TRACES = (("stutter.dat", False), ("steady-617.dat", True), ("hang.dat", False),
          ("real/stall.dat", None))


def run(argv, env=None):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)


TS = re.compile(r"\s(\d+)\.(\d{6}):\s")


def report_lines(tc, pdir, dat):
    """the lines of trace-cmd report with our plugin, None when it fails"""
    env = dict(os.environ, TRACEEVENT_PLUGIN_DIR=pdir)
    p = run([tc, "report", dat], env)
    if p.returncode != 0:
        return None
    return p.stdout.splitlines()


def us(ns):
    return ns // 1000


def main():
    tool, tc, pdir, s = sys.argv[1:5]
    for name, era617 in TRACES:
        dat = f"{s}/{name}"
        d = json.loads(run([tool, "--json", "-q", dat]).stdout)
        stalls = d["stalls"]
        check(f"{name}: stalls to check", len(stalls) > 0)
        check(f"{name}: every stall names a job",
              all(st.get("identity") not in (None, "-") for st in stalls),
              [st for st in stalls if st.get("identity") in (None, "-")][:3])
        if era617 is not None:
            truth = json.load(open(dat.replace(".dat", ".truth.json")))
            number(truth)
            for st in stalls:
                if st["kind"] == "submit_gap":
                    js = [j for j in truth["jobs"]
                          if j["pid"] == st["pid"] and j["queue_ts"] == st["end_ts"]]
                else:
                    js = [j for j in truth["jobs"]
                          if j["ring"] == st["ring"] and (j["dev"] or "") == st["dev"]
                          and j["start_ts"] == st["end_ts"]]
                want = {identity(j, era617) for j in js}
                check(f"{name}: {st['kind']} ending {st['end_ts']} names {sorted(want)}",
                      st["identity"] in want, (st["identity"], sorted(want)))
        # the text table: a job column, each row one of the JSON rows' jobs
        text = run([tool, "--top", "1000", dat]).stdout.splitlines()
        sec = [i for i, ln in enumerate(text) if ln.startswith("Stalls longer than")]
        if sec:
            head = text[sec[0] + 1]
            check(f"{name}: stall table ends with a job column",
                  head.rstrip().endswith(" job"), head)
            rows = []
            for ln in text[sec[0] + 2:]:
                if not ln.startswith("  ") or ln.startswith("  and "):
                    break
                rows.append(ln.split("  ")[-1].strip())
            check(f"{name}: text stall rows name the JSON rows' jobs",
                  sorted(rows) == sorted(st["identity"] for st in stalls), rows[:5])
        # one grep in trace-cmd report finds the job
        lines = report_lines(tc, pdir, dat)
        check(f"{name}: trace-cmd report with the plugin", lines is not None)
        if lines is None:
            continue
        for st in stalls:
            ident = st["identity"]
            pat = re.compile(r"(^|\s)" + re.escape(ident) + r"(\s|$)")
            ts = []
            for ln in lines:
                if pat.search(ln):
                    m = TS.search(ln)
                    if m:
                        ts.append(int(m.group(1)) * 1000000 + int(m.group(2)))
            end = us(st["end_ts"])
            # trace-cmd report rounds to the microsecond, us() truncates
            if st["kind"] == "submit_gap":
                ok = any(abs(t - end) <= 1 for t in ts)
            else:
                ok = bool(ts) and min(ts) - 1 <= end <= max(ts) + 1
            check(f"{name}: grep '{ident}' finds the job ending the {st['kind']} at {end} us",
                  ok, ts[:8])
    return finish()


if __name__ == "__main__":
    sys.exit(main())

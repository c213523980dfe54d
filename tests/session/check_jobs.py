#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Run session-jobs on sample traces and compare with the generator's truth.

check_jobs.py PROG MODE TRACE...   (MODE: --file, --push or --push-many)
The truth file next to each trace (NAME.truth.json) was computed by the
generator from its own scenario: its job list gives the count per status.
"""
import json
import os
import subprocess
import sys

def truth_line(dat):
    with open(dat[:-4] + ".truth.json") as f:
        t = json.load(f)
    st = {"complete": 0, "incomplete": 0, "lost": 0, "orphan": 0}
    for j in t["jobs"]:
        st[j["status"]] += 1
    return ("jobs %d complete %d incomplete %d lost %d orphan %d era %s"
            % (len(t["jobs"]), st["complete"], st["incomplete"], st["lost"],
               st["orphan"], t["era"]))

def main():
    prog, mode, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    for dat in traces:
        if not os.path.exists(dat[:-4] + ".truth.json"):
            continue
        p = subprocess.run([prog, mode, dat], capture_output=True, text=True)
        want = truth_line(dat)
        got = p.stdout.strip()
        if p.returncode or got != want:
            print("FAIL %s %s:\n  want %s\n  got  %s (rc %d) %s"
                  % (mode, os.path.basename(dat), want, got, p.returncode, p.stderr.strip()))
            bad += 1
        else:
            print("ok   %s %s: %s" % (mode, os.path.basename(dat), got))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())

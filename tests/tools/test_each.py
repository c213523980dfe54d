#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""test_each.py TOOL SAMPLES-DIR WORK-DIR: --each (issue 20).

Every sample trace through one `--each -j 3` command: one JSON line per
file, in the order given, each equal to that file's own `--json` report run
on its own (so no file's report leaks into another's, and none is lost);
-j 1 gives the same bytes as -j 3; an unreadable file gives an "error" line
in its place and exit status 1, the other files still reported; -j without
--each gives one report read by threads, the same as without -j.
"""
import glob
import json
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, samples, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    files = sorted(glob.glob(os.path.join(samples, "*.dat")) +
                   glob.glob(os.path.join(samples, "real", "*.dat")))
    if len(files) < 10:
        sys.exit("FAIL: only %d sample traces in %s" % (len(files), samples))
    bad = []
    p3 = subprocess.run([tool, "--each", "-j", "3"] + files, capture_output=True, text=True)
    p1 = subprocess.run([tool, "--each", "-j", "1"] + files, capture_output=True, text=True)
    if p3.returncode != 0 or p1.returncode != 0:
        bad.append("exit %d / %d: %s" % (p3.returncode, p1.returncode, p3.stderr[-300:]))
    if p3.stdout != p1.stdout:
        bad.append("-j 3 and -j 1 differ")
    lines = p3.stdout.splitlines()
    if len(lines) != len(files):
        bad.append("%d lines for %d files" % (len(lines), len(files)))
    for f, line in zip(files, lines):
        got = json.loads(line)
        one = subprocess.run([tool, "--json", f], capture_output=True, text=True)
        want = json.loads(one.stdout)
        if got != want:
            bad.append("%s: the --each line differs from its own --json report" % f)
    # an unreadable file in the middle
    junk = os.path.join(work, "junk.dat")
    with open(junk, "w") as fp:
        fp.write("not a trace\n")
    pe = subprocess.run([tool, "--each", files[0], junk, files[1]], capture_output=True,
                        text=True)
    el = pe.stdout.splitlines()
    if pe.returncode != 1 or len(el) != 3:
        bad.append("bad file: exit %d, %d lines" % (pe.returncode, len(el)))
    else:
        e = json.loads(el[1])
        if e.get("files") != [junk] or "junk.dat" not in e.get("error", ""):
            bad.append("bad file: line %r" % el[1][:200])
        if json.loads(el[2]).get("files") != [files[1]]:
            bad.append("bad file: the file after it is not reported")
        if "junk.dat" not in pe.stderr:
            bad.append("bad file: no error line on stderr")
    # -j without --each: threads for one report (test_parallel.py), the same report
    pj = subprocess.run([tool, "-j", "2", "--json", files[0]], capture_output=True, text=True)
    p0 = subprocess.run([tool, "--json", files[0]], capture_output=True, text=True)
    if pj.returncode != 0 or pj.stdout != p0.stdout:
        bad.append("-j 2 without --each: exit %d, stderr %r" % (pj.returncode, pj.stderr[:200]))
    for b in bad:
        print("FAIL:", b)
    if bad:
        return 1
    print("--each: %d files, one line each, same as --json" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())

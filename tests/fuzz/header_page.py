#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""The page header kbuffer reads, whatever header_page says (FINDINGS T19).

    header_page.py TOOL SEED WORKDIR

libtraceevent 1.7.1's kbuffer reads a page's commit at offset 8, 4 or 8
bytes as libtracecmd 1.3.1 takes from header_page's commit size, and the
events after it; the offsets the text declares are not used. SEED is a
generated v6 trace (64-bit: commit at 8, size 8, data at 16). From it, in
WORKDIR, with the text's length kept:
  - commit-at-4: the text says the commit is at offset 4; the pages are the
    same, so the report must be the seed's, byte for byte (the check must not
    refuse it; T19's own file is where the old check passed a page kbuffer
    then overran);
  - data-at-24: the text moves the data; the same report again;
  - commit-size-2: a commit size kbuffer has no reader for: refused.
"""
import os
import subprocess
import sys

tool, seed, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
d = open(seed, "rb").read()
commit = b"\tfield: local_t commit;\toffset:8;\tsize:8;"
data = b"\tfield: char data;\toffset:16;"
assert d.count(commit) == 1 and d.count(data) == 1, "not the 64-bit header_page"
failures = 0


def run(name, blob):
    path = os.path.join(work, name)
    open(path, "wb").write(blob)
    r = subprocess.run([tool, path], capture_output=True, text=True, timeout=60)
    return path, r


_, want = run("seed", d)
assert want.returncode == 0 and want.stdout, want.stderr


def same(name, blob):
    global failures
    path, r = run(name, blob)
    ok = r.returncode == 0 and r.stdout.replace(path, seed) == want.stdout.replace(
        os.path.join(work, "seed"), seed)
    print("%s: %s (exit %d) %s" % ("ok" if ok else "FAIL", name, r.returncode,
                                   r.stderr.strip()))
    failures += not ok


same("commit-at-4", d.replace(commit, commit.replace(b"offset:8;", b"offset:4;")))
same("data-at-24", d.replace(data, data.replace(b"offset:16;", b"offset:24;")))
path, r = run("commit-size-2", d.replace(commit, commit.replace(b"size:8;", b"size:2;")))
err = r.stderr.strip().splitlines()
ok = r.returncode == 1 and len(err) == 1 and err[0].endswith(
    "%s: truncated or damaged trace-cmd data file (header_page: commit size 2, not 4 or 8)"
    % path)
print("%s: commit-size-2 (exit %d) %s" % ("ok" if ok else "FAIL", r.returncode, err))
failures += not ok
sys.exit(1 if failures else 0)

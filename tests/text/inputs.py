#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""inputs.py TOOL DAT LOG1 LOG2

Text logs among other inputs (issue 23), for real on the tool:
  - two text logs, a text log with a trace.dat (either order), "-" with a
    trace.dat: exit 1, ONE line on stderr naming the text log and saying it
    is read alone, nothing on stdout
  - --each LOG1 LOG2 DAT: one JSON line per input in the order given, each
    equal to that input's --json report alone; --each - (LOG1 on stdin) too
  - --each with a damaged text log among good inputs: its error object in
    its place, the others reported, exit 1
"""
import json
import os
import subprocess
import sys

tool, dat, log1, log2 = sys.argv[1:5]
errors = []
checked = []


def run(args, stdin=None):
    p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=120,
                       stdin=stdin)
    return p.returncode, p.stdout, p.stderr


def refused(name, args, who, stdin=None):
    rc, out, err = run(args, stdin)
    lines = [l for l in err.splitlines() if l.strip()]
    want = '%s: a text log is read alone' % who
    if rc != 1 or out or len(lines) != 1 or want not in lines[0]:
        errors.append('%s: exit %d, %d bytes on stdout, stderr %r (wanted one line with %r)'
                      % (name, rc, len(out), err, want))
    else:
        checked.append(name)


refused('two text logs', [log1, log2], log1)
refused('text then trace.dat', [log1, dat], log1)
refused('trace.dat then text', [dat, log1], log1)
refused('-i text -i trace.dat', ['-i', log1, '-i', dat], log1)
with open(log1) as f:
    refused('stdin with a trace.dat', ['-', dat], '-', stdin=f)


def alone(path, stdin=None):
    rc, out, err = run(['--json', path], stdin)
    if rc != 0:
        errors.append('--json %s: exit %d: %s' % (path, rc, err.strip()))
        return None
    return json.loads(out)


rc, out, err = run(['--each', '-j', '2', log1, log2, dat])
lines = out.splitlines()
if rc != 0 or len(lines) != 3:
    errors.append('--each: exit %d, %d lines: %s' % (rc, len(lines), err.strip()))
else:
    for path, line in zip((log1, log2, dat), lines):
        got, want = json.loads(line), alone(path)
        if got != want:
            keys = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
            errors.append('--each: %s differs from its --json report in %s' % (path, keys))
        elif got.get('files') != [path]:
            errors.append('--each: %s: files %r' % (path, got.get('files')))
    if json.loads(lines[0])['input']['format'] != 'text':
        errors.append('--each: %s is not reported as text' % log1)
    checked.append('--each over text logs and a trace.dat')

with open(log1) as f:
    rc, out, err = run(['--each', '-'], stdin=f)
with open(log1) as f:
    want = alone('-', stdin=f)
if rc != 0 or len(out.splitlines()) != 1 or json.loads(out) != want:
    errors.append('--each -: exit %d: %s' % (rc, err.strip() or out[:200]))
else:
    checked.append('--each - (stdin)')

# a text log that is no ftrace log, among good inputs
bad = os.path.join(os.path.dirname(os.path.abspath(log2)), 'inputs-notes.txt')
with open(bad, 'w') as f:
    f.write('hello\nthis is no ftrace log\n')
rc, out, err = run(['--each', log1, bad, dat])
lines = out.splitlines()
if rc != 1 or len(lines) != 3:
    errors.append('--each with a bad log: exit %d, %d lines' % (rc, len(lines)))
else:
    mid = json.loads(lines[1])
    if mid.get('files') != [bad] or 'nor an ftrace text log' not in mid.get('error', ''):
        errors.append('--each with a bad log: its line is %r' % lines[1])
    elif 'rings' not in json.loads(lines[0]) or 'rings' not in json.loads(lines[2]):
        errors.append('--each with a bad log: the good inputs are not reported')
    elif len([l for l in err.splitlines() if l.strip()]) != 1:
        errors.append('--each with a bad log: stderr %r' % err)
    else:
        checked.append('--each with a bad text log')

for e in errors:
    print('FAIL:', e)
print('checked:', ', '.join(checked))
sys.exit(1 if errors else 0)

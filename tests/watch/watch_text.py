#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""watch_text.py TOOL LOG [--slow] [--pipe]

`trace-cmd gpu-latency --watch -` over an ftrace text log on stdin, checked
against the file report of the same log (`trace-cmd gpu-latency LOG`, the
text report: read by the text reader in one run and printed by the report's
own renderer, not by the watch code):
  - one interval (the log ends before the first one is over): every ring's
    line has the report's jobs, total p50/p99/max, wait p99, busy % and max
    depth, the "(incomplete jobs)" mark when the report has some, and the
    last line the report's job count; exit 0
  - a gate the report crosses (max.total > half the largest max) prints
    ALERT and exits 3; one it does not cross exits 0
  - --slow: the log arrives in two halves 1.5 s apart on a pipe, summaries
    every 0.3 s: a summary of the first half is printed BEFORE the second
    half is written (live, not at the end), every job is counted in exactly
    one interval, and the run ends at the end of the log.
  - --pipe: the log without its '#' header lines, as trace_pipe prints it.
"""
import re
import subprocess
import sys
import threading
import time

tool, log = sys.argv[1], sys.argv[2]
slow = '--slow' in sys.argv[3:]
if '--pipe' in sys.argv[3:]:
    # the trace_pipe layout: the events without the tracefs `trace` header
    with open(log) as f:
        body = [l for l in f if not l.startswith('#')]
    log = log + '.pipe'
    with open(log, 'w') as f:
        f.writelines(body)
errors = []

UNITS = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}


def dur(s):
    m = re.match(r'^([0-9.]+)(ns|us|ms|s)$', s)
    if not m:
        raise ValueError(s)
    return float(m.group(1)) * UNITS[m.group(2)]


def report(path):
    p = subprocess.run([tool, '-q', path], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit('%s: report failed: %s' % (path, p.stderr.strip()))
    lines = p.stdout.splitlines()
    jobs = int(re.search(r'^  jobs +(\d+)', p.stdout, re.M).group(1))
    rings = {}
    i = next(k for k, l in enumerate(lines) if l.startswith('Rings ('))
    for l in lines[i + 2:]:
        if not l.strip():
            break
        f = l.split()
        rings[f[0]] = {'jobs': f[1], 'incomplete': int(f[3]), 'busy': f[6], 'depth': f[7]}
    i = next(k for k, l in enumerate(lines) if l.startswith('Ring latency ('))
    ring = None
    for l in lines[i + 2:]:
        if not l.strip():
            break
        f = l.split()
        if f[0] not in ('wait', 'hw_queue', 'exec', 'total', 'dep_wait'):
            ring = f.pop(0)
        stage, vals = f[0], f[1:]
        # n min mean p50 p90 p99 max
        if stage == 'total':
            rings[ring].update(p50=vals[3], p99=vals[5], max=vals[6])
        elif stage == 'wait':
            rings[ring]['wait_p99'] = vals[5]
    return jobs, rings


LINE = re.compile(r'^\[ *[0-9.]+s\] (\S+) +jobs +(\d+)  total p50 +(\S+) p99 +(\S+) max +(\S+)'
                  r'  wait p99 +(\S+)  busy +([0-9.]+%)  depth (\d+)(  \(incomplete jobs\))?$')


def watch_lines(out):
    got = []
    for l in out.splitlines():
        m = LINE.match(l)
        if m:
            got.append(m.groups())
    return got


def run_watch(args, data):
    p = subprocess.run([tool, '--watch', '-'] + args, input=data, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


jobs, rings = report(log)
with open(log) as f:
    data = f.read()

# one interval: the report's numbers
rc, out, err = run_watch(['--interval', '3600'], data)
got = watch_lines(out)
if rc != 0:
    errors.append('--watch -: exit %d (%s)' % (rc, err.strip()))
if not out.startswith('watching GPU jobs (text log on stdin)'):
    errors.append('no start line: %r' % out[:80])
if len(got) != len(rings):
    errors.append('%d ring lines, the report has %d rings:\n%s' % (len(got), len(rings), out))
for g in got:
    ring, n, p50, p99, mx, wp99, busy, depth, inc = g
    want = rings.get(ring)
    if not want:
        errors.append('ring %s is not in the report' % ring)
        continue
    have = {'jobs': n, 'p50': p50, 'p99': p99, 'max': mx, 'wait_p99': wp99, 'busy': busy,
            'depth': depth}
    for k, v in have.items():
        if want[k] != v:
            errors.append('%s %s: watch %s, report %s' % (ring, k, v, want[k]))
    if bool(inc) != (want['incomplete'] > 0):
        errors.append('%s: incomplete mark %r, report has %d incomplete' %
                      (ring, inc, want['incomplete']))
m = re.search(r'^stopped at the end of the log after 1 intervals: (\d+) jobs, 0 alerts$',
              out, re.M)
if not m or int(m.group(1)) != jobs:
    errors.append('last line: %r, the report has %d jobs' % (out.splitlines()[-1:], jobs))

# gates, on the same numbers
top = max(dur(r['max']) for r in rings.values())
rc, out, err = run_watch(['--interval', '3600', '--fail-if', 'max.total>%dns' % (top / 2)],
                         data)
if rc != 3 or not re.search(r'^\[ *[0-9.]+s\] ALERT gate .max\.total>', out, re.M):
    errors.append('gate under the max: exit %d, output:\n%s' % (rc, out))
rc, out, err = run_watch(['--interval', '3600', '--fail-if', 'max.total>%dns' % (top * 2)],
                         data)
if rc != 0 or 'ALERT' in out:
    errors.append('gate over the max: exit %d, output:\n%s' % (rc, out))

if slow:
    lines = data.splitlines(keepends=True)
    half = len(lines) // 2
    p = subprocess.Popen([tool, '--watch', '-', '--interval', '0.3'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    out_lines = []
    first_summary = threading.Event()

    def reader():
        for l in p.stdout:
            out_lines.append(l)
            if LINE.match(l.rstrip('\n')):
                first_summary.set()

    t = threading.Thread(target=reader)
    t.start()
    p.stdin.write(''.join(lines[:half]))
    p.stdin.flush()
    live = first_summary.wait(10)
    time.sleep(1.5)
    p.stdin.write(''.join(lines[half:]))
    p.stdin.close()
    rc = p.wait(60)
    t.join(10)
    err = p.stderr.read()
    out = ''.join(out_lines)
    if not live:
        errors.append('slow: no summary within 10 s of the first half:\n%s' % out)
    got = watch_lines(out)
    n = sum(int(g[1]) for g in got)
    m = re.search(r'^stopped at the end of the log after (\d+) intervals: (\d+) jobs', out, re.M)
    if rc != 0 or not m:
        errors.append('slow: exit %d, output:\n%s%s' % (rc, out, err))
    elif int(m.group(1)) < 3 or n != jobs or int(m.group(2)) != jobs:
        errors.append('slow: %s intervals, %d jobs in the ring lines, %s in the last line, '
                      'the report %d:\n%s' % (m.group(1), n, m.group(2), jobs, out))

for e in errors:
    print('FAIL:', e)
if not errors:
    print('ok: %s: %d rings, %d jobs as the report%s' % (log, len(rings), jobs,
                                                          ', live in intervals' if slow else ''))
sys.exit(1 if errors else 0)

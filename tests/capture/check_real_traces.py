#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""check_real_traces.py DIR

For every DIR/NAME.dat check that `trace-cmd report -N -t` (no plugins)
still shows the counts recorded in DIR/NAME.facts.json: per ring the number
of drm_sched_job / drm_run_job lines and of drm_sched_process_job lines whose
fence pointer belongs to an open job of that ring, the wait_dep events, the
incomplete jobs, and the timestamps of the hand-checked jobs.
Exit 0 = all good, 1 = mismatch, 77 = trace-cmd missing (skip).
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

EV = re.compile(r'\[(\d+)\]\s+(\d+\.\d+): (drm_\w+):\s+(.*)$')
RING_ID = re.compile(r'id=(\d+), fence=(0x[0-9a-f]+), ring=([^,]+),')


def ns(ts):
    s, f = ts.split('.')
    return int(s) * 10**9 + int((f + '000000000')[:9])


def check(dat, facts):
    out = subprocess.run(['trace-cmd', 'report', '-N', '-t', dat],
                         capture_output=True, text=True, check=True).stdout
    rings, jobs, open_jobs = {}, {}, {}
    wait_dep = 0
    for line in out.splitlines():
        m = EV.search(line)
        if not m:
            continue
        cpu, ts, ev, rest = int(m.group(1)), ns(m.group(2)), m.group(3), m.group(4)
        if ev in ('drm_sched_job', 'drm_run_job'):
            jid, fence, ring = RING_ID.search(rest).groups()
            c = rings.setdefault(ring, {'queued': 0, 'run': 0, 'done': 0})
            if ev == 'drm_sched_job':
                c['queued'] += 1
                jobs[(ring, int(jid))] = {'queue_ts': ts, 'queue_cpu': cpu}
                open_jobs.setdefault(fence, []).append((ring, int(jid)))
            else:
                c['run'] += 1
                jobs[(ring, int(jid))].update(run_ts=ts, run_cpu=cpu)
        elif ev == 'drm_sched_process_job':
            fence = rest.split('fence=')[1].split()[0]
            key = open_jobs[fence].pop()
            rings[key[0]]['done'] += 1
            jobs[key].update(done_ts=ts, done_cpu=cpu)
        elif ev == 'drm_sched_job_wait_dep':
            wait_dep += 1

    errors = []
    if rings != facts['rings']:
        errors.append('rings %s != facts %s' % (rings, facts['rings']))
    if wait_dep != facts['wait_dep_events']:
        errors.append('wait_dep %d != facts %d' % (wait_dep, facts['wait_dep_events']))
    incomplete = sum(1 for j in jobs.values() if 'done_ts' not in j)
    if incomplete != facts['incomplete_jobs']:
        errors.append('incomplete %d != facts %d' % (incomplete, facts['incomplete_jobs']))
    by_key = {(j['ring'], j['id']): j for j in facts['jobs']}
    for h in facts.get('hand_checked', []):
        key = (h['ring'], h['id'])
        mine, theirs = jobs.get(key, {}), by_key[key]
        for f in ('queue_ts', 'run_ts', 'done_ts', 'queue_cpu', 'run_cpu', 'done_cpu'):
            if mine.get(f) != theirs[f]:
                errors.append('%s:%d %s %s != facts %s' % (key + (f, mine.get(f), theirs[f])))
    return errors


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if not shutil.which('trace-cmd'):
        print('SKIP: trace-cmd not installed')
        return 77
    dats = sorted(glob.glob(os.path.join(sys.argv[1], '*.dat')))
    if not dats:
        print('FAIL: no traces in ' + sys.argv[1])
        return 1
    status = 0
    for dat in dats:
        fjson = dat[:-4] + '.facts.json'
        if not os.path.exists(fjson):
            print('FAIL %s: no %s' % (dat, fjson))
            status = 1
            continue
        with open(fjson) as f:
            facts = json.load(f)
        errors = check(dat, facts)
        name = os.path.basename(dat)
        for e in errors:
            print('FAIL %s: %s' % (name, e))
        if errors:
            status = 1
        else:
            print('ok %s: %s, %d wait_dep, %d incomplete' % (
                name, ' '.join('%s=%d/%d/%d' % (r, c['queued'], c['run'], c['done'])
                               for r, c in sorted(facts['rings'].items())),
                facts['wait_dep_events'], facts['incomplete_jobs']))
    return status


if __name__ == '__main__':
    sys.exit(main())

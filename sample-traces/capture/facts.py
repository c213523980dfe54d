#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Derive ground-truth facts from a 5.7-6.16 era gpu_scheduler trace.

Usage: facts.py TRACE.dat [--kernel KVER] [--check ID ...] > NAME.facts.json

Reads `trace-cmd report -N -t` text only (-N: no plugins, so the kernel's own
print formats are parsed whatever plugins are installed; deliberately
independent of the project's C library) and links jobs the simple way:
  drm_sched_job (queue) and drm_run_job (run) share ring + id;
  drm_sched_process_job (done) carries only the finished-fence pointer and is
  paired with the most recent OPEN job (queued, not yet done) holding that
  pointer.
Each wait_dep event is listed under its job's "deps" with the job that most
recently used the dependency's fence pointer (its done_ts shows whether the
dependency was already signalled when the scheduler looked at it).
--check RING:ID prints a human-readable account of that job to stderr and
lists it under "hand_checked" in the JSON.
"""

import json
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s*(?P<rest>.*)$')
JOB = re.compile(r'entity=(?P<entity>0x[0-9a-f]+), id=(?P<id>\d+), '
                 r'fence=(?P<fence>0x[0-9a-f]+), ring=(?P<ring>[^,]+), '
                 r'job count:(?P<jc>\d+), hw job count:(?P<hw>-?\d+)')
DONE = re.compile(r'fence=(?P<fence>0x[0-9a-f]+) signaled')
WAITDEP = re.compile(r'job ring=(?P<ring>[^,]+), id=(?P<id>\d+), depends '
                     r'fence=(?P<fence>0x[0-9a-f]+), context=(?P<ctx>\d+), '
                     r'seq=(?P<seq>\d+)')


def ts_ns(s):
    sec, frac = s.split('.')
    frac = (frac + '000000000')[:9]
    return int(sec) * 1000000000 + int(frac)


def main():
    args = sys.argv[1:]
    kernel = '6.1.0-57-amd64'
    checks = []
    trace = None
    i = 0
    while i < len(args):
        if args[i] == '--kernel':
            kernel = args[i + 1]
            i += 2
        elif args[i] == '--check':
            checks.append(args[i + 1])
            i += 2
        else:
            trace = args[i]
            i += 1
    if not trace:
        sys.exit(__doc__)

    text = subprocess.run(['trace-cmd', 'report', '-N', '-t', trace],
                          capture_output=True, text=True, check=True).stdout

    jobs = {}            # (ring, id) -> job dict
    order = []           # jobs in queue order
    open_by_fence = {}   # fence ptr -> list of open jobs (most recent last)
    latest_by_fence = {}  # fence ptr -> most recently queued job (open or not)
    rings = {}
    wait_dep = 0
    wait_dep_by_job = {}
    unmatched_done = 0
    run_without_queue = 0
    events = 0

    def ring_counts(r):
        return rings.setdefault(r, {'queued': 0, 'run': 0, 'done': 0})

    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        ev = m.group('event')
        if not (ev.startswith('drm_')):
            continue
        events += 1
        ts = ts_ns(m.group('ts'))
        cpu = int(m.group('cpu'))
        rest = m.group('rest')
        if ev in ('drm_sched_job', 'drm_run_job'):
            j = JOB.match(rest)
            if not j:
                sys.exit('cannot parse: ' + line)
            key = (j.group('ring'), int(j.group('id')))
            if ev == 'drm_sched_job':
                job = {'ring': key[0], 'id': key[1],
                       'queue_ts': ts, 'run_ts': None, 'done_ts': None,
                       'queue_cpu': cpu, 'run_cpu': None, 'done_cpu': None,
                       'pid_comm': m.group('comm'), 'pid': int(m.group('pid')),
                       'fence': j.group('fence'), 'entity': j.group('entity'),
                       'job_count_at_queue': int(j.group('jc')),
                       'hw_job_count_at_run': None, 'deps': []}
                jobs[key] = job
                latest_by_fence[job['fence']] = job
                order.append(job)
                open_by_fence.setdefault(job['fence'], []).append(job)
                ring_counts(key[0])['queued'] += 1
            else:
                ring_counts(key[0])['run'] += 1
                job = jobs.get(key)
                if job is None:
                    run_without_queue += 1
                    continue
                job['run_ts'] = ts
                job['run_cpu'] = cpu
                job['hw_job_count_at_run'] = int(j.group('hw'))
        elif ev == 'drm_sched_process_job':
            d = DONE.match(rest)
            lst = open_by_fence.get(d.group('fence'))
            if not lst:
                unmatched_done += 1
                continue
            job = lst.pop()          # the most recent open job
            job['done_ts'] = ts
            job['done_cpu'] = cpu
            ring_counts(job['ring'])['done'] += 1
        elif ev == 'drm_sched_job_wait_dep':
            w = WAITDEP.match(rest)
            wait_dep += 1
            k = (w.group('ring'), int(w.group('id')))
            wait_dep_by_job[k] = wait_dep_by_job.get(k, 0) + 1
            # the dependency is the finished fence of the job that most
            # recently used that pointer (cross-ring deps only in mock_gpu)
            owner = latest_by_fence.get(w.group('fence'))
            if k in jobs:
                jobs[k]['deps'].append({
                    'ts': ts, 'cpu': cpu, 'fence': w.group('fence'),
                    'context': int(w.group('ctx')),
                    'seqno': int(w.group('seq')),
                    'job': ({'ring': owner['ring'], 'id': owner['id']}
                            if owner else None),
                    '_owner': owner})

    for j in order:
        for d in j['deps']:
            owner = d.pop('_owner')
            d['job_done_ts'] = owner['done_ts'] if owner else None
    incomplete = [j for j in order if j['done_ts'] is None]
    problems = []
    for j in order:
        if j['run_ts'] is not None and j['run_ts'] < j['queue_ts']:
            problems.append('%s:%d run before queue' % (j['ring'], j['id']))
        if j['done_ts'] is not None and (j['run_ts'] is None or
                                         j['done_ts'] < j['run_ts']):
            problems.append('%s:%d done before run' % (j['ring'], j['id']))
    # hardware rings are FIFO: done order must equal run order per ring
    for r in rings:
        ran = sorted([j for j in order if j['ring'] == r and j['run_ts']],
                     key=lambda j: j['run_ts'])
        done = [j['done_ts'] for j in ran if j['done_ts'] is not None]
        if done != sorted(done):
            problems.append('ring %s: completions not in run order' % r)
    for p in problems:
        print('facts.py: WARNING: ' + p, file=sys.stderr)

    hand = []
    for c in checks:
        ring, jid = c.split(':')
        j = jobs[(ring, int(jid))]
        hand.append({'ring': ring, 'id': int(jid)})
        print('%s job id=%d fence=%s by %s-%d: queued %.9f cpu%d, run %s, done %s'
              % (ring, j['id'], j['fence'], j['pid_comm'], j['pid'],
                 j['queue_ts'] / 1e9, j['queue_cpu'],
                 '%.9f cpu%d' % (j['run_ts'] / 1e9, j['run_cpu'])
                 if j['run_ts'] else '-',
                 '%.9f cpu%d' % (j['done_ts'] / 1e9, j['done_cpu'])
                 if j['done_ts'] else '- (incomplete)'), file=sys.stderr)

    out = {
        'trace': trace.rsplit('/', 1)[-1],
        'kernel': kernel,
        'rings': {r: rings[r] for r in sorted(rings)},
        'wait_dep_events': wait_dep,
        'incomplete_jobs': len(incomplete),
        'unmatched_done_events': unmatched_done,
        'run_without_queue': run_without_queue,
        'link_rule': 'queue/run by (ring,id); done = process_job fence '
                     'pointer == job fence pointer, most recent open job',
        'hand_checked': hand,
        'jobs': [{k: j[k] for k in ('ring', 'id', 'queue_ts', 'run_ts',
                                    'done_ts', 'queue_cpu', 'run_cpu',
                                    'done_cpu', 'pid_comm', 'pid', 'fence',
                                    'job_count_at_queue',
                                    'hw_job_count_at_run', 'deps')}
                 | {'wait_dep_events': wait_dep_by_job.get((j['ring'], j['id']), 0)}
                 for j in order],
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""check_diag.py TOOL TRACE.dat TRACE.truth.json

trace-cmd gpu-latency --explain --fence-path against a diagnosis scenario's
truth (sample-traces/gen/diag.c):
  - every stall whose job the generator's cause delayed ("cause_delays":
    "submission") and every worst job whose completion it delayed has that
    cause as its FIRST hint (a stall's job: the submission that ends a
    submit gap, the job whose start ends a ring-idle gap);
  - the fence-signal path per ring (irq_to_done, done_to_signal,
    signal_to_wait_end: n, min, max, mean, p50, p90, p99, p999) equals the
    truth exactly, and so does the GPU irq;
  - the IRQ load per CPU equals the truth (ns and counts exact);
  - --gpu-irq by number and by name give the same path; another irq gives
    no irq stage.
Exit 0 when everything holds.
"""
import json
import subprocess
import sys

STATS = ('n', 'min', 'max', 'mean', 'p50', 'p90', 'p99', 'p999')
errors = []


def fail(msg):
    errors.append(msg)


def run(tool, dat, *extra):
    cmd = [tool, '-q', '--explain', '--fence-path', '--json', '--top', '40', *extra, dat]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit('%s: exit %d: %s' % (' '.join(cmd), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def check_causes(rep, truth):
    jobs = truth['jobs']
    by_queue = {}
    by_start = {}
    for j in jobs:
        by_queue.setdefault((j['pid'], j['queue_ts']), j)
        if j['start_ts'] is not None:
            by_start[(j['ring'], j['start_ts'])] = j
    checked_stalls = checked_worst = 0
    for st in rep['explain']['stalls']:
        if st['kind'] == 'submit_gap':
            job = by_queue.get((st['pid'], st['end_ts']))
        else:
            job = by_start.get((st['ring'], st['end_ts']))
        if job is None:
            fail('stall %s ending %d: no truth job ends it' % (st['kind'], st['end_ts']))
            continue
        if not job.get('cause') or job.get('cause_delays') != 'submission':
            continue
        checked_stalls += 1
        first = st['hints'][0]['cause'] if st['hints'] else None
        if first != job['cause']:
            fail('stall %s %s..%s: first hint %s, injected cause %s (hints: %s)' % (
                st['kind'], st['start_ts'], st['end_ts'], first, job['cause'],
                [h['cause'] for h in st['hints']]))
    for w in rep['explain']['worst']:
        job = by_queue.get((w['pid'], w['queue_ts']))
        if job is None:
            fail('worst job queued %d: not in the truth' % w['queue_ts'])
            continue
        if not job.get('cause') or job.get('cause_delays') != 'completion':
            continue
        checked_worst += 1
        first = w['hints'][0]['cause'] if w['hints'] else None
        if first != job['cause']:
            fail('worst job %d (queue %d): first hint %s, injected cause %s (hints: %s)' % (
                job['index'], w['queue_ts'], first, job['cause'],
                [h['cause'] for h in w['hints']]))
    kind = truth['diag']['kind']
    if kind in ('cpu_freq', 'cpu_hog') and checked_stalls < len(truth['diag']['windows']):
        fail('%s: only %d stalls with the injected cause were reported' % (kind, checked_stalls))
    if kind == 'irq_storm' and checked_worst < 5:
        fail('irq_storm: only %d worst jobs with the injected cause' % checked_worst)
    return checked_stalls, checked_worst


def check_fence_path(rep, truth, want_irq=True):
    fp = rep['fence_path']
    tfp = truth['fence_path']
    if want_irq and fp['gpu_irq']['irq'] != tfp['gpu_irq']:
        fail('GPU irq %s, truth %s' % (fp['gpu_irq']['irq'], tfp['gpu_irq']))
    rings = {(r['dev'], r['ring']): r for r in fp['rings']}
    for tr in tfp['rings']:
        r = rings.get((tr['dev'], tr['ring']))
        if r is None:
            fail('fence path: ring %s missing' % tr['ring'])
            continue
        for stage in ('irq_to_done', 'done_to_signal', 'signal_to_wait_end'):
            t = tr[stage]
            g = r[stage]
            if stage == 'irq_to_done' and not want_irq:
                if g['n'] != 0:
                    fail('ring %s: irq_to_done with another irq has %d samples' % (tr['ring'], g['n']))
                continue
            keys = STATS if t['n'] else ('n',)
            for k in keys:
                if g.get(k) != t.get(k):
                    fail('ring %s %s.%s: %s, truth %s' % (tr['ring'], stage, k, g.get(k), t.get(k)))


def check_irq_load(rep, truth):
    load = {e['cpu']: e for e in rep['fence_path']['irq_load']}
    for t in truth['irq_load']:
        g = load.get(t['cpu'], {'hardirq_ns': 0, 'softirq_ns': 0, 'hardirqs': 0, 'softirqs': 0,
                                'hardirq_pct': 0.0, 'softirq_pct': 0.0})
        for k in ('hardirq_ns', 'softirq_ns', 'hardirqs', 'softirqs'):
            if g[k] != t[k]:
                fail('cpu %d %s: %s, truth %s' % (t['cpu'], k, g[k], t[k]))
        for k in ('hardirq_pct', 'softirq_pct'):
            if abs(g[k] - t[k]) > 1e-6:
                fail('cpu %d %s: %s, truth %s' % (t['cpu'], k, g[k], t[k]))


def main():
    tool, dat, truth_path = sys.argv[1:4]
    with open(truth_path) as f:
        truth = json.load(f)
    rep = run(tool, dat)
    stalls, worst = check_causes(rep, truth)
    check_fence_path(rep, truth)
    check_irq_load(rep, truth)
    irq = truth['fence_path']['gpu_irq']
    check_fence_path(run(tool, dat, '--gpu-irq', str(irq)), truth)
    name = rep['fence_path']['gpu_irq']['name']
    if name:
        check_fence_path(run(tool, dat, '--gpu-irq', name), truth)
    check_fence_path(run(tool, dat, '--gpu-irq', '27'), truth, want_irq=False)
    for e in errors[:30]:
        print('FAIL:', e)
    if errors:
        return 1
    print('ok: %s: %d stalls and %d worst jobs name the injected cause %s first; fence path '
          'and IRQ load equal the truth' % (truth['scenario'], stalls, worst, truth['diag']['kind']))
    return 0


if __name__ == '__main__':
    sys.exit(main())

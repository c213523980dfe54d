#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""check_scenario.py TRACE.truth.json

Checks that a committed sample really shows what its scenario is for (the
truth is the generator's own model, so this guards against a scenario that
silently stopped exercising its case), plus metric identities every truth file
must satisfy (docs/truth-format.md). Exit 0 when all hold.
"""
import json
import sys

FRAME = 16666667

# scenarios whose background load is the calibrated default (GPU events are
# 10-30% of all events); scenarios that inject CPU load are not held to it
BACKGROUND_MIX = {'steady', 'steady-617', 'stutter', 'deps', 'deps-617', 'saturated',
                  'hang', 'two-gpus', 'fence-reuse', 'signal-ooo', 'lost-events',
                  'era-pre57', 'era-57', 'amdgpu', 'amdgpu-617', 'amdgpu-only', 'seqno-wrap',
                  'i915', 'i915-ll'}


def metric_identities(t, fail):
    for j in t['jobs']:
        # no run stage: pre-5.7, and i915 without LOW_LEVEL tracepoints
        pre57 = t['era'] == 'pre-5.7' or (t['era'] == 'i915' and j['run_ts'] is None)
        if j['status'] == 'lost':
            continue
        if j['done_ts'] is None:
            if any(j[k] is not None for k in ('start_ts', 'exec', 'total', 'hw_queue')):
                fail('job %d: metrics without done' % j['index'])
            continue
        # msm: exec is the GPU counter's end - start, which ends before the done
        measured = j.get('exec_timing') == 'measured'
        if j['total'] != j['done_ts'] - j['queue_ts'] or \
                (j['exec'] != j['done_ts'] - j['start_ts'] and not measured) or \
                (measured and not 0 < j['exec'] < j['done_ts'] - j['start_ts']):
            fail('job %d: total/exec' % j['index'])
        if pre57:
            if j['run_ts'] is not None or j['wait'] is not None:
                fail('job %d: pre-5.7 job with run' % j['index'])
        elif j['wait'] != j['run_ts'] - j['queue_ts'] or j['hw_queue'] != j['start_ts'] - j['run_ts']:
            fail('job %d: wait/hw_queue' % j['index'])
        if j['dep_wait'] is not None and j['wait'] is not None and not 0 <= j['dep_wait'] <= j['wait']:
            fail('job %d: dep_wait out of [0, wait]' % j['index'])
    for r in t['rings']:
        n = r['complete'] + r['incomplete'] + r['lost']
        if n != r['jobs']:
            fail('ring %s: status counts' % r['ring'])
    # the hardware is FIFO: in run order, done times never go back
    for key, rj in by_ring(t).items():
        ran = sorted((j for j in rj if j['run_ts'] is not None and j['done_ts'] is not None),
                     key=lambda j: j['run_ts'])
        for a, b in zip(ran, ran[1:]):
            if b['done_ts'] < a['done_ts']:
                fail('ring %s: job %d done before job %d' % (key, b['index'], a['index']))
    # run events never exceed the ring's credits
    credits = {r['ring_label']: r['credits'] for r in t['rings']}
    for e in t.get('events', []):
        if e['name'] in ('drm_run_job', 'drm_sched_job_run'):
            name = e['fields']['name']
            c = credits.get(name)   # the name, or the name pointer before 5.19
            if c is not None and not 1 <= e['fields']['hw_job_count'] <= c:
                fail('run event with hw_job_count %d on a %d-credit ring'
                     % (e['fields']['hw_job_count'], c))


def by_ring(t):
    rings = {}
    for j in t['jobs']:
        rings.setdefault((j['dev'], j['ring']), []).append(j)
    return rings


def events(t, name):
    return [e for e in t.get('events', []) if e['name'] == name]


def check(name, t, fail):
    jobs = t['jobs']
    if name == 'stutter':
        q = sorted(j['queue_ts'] for j in jobs if j['comm'] == 'stutter-game' and j['ring'] == 'gfx')
        if not any(b - a > FRAME for a, b in zip(q, q[1:])):
            fail('no submission gap > 16.7 ms')
    elif name == 'saturated':
        runs = [e for e in events(t, 'drm_run_job') if e['fields']['name'] == 'gfx']
        if not any(e['fields']['hw_job_count'] == 2 for e in runs):
            fail('gfx never at its credit limit')
        gfx = [r for r in t['rings'] if r['ring'] == 'gfx'][0]
        if gfx['wait']['p90'] < 5 * FRAME // 16:
            fail('gfx queue waits not long (p90 %d)' % gfx['wait']['p90'])
    elif name == 'hang':
        if not any(j['status'] == 'incomplete' for j in jobs):
            fail('no incomplete job')
    elif name == 'two-gpus':
        names = {}
        for r in t['rings']:
            names.setdefault(r['ring'], set()).add(r['dev'])
        if not any(len(d) > 1 for d in names.values()):
            fail('no ring name on two devices')
    elif name == 'fence-reuse':
        ptrs = [j['fence_ptr'] for j in jobs]
        if len(set(ptrs)) * 4 > len(ptrs):
            fail('fence pointers hardly reused (%d distinct of %d)' % (len(set(ptrs)), len(ptrs)))
    elif name == 'signal-ooo':
        ooo = 0
        for rj in by_ring(t).values():
            done = sorted((j for j in rj if j['signal_ts'] is not None), key=lambda j: j['done_ts'])
            ooo += sum(1 for a, b in zip(done, done[1:]) if a['signal_ts'] > b['signal_ts'])
        if not ooo:
            fail('no signal out of completion order')
    elif name == 'lost-events':
        if not t['counts']['lost_events'] or not any(j['status'] == 'lost' for j in jobs):
            fail('no lost events or no lost job')
    elif name == 'era-pre57':
        if any(j['run_ts'] is not None for j in jobs):
            fail('run_ts in pre-5.7')
    elif name == 'era-57':
        if not all(j['ring_label'].startswith('0x') for j in jobs):
            fail('ring_label is not the name pointer')
    elif name == 'amdgpu-only':
        # `trace-cmd record -e amdgpu -e dma_fence`: the driver's view only
        if any(e['system'] == 'gpu_scheduler' for e in t.get('events', [])):
            fail('gpu_scheduler events in an amdgpu-only trace')
        if t['era'] != 'amdgpu' or not jobs or any(j['status'] != 'complete' for j in jobs):
            fail('amdgpu-only: not all jobs complete in the amdgpu era')
        if any(j['done_ts'] != j['signal_ts'] for j in jobs):
            fail('amdgpu-only: done is not the finished fence signal')
    elif name.startswith('amdgpu'):
        if not events(t, 'amdgpu_cs_ioctl') or not events(t, 'amdgpu_iv'):
            fail('no amdgpu events')
    elif name == 'i915':
        if any(j['run_ts'] is not None or j['dep_wait'] is not None for j in jobs):
            fail('i915 without LOW_LEVEL: a run stage or a dependency wait')
        if {j['ring'] for j in jobs} != {'rcs0', 'bcs0', 'vcs0'}:
            fail('not the three i915 engines')
    elif name == 'i915-ll':
        done = [j for j in jobs if j['done_ts'] is not None]
        if not done or any(j['start_timing'] != 'measured' for j in done):
            fail('i915 LOW_LEVEL: start not measured')
        # i915_request_in comes after the engine is free: never the FIFO guess
        if not all(j['start_ts'] > j['run_ts'] for j in done):
            fail('i915 LOW_LEVEL: a start at its submit')
    elif name == 'seqno-wrap':
        s = [j['fence_seqno'] for j in jobs]
        if not (min(s) < 2 ** 32 <= max(s)):
            fail('seqnos do not cross 2^32')
    # amdgpu-only traces show no dependencies (no wait_dep / add_dep events)
    if name.startswith(('deps', 'era-')) or name in ('amdgpu', 'amdgpu-617'):
        if not any(j['deps'] and j['dep_wait'] for j in jobs):
            fail('no job waited on a dependency')
    gpu = t['counts']['gpu_events'] / max(1, t['counts']['events'])
    if name in BACKGROUND_MIX and not 0.10 <= gpu <= 0.30:
        fail('GPU events are %.0f%% of the trace' % (100 * gpu))


def main():
    with open(sys.argv[1]) as fp:
        t = json.load(fp)
    errors = []
    metric_identities(t, errors.append)
    check(t['scenario'], t, errors.append)
    for e in errors[:20]:
        print(e, file=sys.stderr)
    print('%s: %s' % (t['scenario'], 'FAIL' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())

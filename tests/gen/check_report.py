#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""check_report.py TRACE_CMD TRACE.dat TRACE.truth.json

Checks a generated trace through `trace-cmd report`, independently of
libtracecmd's API:
 1. `trace-cmd report TRACE.dat` exits 0, prints nothing on stderr and no
    unknown events (every event has its format in the file); event IDs are
    unique among the file's formats (`trace-cmd dump --events`);
 2. in `trace-cmd report -N -t` (no plugins: the kernel's print fmt, ns
    timestamps) the GPU event lines match the truth "events" one by one in
    per-CPU order: timestamp, CPU, pid, event name and the printed fields,
    re-formatted here from the truth field values;
 3. the "[N EVENTS DROPPED]" lines add up to counts.lost_events;
 4. the truth is consistent with itself: every stage a job claims (queue, run,
    done, signal) is an event of the truth at that time and CPU unless the job
    lists the stage as lost, and job indexes follow queue order.
Exit 0 when all hold, 1 otherwise.
"""
import json
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                  r'(?P<sec>\d+)\.(?P<ns>\d{9}):\s+(?P<name>[A-Za-z0-9_]+):\s?(?P<rest>.*)$')
DROPPED = re.compile(r'^CPU:(\d+) \[(\d+) EVENTS DROPPED\]')


def ptr_str(v):
    """%s of a `const char *` field: libtraceevent prints the address in hex"""
    return v[2:] if isinstance(v, str) and v.startswith('0x') else v


def fmt_event(name, f):
    if name in ('drm_sched_job', 'drm_run_job'):
        return ('entity={entity}, id={id}, fence={fence}, ring={ring}, job count:{job_count}, '
                'hw job count:{hw_job_count}').format(ring=ptr_str(f['name']), **f)
    if name == 'drm_sched_process_job':
        return 'fence={fence} signaled'.format(**f)
    if name == 'drm_sched_job_wait_dep':
        return ('job ring={ring}, id={id}, depends fence={fence}, context={ctx}, '
                'seq={seqno}').format(ring=ptr_str(f['name']), **f)
    if name in ('drm_sched_job_queue', 'drm_sched_job_run'):
        return ('dev={dev}, fence={fence_context}:{fence_seqno}, ring={name}, '
                'job count:{job_count}, hw job count:{hw_job_count}, '
                'client_id:{client_id}').format(**f)
    if name == 'drm_sched_job_done':
        return 'fence={fence_context}:{fence_seqno} signaled'.format(**f)
    if name == 'drm_sched_job_add_dep':
        return 'fence={fence_context}:{fence_seqno} depends on fence={ctx}:{seqno}'.format(**f)
    if name == 'drm_sched_job_unschedulable':
        return ('fence={fence_context}:{fence_seqno} depends on unsignalled '
                'fence={ctx}:{seqno}').format(**f)
    if name.startswith('dma_fence_'):
        return 'driver={driver} timeline={timeline} context={context} seqno={seqno}'.format(**f)
    if name in ('amdgpu_cs_ioctl', 'amdgpu_sched_run_job'):
        if 'sched_job_id' in f:
            return ('sched_job={sched_job_id}, timeline={timeline}, context={context}, '
                    'seqno={seqno}, ring_name={ring}, num_ibs={num_ibs}').format(**f)
        return ('timeline={timeline}, fence={context}:{seqno}, ring_name={ring}, '
                'num_ibs={num_ibs}').format(**f)
    if name == 'amdgpu_iv':
        return ('ih:{ih} client_id:{client_id} src_id:{src_id} ring:{ring_id} vmid:{vmid} '
                'timestamp: {timestamp} pasid:{pasid} src_data: ').format(**f) + \
            ' '.join('%08x' % x for x in f['src_data'])
    if name.startswith('i915_request_'):
        # drivers/gpu/drm/i915/i915_trace.h (6.1): class i915_request, _in, _out
        head = 'dev={dev}, engine={class}:{instance}, ctx={ctx}, seqno={seqno}, '.format(**f)
        if name == 'i915_request_in':
            return head + 'prio={prio}, port={port}'.format(**f)
        if name == 'i915_request_out':
            return head + 'completed?={completed}'.format(**f)
        return head + 'tail={tail}'.format(**f)
    if name.startswith('xe_sched_job_'):
        # drivers/gpu/drm/xe/xe_trace.h (6.12): class xe_sched_job; error is an int
        err = f['error'] - (1 << 64) if f['error'] >= 1 << 63 else f['error']
        return ('dev={dev}, fence={fence}, seqno={seqno}, lrc_seqno={lrc_seqno}, '
                'guc_id={guc_id}, batch_addr=0x{batch_addr:012x}, guc_state=0x{guc_state:x}, '
                'flags=0x{flags:x}, error={err}').format(err=err, **f)
    if name.startswith('xe_hw_fence_'):
        return 'dev={dev}, ctx=0x{ctx:016x}, fence={fence}, seqno={seqno}'.format(**f)
    if name == 'msm_gpu_submit_flush':
        # drivers/gpu/drm/msm/msm_gpu_trace.h (data/formats/derived/msm)
        return 'id={id} pid={pid} ring={ringid}:{seqno} ticks={ticks}'.format(**f)
    if name == 'msm_gpu_submit_retired':
        return ('id={id} pid={pid} ring={ringid}:{seqno} elapsed={elapsed} ns mhz={clock} '
                'start={start_ticks} end={end_ticks}').format(**f)
    if name == 'v3d_submit_cl':
        # drivers/gpu/drm/v3d/v3d_trace.h (data/formats/derived/v3d)
        return 'dev={dev}, {kind}, seqno={seqno}, 0x{ctnqba:08x}..0x{ctnqea:08x}'.format(
            kind='RCL' if f['is_render'] else 'BCL', **f)
    if name.startswith('v3d_'):
        return 'dev={dev}, seqno={seqno}'.format(**f)
    raise ValueError('no formatter for ' + name)


class Checker:
    def __init__(self):
        self.errors = 0

    def fail(self, msg):
        self.errors += 1
        if self.errors <= 20:
            print(msg, file=sys.stderr)


def check_plain_report(c, tc, dat):
    p = subprocess.run([tc, 'report', dat], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        c.fail('trace-cmd report exit %d' % p.returncode)
    if p.stderr.strip():
        c.fail('trace-cmd report stderr: ' + p.stderr.strip()[:300])
    if 'UNKNOWN' in p.stdout or 'no format' in p.stdout:
        c.fail('trace-cmd report shows unknown events')


def check_event_ids(c, tc, dat, truth):
    """every event format in the file has its own ID; the truth's events are there"""
    p = subprocess.run([tc, 'dump', '--events', dat], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    names = re.findall(r'^name: (\S+)\nID: (\d+)$', p.stdout, re.M)
    ids = [i for _, i in names]
    if len(ids) != len(set(ids)):
        c.fail('duplicate event IDs: %s' % sorted(i for i in set(ids) if ids.count(i) > 1))
    missing = {e['name'] for e in truth.get('events', [])} - {n for n, _ in names}
    if missing:
        c.fail('formats missing for %s' % sorted(missing))


def report_lines(tc, dat):
    p = subprocess.run([tc, 'report', '-N', '-t', dat], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, check=True)
    return p.stdout.splitlines()


def check_events(c, lines, truth):
    events = truth.get('events')
    names = {e['name'] for e in events} if events is not None else set()
    gpu_names = names | {'drm_sched_job', 'drm_run_job', 'drm_sched_process_job',
                         'drm_sched_job_wait_dep', 'drm_sched_job_queue',
                         'drm_sched_job_run', 'drm_sched_job_done',
                         'drm_sched_job_add_dep', 'drm_sched_job_unschedulable',
                         'amdgpu_cs_ioctl', 'amdgpu_sched_run_job', 'amdgpu_iv'}
    per_cpu = {}
    for e in events or []:
        per_cpu.setdefault(e['cpu'], []).append(e)
    pos = {}
    lost = 0
    total = gpu = 0
    for line in lines:
        m = DROPPED.match(line)
        if m:
            lost += int(m.group(2))
            continue
        m = LINE.match(line)
        if not m:
            continue
        total += 1
        name = m.group('name')
        if name not in gpu_names and not name.startswith(('dma_fence_', 'i915_request_')):
            continue
        gpu += 1
        if events is None:
            continue
        cpu = int(m.group('cpu'))
        i = pos.get(cpu, 0)
        pos[cpu] = i + 1
        q = per_cpu.get(cpu, [])
        if i >= len(q):
            c.fail('CPU %d: extra event in report: %s' % (cpu, line))
            continue
        e = q[i]
        ts = int(m.group('sec')) * 1000000000 + int(m.group('ns'))
        want = fmt_event(e['name'], e['fields'])
        got = (ts, int(m.group('pid')), name, m.group('rest').strip())
        exp = (e['ts'], e['pid'], e['name'], want)
        if got != exp:
            c.fail('CPU %d event %d:\n  report %r\n  truth  %r' % (cpu, i, got, exp))
    for cpu, q in per_cpu.items():
        if pos.get(cpu, 0) != len(q):
            c.fail('CPU %d: %d truth events missing from the report' %
                   (cpu, len(q) - pos.get(cpu, 0)))
    counts = truth['counts']
    if total != counts['events']:
        c.fail('report has %d events, truth %d' % (total, counts['events']))
    if gpu != counts['gpu_events']:
        c.fail('report has %d GPU events, truth %d' % (gpu, counts['gpu_events']))
    if lost != counts['lost_events']:
        c.fail('report shows %d dropped events, truth %d' % (lost, counts['lost_events']))


STAGE_EVENTS = {
    'queue': ('drm_sched_job', 'drm_sched_job_queue'),
    'run': ('drm_run_job', 'drm_sched_job_run'),
    'done': ('drm_sched_process_job', 'drm_sched_job_done'),
    'signal': ('dma_fence_signaled',),
}

# i915 requests: done is i915_request_out (LOW_LEVEL), else the fence's signal
STAGE_EVENTS_I915 = {
    'queue': ('i915_request_add',),
    'run': ('i915_request_submit',),
    'done': ('i915_request_out', 'dma_fence_signaled'),
    'signal': ('dma_fence_signaled',),
}

# amdgpu only (no gpu_scheduler events): the driver's events and the finished
# fence's signal, which is also the done
STAGE_EVENTS_AMDGPU = {
    'queue': ('amdgpu_cs_ioctl',),
    'run': ('amdgpu_sched_run_job',),
    'done': ('dma_fence_signaled',),
    'signal': ('dma_fence_signaled',),
}


def check_jobs(c, truth):
    events = truth.get('events')
    if events is None:
        return
    at = {}
    for e in events:
        at.setdefault((e['ts'], e['cpu']), []).append(e['name'])
    prev = None
    for k, j in enumerate(truth['jobs']):
        if j['index'] != k:
            c.fail('job %d has index %d' % (k, j['index']))
        q = j['queue_ts'] if j['queue_ts'] is not None else j['sim_stages']['queue_ts']
        if prev is not None and q < prev:
            c.fail('job %d not in queue order' % k)
        prev = q
        if j['lost_stages'] and j['status'] != 'lost':
            c.fail('job %d: lost stages but status %s' % (k, j['status']))
        for stage in j['lost_stages']:
            if j[stage + '_ts'] is not None:
                c.fail('job %d: lost %s has a time' % (k, stage))
        stage_events = {'i915': STAGE_EVENTS_I915,
                        'amdgpu': STAGE_EVENTS_AMDGPU}.get(truth['era'], STAGE_EVENTS)
        for stage, names in stage_events.items():
            ts, cpu = j[stage + '_ts'], j[stage + '_cpu']
            if ts is None or stage in j['lost_stages']:
                continue
            if not any(n in names for n in at.get((ts, cpu), [])):
                c.fail('job %d: no %s event at %d on CPU %d' % (k, stage, ts, cpu))
        if j['status'] == 'complete' and (j['done_ts'] is None or j['lost_stages']):
            c.fail('job %d: complete without done or with lost stages' % k)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    tc, dat, truth_path = sys.argv[1:]
    with open(truth_path) as fp:
        truth = json.load(fp)
    c = Checker()
    check_plain_report(c, tc, dat)
    check_event_ids(c, tc, dat, truth)
    check_events(c, report_lines(tc, dat), truth)
    check_jobs(c, truth)
    print('%s: %s (%d errors)' % (dat, 'MISMATCH' if c.errors else 'ok', c.errors))
    return 1 if c.errors else 0


if __name__ == '__main__':
    sys.exit(main())

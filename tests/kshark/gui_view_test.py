#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""GUI test of what gpu-kshark shows, under Xvfb, against the truth file.

  gui_view_test.py LAUNCHER TRACE.dat TRUTH.json

Every expected value comes from the truth file (the generator's own model); row order
from `gpu-kshark --list`. Checks:
  1. default view = the GPU-active span: without -r, the first job's first stage sits
     2/104 of the graph width from its left edge and the last stage as far from the
     right (the launcher's 2 % margins), seen as stage-colored pixels there;
  2. zoomed on a job with wait, hw queue and execution (-r): the pixel in the middle of
     each segment, in its ring row, is the process color (palette entry of the process
     by first appearance in the truth) at the stage's tint;
  3. a dependency that had signaled before the job was queued gets no line: along the
     segment from the producer's done to the consumer's run, the dark line pixels that
     GPU_JOBS_ALL_DEPS=1 (show every dependency) draws are absent by default;
  4. moving the pointer onto that job (xdotool) opens the gpu_jobs tooltip, whose text
     (its window title) holds the job's process, fence, queue and done times and
     wait / exec / total from the truth, and before 6.17 the job's identity as the
     plugin and gpu-latency print it (job=RING#ID fence=HHHH.N, computed from the
     truth's fence pointers like tests/tools/test_identity.py does).
Exit: 0 pass, 1 fail, 77 skip (no Xvfb / ImageMagick / xdotool / kernelshark).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ksgui  # noqa: E402  (gpu-kshark under Xvfb, image helpers, palette)
sys.path.insert(0, os.path.join(HERE, '..', 'tools'))
from test_identity import handle, number  # noqa: E402  (the truth's job identities)

DEP = (20, 20, 20)

def stages(j):
    return [j[k] for k in ('queue_ts', 'run_ts', 'done_ts', 'signal_ts') if j.get(k) is not None]


def colors(truth):
    """palette index per pid: order of first appearance (first stage of a job)"""
    order = sorted(truth['jobs'], key=lambda j: (min(stages(j)), j['index']))
    idx = {}
    for j in order:
        if j['pid'] not in idx:
            idx[j['pid']] = len(idx) % len(ksgui.PALETTE)
    return idx


def label(j):
    return (j['dev'] + '/' if j['dev'] else '') + j['ring']


def main():
    launcher, trace, truth = ksgui.test_args(sys.argv, __doc__)
    number(truth)
    jobs = [j for j in truth['jobs'] if j['status'] == 'complete']
    col = colors(truth)
    ring_rows = ksgui.list_rows(launcher, trace)[0]
    ncpu = truth['cpus']
    nrows = ncpu + len(ring_rows)
    by_fence = {(j['fence_ctx'], j['fence_seqno']): j for j in truth['jobs']}

    # 1. default view
    first = min(min(stages(j)) for j in truth['jobs'])
    last = max(max(stages(j)) for j in truth['jobs'])
    fj = min(truth['jobs'], key=lambda j: min(stages(j)))
    r = ksgui.Run(launcher, [trace])
    try:
        if not r.wait(nrows):
            ksgui.fail('default view: the graph never settled')
        else:
            w = r.gx1 - r.gx0
            # the view is [first - m, last + m], m = (last - first) / 50
            m = (last - first) // 50 + 1000
            t0, t1 = first - m, last + m
            x = r.gx0 + (first - t0) * w / (t1 - t0)
            base = r.bases[ncpu + ring_rows.index(label(fj))]
            # KernelShark rounds the range to whole bins: a few pixels of slack
            hit = [xx for xx in range(int(x) - 6, int(x) + 7)
                   if ksgui.is_stage(r.img.get(xx, base - 3))]
            print('default view: first job at x~%d (graph %d-%d): %s' % (x, r.gx0, r.gx1, hit))
            if not hit:
                ksgui.fail('default view: no job at x~%d where the GPU span begins' % x)
            # (the graph's first columns: KernelShark's own edge of the first bin)
            left = [xx for xx in range(r.gx0 + 3, int(x) - 8)
                    if any(ksgui.is_stage(r.img.get(xx, b - 3)) for b in r.bases[ncpu:])]
            if left:
                ksgui.fail('default view: job pixels left of the GPU span at %s: %s' % (left[:5], [[r.img.get(left[0], b - 3) for b in r.bases[ncpu:]]]))
    finally:
        r.close()

    # 2-4: a consumer with an already-signaled dependency on another ring, wide
    pick = None
    for j in jobs:
        if not (j['wait'] and j['exec'] and j['run_ts'] and j['hw_queue'] is not None):
            continue
        # in the bottom sub-row: every earlier job of its ring ended before its queue
        if any(label(o) == label(j) and min(stages(o)) < j['queue_ts'] and
               max(stages(o)) >= j['queue_ts'] for o in truth['jobs'] if o is not j):
            continue
        for d in j['deps']:
            p = by_fence.get((d['fence_ctx'], d['fence_seqno']))
            if p and p['done_ts'] < j['queue_ts'] and label(p) != label(j):
                if pick is None or j['exec'] > pick[0]['exec']:
                    pick = (j, p)
    if not pick:
        print('SKIP: no job with an already-signaled dependency on another ring')
        return 77
    j, p = pick
    t0 = p['done_ts'] - (j['done_ts'] - p['done_ts']) // 4
    t1 = j['done_ts'] + (j['done_ts'] - p['done_ts']) // 4
    rng = ['-r', '%.9f,%.9f' % (t0 / 1e9, t1 / 1e9), trace]
    print('job %d (%s-%d on %s) waits on job %d (%s), done %d < queue %d; range %d-%d' %
          (j['index'], j['comm'], j['pid'], label(j), p['index'], label(p), p['done_ts'],
           j['queue_ts'], t0, t1))

    # 2. stage colors, zoomed on the job with the widest shortest stage
    def bottom(o):
        return not any(label(k) == label(o) and min(stages(k)) < o['queue_ts'] and
                       max(stages(k)) >= o['queue_ts'] for k in truth['jobs'] if k is not o)
    cands = [o for o in jobs if o['run_ts'] and o['wait'] and o['exec'] and bottom(o)]
    sj = max(cands, key=lambda o: min(o['wait'], o['exec'], o['hw_queue'] or o['exec']) /
             float(o['total']))
    s0 = sj['queue_ts'] - sj['total'] // 4
    s1 = sj['done_ts'] + sj['total'] // 4
    r = ksgui.Run(launcher, ['-r', '%.9f,%.9f' % (s0 / 1e9, s1 / 1e9), trace])
    try:
        if not r.wait(nrows):
            ksgui.fail('stage colors: the graph never settled')
        else:
            x_of = lambda ts: int(round(r.gx0 + (ts - s0) * (r.gx1 - r.gx0) / (s1 - s0)))
            base = r.bases[ncpu + ring_rows.index(label(sj))]
            c = ksgui.PALETTE[col[sj['pid']]]
            want = {'wait': ksgui.tint(c, ksgui.WAIT_ALPHA),
                    'hw_queue': ksgui.tint(c, ksgui.HWQ_ALPHA), 'exec': c}
            seg = {'wait': (sj['queue_ts'], sj['run_ts']),
                   'hw_queue': (sj['run_ts'], sj['start_ts']),
                   'exec': (sj['start_ts'], sj['done_ts'])}
            checked = 0
            for st, (a, b) in seg.items():
                if x_of(b) - x_of(a) < 5:
                    print('job %d %s: %d px, not checked' % (sj['index'], st, x_of(b) - x_of(a)))
                    continue
                x, y = (x_of(a) + x_of(b)) // 2, base - 3
                px = r.img.get(x, y)
                checked += 1
                print('job %d %s at (%d, %d): %s, want %s' % (sj['index'], st, x, y, px, want[st]))
                if not ksgui.near(px, want[st], 4):
                    ksgui.fail('%s of job %d at (%d, %d) is %s, want %s' %
                         (st, sj['index'], x, y, px, want[st]))
            if checked < 2:
                ksgui.fail('stage colors: fewer than two stages wide enough to check')
    finally:
        r.close()

    views = {}
    for name, extra in (('all', {'GPU_JOBS_ALL_DEPS': '1'}), ('default', None)):
        r = ksgui.Run(launcher, rng, extra)
        try:
            if not r.wait(nrows):
                ksgui.fail('%s: the graph never settled' % name)
                return 1
            views[name] = r
            if name == 'default':
                x_of = lambda ts: int(round(r.gx0 + (ts - t0) * (r.gx1 - r.gx0) / (t1 - t0)))
                base = r.bases[ncpu + ring_rows.index(label(j))]
                # 4. tooltip
                xe, ye = (x_of(j['start_ts']) + x_of(j['done_ts'])) // 2, base - 3
                ksgui.hover(r.env, xe, ye)
                title = ksgui.tooltip_title(r.env) or ''
                print('tooltip: %s' % title)
                ident = ()
                if j.get('fence_ptr'):
                    ident = ('report  job=%s#%d fence=%04x.%d' %
                             (j['ring'], j['id'], handle(int(j['fence_ptr'], 16)), j['gen']),)
                us = lambda ns: '%d.%03d us' % (ns // 1000, ns % 1000)
                sec = lambda ns: '%d.%09d' % (ns // 1000000000, ns % 1000000000)
                for want_txt in ('%s-%d' % (j['comm'], j['pid']),
                                 'fence=%d:%d' % (j['fence_ctx'], j['fence_seqno']),
                                 'queue   ' + sec(j['queue_ts']), 'done    ' + sec(j['done_ts']),
                                 'wait ' + us(j['wait']), 'exec ' + us(j['exec']),
                                 'total ' + us(j['total']),
                                 'fence=%d:%d' % (p['fence_ctx'], p['fence_seqno'])) + ident:
                    if want_txt not in title:
                        ksgui.fail('tooltip of job %d lacks %r' % (j['index'], want_txt))
        finally:
            r.close()

    # 3. the line of the signaled dependency: drawn with ALL_DEPS, absent by default
    a, d = views['all'], views['default']
    xa = int(round(a.gx0 + (p['done_ts'] - t0) * (a.gx1 - a.gx0) / (t1 - t0)))
    xb = int(round(a.gx0 + (j['run_ts'] - t0) * (a.gx1 - a.gx0) / (t1 - t0)))
    ya = a.bases[ncpu + ring_rows.index(label(p))]
    yb = a.bases[ncpu + ring_rows.index(label(j))]
    rh = a.bases[1] - a.bases[0]
    line_px = []
    for x in range(min(xa, xb) + 3, max(xa, xb) - 2):
        # near the segment between the two rows' middles (sub-rows: +- half a row)
        f = (x - xa) / float(xb - xa) if xb != xa else 0.5
        yc = (ya - rh // 2) + f * (yb - ya)
        for y in range(int(yc - rh // 2), int(yc + rh // 2) + 1):
            if any(abs(y - b) <= 2 for b in a.bases):
                continue
            if ksgui.near(a.img.get(x, y), DEP, 8):
                line_px.append((x, y))
    drawn = [q for q in line_px if ksgui.near(d.img.get(*q), DEP, 8)]
    print('dependency line: %d px with every dependency shown, %d of them by default' %
          (len(line_px), len(drawn)))
    if len(line_px) < 5:
        ksgui.fail('with GPU_JOBS_ALL_DEPS=1 no line from job %d to job %d' % (p['index'], j['index']))
    if drawn:
        ksgui.fail('a line for the already-signaled dependency of job %d: %s' % (j['index'], drawn[:5]))

    return ksgui.verdict()


if __name__ == '__main__':
    sys.exit(main())

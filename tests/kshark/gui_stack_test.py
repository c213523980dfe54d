#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""GUI test of stacked ring rows under Xvfb: the "+N" mark of a capped row.

  gui_stack_test.py LAUNCHER TRACE.dat TRUTH.json

Overlapping jobs of a ring are stacked into sub-rows (first sub-row free, in order of
their first stage: kshark-plugins/gpu_index.c); a row shows as many sub-rows as fit
12 px each, the deeper ones share the top sub-row and the row carries a "+N" mark.
The depth is computed here from the truth file's jobs with that rule. Checks:
  1. zoomed (-r) on the deepest stack of the trace (before its incomplete jobs), the
     ring row has the mark: a pale plate (the tooltip's color) at its right end, at
     least 11 px high, with dark text at least 6 px high in it; the other ring rows
     (at most one sub-row deep there) have none;
  2. hovering the mark (xdotool) opens the tooltip, which gives the truth's depth and
     "+N" = depth minus the sub-rows shown; those fill the row up to the mark's top,
     as many as fit at 12 px each;
  3. zoomed on a stretch where that ring is at most as deep as its sub-rows, no mark.
Exit: 0 pass, 1 fail, 77 skip (no Xvfb / ImageMagick / xdotool / kernelshark).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ksgui  # noqa: E402  (gpu-kshark under Xvfb, image helpers)

# Rows of stacked boxes have long dark grey outlines and busy CPU rows hide parts of
# their baselines: the rows are found by their black baselines over 60 % of the width.

# kshark-plugins/GpuJobs.cpp: gpujobMarkFill, gpujobMinSubrowPx
MARK_FILL = (255, 255, 224)
MIN_SUBROW_PX = 12

def span(j):
    st = [j[k] for k in ('queue_ts', 'run_ts', 'done_ts', 'signal_ts') if j.get(k) is not None]
    return min(st), max(st)


def label(j):
    return (j['dev'] + '/' if j['dev'] else '') + j['ring']


def stack(jobs):
    """sub-row of every complete job: the first whose last job ended before it began"""
    ends, sub = [], {}
    for j in sorted(jobs, key=lambda j: (span(j)[0], j['index'])):
        b, e = span(j)
        r = next((i for i, end in enumerate(ends) if end < b), len(ends))
        if r == len(ends):
            ends.append(e)
        ends[r] = e
        sub[j['index']] = r
    return sub


def depth(jobs, sub, t0, t1):
    d = [sub[j['index']] + 1 for j in jobs if span(j)[1] >= t0 and span(j)[0] <= t1]
    return max(d) if d else 0


def plate(r, base, pitch):
    """bounding box of the mark's fill in the row above @base at the graph's right end"""
    pts = [(x, y) for y in range(base - pitch + 2, base)
           for x in range(r.gx1 - 160, r.gx1)
           if ksgui.near(r.img.get(x, y), MARK_FILL, 2)]
    if len(pts) < 30:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def main():
    launcher, trace, truth = ksgui.test_args(sys.argv, __doc__)
    rings = ksgui.list_rows(launcher, trace)[0]
    ncpu = truth['cpus']
    nrows = ncpu + len(rings)
    # incomplete jobs last to the end of the trace: the windows end before the first
    inc = [span(j)[0] for j in truth['jobs'] if j['status'] != 'complete']
    limit = min(inc) if inc else truth['last_ts']
    jobs = {}
    for j in truth['jobs']:
        if j['status'] == 'complete' and span(j)[0] < limit:
            jobs.setdefault(label(j), []).append(j)
    subs = {k: stack(v) for k, v in jobs.items()}

    # the deepest stack: its jobs' begins, 40 ms windows centered there
    best = None
    for k, v in jobs.items():
        for j in v:
            c = span(j)[0]
            t0, t1 = c - 20000000, c + 20000000
            if t1 >= limit:
                continue
            dd = depth(v, subs[k], t0, t1)
            if best is None or dd > best[0]:
                best = (dd, k, t0, t1)
    dmax, ring, t0, t1 = best
    print('deepest: %s %d deep in %d-%d' % (ring, dmax, t0, t1))
    if dmax < 4:
        print('SKIP: no ring stacks deeper than 3 in %s' % trace)
        return 77
    others = [k for k in rings if k != ring and depth(jobs.get(k, []), subs.get(k, {}), t0, t1) <= 1]

    shown = None
    r = ksgui.Run(launcher, ['-r', '%.9f,%.9f' % (t0 / 1e9, t1 / 1e9), trace])
    try:
        if not r.wait(nrows, level=20, frac=0.6):
            ksgui.fail('deepest stack: the graph never settled')
            return 1
        pitch = r.bases[1] - r.bases[0]
        base = r.bases[ncpu + rings.index(ring)]
        # 1. the mark's plate and its text
        box = plate(r, base, pitch)
        print('%s row (base y=%d, pitch %d): mark plate %s' % (ring, base, pitch, box))
        if not box:
            ksgui.fail('%s is %d deep but its row has no "+N" mark' % (ring, dmax))
        else:
            x0, y0, x1, y1 = box
            if y1 - y0 + 1 < MIN_SUBROW_PX - 1:
                ksgui.fail('the mark is %d px high, want >= %d' % (y1 - y0 + 1, MIN_SUBROW_PX - 1))
            text = [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)
                    if sum(r.img.get(x, y)) < 480]
            th = max(p[1] for p in text) - min(p[1] for p in text) + 1 if text else 0
            print('mark text: %d dark pixels, %d px high' % (len(text), th))
            # (digits of the 10 pt label font are 7 px high, antialiased)
            if len(text) < 10 or th < 6:
                ksgui.fail('the mark has no readable text (%d dark pixels, %d px high)' %
                     (len(text), th))
            # 2. its tooltip
            ksgui.hover(r.env, (x0 + x1) // 2, (y0 + y1) // 2)
            title = ksgui.tooltip_title(r.env) or ''
            print('tooltip: %s' % title)
            m = re.search(r'jobs stack (\d+) deep in this view, (\d+) sub-rows fit.*'
                          r'\+(\d+): ', title)
            if not m:
                ksgui.fail('no "+N" tooltip on the mark: %r' % title)
            else:
                dd, shown, n = (int(v) for v in m.groups())
                if dd != dmax:
                    ksgui.fail('the tooltip says %d deep, the truth %d' % (dd, dmax))
                if n != dmax - shown or shown < 1:
                    ksgui.fail('"+%d" with %d sub-rows shown of %d' % (n, shown, dmax))
                # the sub-rows fill the row from its baseline to the mark's top: as many
                # as fit at >= 12 px each (the plate's border may take a pixel)
                band = base - y0
                print('%d sub-rows in %d px' % (shown, band))
                if not (shown * MIN_SUBROW_PX - 2 <= band <= (shown + 1) * MIN_SUBROW_PX + 1):
                    ksgui.fail('%d sub-rows shown in %d px: want as many as fit at %d px' %
                         (shown, band, MIN_SUBROW_PX))
        for k in others:
            ob = plate(r, r.bases[ncpu + rings.index(k)], pitch)
            print('%s row (at most one deep): mark plate %s' % (k, ob))
            if ob:
                ksgui.fail('%s is at most one deep but has a "+N" mark at %s' % (k, ob))
    finally:
        r.close()

    # 3. a stretch of the ring no deeper than its sub-rows: no mark
    if shown:
        calm = None
        for j in sorted(jobs[ring], key=lambda j: span(j)[0]):
            c = span(j)[0]
            if c + 20000000 < limit and 1 <= depth(jobs[ring], subs[ring], c - 2000000,
                                                   c + 2000000) <= shown:
                calm = (c - 2000000, c + 2000000)
                break
        if not calm:
            ksgui.fail('no stretch of %s at most %d deep' % (ring, shown))
        else:
            c0, c1 = calm
            r = ksgui.Run(launcher, ['-r', '%.9f,%.9f' % (c0 / 1e9, c1 / 1e9), trace])
            try:
                if not r.wait(nrows, level=20, frac=0.6):
                    ksgui.fail('calm stretch: the graph never settled')
                else:
                    base = r.bases[ncpu + rings.index(ring)]
                    box = plate(r, base, r.bases[1] - r.bases[0])
                    print('%s %d-%d, %d deep: mark plate %s' %
                          (ring, c0, c1, depth(jobs[ring], subs[ring], c0, c1), box))
                    if box:
                        ksgui.fail('a "+N" mark on %s where it is at most %d deep' % (ring, shown))
            finally:
                r.close()

    return ksgui.verdict()


if __name__ == '__main__':
    sys.exit(main())

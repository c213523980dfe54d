#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""GUI test under Xvfb: a dependency the job really waited on is drawn by default.

  gui_deps_test.py LAUNCHER TRACE.dat TRUTH.json

The pair comes from the truth file (the generator's own model): a complete job J whose
dependency is the finished fence of job P on another ring, where P finished (done) more
than 100 us after J was queued, so J really waited on it, and no other such pair's line
[P's done, J's run] crosses the view. The view (-r, ring rows only: -c none) is
[P done - 2g, J run + 2g], g = J run - P done (KernelShark
rounds a range to whole bins: the wider the view, the closer x is to the truth's). Where the line must be comes from the truth's
timestamps only: x from P's done to J's run, y from the middle of P's box (in its row,
left of P's done) to the middle of J's box (right of the view's start, before J's run),
those boxes being found as stage-colored pixels at truth positions. Checks:
  1. the line: in every column from 10 px after its start to 12 px before its end, a
     pixel of the arrow color (dark, not the dark grey outlines or black text) within
     3 px of the straight segment; the columns over J's own box count too, so the line
     is drawn above the boxes;
  2. the arrowhead at J's run: a column within [run - 12, run + 3] px where the arrow
     color is at least 4 px tall (the line alone is at most 3);
  3. the line ends there: no arrow color 8 to 40 px right of J's run near its row's middle;
  4. no other line: left of P's done no arrow color in any ring row, though jobs there
     have dependencies whose lines lie wholly before the view (once drawn clamped to the
     view's left edge, a vertical stroke with an arrowhead).
Exit: 0 pass, 1 fail, 77 skip (no Xvfb / ImageMagick / xdotool / kernelshark, or no pair).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ksgui  # noqa: E402  (gpu-kshark under Xvfb, image helpers)

# kshark-plugins/GpuJobs.cpp: gpujobDepColor (box outlines are 40,40,40, labels black)
DEP = (20, 20, 20)
# KernelShark rounds the requested range to whole bins: positions are a few px off
SLACK_X = 6


def stages(j):
    return [j[k] for k in ('queue_ts', 'run_ts', 'done_ts', 'signal_ts') if j.get(k) is not None]


def label(j):
    return (j['dev'] + '/' if j['dev'] else '') + j['ring']


def is_dep(px):
    return ksgui.near(px, DEP, 6)


def pick(truth):
    """(consumer, producer, t0, t1): the waited-on pair with the widest producer done ->
    consumer run gap whose line is alone in its view, or None"""
    jobs = truth['jobs']
    by_index = {j['index']: j for j in jobs}
    pairs = []
    for j in jobs:
        for d in j['deps']:
            p = by_index.get(d.get('job_index'))
            if p is None or j.get('run_ts') is None or p.get('done_ts') is None:
                continue
            # waited: the fence (P's finished fence) signals at or after P's done
            waited = (p.get('signal_ts') or p['done_ts']) > j['queue_ts']
            pairs.append((j, p, waited))
    best = None
    for j, p, waited in pairs:
        if not waited or j['status'] != 'complete' or label(j) == label(p):
            continue
        if p['done_ts'] - j['queue_ts'] < 100000 or j['run_ts'] <= p['done_ts']:
            continue
        g = j['run_ts'] - p['done_ts']
        t0, t1 = p['done_ts'] - 2 * g, j['run_ts'] + 2 * g
        if any(w and (jj, pp) != (j, p) and pp['done_ts'] <= t1 and jj['run_ts'] >= t0
               for jj, pp, w in pairs):
            continue
        # the two boxes are measured in the picture: no other job of their rings in view
        if any(o is not j and o is not p and label(o) in (label(j), label(p)) and
               max(stages(o)) >= t0 and min(stages(o)) <= t1 for o in jobs):
            continue
        if best is None or g > best[1]['run_ts'] - best[1]['done_ts']:
            best = (p, j, t0, t1)
    return best and (best[1], best[0], best[2], best[3])


def band_mid(img, x, base, pitch):
    """middle of the stage-colored run in column @x of the row above @base"""
    ys = [y for y in range(base - pitch + 3, base) if ksgui.is_stage(img.get(x, y))]
    return (min(ys) + max(ys)) // 2 if ys else None


def dep_ys(img, x, y0, y1):
    return [y for y in range(max(0, y0), min(img.h, y1 + 1)) if is_dep(img.get(x, y))]


def main():
    launcher, trace, truth = ksgui.test_args(sys.argv, __doc__)
    got = pick(truth)
    if not got:
        print('SKIP: no job that waited on another ring\'s job with its line alone in view')
        return 77
    j, p, t0, t1 = got
    rows = ksgui.list_rows(launcher, trace)[0]
    print('job %d (%s) waits on job %d (%s): queue %d, done %d, run %d; view %d-%d' %
          (j['index'], label(j), p['index'], label(p), j['queue_ts'], p['done_ts'],
           j['run_ts'], t0, t1))
    r = ksgui.Run(launcher, ['-c', 'none', '-r', '%.9f,%.9f' % (t0 / 1e9, t1 / 1e9), trace])
    try:
        # level 20: only the black baselines, not the boxes' dark grey outlines
        if not r.wait(len(rows), level=20):
            ksgui.fail('the graph never settled')
            return ksgui.verdict()
        img = r.img
        pitch = r.bases[1] - r.bases[0] if len(r.bases) > 1 else 50
        xa, xb = r.x_of(p['done_ts'], t0, t1), r.x_of(j['run_ts'], t0, t1)
        pbase, jbase = r.bases[rows.index(label(p))], r.bases[rows.index(label(j))]
        # P's box left of its done, J's box (its wait) right of the view's start
        ya = band_mid(img, xa - 2 * SLACK_X, pbase, pitch)
        yb = band_mid(img, r.gx0 + (xb - r.gx0) // 4, jbase, pitch)
        print('line expected from (%d, %s) to (%d, %s), graph x %d-%d' %
              (xa, ya, xb, yb, r.gx0, r.gx1))
        if ya is None or yb is None:
            ksgui.fail('no box of job %d / %d where the truth puts it' %
                       (p['index'], j['index']))
            return ksgui.verdict()

        # 1. the line
        missing, cols = [], range(xa + 10, xb - 12)
        for x in cols:
            yc = ya + (x - xa) * (yb - ya) / float(xb - xa)
            if not dep_ys(img, x, int(yc) - 3, int(yc) + 4):
                missing.append(x)
        print('line: %d of %d columns without the arrow color near the segment' %
              (len(missing), len(cols)))
        if len(cols) < 20:
            ksgui.fail('line only %d px long: the view is too narrow' % len(cols))
        if missing:
            ksgui.fail('no line from job %d done to job %d run at x %s' %
                       (p['index'], j['index'], missing[:8]))

        # 2. the arrowhead
        tall = max(len(dep_ys(img, x, yb - 8, yb + 8))
                   for x in range(xb - 12, xb + SLACK_X // 2 + 1))
        print('arrowhead: tallest run of arrow color near job %d run: %d px' %
              (j['index'], tall))
        if tall < 4:
            ksgui.fail('no arrowhead at job %d run (x~%d, y~%d)' % (j['index'], xb, yb))

        # 3. nothing beyond the run
        beyond = [x for x in range(xb + 8, min(xb + 40, r.gx1))
                  if dep_ys(img, x, yb - 6, yb + 6)]
        if beyond:
            ksgui.fail('arrow color right of job %d run at x %s' % (j['index'], beyond[:8]))

        # 4. no line outside [P done, J run] (pick() left no other pair crossing the view)
        stray = [(x, y) for x in range(max(0, r.gx0 - 4), xa - 8) for b in r.bases
                 for y in range(b - pitch + 3, b - 1) if is_dep(img.get(x, y))]
        if stray:
            ksgui.fail('arrow color left of job %d done: %s' % (p['index'], stray[:8]))
    finally:
        r.close()
    return ksgui.verdict()


if __name__ == '__main__':
    sys.exit(main())

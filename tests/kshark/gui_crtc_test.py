#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""GUI test of the CRTC row (issue 18) under Xvfb, against the generator's frames truth.

  gui_crtc_test.py LAUNCHER TRACE.dat TRUTH.json

The truth's "frames" (sample-traces/gen/frames.c, the generator's own display model)
gives every vblank instant, every late frame (deadline, presented) and the vblank of every
on-time frame. gpu-kshark is zoomed (-r) on a late frame of the first client with a few
vblanks either side; in the CRTC row (below the ring rows, order from `gpu-kshark --list`):
  1. a grey tick at every vblank instant in the window, and no tick half-way between two;
  2. the late frame is red from the vblank it was due for to the one it was shown at;
  3. every on-time frame in the window is a green block just before its vblank;
  4. half-way between two vblanks outside every late frame's span there is no red.
Exit: 0 pass, 1 fail, 77 skip (no Xvfb / ImageMagick / xdotool / kernelshark).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ksgui  # noqa: E402  (gpu-kshark under Xvfb, image helpers)

# kshark-plugins/GpuJobs.cpp: gpujobVblankColor, gpujobLateColor, gpujobOnTimeColor
TICK = (90, 90, 90)
LATE = (220, 20, 60)
ONTIME = (40, 170, 60)

def column_has(img, x, y0, y1, color, tol=6):
    """any pixel of columns x-1..x+1 between y0 and y1 near @color"""
    return any(ksgui.near(img.get(xx, y), color, tol)
               for xx in (x - 1, x, x + 1) for y in range(y0, y1 + 1))


def main():
    launcher, trace, truth = ksgui.test_args(sys.argv, __doc__)
    fr = truth['frames']
    ring_rows, crtcs = ksgui.list_rows(launcher, trace)
    ncpu = truth['cpus']
    nrows = ncpu + len(ring_rows) + len(crtcs)
    cl = next(c for c in fr['clients'] if c['late_frames'])
    crtc = next(c for c in fr['crtcs'] if c['crtc'] == cl['crtc'])
    V = lambda seq: crtc['vblank_ts'][seq - crtc['first_seq']]
    # a late frame missing one vblank, away from the trace's ends
    lf = next(f for f in cl['late_frames'] if f['presented'] and
              f['deadline'] - crtc['first_seq'] >= 4 and
              f['presented'] + 4 < crtc['first_seq'] + len(crtc['vblank_ts']))
    refresh = crtc['refresh_ns']
    t0 = V(lf['deadline']) - int(2.5 * refresh)
    t1 = V(lf['presented']) + int(2.5 * refresh)
    late_spans = [(V(f['deadline']), V(f['presented'])) for c in fr['clients']
                  if c['crtc'] == crtc['crtc'] for f in c['late_frames'] if f['presented']]
    print('crtc %d: late frame of %s-%d due %d (%d), shown %d (%d); range %d-%d' %
          (crtc['crtc'], cl['comm'], cl['pid'], lf['deadline'], V(lf['deadline']),
           lf['presented'], V(lf['presented']), t0, t1))

    r = ksgui.Run(launcher, ['-r', '%.9f,%.9f' % (t0 / 1e9, t1 / 1e9), trace])
    try:
        if not r.wait(nrows):
            ksgui.fail('the graph never settled')
            return 1
        img = r.img
        x_of = lambda ts: int(round(r.gx0 + (ts - t0) * (r.gx1 - r.gx0) / (t1 - t0)))
        base = r.bases[ncpu + len(ring_rows) + crtcs.index(crtc['crtc'])]
        rh = r.bases[1] - r.bases[0]
        top, bottom = base - rh + 5, base - 3
        vbl = [t for t in crtc['vblank_ts'] if t0 <= t <= t1]
        # 1. ticks at the vblanks, none half-way
        for t in vbl:
            if not column_has(img, x_of(t), top, bottom, TICK):
                ksgui.fail('no vblank tick at x=%d (vblank %d)' % (x_of(t), t))
        for a, b in zip(vbl, vbl[1:]):
            x = x_of((a + b) // 2)
            if any(ksgui.near(img.get(x, y), TICK, 6) for y in range(top, bottom + 1)):
                ksgui.fail('a tick half-way between the vblanks %d and %d (x=%d)' % (a, b, x))
        print('%d vblank ticks in the window checked' % len(vbl))
        # 2. the late frame
        x = x_of((V(lf['deadline']) + V(lf['presented'])) // 2)
        if not column_has(img, x, top, bottom, LATE):
            ksgui.fail('late frame due %d: no red at x=%d' % (lf['deadline'], x))
        # 3. on-time frames: green just before their vblank
        ontime = [s for c in fr['clients'] if c['crtc'] == crtc['crtc']
                  for s in c['on_time_presented'] if t0 + refresh // 2 <= V(s) <= t1]
        for s in ontime:
            x = x_of(V(s)) - 2
            if not column_has(img, x, top, bottom, ONTIME):
                ksgui.fail('on-time frame shown at vblank %d: no green at x=%d' % (s, x))
        if not ontime:
            ksgui.fail('no on-time frame in the window to check')
        print('%d on-time frames in the window checked' % len(ontime))
        # 4. no red outside the late spans
        clean = 0
        for a, b in zip(vbl, vbl[1:]):
            m = (a + b) // 2
            if any(s <= m <= e for s, e in late_spans):
                continue
            clean += 1
            if column_has(img, x_of(m), top, bottom, LATE):
                ksgui.fail('red half-way between the vblanks %d and %d, outside every late frame'
                     % (a, b))
        if not clean:
            ksgui.fail('no vblank interval outside the late frames to check')
    finally:
        r.close()

    return ksgui.verdict()


if __name__ == '__main__':
    sys.exit(main())

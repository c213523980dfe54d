#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""GUI test of the gpu_jobs KernelShark plugin under Xvfb.

  gui_test.py LAUNCHER TRACE.dat TRUTH.json [--keep DIR]

Opens TRACE with the gpu-kshark launcher (session with one row per ring), zoomed on a
job picked from the truth file, takes screenshots (import -window root) and checks:
  1. the graph has one row per CPU and per ring (baselines found in the picture);
  2. every ring row with jobs in the visible range holds pixels of the plugin's stage
     colors (process palette, pale "hw queue" and paler "wait" tints), and ring rows do
     not get them outside their band;
  3. CPU rows hold stage strips (the same colors in their top quarter);
  4. a double-click on the picked job's box sets marker A at its queue time and marker
     B at its done time (marker lines at those x positions).
Exit: 0 pass, 1 fail, 77 skip (no Xvfb / ImageMagick / xdotool / kernelshark).
Only the processes started here are stopped, by their ids.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ksgui  # noqa: E402  (gpu-kshark under Xvfb, image helpers, palette)
from ksgui import near, is_stage, screenshot, long_dark_rows  # noqa: E402

MARK_A = (0, 128, 0)      # Qt::darkGreen
MARK_B = (0, 128, 128)    # Qt::darkCyan
WIDTH, HEIGHT = ksgui.WIDTH, ksgui.HEIGHT


def pick_job(truth):
    """A long job that starts after every earlier job of its ring ended (sub-row 0)."""
    by_ring = {}
    for j in truth['jobs']:
        by_ring.setdefault((j['dev'], j['ring_label']), []).append(j)
    best = None
    for key, jobs in by_ring.items():
        jobs.sort(key=lambda j: (j['queue_ts'] if j['queue_ts'] is not None else 0))
        end = 0
        for j in jobs:
            stages = [j[k] for k in ('queue_ts', 'run_ts', 'done_ts', 'signal_ts')
                      if j.get(k) is not None]
            if j['status'] == 'complete' and j['queue_ts'] > end and j['total']:
                if best is None or j['total'] > best[1]['total']:
                    best = (key, j)
            end = max([end] + stages)
    return best


def visible_rings(truth, t0, t1):
    rings = []
    for j in truth['jobs']:
        key = (j['dev'], j['ring_label'])
        if key not in rings:
            rings.append(key)
    rings.sort()
    busy = set()
    for j in truth['jobs']:
        b = min(j[k] for k in ('queue_ts', 'run_ts', 'done_ts') if j.get(k) is not None)
        e = max(j[k] for k in ('queue_ts', 'run_ts', 'done_ts', 'signal_ts')
                if j.get(k) is not None)
        if e >= t0 and b <= t1:
            busy.add((j['dev'], j['ring_label']))
    return rings, busy


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    launcher, trace, truth_file = sys.argv[1:4]
    keep = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == '--keep' else None
    tool = ksgui.missing_tool()
    if tool:
        print('SKIP: %s not found' % tool)
        return 77

    truth = json.load(open(truth_file))
    picked = pick_job(truth)
    if not picked:
        print('SKIP: no isolated job in the truth file')
        return 77
    ring_key, job = picked
    span = job['done_ts'] - job['queue_ts']
    t0 = job['queue_ts'] - 2 * span
    t1 = job['done_ts'] + 2 * span
    rings, busy = visible_rings(truth, t0, t1)
    ncpu = truth['cpus']
    print('job %d on %s: queue %d done %d, range [%d, %d]' %
          (job['index'], ring_key, job['queue_ts'], job['done_ts'], t0, t1))

    logdir = tempfile.mkdtemp(prefix='gst-kshark-gui-log.')
    log = os.path.join(logdir, 'kernelshark.log')
    r = None
    failures = []
    try:
        r = ksgui.Run(launcher, ['-r', '%.9f,%.9f' % (t0 / 1e9, t1 / 1e9), trace], log=log)
        env = r.env
        # wait until the graph is on screen and stable
        if not r.wait(ncpu + len(rings)):
            if r.ks.poll() is not None:
                failures.append('launcher exited with %d' % r.ks.returncode)
            else:
                failures.append('the graph never settled with %d rows' % (ncpu + len(rings)))
            raise RuntimeError
        img = r.img
        lines = [r.axis] + r.bases
        if keep:
            with open(os.path.join(keep, 'gui-test.ppm'), 'wb') as f:
                f.write(ksgui.grab(env))

        # 1. rows: the time axis, then one baseline per CPU, then one per ring
        need = 1 + ncpu + len(rings)
        if len(lines) < need:
            failures.append('found %d long horizontal lines, want %d (axis + %d CPUs + '
                            '%d rings): %s' % (len(lines), need, ncpu, len(rings), lines))
            raise RuntimeError
        axis = lines[0]
        bases = lines[1:need]
        row_h = min(b - a for a, b in zip(bases, bases[1:]))
        gx0, gx1 = ksgui.axis_extent(img, axis)
        print('axis y=%d x=[%d, %d], baselines %s, row pitch %d' % (axis, gx0, gx1, bases, row_h))

        def x_of(ts):
            return int(round(gx0 + (ts - t0) * (gx1 - gx0) / float(t1 - t0)))

        def band_count(base, top_frac=1.0):
            n = 0
            top = base - int((row_h - 4) * top_frac)
            for y in range(max(top, 0), base):
                for x in range(gx0 + 1, gx1):
                    if is_stage(img.get(x, y)):
                        n += 1
            return n

        # 2. ring rows
        for i, key in enumerate(rings):
            base = bases[ncpu + i]
            n = band_count(base)
            label = (key[0] + '/' if key[0] else '') + key[1]
            print('ring row %s (base y=%d): %d stage-colored pixels, jobs in range: %s' %
                  (label, base, n, key in busy))
            if key in busy and n < 30:
                failures.append('ring row %s has no job boxes' % label)
            if key not in busy and n > 0:
                failures.append('ring row %s has job colors but no jobs in range' % label)

        # 3. CPU rows: stage strips in the top quarter of some CPU rows
        cpu_px = sum(band_count(bases[c]) for c in range(ncpu))
        print('CPU rows: %d stage-colored pixels' % cpu_px)
        if cpu_px < 30:
            failures.append('no job stage strips on the CPU rows')

        # 4. double-click on the job: markers A (queue) and B (done)
        ri = rings.index(ring_key)
        xq, xd = x_of(job['queue_ts']), x_of(job['done_ts'])
        cx, cy = (xq + xd) // 2, bases[ncpu + ri] - 3
        subprocess.run(['xdotool', 'mousemove', str(cx), str(cy), 'click', '--repeat', '2',
                        '--delay', '80', '1'], env=env, check=True)
        time.sleep(1.5)
        img = screenshot(env)
        # marking may change the layout (a scroll bar appears): measure again
        lines = long_dark_rows(img, WIDTH // 2, WIDTH - 60)
        axis, bases = lines[0], lines[1:need]
        gx0, gx1 = ksgui.axis_extent(img, axis)
        xq, xd = x_of(job['queue_ts']), x_of(job['done_ts'])

        def marker_x(color, around):
            best = None
            for x in range(max(around - 6, 0), min(around + 7, img.w)):
                n = sum(1 for y in range(axis, bases[-1]) if near(img.get(x, y), color, 20))
                if n > (bases[-1] - axis) // 3 and (best is None or n > best[1]):
                    best = (x, n)
            return best

        ma, mb = marker_x(MARK_A, xq), marker_x(MARK_B, xd)
        print('double-click at (%d, %d): marker A %s (want x~%d), marker B %s (want x~%d)' %
              (cx, cy, ma, xq, mb, xd))
        if not ma:
            failures.append('marker A not at the queue event')
        if not mb:
            failures.append('marker B not at the done event')
        if keep:
            with open(os.path.join(keep, 'gui-test-markers.ppm'), 'wb') as f:
                f.write(ksgui.grab(env))
    except RuntimeError:
        pass
    finally:
        if r:
            r.close()
        if failures:
            try:
                sys.stderr.write(open(log).read())
            except OSError:
                pass
        shutil.rmtree(logdir, ignore_errors=True)

    for f in failures:
        print('FAIL: ' + f)
    if failures:
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())

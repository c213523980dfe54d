#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Screenshot of gpu-kshark under Xvfb (the README's pictures).

  shot.py OUT.png [--size WxH] [--mouse X,Y] [--tooltip-title FILE] -- gpu-kshark ARGS...

Starts Xvfb, runs the launcher with ARGS (the window size defaults to --size), waits
until the picture is stable, optionally moves the pointer to X,Y (screen pixels) and
waits for the tooltip, then writes OUT.png (`import -window root`). With
--tooltip-title the gpu_jobs tooltip's window title (its text on one line) goes to
FILE. Only the processes started here are stopped, by their ids.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ksgui  # noqa: E402  (Xvfb, screenshots, tooltip title)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--size', default='1100x760')
    ap.add_argument('--mouse')
    ap.add_argument('--tooltip-title')
    argv = sys.argv[1:]
    if '--' not in argv:
        ap.error('want -- gpu-kshark ARGS...')
    k = argv.index('--')
    a = ap.parse_args(argv[:k])
    cmd = argv[k + 1:]
    w, h = (int(v) for v in a.size.split('x'))
    r = ksgui.Run(cmd[0], cmd[1:], size=(w, h), log=os.environ.get('SHOT_LOG'))
    try:
        r.wait_stable()
        if a.mouse:
            x, y = a.mouse.split(',')
            ksgui.hover(r.env, x, y)
        with open(a.out, 'wb') as f:
            f.write(ksgui.grab(r.env, 'png'))
        if a.tooltip_title:
            with open(a.tooltip_title, 'w') as f:
                f.write((ksgui.tooltip_title(r.env) or '') + '\n')
    finally:
        r.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())

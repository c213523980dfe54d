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
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def children(pid):
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def start_xvfb(w, h):
    rfd, wfd = os.pipe()
    xvfb = subprocess.Popen(['Xvfb', '-displayfd', str(wfd), '-screen', '0',
                             '%dx%dx24' % (w, h), '-nolisten', 'tcp'],
                            pass_fds=(wfd,), stderr=subprocess.DEVNULL)
    os.close(wfd)
    disp = b''
    while not disp.endswith(b'\n'):
        chunk = os.read(rfd, 64)
        if not chunk:
            break
        disp += chunk
    # keep rfd open: Xvfb dies of SIGPIPE otherwise
    return xvfb, ':' + disp.decode().strip(), rfd


def grab(env, fmt='ppm'):
    return subprocess.run(['import', '-window', 'root', '-depth', '8', fmt + ':-'], env=env,
                          capture_output=True, check=True).stdout


def stop(procs):
    for p in reversed(procs):
        for c in children(p.pid):
            try:
                os.kill(c, signal.SIGTERM)
            except OSError:
                pass
        if p.poll() is None:
            p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()


def tooltip_title(env):
    p = subprocess.run(['xdotool', 'search', '--name', '^gpu_jobs: '], env=env,
                       capture_output=True, text=True)
    for wid in p.stdout.split():
        q = subprocess.run(['xdotool', 'getwindowname', wid], env=env, capture_output=True,
                           text=True)
        if q.stdout.startswith('gpu_jobs: '):
            return q.stdout.strip()
    return None


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
    tmp = tempfile.mkdtemp(prefix='gst-kshark-shot.')
    procs = []
    try:
        cache = os.path.join(tmp, 'cache')
        os.makedirs(cache)
        with open(os.path.join(cache, 'setting.ini'), 'w') as f:
            f.write('[General]\nnoRootWarn=true\n')
        xvfb, disp, _keep = start_xvfb(w + 80, h + 80)
        procs.append(xvfb)
        env = dict(os.environ, DISPLAY=disp, KS_USER_CACHE_DIR=cache, XDG_RUNTIME_DIR=tmp)
        ks = subprocess.Popen([cmd[0], '-g', a.size] + cmd[1:], env=env,
                              stdout=subprocess.DEVNULL,
                              stderr=open(os.environ.get('SHOT_LOG', os.devnull), 'w'))
        procs.append(ks)
        prev, stable, deadline = None, 0, time.time() + 60
        while time.time() < deadline and stable < 2:
            time.sleep(0.7)
            img = grab(env)
            stable = stable + 1 if img == prev and len(set(img[-5000:])) > 1 else 0
            prev = img
        if a.mouse:
            x, y = a.mouse.split(',')
            subprocess.run(['xdotool', 'mousemove', x, y], env=env, check=True)
            time.sleep(0.3)
            subprocess.run(['xdotool', 'mousemove_relative', '1', '0'], env=env, check=True)
            time.sleep(1.2)
        with open(a.out, 'wb') as f:
            f.write(grab(env, 'png'))
        if a.tooltip_title:
            with open(a.tooltip_title, 'w') as f:
                f.write((tooltip_title(env) or '') + '\n')
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())

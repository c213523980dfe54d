# SPDX-License-Identifier: LGPL-2.1
"""Shared helpers of the gpu-kshark GUI tests and of shot.py (the README's pictures).

gpu-kshark under Xvfb (a private display, cache and runtime directory), screenshots as
PPM images, the graph's geometry found in the picture (time axis, row baselines), the
plugin's colors, the pointer (xdotool) and the gpu_jobs tooltip. Only the processes
started here are stopped, by their ids.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# process colors of the plugin (plugin_gpujob_palette, gpu_index.c), stage tints of
# GpuJobs.cpp (gpujobWaitAlpha, gpujobHwqAlpha)
PALETTE = [
    (0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167),
    (86, 180, 233), (213, 94, 0), (240, 228, 66), (120, 60, 160),
    (140, 86, 75), (160, 170, 30), (250, 140, 200), (40, 60, 110),
]
WAIT_ALPHA = 0.30
HWQ_ALPHA = 0.60
WIDTH, HEIGHT = 1100, 760
TOOLS = ('Xvfb', 'import', 'xdotool', 'kernelshark')


def tint(c, a):
    return tuple(int(v * a + (1 - a) * 255) for v in c)


STAGE_COLORS = set()
for _c in PALETTE:
    for _col in (_c, tint(_c, HWQ_ALPHA), tint(_c, WAIT_ALPHA)):
        STAGE_COLORS.add(_col)


def near(a, b, tol=3):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def is_stage(px):
    if px in STAGE_COLORS:
        return True
    return any(near(px, c) for c in STAGE_COLORS)


# a test's failures: fail() prints and counts them, verdict() gives the exit status
failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def verdict():
    """0 and PASS without failures, else 1"""
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('PASS')
    return 0


def test_args(argv, doc):
    """(LAUNCHER, TRACE, the truth file's JSON) of a GUI test's command line; exits 2
    after the usage (@doc), 77 (skip) when a GUI tool is not installed"""
    if len(argv) < 4:
        print(doc)
        sys.exit(2)
    tool = missing_tool()
    if tool:
        print('SKIP: %s not found' % tool)
        sys.exit(77)
    with open(argv[3]) as f:
        return argv[1], argv[2], json.load(f)


def missing_tool():
    """the first GUI tool not installed, or None"""
    for tool in TOOLS:
        if not shutil.which(tool):
            return tool
    return None


class Image:
    def __init__(self, data):
        # binary PPM (P6) as written by `import ... ppm:-`
        parts = []
        pos = 0
        while len(parts) < 4:
            while data[pos:pos + 1].isspace():
                pos += 1
            if data[pos:pos + 1] == b'#':
                pos = data.index(b'\n', pos) + 1
                continue
            end = pos
            while not data[end:end + 1].isspace():
                end += 1
            parts.append(data[pos:end])
            pos = end
        pos += 1
        assert parts[0] == b'P6', parts[0]
        self.w, self.h, maxval = int(parts[1]), int(parts[2]), int(parts[3])
        assert maxval == 255
        self.px = data[pos:pos + self.w * self.h * 3]

    def get(self, x, y):
        i = (y * self.w + x) * 3
        return (self.px[i], self.px[i + 1], self.px[i + 2])


def grab(env, fmt='ppm'):
    """the root window as FMT bytes"""
    return subprocess.run(['import', '-window', 'root', '-depth', '8', fmt + ':-'], env=env,
                          capture_output=True, check=True).stdout


def screenshot(env):
    return Image(grab(env))


def long_dark_rows(img, x0, x1, min_frac=0.9, level=90):
    """y of horizontal dark lines spanning [x0, x1] (graph baselines, time axis)

    Channels below @level count as dark; below 20 only the black baselines do, not
    the dark grey outlines of a row of job boxes.
    """
    rows = []
    for y in range(img.h):
        dark = 0
        for x in range(x0, x1, 2):
            r, g, b = img.get(x, y)
            if r < level and g < level and b < level:
                dark += 1
        if dark >= min_frac * ((x1 - x0) // 2):
            if not rows or y - rows[-1] > 3:
                rows.append(y)
    return rows


def graph_ready(lines, need):
    """the time axis and evenly spaced graph baselines (not a progress dialog)"""
    if len(lines) < need:
        return False
    pitch = [b - a for a, b in zip(lines[1:need], lines[2:need])]
    return (lines[1] - lines[0] >= 30 and all(p >= 30 for p in pitch) and
            max(pitch) - min(pitch) <= 2)


def axis_extent(img, y):
    """x range of the time axis line at y"""
    # the contiguous dark run through the middle (the root window around is black too)
    def dark(x):
        return sum(img.get(x, y)) < 200
    x0 = x1 = img.w // 2
    while x0 > 0 and dark(x0 - 1):
        x0 -= 1
    while x1 < img.w - 1 and dark(x1 + 1):
        x1 += 1
    return x0, x1


def children(pid):
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def start_xvfb(w, h):
    """Xvfb on a free display: (process, ':N', fd to keep open)"""
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


def stop(procs):
    """stop @procs (and their children), last started first"""
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
    """the gpu_jobs tooltip's window title (its text on one line), or None"""
    p = subprocess.run(['xdotool', 'search', '--name', '^gpu_jobs: '], env=env,
                       capture_output=True, text=True)
    for wid in p.stdout.split():
        q = subprocess.run(['xdotool', 'getwindowname', wid], env=env, capture_output=True,
                           text=True)
        if q.stdout.startswith('gpu_jobs: '):
            return q.stdout.strip()
    return None


def hover(env, x, y):
    """move the pointer to (x, y), nudge it (Qt shows tooltips on motion), wait"""
    subprocess.run(['xdotool', 'mousemove', str(x), str(y)], env=env, check=True)
    time.sleep(0.3)
    subprocess.run(['xdotool', 'mousemove_relative', '1', '0'], env=env, check=True)
    time.sleep(1.2)


def list_rows(launcher, trace):
    """`gpu-kshark --list`: (ring row labels, CRTC pipe indexes), in row order"""
    out = subprocess.run([launcher, '--list', trace], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    rings = [ln.split()[2] for ln in out[2:] if ln.split() and ln.split()[0].isdigit()]
    crtcs = [int(ln.split()[1].rstrip(':')) for ln in out if ln.strip().startswith('crtc ')]
    return rings, crtcs


class Run:
    """gpu-kshark LAUNCHER ARGS under its own Xvfb, window WxH (-g)

    wait(nrows) waits for a stable picture with the time axis and @nrows row baselines
    (dark below @level over @frac of the width, see long_dark_rows()) and sets img, axis, bases, gx0, gx1 (the graph's x range). close() stops everything
    and removes the temporary directory. With @log, the launcher's output goes there.
    """

    def __init__(self, launcher, args, env_extra=None, size=(WIDTH, HEIGHT), log=None):
        self.procs = []
        self.w, self.h = size
        self.tmp = tempfile.mkdtemp(prefix='gst-kshark-gui.')
        try:
            cache = os.path.join(self.tmp, 'cache')
            os.makedirs(cache)
            with open(os.path.join(cache, 'setting.ini'), 'w') as f:
                f.write('[General]\nnoRootWarn=true\n')
            xvfb, disp, self._keep = start_xvfb(self.w + 80, self.h + 80)
            self.procs.append(xvfb)
            self.env = dict(os.environ, DISPLAY=disp, KS_USER_CACHE_DIR=cache,
                            XDG_RUNTIME_DIR=self.tmp,
                            GPU_KSHARK_SESSION=os.path.join(self.tmp, 'session.json'),
                            **(env_extra or {}))
            out = open(log, 'w') if log else subprocess.DEVNULL
            self.ks = subprocess.Popen([launcher, '-g', '%dx%d' % (self.w, self.h)] + args,
                                       env=self.env, stdout=out, stderr=subprocess.STDOUT)
            self.procs.append(self.ks)
        except BaseException:
            self.close()
            raise
        self.img = None

    def wait(self, nrows, timeout=60, level=90, frac=0.9):
        prev, deadline = None, time.time() + timeout
        while time.time() < deadline:
            time.sleep(0.7)
            if self.ks.poll() is not None:
                return False
            img = screenshot(self.env)
            if img.px == prev:
                lines = long_dark_rows(img, self.w // 2, self.w - 60, frac, level)
                if graph_ready(lines, 1 + nrows):
                    self.img = img
                    self.axis, self.bases = lines[0], lines[1:1 + nrows]
                    self.gx0, self.gx1 = axis_extent(img, self.axis)
                    return True
            prev = img.px
        return False

    def wait_stable(self, timeout=60):
        """until two screenshots in a row are the same non-blank picture"""
        prev, stable, deadline = None, 0, time.time() + timeout
        while time.time() < deadline and stable < 2:
            time.sleep(0.7)
            img = grab(self.env)
            stable = stable + 1 if img == prev and len(set(img[-5000:])) > 1 else 0
            prev = img

    def x_of(self, ts, t0, t1):
        """pixel column of time @ts in a view of [t0, t1]"""
        return int(round(self.gx0 + (ts - t0) * (self.gx1 - self.gx0) / float(t1 - t0)))

    def close(self):
        stop(self.procs)
        self.procs = []
        shutil.rmtree(self.tmp, ignore_errors=True)

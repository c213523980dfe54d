#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""test_watch_errors.py TOOL

trace-cmd gpu-latency --watch where it cannot work, for real on this machine:
  - tracefs without gpu_scheduler events: exit 1 and the one line naming what
    is missing; no tracefs instance is left behind (nor created)
  - without access to tracefs (run as nobody through setpriv when we are
    root, or simply as an ordinary user): exit 1, "permission denied opening
    tracefs: ... run as root or grant tracefs access"
  - usage errors: --watch with a trace file, --json, --save-dir without --watch
Needs neither root nor tracefs: the cases that cannot be set up are skipped.
"""
import os
import shutil
import subprocess
import sys

TRACEFS = '/sys/kernel/tracing'
tool = os.path.abspath(sys.argv[1])
errors = []
checked = []


def run(args, **kw):
    p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=60, **kw)
    return p.returncode, p.stdout, p.stderr


def instances():
    try:
        return sorted(os.listdir(os.path.join(TRACEFS, 'instances')))
    except OSError:
        return None


def expect(name, rc, out, err, want_rc, want_text):
    lines = [l for l in err.splitlines() if l.strip()]
    if rc != want_rc:
        errors.append('%s: exit %d, expected %d (%s)' % (name, rc, want_rc, err.strip()))
    elif want_text not in err:
        errors.append('%s: stderr %r lacks %r' % (name, err.strip(), want_text))
    elif len(lines) != 1:
        errors.append('%s: %d lines on stderr, expected one' % (name, len(lines)))
    elif out.strip():
        errors.append('%s: something on stdout: %r' % (name, out))
    else:
        checked.append(name)


accessible = os.access(os.path.join(TRACEFS, 'events'), os.R_OK | os.X_OK)
if accessible:
    before = instances()
    has_gpu = any(os.path.isdir(os.path.join(TRACEFS, 'events', s))
                  for s in ('gpu_scheduler', 'gpu_sched'))
    if not has_gpu:
        rc, out, err = run(['--watch', '--interval', '1'])
        expect('missing events', rc, out, err, 1,
               'gpu_scheduler events are not available in %s/events: is gpu-sched.ko loaded?'
               % TRACEFS)
    after = instances()
    if before != after:
        errors.append('tracefs instances changed: %s -> %s' % (before, after))
    if any(i.startswith('gpu-latency-watch') for i in (after or [])):
        errors.append('an instance was left behind: %s' % after)
    # the same as an unprivileged user
    setpriv = shutil.which('setpriv')
    if os.geteuid() == 0 and setpriv:
        tmp = '/tmp/gl-watch-test-%d' % os.getpid()
        shutil.copy(tool, tmp)
        os.chmod(tmp, 0o755)
        try:
            p = subprocess.run([setpriv, '--reuid=65534', '--regid=65534', '--clear-groups', tmp,
                                '--watch'], capture_output=True, text=True, timeout=60)
            expect('no permission', p.returncode, p.stdout, p.stderr, 1,
                   'permission denied opening tracefs')
        finally:
            os.unlink(tmp)
elif os.path.isdir(TRACEFS) or os.path.exists(TRACEFS):
    rc, out, err = run(['--watch'])
    expect('no permission', rc, out, err, 1, 'permission denied opening tracefs')

for name, args, text in (
        ('watch with a file', ['--watch', 'x.dat'], 'reads no trace file'),
        ('watch with json', ['--watch', '--json'], 'prints text summaries'),
        ('save-dir alone', ['--save-dir', '/tmp/x', 'x.dat'], 'go with --watch'),
        ('bad interval', ['--watch', '--interval', 'abc'], '--interval')):
    rc, out, err = run(args)
    expect(name, rc, out, err, 1, text)

for e in errors:
    print('FAIL:', e)
print('checked:', ', '.join(checked))
sys.exit(1 if errors else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""gpu-kshark --list and gpu-kshark's errors, without a display.

  list_test.py list LAUNCHER TRACE.dat TRUTH.json [TRACE.dat TRUTH.json ...]
      `gpu-kshark --list` of each trace: one row per ring of the truth file (label
      "dev/ring", or "ring"), each with the truth's number of jobs on that ring, the
      total job count, and the GPU-active span = first to last stage of the truth's jobs
      (the span gpu-kshark opens on); per CRTC of the truth's frames one CRTC row with
      its vblank count, the vblank instant used, and its clients' frames and late
      frames.
  list_test.py errors LAUNCHER GPU.dat NOGPU.dat
      missing file, not a trace, a trace without GPU events, bad -r, unknown option:
      exit status non-zero, the first stderr line is "gpu-kshark: ..." naming the file
      (or the option), never the usage text; no GPU events gives the record hint.
Exit: 0 pass, 1 fail.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def expected_rows(truth):
    # before 5.19 the trace names a ring by an address; with the drm_sched fence
    # timelines recorded the real name is known (ring), without them only ring_label
    named = truth.get('options', {}).get('dma_fence', True)
    rows = {}
    for j in truth['jobs']:
        ring = j['ring'] if named else (j.get('ring_label') or j['ring'])
        if ring is None or ring == '?':
            continue
        label = (j['dev'] + '/' if j.get('dev') else '') + ring
        rows[label] = rows.get(label, 0) + 1
    return rows


def span(truth):
    ts = [j[k] for j in truth['jobs'] for k in ('queue_ts', 'run_ts', 'done_ts', 'signal_ts')
          if j.get(k) is not None]
    return (min(ts), max(ts)) if ts else None


def check_list(launcher, pairs):
    for dat, tf in pairs:
        truth = json.load(open(tf))
        p = subprocess.run([launcher, '--list', dat], capture_output=True, text=True)
        name = os.path.basename(dat)
        if p.returncode != 0:
            fail('%s: --list exit %d: %s' % (name, p.returncode, p.stderr.strip()))
            continue
        lines = p.stdout.splitlines()
        m = re.match(r'(.*): (\d+) ring rows, (\d+) jobs(, GPU active (\d+)\.(\d+)-(\d+)\.(\d+))?$',
                     lines[0] if lines else '')
        if not m or m.group(1) != dat:
            fail('%s: bad first line %r' % (name, lines[:1]))
            continue
        got = {}
        for ln in lines[2:]:
            f = ln.split()
            if len(f) >= 3 and f[0].isdigit():
                got[f[2]] = int(f[1])
        want = expected_rows(truth)
        # rings named only by events (no job) may have rows with 0 jobs
        extra = {k: v for k, v in got.items() if k not in want and v}
        for label, n in sorted(want.items()):
            if got.get(label) != n:
                fail('%s: row %s: %s jobs, truth %d' % (name, label, got.get(label), n))
        if extra:
            fail('%s: rows not in the truth: %s' % (name, extra))
        if int(m.group(3)) != len(truth['jobs']):
            fail('%s: %s jobs, truth %d' % (name, m.group(3), len(truth['jobs'])))
        sp = span(truth)
        if sp and m.group(4):
            # printed in us: compare at us resolution
            a = int(m.group(5)) * 1000000 + int(m.group(6))
            b = int(m.group(7)) * 1000000 + int(m.group(8))
            # real captures' facts carry no finished-fence signal: the span may end
            # at the last signal, a few us after the last done
            late = 0 if 'signal_ts' in truth['jobs'][0] else 100
            if a != sp[0] // 1000 or not sp[1] // 1000 <= b <= sp[1] // 1000 + late:
                fail('%s: GPU active %d-%d us, truth %d-%d' %
                     (name, a, b, sp[0] // 1000, sp[1] // 1000))
        elif sp:
            fail('%s: no GPU active span printed' % name)
        # CRTC rows (drm vblank events): vblanks, frames and late frames per CRTC
        # as the generator's frames truth counts them (lib/frames.c judges, the
        # plugin keeps what it streams)
        crtcs = {}
        for ln in lines[2:]:
            c = re.match(r'\s+crtc (\d+): row (\d+), (\d+) vblanks \((time|record)\), '
                         r'(\d+) frames, (\d+) late$', ln)
            if c:
                crtcs[int(c.group(1))] = c.groups()
        fr = truth.get('frames')
        want_crtcs = {c['crtc'] for c in fr['crtcs']} if fr else set()
        # (real captures: their frames facts are kms-*.frames.json, checked elsewhere)
        if (fr or 'cpus' in truth) and set(crtcs) != want_crtcs:
            fail('%s: CRTC rows %s, truth %s' % (name, sorted(crtcs), sorted(want_crtcs)))
        for c in (fr['crtcs'] if fr else []):
            g = crtcs.get(c['crtc'])
            if not g:
                continue
            cl = [x for x in fr['clients'] if x['crtc'] == c['crtc']]
            want = (str(c['crtc']), str(2100000000 + c['crtc']), str(c['vblanks']),
                    fr['vblank_instant'], str(sum(x['frames'] for x in cl)),
                    str(sum(x['late'] for x in cl)))
            if g != want:
                fail('%s: CRTC row %s (row, vblanks, instant, frames, late), truth %s' %
                     (name, g, want))
        print('%s: %d rows, %s jobs, %d CRTC rows: ok' % (name, len(got), m.group(3),
                                                           len(crtcs)))


def check_errors(launcher, gpu, nogpu):
    tmp = tempfile.mkdtemp(prefix='gst-kshark-err.', dir=os.environ.get('TMPDIR'))
    bad = os.path.join(tmp, 'bad.dat')
    with open(bad, 'w') as f:
        f.write('garbage\n')
    missing = os.path.join(tmp, 'nothere.dat')
    cases = [
        ('missing file', [missing], missing, 'No such file'),
        ('not a trace', [bad], bad, 'not a trace-cmd data file'),
        ('no GPU events', [nogpu], nogpu, 'no GPU scheduler events'),
        ('no GPU events, list', ['--list', nogpu], nogpu, 'no GPU scheduler events'),
        ('range in ns', ['-r', '123456000000,123457000000', gpu], '-r', 'seconds'),
        ('bad range', ['-r', '5', gpu], '5', 'seconds'),
        ('unknown option', ['-x', gpu], '-x', 'unknown option'),
    ]
    env = dict(os.environ, KERNELSHARK='/bin/false')
    for what, args, named, text in cases:
        p = subprocess.run([launcher] + args, capture_output=True, text=True, env=env)
        first = p.stderr.splitlines()[0] if p.stderr else ''
        print('%s: exit %d: %s' % (what, p.returncode, first))
        if p.returncode == 0:
            fail('%s: exit 0' % what)
        if not first.startswith('gpu-kshark: ') or named not in first or text not in first:
            fail('%s: first line %r does not say "gpu-kshark: ... %s ... %s"' %
                 (what, first, named, text))
        if 'usage' in p.stderr:
            fail('%s: prints the usage' % what)
        if what.startswith('no GPU') and 'trace-cmd record' not in p.stderr:
            fail('%s: no record hint' % what)
    # -r in seconds is accepted (KernelShark replaced by /bin/false: exit 1 after it)
    p = subprocess.run([launcher, '-r', '123.4567,123.4569', gpu], capture_output=True,
                       text=True, env=env)
    if 'gpu-kshark:' in p.stderr:
        fail('-r in seconds refused: %s' % p.stderr.strip())
    for f in (bad,):
        os.unlink(f)
    os.rmdir(tmp)


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    mode, launcher = sys.argv[1], sys.argv[2]
    if mode == 'list':
        a = sys.argv[3:]
        check_list(launcher, list(zip(a[0::2], a[1::2])))
    else:
        check_errors(launcher, sys.argv[3], sys.argv[4])
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())

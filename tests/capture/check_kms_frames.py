#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""check_kms_frames.py [--no-causes] TOOL DIR WORKDIR

For every DIR/NAME.frames.json (a capture from real drm.ko with mock_kms,
facts from the frame clients' own logs and `trace-cmd report` text, see
sample-traces/capture/frames_facts.py) check `TOOL --frames --json
DIR/NAME.dat` against them:
  - per CRTC: vblank count, refresh (median interval of `time`), no VRR, no
    count gaps, `time` used as the vblank instant, the IRQ delay maximum;
  - per vblank-event client (found by drm_file pointer and pid): requests,
    deliveries, frames; every frame the client could judge unambiguously
    (and whose previous frame was unambiguous too) late in the report exactly
    when the client saw it late, with the same presented vblank and missed
    count; the cause of the late frames it injected (long GPU job: gpu_exec,
    late submission: late_submit, dependency: dep_wait);
  - per page-flip client (no _queued): deliveries, and the flips judged
    like the client did (presented = the flip's count, deadline = previous
    presented + 1), as far as the report judges flips.
Also DIR/NAME.trace.txt(.gz) when present: the same counts from the tracefs
text, unpacked into WORKDIR (record timestamps there: the text does not
say which clock, so only counts).
--no-causes: skip the cause checks (a fresh capture, see capture_kms.sh).
Exit 0 = all good, 1 = mismatch.
"""

import glob
import gzip
import json
import os
import subprocess
import sys

CAUSE = {'long': 'gpu_exec', 'late': 'late_submit', 'dep': 'dep_wait'}
errors = []
check_causes = True


def err(name, msg):
    errors.append('%s: %s' % (name, msg))


def report(tool, path):
    out = subprocess.run([tool, '--frames', '--json', path], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit('%s --frames --json %s: exit %d: %s' % (tool, path, out.returncode,
                                                          out.stderr.strip()))
    return json.loads(out.stdout)['frames']


def check_frames(name, c, tc, flip=False):
    """the client's unambiguous frames against the report's late frames;
    flips: every frame (the driver decided, the report reads its counts)"""
    late = {lf['target']: lf for lf in tc.get('late_frames', [])}
    if len(late) < tc['late'] and len(late) >= 64:
        err(name, 'more late frames than the report keeps; cannot check each')
        return
    prev_amb = False
    checked = 0
    for fr in c['frame_list']:
        amb, prev_amb = fr['ambiguous'] or prev_amb, fr['ambiguous']
        if flip:
            amb = False
        if amb:
            continue
        checked += 1
        lf = late.get(fr['target'])
        if fr['missed'] == 0:
            if lf:
                err(name, 'frame %d (vblank %d) on time for the client, late in the report '
                    '(presented %d)' % (fr['i'], fr['target'], lf['presented']))
            continue
        if not lf:
            err(name, 'frame %d (vblank %d) late for the client (presented %d), not in the '
                'report' % (fr['i'], fr['target'], fr['presented']))
            continue
        if (lf['presented'], lf['missed']) != (fr['presented'], fr['missed']):
            err(name, 'frame %d: presented %d missed %d, report %d %d' %
                (fr['i'], fr['presented'], fr['missed'], lf['presented'], lf['missed']))
        want = CAUSE.get(fr['inject']) if not flip else 'none'
        if want and check_causes and lf['cause'] != want:
            err(name, 'frame %d (%s injected): cause %s, expected %s' %
                (fr['i'], fr['inject'], lf['cause'], want))
    if checked < len(c['frame_list']) // 2:
        err(name, 'only %d of %d frames unambiguous' % (checked, len(c['frame_list'])))


def check(tool, facts_path, work):
    facts = json.load(open(facts_path))
    base = facts_path[:-len('.frames.json')]
    name = os.path.basename(base)
    f = report(tool, base + '.dat')
    if f.get('vblank_instant') != 'time':
        err(name, 'vblank instant %s, expected time (trace clock mono)' % f.get('vblank_instant'))
    crtcs = {c['crtc']: c for c in f['crtcs']}
    for k, fc in facts['crtcs'].items():
        tc = crtcs.get(int(k))
        if not tc:
            err(name, 'CRTC %s missing from the report' % k)
            continue
        for key, want in (('vblanks', fc['vblank_events']), ('seq_gaps', fc['seq_gaps']),
                          ('refresh_ns', fc['interval_median_ns']),
                          ('vrr', fc['interval_min_ns'] != fc['interval_max_ns'])):
            if tc[key] != want:
                err(name, 'CRTC %s: %s %s, expected %s' % (k, key, tc[key], want))
        if fc['period_ns'] and abs(tc['refresh_ns'] - fc['period_ns']) > 1000:
            err(name, 'CRTC %s: refresh %d, mock_kms period %d' % (k, tc['refresh_ns'],
                                                                   fc['period_ns']))
        if abs(tc['irq_delay_max'] - fc['irq_delay_max_ns']) > 1000:
            err(name, 'CRTC %s: irq delay max %d, expected %d' % (k, tc['irq_delay_max'],
                                                                  fc['irq_delay_max_ns']))
    clients = {(c['drm_file'], c['crtc']): c for c in f['clients']}
    for c in facts['clients']:
        tc = clients.get((int(c['drm_file'], 16), c['crtc']))
        if not tc:
            err(name, 'client %s (%s) missing from the report' % (c['comm'], c['drm_file']))
            continue
        cname = '%s %s' % (name, c['comm'])
        if tc['delivered'] != c['delivered_events']:
            err(cname, 'delivered %d, expected %d' % (tc['delivered'], c['delivered_events']))
        if c['mode'] == 'vblank':
            for key, want in (('requested', c['queued_events']), ('frames', c['frames']),
                              ('pid', c['pid']), ('comm', c['comm'])):
                if tc[key] != want:
                    err(cname, '%s %s, expected %s' % (key, tc[key], want))
            check_frames(cname, c, tc)
        else:
            # the first flip has no previous one: not judged
            for key, want in (('flips', c['delivered_events']), ('frames', c['frames'] - 1),
                              ('requested', 0), ('pid', c['pid']), ('comm', c['comm']),
                              ('pid_inferred', True)):
                if tc.get(key) != want:
                    err(cname, '%s %s, expected %s' % (key, tc.get(key), want))
            check_frames(cname, dict(c, frame_list=c['frame_list'][1:]), tc, flip=True)
    # the tracefs text of the same recording: counts only
    for txt in (base + '.trace.txt.gz', base + '.trace.txt'):
        if not os.path.exists(txt):
            continue
        if txt.endswith('.gz'):
            os.makedirs(work, exist_ok=True)
            plain = os.path.join(work, os.path.basename(txt)[:-3])
            with gzip.open(txt, 'rb') as i, open(plain, 'wb') as o:
                o.write(i.read())
            txt = plain
        t = report(tool, txt)
        tcr = {c['crtc']: c for c in t['crtcs']}
        for k, fc in facts['crtcs'].items():
            if tcr.get(int(k), {}).get('vblanks') != fc['vblank_events']:
                err(name, 'text: CRTC %s vblanks %s, expected %d' %
                    (k, tcr.get(int(k), {}).get('vblanks'), fc['vblank_events']))
        got = sorted((c['crtc'], c['requested'], c['delivered']) for c in t['clients'])
        want = sorted((c['crtc'], c['queued_events'], c['delivered_events'])
                      for c in facts['clients'])
        if got != want:
            err(name, 'text: clients (crtc, requested, delivered) %s, expected %s' % (got, want))
        break


def main():
    global check_causes
    if len(sys.argv) > 1 and sys.argv[1] == '--no-causes':
        check_causes = False
        del sys.argv[1]
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    files = sorted(glob.glob(os.path.join(sys.argv[2], '*.frames.json')))
    if not files:
        sys.exit('no *.frames.json in %s' % sys.argv[2])
    for p in files:
        check(sys.argv[1], p, sys.argv[3])
    for e in errors:
        print('FAIL', e)
    print('%d capture(s), %d mismatch(es)' % (len(files), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())

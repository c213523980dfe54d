#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""frames_facts.py TRACE.dat PERIOD_US[,PERIOD_US] CLIENT.log... > TRACE.frames.json

The frame facts of a kms capture (capture.sh kms-60 / kms-2crtc), from two
sources that do not involve the project's C library:
  - each frame_client's own log (its clock, the sequence numbers and
    timestamps of the drm events it read): frames, presented vblank, missed,
    what it injected, ambiguous frames;
  - `trace-cmd report -N -t` text: per CRTC the drm_vblank_event count and
    the intervals between their `time` fields, per drm_file the _queued and
    _delivered counts, and which drm_file is which client (a vblank client
    by the pid of its _queued events, a page-flip client by the sequence
    numbers of its _delivered events matching its log).
Every client frame's event count is checked against a _delivered event of
that file; a mismatch is an error (exit 1).
"""

import json
import os
import re
import subprocess
import sys

EV = re.compile(r'^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+): (drm_vblank_event\w*):\s+(.*)$')
KV = re.compile(r'(\w[\w-]*)=(\S+?)(?:,|$)')


def ns(ts):
    s, f = ts.split('.')
    return int(s) * 10**9 + int((f + '000000000')[:9])


def kv(text):
    return {k: v for k, v in KV.findall(text)}


def read_log(path):
    c = {'log': os.path.basename(path), 'frames': [], 'vblanks': {}}
    for line in open(path):
        w = line.split()
        if not w:
            continue
        d = dict(x.split('=', 1) for x in w[1:] if '=' in x)
        if w[0] == 'start':
            c.update(crtc=int(d['crtc']), mode=d['mode'], pid=int(d['pid']), comm=d['comm'])
        elif w[0] == 'vblank':
            c['vblanks'][int(d['seq'])] = int(d['time_ns'])
        elif w[0] == 'frame':
            c['frames'].append({
                'i': int(d['i']), 'target': int(d['target']),
                'request_ns': int(d['req_ns']), 'done_ns': int(d['done_ns']),
                'event_seq': int(d['ev_seq']), 'event_ns': int(d['ev_ns']),
                'presented': int(d['presented']), 'presented_ns': int(d['pres_ns']),
                'missed': int(d['missed']), 'inject': d['inject'],
                'ambiguous': d['ambiguous'] == '1'})
            fr = c['frames'][-1]
            if c['mode'] == 'flip' and fr['target'] == 0:
                # the first kms-2crtc capture's client logged target=0 for
                # flips; its missed is presented - target
                fr['target'] = fr['presented'] - fr['missed']
        elif w[0] == 'end':
            c['end'] = {k: int(v) for k, v in d.items()}
        elif w[0] == 'error':
            sys.exit('%s: the client failed: %s' % (path, line.strip()))
    if 'end' not in c:
        sys.exit('%s: no end line (the client did not finish)' % path)
    return c


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    dat = sys.argv[1]
    periods = [int(p) * 1000 for p in sys.argv[2].split(',')]
    clients = [read_log(p) for p in sys.argv[3:]]
    out = subprocess.run(['trace-cmd', 'report', '-N', '-t', dat], capture_output=True,
                         text=True, check=True).stdout
    vbl, files = {}, {}
    for line in out.splitlines():
        m = EV.match(line)
        if not m:
            continue
        comm, pid, ts, ev, f = m.group(1).strip(), int(m.group(2)), ns(m.group(4)), \
            m.group(5), kv(m.group(6))
        crtc = int(f['crtc'])
        if ev == 'drm_vblank_event':
            vbl.setdefault(crtc, []).append((int(f['seq']), int(f['time']), ts,
                                             f.get('high-prec')))
        else:
            fl = files.setdefault(f['file'], {'queued': [], 'delivered': [], 'pids': set()})
            if ev == 'drm_vblank_event_queued':
                fl['queued'].append((crtc, int(f['seq']), ts))
                fl['pids'].add(pid)
            else:
                fl['delivered'].append((crtc, int(f['seq']), ts))

    facts = {'trace': os.path.basename(dat), 'crtcs': {}, 'clients': []}
    for crtc, evs in sorted(vbl.items()):
        seqs = [e[0] for e in evs]
        iv = sorted(b[1] - a[1] for a, b in zip(evs, evs[1:]) if b[0] == a[0] + 1)
        facts['crtcs'][str(crtc)] = {
            'period_ns': periods[crtc] if crtc < len(periods) else None,
            'vblank_events': len(evs), 'first_seq': seqs[0], 'last_seq': seqs[-1],
            'seq_gaps': sum(1 for a, b in zip(seqs, seqs[1:]) if b != a + 1),
            'interval_min_ns': iv[0], 'interval_max_ns': iv[-1],
            'interval_median_ns': iv[(len(iv) - 1) // 2],
            'high_prec': sorted(set(e[3] for e in evs)),
            'irq_delay_max_ns': max(e[2] - e[1] for e in evs)}
        times = {e[0]: e[1] for e in evs}
        # every vblank time a client read equals the trace's `time` field (us)
        for c in clients:
            if c['crtc'] != crtc:
                continue
            for s, t in c['vblanks'].items():
                if s in times and abs(times[s] - t) >= 1000:
                    sys.exit('%s: vblank %d at %d ns, the trace says %d' %
                             (c['log'], s, t, times[s]))

    for c in clients:
        want = [fr['event_seq'] for fr in c['frames']]
        match = None
        for fp, fl in files.items():
            got = [s for crtc, s, _ in fl['delivered'] if crtc == c['crtc']]
            if got == want and (c['mode'] == 'flip' or c['pid'] in fl['pids']):
                match = fp
        if not match:
            sys.exit('%s: no drm_file delivered the event counts of its frames' % c['log'])
        fl = files[match]
        nonamb = [fr for fr in c['frames'] if not fr['ambiguous']]
        facts['clients'].append({
            'comm': c['comm'], 'pid': c['pid'], 'crtc': c['crtc'], 'mode': c['mode'],
            'drm_file': match, 'log': c['log'],
            'queued_events': len(fl['queued']), 'delivered_events': len(fl['delivered']),
            'frames': len(c['frames']), 'late': c['end']['late'],
            'missed': c['end']['missed'],
            'ambiguous': sum(1 for fr in c['frames'] if fr['ambiguous']),
            'late_unambiguous': sum(1 for fr in nonamb if fr['missed'] > 0),
            'injected': {k: [fr['i'] for fr in c['frames'] if fr['inject'] == k]
                         for k in ('long', 'late', 'dep')},
            'frame_list': [{k: fr[k] for k in ('i', 'target', 'presented', 'missed',
                                                'inject', 'ambiguous', 'request_ns',
                                                'done_ns', 'presented_ns')}
                           for fr in c['frames']]})
    json.dump(facts, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()

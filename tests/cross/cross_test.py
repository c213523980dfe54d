#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""cross_test.py: every front end gives the same jobs for one trace.

  cross_test.py --cli TOOL --trace-cmd TRACE_CMD --plugin-dir DIR [--kshark LAUNCHER]
                [--watch WATCH_REPLAY --work DIR] TRACE.dat REFERENCE.json

REFERENCE is the generator's truth file (NAME.truth.json, computed from its own
scenario) or a real capture's hand-checked facts (NAME.facts.json, per-job stage
times). The per-ring reference numbers come from it alone:
  truth: its "rings" (jobs, complete, incomplete, lost, wait/exec/total p50 and max);
  facts: recomputed here from the facts' jobs with the definitions of
         docs/truth-format.md (start = max(run, previous done on the ring)).
Then, for the same trace:
  CLI      `trace-cmd-gpu-latency --json`: rings[].dev/ring, jobs, complete,
           incomplete, lost, wait/exec/total p50 and max;
  plugin   `trace-cmd report -O gpu_sched:summary=1`: the summary table's ring
           label, jobs, done, open, lost, wait and exec p50 and max (us with all
           ns digits, so exact);
  kshark   `gpu-kshark --list`: ring rows (label, jobs) and the total; every
           row with jobs must be in the session the launcher writes (else
           KernelShark would not show it).
  watch    --watch's input path (lib/session-live.c as tools/gl-watch.c feeds
           it): the trace's own ring-buffer pages and formats, copied out of
           the file by datpages.py into a tracefs lookalike under --work,
           pushed page by page with a flush per tick by `watch-replay`, one
           interval; its rows carry jobs, complete, incomplete, lost and
           wait/exec/total p50 and max in ns.
Each front end must name every ring with the canonical label (`dev/ring`, or
`ring` when the era carries no device) and match the reference number for
number; the front ends are also compared with each other so that a message
says which one differs. Exit 0 pass, 1 fail, 2 usage.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import datpages

failures = []


def fail(msg):
    failures.append(msg)
    if len(failures) <= 40:
        print('FAIL: ' + msg)


def label(dev, ring):
    return dev + '/' + ring if dev else ring


# ---- reference -------------------------------------------------------------

def nearest_rank(vals, p):
    """docs/truth-format.md: v[ceil(p * n) - 1] of the sorted values"""
    v = sorted(vals)
    k = -(-int(p * 1000) * len(v) // 1000) - 1
    return v[max(k, 0)]


def stat(vals):
    return {'p50': nearest_rank(vals, 0.5), 'max': max(vals)} if vals else None


def truth_rings(t):
    # before 5.19 the trace holds the ring name's address; with the drm_sched
    # fence timelines recorded (dma_fence on) every front end names it
    named = t.get('options', {}).get('dma_fence', True)
    out = {}
    for r in t['rings']:
        ring = r['ring'] if named else (r.get('ring_label') or r['ring'])
        row = {k: r[k] for k in ('jobs', 'complete', 'incomplete', 'lost')}
        for m in ('wait', 'exec', 'total'):
            s = r.get(m) or {}
            row[m] = {'p50': s['p50'], 'max': s['max']} if s.get('n') else None
        out[label(r.get('dev') or '', ring)] = row
    return out


def facts_rings(f):
    """per ring from the hand-checked per-job facts (no device on 6.1)"""
    by = {}
    for j in f['jobs']:
        by.setdefault(j['ring'], []).append(j)
    out = {}
    for ring, jobs in by.items():
        done = sorted((j for j in jobs if j.get('done_ts') is not None),
                      key=lambda j: j['done_ts'])
        wait, exec_, total = [], [], []
        prev = 0
        for j in done:
            start = max(j['run_ts'], prev) if j.get('run_ts') is not None else None
            prev = j['done_ts']
            if start is not None:
                exec_.append(j['done_ts'] - start)
            if j.get('queue_ts') is not None:
                total.append(j['done_ts'] - j['queue_ts'])
        for j in jobs:
            if j.get('run_ts') is not None and j.get('queue_ts') is not None:
                wait.append(j['run_ts'] - j['queue_ts'])
        out[ring] = {'jobs': len(jobs), 'complete': len(done),
                     'incomplete': len(jobs) - len(done), 'lost': 0,
                     'wait': stat(wait), 'exec': stat(exec_), 'total': stat(total)}
    return out


def reference(path):
    """per-ring reference numbers"""
    with open(path) as fp:
        ref = json.load(fp)
    if 'rings' in ref and isinstance(ref['rings'], list):
        return truth_rings(ref)
    return facts_rings(ref)


# ---- front ends ------------------------------------------------------------

def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env)
    if p.returncode != 0:
        fail('%s: exit %d: %s' % (' '.join(cmd[:2]), p.returncode, p.stderr.strip()[:300]))
        return None
    return p.stdout


def cli_rings(tool, dat):
    out = run([tool, '--json', dat])
    if out is None:
        return None
    rings = {}
    for r in json.loads(out)['rings']:
        row = {k: r[k] for k in ('jobs', 'complete', 'incomplete', 'lost')}
        for m in ('wait', 'exec', 'total'):
            s = r.get(m) or {}
            row[m] = {'p50': s['p50'], 'max': s['max']} if s.get('n') else None
        key = label(r.get('dev') or '', r['ring'])
        if key in rings:
            fail('cli: ring %s twice' % key)
        rings[key] = row
    return rings


US = re.compile(r'^(\d+)\.(\d{3})$')


def us_ns(s):
    m = US.match(s)
    return int(m.group(1)) * 1000 + int(m.group(2)) if m else None


def plugin_rings(tc, pdir, dat):
    env = dict(os.environ, TRACEEVENT_PLUGIN_DIR=pdir)
    out = run([tc, 'report', '-O', 'gpu_sched:summary=1', dat], env)
    if out is None:
        return None
    lines = out.splitlines()
    heads = [i for i, ln in enumerate(lines) if ln.startswith('gpu_sched: job latency summary')]
    if len(heads) != 1:
        fail('plugin: %d summary tables' % len(heads))
        return None
    rings, row = {}, None
    for ln in lines[heads[0] + 2:]:
        w = ln.split()
        if not w or not ln.startswith('  ') or w[0] in ('unmatched:', 'lost:'):
            break
        if w[0].startswith('~'):
            break    # the legend of approximate quantiles
        # ring jobs done open lost, then metric p50 p90 p99 max
        if len(w) == 10:
            row = {'jobs': int(w[1]), 'complete': int(w[2]), 'incomplete': int(w[3]),
                   'lost': int(w[4])}
            if w[0] in rings:
                fail('plugin: ring %s twice' % w[0])
            rings[w[0]] = row
            w = w[5:]
        if len(w) != 5 or row is None or w[0] not in ('wait', 'hw_queue', 'exec', 'total'):
            fail('plugin: summary line %r' % ln)
            continue
        if w[0] not in ('wait', 'exec'):
            continue
        if w[1] == '-':
            row[w[0]] = None
        else:
            row[w[0]] = {'p50': us_ns(w[1]), 'max': us_ns(w[4])}
    return rings


def kshark_rings(launcher, dat):
    out = run([launcher, '--list', dat])
    if out is None:
        return None
    lines = out.splitlines()
    m = re.match(r'.*: (\d+) ring rows, (\d+) jobs', lines[0] if lines else '')
    if not m:
        fail('kshark: first line %r' % lines[:1])
        return None
    rings = {}
    for ln in lines[2:]:
        w = ln.split(None, 2)
        if len(w) < 3 or not w[0].isdigit():
            continue
        name = w[2]
        if name.endswith(')'):
            # "(not in the session)": drawn by the plugin, no row on screen;
            # "(no row drawn)": a row without jobs
            if int(w[1]):
                fail('kshark: %s' % ln.strip())
            name = name[:name.rindex(' (')]
        if int(w[1]):
            rings[name] = {'jobs': int(w[1])}
    if sum(r['jobs'] for r in rings.values()) != int(m.group(2)):
        fail('kshark: rows add up to %d jobs, total %s' %
             (sum(r['jobs'] for r in rings.values()), m.group(2)))
    return rings


def watch_rings(prog, trace_cmd, work, dat):
    raw = os.path.join(work, os.path.basename(os.path.dirname(dat)) + '-' +
                       os.path.basename(dat)[:-4])
    shutil.rmtree(raw, ignore_errors=True)
    try:
        datpages.pages(trace_cmd, dat, raw)
    except (ValueError, OSError) as e:
        fail('watch: %s: pages: %s' % (dat, e))
        return None
    out = run([prog, raw])
    if out is None:
        return None
    shutil.rmtree(raw, ignore_errors=True)
    lines = out.splitlines()
    if not lines or not lines[0].startswith('watch-replay: '):
        fail('watch: first line %r' % lines[:1])
        return None
    rings = {}
    for ln in lines[1:]:
        w = ln.split()
        if len(w) != 19 or w[0] != 'ring':
            fail('watch: line %r' % ln)
            continue
        row = {w[k]: int(w[k + 1]) for k in (2, 4, 6, 8)}
        for k in (10, 13, 16):
            row[w[k]] = None if w[k + 1] == '-' else {'p50': int(w[k + 1]),
                                                      'max': int(w[k + 2])}
        if w[1] in rings:
            fail('watch: ring %s twice' % w[1])
        rings[w[1]] = row
    return rings


# ---- comparison ------------------------------------------------------------

def compare(name, got, ref, keys):
    if got is None:
        return
    if set(got) != set(ref):
        fail('%s: rings %s, reference %s' % (name, sorted(got), sorted(ref)))
    for ring in sorted(set(got) & set(ref)):
        for k in keys:
            g, w = got[ring].get(k), ref[ring].get(k)
            if g != w:
                fail('%s: ring %s %s: %s, reference %s' % (name, ring, k, g, w))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cli', required=True)
    ap.add_argument('--trace-cmd', required=True)
    ap.add_argument('--plugin-dir', required=True)
    ap.add_argument('--kshark')
    ap.add_argument('--watch')
    ap.add_argument('--work')
    ap.add_argument('trace')
    ap.add_argument('reference')
    a = ap.parse_args()

    ref = reference(a.reference)
    fronts = {
        'cli': (cli_rings(a.cli, a.trace),
                ('jobs', 'complete', 'incomplete', 'lost', 'wait', 'exec', 'total')),
        'plugin': (plugin_rings(a.trace_cmd, a.plugin_dir, a.trace),
                   ('jobs', 'complete', 'incomplete', 'lost', 'wait', 'exec')),
    }
    if a.kshark:
        fronts['kshark'] = (kshark_rings(a.kshark, a.trace), ('jobs',))
    if a.watch:
        fronts['watch'] = (watch_rings(a.watch, a.trace_cmd, a.work, a.trace),
                           ('jobs', 'complete', 'incomplete', 'lost', 'wait', 'exec', 'total'))
    cli = fronts['cli'][0]
    # the plugin sees a ring-buffer overrun on any record after its first
    # GPU event (plugin_gpu_sched.c gs_other_handler), so open and lost are
    # compared apart for it too
    for name, (got, keys) in fronts.items():
        compare(name, got, ref, keys)
    # the front ends among themselves: same labels, same counts
    for name, (got, keys) in fronts.items():
        if name != 'cli' and cli is not None and got is not None:
            compare(name + ' vs cli', got, cli, keys)
    base = os.path.basename(a.trace)
    if failures:
        print('%s: %d failure(s)' % (base, len(failures)))
        return 1
    print('%s: %s agree with the reference on %d rings (%d jobs)' %
          (base, ', '.join(fronts), len(ref), sum(r['jobs'] for r in ref.values())))
    return 0


if __name__ == '__main__':
    sys.exit(main())

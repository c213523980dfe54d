#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""same_jobs.py TOOL TRACE.dat TEXT [--tol NS] [--grep COMM] [--stdin]

The text path through the whole tool (session, filters, report) against the
binary path of the same recording: `TOOL --json --jobs TRACE.dat` and the
same over TEXT must give the same jobs (ring, id or fence, pid, comm, status)
and stage timestamps within --tol ns (the text's resolution).

--relative: TEXT is latency-format (microseconds since the buffer started):
times are compared after removing the offset of the first job's queue.
--grep COMM: TEXT is a grep for COMM's lines only; the text path must give
exactly COMM's jobs (queue stage within --tol) and say that the run and done
stages are not in the log. --stdin: feed TEXT on standard input ("-").
Exit 0 on success, 1 with one line per mismatch."""

import json
import subprocess
import sys


def run(tool, path, stdin=None):
    args = [tool, '--json', '--jobs', '-q', path]
    p = subprocess.run(args, stdin=stdin, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit('%s: exit %d: %s' % (' '.join(args), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def key(j):
    if j['fence_ctx'] is not None and j['dev']:
        return (j['dev'], j['fence_ctx'], j['fence_seqno'])
    return (j['ring'], j['id'])


def main():
    argv = sys.argv[1:]
    tol, comm, use_stdin, relative = 0, None, False, False
    if '--relative' in argv:
        argv.remove('--relative')
        relative = True
    if '--tol' in argv:
        i = argv.index('--tol')
        tol = int(argv[i + 1])
        del argv[i:i + 2]
    if '--grep' in argv:
        i = argv.index('--grep')
        comm = argv[i + 1]
        del argv[i:i + 2]
    if '--stdin' in argv:
        argv.remove('--stdin')
        use_stdin = True
    tool, dat, text = argv
    b = run(tool, dat)
    if use_stdin:
        with open(text, encoding='utf-8') as f:
            t = run(tool, '-', stdin=f)
    else:
        t = run(tool, text)
    bad = []
    if t.get('input', {}).get('format') != 'text':
        bad.append('the report does not say the input was text')
    bjobs = {key(j): j for j in b['jobs']}
    tjobs = {key(j): j for j in t['jobs']}
    stages = ['queue', 'run', 'done', 'signal']
    if comm is not None:
        want = {k: j for k, j in bjobs.items() if j['comm'] == comm}
        stages = ['queue']
        missing = t['input']['missing_stages']
        if 'run' not in missing or 'done' not in missing:
            bad.append('missing_stages %s lacks run/done' % missing)
    else:
        want = bjobs
        for f in ('gpu_events', 'events', 'lost_events'):  # noqa: E501
            if b['counts'][f] != t['counts'][f]:
                bad.append('counts.%s: binary %s, text %s' % (f, b['counts'][f],
                                                                t['counts'][f]))
    if set(want) != set(tjobs):
        bad.append('jobs differ: %d only binary, %d only text (of %d / %d)' % (
            len(set(want) - set(tjobs)), len(set(tjobs) - set(want)), len(want), len(tjobs)))
    off = 0
    common = sorted(set(want) & set(tjobs), key=lambda k: want[k]['queue_ts'] or 0)
    if relative and common:
        off = want[common[0]]['queue_ts'] - tjobs[common[0]]['queue_ts']
    for k in sorted(set(want) & set(tjobs), key=str):
        bj, tj = want[k], dict(tjobs[k])
        for s in ('queue', 'run', 'done', 'signal'):
            if tj[s + '_ts'] is not None:
                tj[s + '_ts'] += off
        for f in ('pid', 'comm', 'ring', 'dev') + (() if comm else ('status',)):
            if bj[f] != tj[f]:
                bad.append('job %s %s: binary %s, text %s' % (k, f, bj[f], tj[f]))
        for s in stages:
            x, y = bj[s + '_ts'], tj[s + '_ts']
            if (x is None) != (y is None) or (x is not None and abs(x - y) > tol):
                bad.append('job %s %s_ts: binary %s, text %s' % (k, s, x, y))
            if x is not None and y is not None and bj[s + '_cpu'] != tj[s + '_cpu']:
                bad.append('job %s %s_cpu: binary %s, text %s' % (k, s, bj[s + '_cpu'],
                                                                 tj[s + '_cpu']))
    for line in bad[:20]:
        print('%s: MISMATCH %s' % (text, line))
    print('%s: %d jobs compared with %s, %d mismatches' % (text, len(want), dat, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

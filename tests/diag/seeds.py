#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""seeds.py TOOL GEN WORKDIR: check_diag.py on every diagnosis scenario with seeds 2-4."""
import os
import subprocess
import sys

tool, gen, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
scen = [l.split()[0] for l in subprocess.run([gen, '--list'], capture_output=True, text=True,
                                              check=True).stdout.splitlines()
        if l.startswith('diag-')]
status = 0
for s in scen:
    for seed in (2, 3, 4):
        dat = os.path.join(work, '%s-%d.dat' % (s, seed))
        subprocess.run([gen, '-q', '--no-event-truth', '--seed', str(seed), '-s', s, '-o', dat],
                       check=True)
        truth = dat[:-4] + '.truth.json'
        r = subprocess.run([sys.executable, os.path.join(here, 'check_diag.py'), tool, dat, truth])
        status |= r.returncode
sys.exit(status)

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Every scenario of gpu-trace-gen, as a version 6 and a version 7 file: the
report's numbers equal the truth file (check_truth.py).

usage: test_gen_truth.py TOOL GEN WORKDIR
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, gen, work = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    listing = subprocess.run([gen, "--list"], capture_output=True, text=True, check=True).stdout
    scenarios = [line.split()[0] for line in listing.splitlines() if line.strip()]
    bad = []
    for sc in scenarios:
        for version in (6, 7):
            out = os.path.join(work, f"{sc}-v{version}.dat")
            g = subprocess.run([gen, "-s", sc, "-o", out, "--file-version", str(version), "-q"],
                               capture_output=True, text=True)
            if g.returncode != 0:
                print(f"FAIL: gpu-trace-gen -s {sc}: {g.stderr.strip()}")
                bad.append(f"{sc} v{version} (generator)")
                continue
            truth = out[:-4] + ".truth.json"
            c = subprocess.run([sys.executable, os.path.join(HERE, "check_truth.py"), tool, out,
                                truth], capture_output=True, text=True)
            print(c.stdout.rstrip() or c.stderr.rstrip())
            if c.returncode != 0:
                bad.append(f"{sc} v{version}")
    if bad:
        print(f"{len(bad)} of {2 * len(scenarios)} traces differ from their truth: "
              + ", ".join(bad))
        return 1
    print(f"all {2 * len(scenarios)} generated traces match their truth")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""--perfetto on bad input or a failing output: exit 1, one line on stderr,
no OUT file, no temporary file, and an OUT that existed before left as it was.

usage: test_damaged.py TOOL SAMPLES_DIR WORKDIR

Inputs: committed samples truncated at many points, one with its middle
overwritten, a text file, a missing file. Output failures: a directory that
does not exist, and a file-size limit (RLIMIT_FSIZE) hit in the middle of
the export, which fails a write() after thousands of packets were written.
Usage errors: --perfetto-sched alone, --perfetto with a report option.
"""
import os
import resource
import signal
import subprocess
import sys

failures = []


def leftovers(out):
    d = os.path.dirname(out)
    base = os.path.basename(out)
    return sorted(f for f in os.listdir(d) if f.startswith(base + ".tmp"))


def run(tool, args, out, what, before=None, fsize=None, want_rc=1):
    def limit():
        # a write past the limit fails with EFBIG instead of killing the tool
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    if os.path.exists(out):
        os.unlink(out)
    if before is not None:
        with open(out, "wb") as f:
            f.write(before)
    p = subprocess.run([tool] + args, capture_output=True, text=True,
                       preexec_fn=limit if fsize else None)
    err = p.stderr.strip().splitlines()
    if p.returncode != want_rc:
        failures.append(f"{what}: exit {p.returncode}, want {want_rc} ({p.stderr.strip()[:200]})")
    if len(err) != 1:
        failures.append(f"{what}: {len(err)} lines on stderr, want 1: {err[:3]}")
    if p.stdout:
        failures.append(f"{what}: output on stdout: {p.stdout[:100]!r}")
    if before is None and os.path.exists(out):
        failures.append(f"{what}: {out} was written")
    if before is not None:
        with open(out, "rb") as f:
            if f.read() != before:
                failures.append(f"{what}: the existing {out} was changed")
    if os.path.isdir(os.path.dirname(out)) and leftovers(out):
        failures.append(f"{what}: temporary files left: {leftovers(out)}")
    return err


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tool, samples, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "out.pftrace")
    n = 0

    for name in ("deps-617", "steady", "era-57", "lost-events", "two-gpus"):
        src = os.path.join(samples, name + ".dat")
        with open(src, "rb") as f:
            data = f.read()
        for pct in (1, 10, 33, 50, 75, 90, 97, 99.5):
            bad = os.path.join(work, f"{name}-{pct}.dat")
            with open(bad, "wb") as f:
                f.write(data[:int(len(data) * pct / 100)])
            err = run(tool, ["--perfetto", out, bad], out, f"{name} cut at {pct}%")
            if err and bad not in err[0]:
                failures.append(f"{name} cut at {pct}%: the error does not name the file: "
                                f"{err[0]}")
            n += 1
        # an existing OUT survives a failed export untouched
        run(tool, ["--perfetto", out, os.path.join(work, f"{name}-50.dat")], out,
            f"{name} cut, existing OUT", before=b"previous export\n")
        n += 1

    # the middle of a trace overwritten
    with open(os.path.join(samples, "steady.dat"), "rb") as f:
        data = bytearray(f.read())
    mid = len(data) // 2
    data[mid:mid + 4096] = b"\xff" * 4096
    bad = os.path.join(work, "steady-overwritten.dat")
    with open(bad, "wb") as f:
        f.write(data)
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run([tool, "-q", "--perfetto", out, bad], capture_output=True, text=True)
    # either refused (exit 1, no file) or read with the damage counted: never a crash
    if p.returncode not in (0, 1) or (p.returncode == 1 and os.path.exists(out)):
        failures.append(f"overwritten middle: exit {p.returncode}, file {os.path.exists(out)}")
    if leftovers(out):
        failures.append(f"overwritten middle: temporary files left: {leftovers(out)}")
    n += 1

    text = os.path.join(work, "notatrace.dat")
    with open(text, "w") as f:
        f.write("this is not a trace\n" * 100)
    run(tool, ["--perfetto", out, text], out, "text file")
    run(tool, ["--perfetto", out, os.path.join(work, "missing.dat")], out, "missing file")
    good = os.path.join(samples, "steady.dat")
    run(tool, ["--perfetto", os.path.join(work, "no-such-dir", "x.pftrace"), good],
        os.path.join(work, "no-such-dir", "x.pftrace"), "output directory missing")
    # fails in the middle: the 200 KB export of steady.dat against a 64 KB limit
    run(tool, ["--perfetto", out, good], out, "write error in the middle", fsize=65536)
    run(tool, ["--perfetto", out, good], out, "write error, existing OUT",
        before=b"previous export\n", fsize=65536)
    run(tool, ["--perfetto-sched", good], out, "--perfetto-sched alone")
    run(tool, ["--perfetto", out, "--json", good], out, "--perfetto --json")
    run(tool, ["--perfetto", out, "-o", os.path.join(work, "r.txt"), good], out, "--perfetto -o")
    n += 7

    if failures:
        print(f"{len(failures)} failures ({n} cases):")
        for f in failures:
            print("  " + f)
        return 1
    print(f"ok: {n} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Issue 16 items 1-4: answers that used to be quietly wrong. Each check failed
on the code before the fix (checked by hand against the old binary).

usage: test_trust.py TOOL SAMPLES
"""
import json
import sys

from tcheck import check, finish, run


def main():
    tool, s = sys.argv[1], sys.argv[2]
    old, new, deps = f"{s}/real/steady.dat", f"{s}/steady-617.dat", f"{s}/real/deps.dat"
    truth = json.load(open(f"{s}/steady-617.truth.json"))

    # 1. --compare across 6.16 -> 6.17: rings by name, said so; relative gates
    p = run(tool, ["--compare", old, new])
    rows = [l.split() for l in p.stdout.splitlines()]
    gfx = [r for r in rows if r and r[0] == "0000:03:00.0/gfx"]
    check("compare 6.16 -> 6.17 matches gfx by name", gfx and gfx[0][1] == "130", gfx)
    check("compare says the rings matched by name", "matched by name" in p.stdout, p.stdout[:400])
    p = run(tool, ["--compare", old, "--json", new])
    d = json.loads(p.stdout)
    r = [x for x in d["rings"] if x["ring"] == "gfx"]
    check("JSON compare: gfx has both sides and matched_by_name",
          len(r) == 1 and r[0]["jobs_base"] == 130 and r[0].get("matched_by_name") is True, r)
    p = run(tool, ["--compare", old, "--fail-if", "ring=gfx,p99.total>+10%", new])
    check("relative gate across 6.16 -> 6.17 fails (p99 3.96 -> 10.8 ms)",
          p.returncode == 3 and "p99.total" in p.stderr, (p.returncode, p.stderr))
    p = run(tool, ["--compare", old, "--fail-if", "p99.total>+1000000%", deps])
    check("relative gate fails for a ring missing in the base (sdma0)",
          p.returncode == 3 and "sdma0: not in the base" in p.stderr, (p.returncode, p.stderr))
    p = run(tool, ["--compare", deps, "--fail-if", "p99.total>+1000000%", old])
    check("relative gate fails for a ring missing in the current trace",
          p.returncode == 3 and "sdma0: in the base trace only" in p.stderr,
          (p.returncode, p.stderr))

    # 2. filters that match nothing; every ring and device spelling
    for args, want in ((["--ring", "nosuch"], "no job matches --ring nosuch; rings: comp, gfx, sdma0"),
                       (["--dev", "0000:03:00.0"], "no job matches --dev 0000:03:00.0; this trace's events carry no device"),
                       (["--start", "99999"], "no job matches --start 99999.000000"),
                       (["--comm", "nobody"], "no job matches the filters")):
        p = run(tool, args + [deps])
        lines = p.stderr.strip().splitlines()
        check(f"{args}: exit 1, one line", p.returncode == 1 and len(lines) == 1 and
              want in lines[0] and not p.stdout, (p.returncode, p.stderr))
    n_gfx = sum(1 for j in truth["jobs"] if j["ring"] == "gfx")
    for spelling in ("gfx", "0000:03:00.0/gfx", "03:00.0/gfx", "gfx@03:00.0", "gfx@0000:03:00.0"):
        p = run(tool, ["--json", "--ring", spelling, new])
        got = json.loads(p.stdout)["counts"]["jobs"] if p.returncode == 0 else None
        check(f"--ring {spelling} selects the {n_gfx} gfx jobs", got == n_gfx, (got, p.stderr))
    for spelling in ("0000:03:00.0", "03:00.0"):
        p = run(tool, ["--json", "--dev", spelling, new])
        got = json.loads(p.stdout)["counts"]["jobs"] if p.returncode == 0 else None
        check(f"--dev {spelling} selects every job", got == len(truth["jobs"]), (got, p.stderr))
    p = run(tool, ["--fail-if", "ring=03:00.0/gfx,jobs<1", new])
    check("gate ring=03:00.0/gfx selects the ring", p.returncode == 0, p.stderr)

    # 3. conflicting or meaningless options: one line, exit 1
    for args in (["--json", "--csv"], ["--csv", "--json"], ["--csv", "--hist"],
                 ["--csv", "--explain"], ["--csv", "--fence-path"], ["--threshold", "5"],
                 ["--fail-if", "busy>150%"]):
        p = run(tool, args + [deps])
        check(f"{args} refused with one line", p.returncode == 1 and not p.stdout and
              len(p.stderr.strip().splitlines()) == 1, (p.returncode, p.stderr))
    # --gpu-irq naming no irq of the trace: say so, list the trace's irqs (hand-checked
    # in `trace-cmd report`: irq_handler_entry irq=16,24,27,40,130 in diag-irqstorm.dat)
    storm = f"{s}/diag-irqstorm.dat"
    irqs = "irqs: 16 i801_smbus, 24 nvme0q1, 27 enp5s0-rx-0, 40 xhci_hcd, 130 amdgpu"
    for args in (["--fence-path", "--gpu-irq", "99"], ["--explain", "--gpu-irq", "amdgpux"],
                 ["--fence-path", "--json", "--gpu-irq", "9"],
                 # a control character in the name stays on the one line (F11)
                 ["--explain", "--gpu-irq", "amd\ngpu"]):
        p = run(tool, args + [storm])
        lines = p.stderr.strip().splitlines()
        check(f"{args} names no irq: one line listing the trace's irqs",
              p.returncode == 1 and not p.stdout and len(lines) == 1 and
              "no such irq in the trace" in lines[0] and lines[0].endswith(irqs),
              (p.returncode, p.stderr))
    for irq in ("130", "amdgpu", "27"):
        p = run(tool, ["--fence-path", "--gpu-irq", irq, storm])
        check(f"--gpu-irq {irq} (in the trace) accepted", p.returncode == 0, p.stderr)
    p = run(tool, ["--gpu-irq", "130", storm])
    check("--gpu-irq without --fence-path/--explain refused with one line",
          p.returncode == 1 and not p.stdout and len(p.stderr.strip().splitlines()) == 1,
          (p.returncode, p.stderr))
    p = run(tool, ["--fail-if", "p99.exec > 1ms", deps])
    check("--fail-if accepts blanks", p.returncode == 3 and "p99.exec = " in p.stderr,
          (p.returncode, p.stderr))

    # 4. the span follows --start/--end, in the header and in JSON
    p = run(tool, ["--json", "--start", "6.0", "--end", "6.1", deps])
    d = json.loads(p.stdout)
    check("JSON first_ts/last_ts follow --start/--end",
          d["first_ts"] == 6000000000 and d["last_ts"] == 6100000000 and
          d["span_ns"] == 100000000, (d.get("first_ts"), d.get("last_ts"), d.get("span_ns")))
    p = run(tool, ["--start", "6.0", "--end", "6.1", deps])
    span = [l for l in p.stdout.splitlines() if l.strip().startswith("span")]
    check("text header span follows --start/--end",
          span and span[0].split()[1:4] == ["6.000000", "-", "6.100000"], span)

    return finish()


if __name__ == "__main__":
    sys.exit(main())

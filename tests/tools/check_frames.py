#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""trace-cmd gpu-latency --frames against the generator's frames truth.

usage: check_frames.py TOOL TRACE.dat TRACE.truth.json

The truth ("frames" of the truth file) is computed by gpu-trace-gen from its
own simulation (sample-traces/gen/frames.c), not from the analysis. Checked:
the vblank instant used, per CRTC the vblanks, refresh interval and VRR, per
client every count and every late frame (deadline, presented, missed,
cause; page-flip clients: flips and the inferred process), the crtc= gates both ways and the refresh-interval stall threshold.
"""
import json
import subprocess
import sys


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    tool, dat, truth_path = sys.argv[1:4]
    truth = json.load(open(truth_path))["frames"]
    rc, out, err = run(tool, ["--frames", "--json", dat])
    if rc != 0:
        sys.exit(f"{dat}: exit {rc}: {err}")
    rep = json.loads(out)
    fr = rep["frames"]
    bad = []

    def eq(what, got, want):
        if got != want:
            bad.append(f"{what}: got {got!r}, truth {want!r}")

    eq("vblank_instant", fr["vblank_instant"], truth["vblank_instant"])
    crtcs = {c["crtc"]: c for c in fr["crtcs"]}
    eq("crtcs", sorted(crtcs), sorted(c["crtc"] for c in truth["crtcs"]))
    for t in truth["crtcs"]:
        c = crtcs.get(t["crtc"])
        if not c:
            continue
        for k in ("vblanks", "refresh_ns", "vrr"):
            eq(f"crtc {t['crtc']} {k}", c[k], t[k])
        eq(f"crtc {t['crtc']} seq_gaps", c["seq_gaps"], 0)
    clients = {(c["pid"], c["crtc"]): c for c in fr["clients"]}
    eq("clients", sorted(clients), sorted((t["pid"], t["crtc"]) for t in truth["clients"]))
    for t in truth["clients"]:
        c = clients.get((t["pid"], t["crtc"]))
        if not c:
            continue
        who = f"client {t['comm']}-{t['pid']} crtc {t['crtc']}"
        for k in ("drm_file", "requested", "delivered", "frames", "late", "missed",
                  "unresolved"):
            eq(f"{who} {k}", c[k], t[k])
        for k, v in t["by_cause"].items():
            eq(f"{who} by_cause.{k}", c["by_cause"][k], v)
        got = [(f["target"], f["deadline"], f["deadline_ts"], f["presented"], f["missed"],
                f["cause"]) for f in c["late_frames"]]
        want = [(f["target"], f["deadline"], f["deadline_ts"], f["presented"], f["missed"],
                 f["cause"]) for f in t["late_frames"]]
        eq(f"{who} late frames", got, want)
        if "flips" in t:
            # a page-flip client: every flip after the first is a frame; its
            # process is inferred (no request names it)
            eq(f"{who} flips", c["flips"], t["flips"])
            eq(f"{who} pid_inferred", c["pid_inferred"], True)
            eq(f"{who} frames + 1", c["frames"] + 1, c["flips"])
        else:
            # every frame asked for was judged or is unresolved
            eq(f"{who} frames + unresolved", c["frames"] + c["unresolved"], c["requested"])

    # gates: missed > N-1 fails (exit 3), missed > N passes, per CRTC
    for t in truth["crtcs"]:
        n = sum(c["missed"] for c in truth["clients"] if c["crtc"] == t["crtc"])
        rc, _, err = run(tool, ["-q", "--fail-if", f"crtc={t['crtc']},missed>{n}", dat])
        eq(f"gate crtc={t['crtc']},missed>{n} exit", rc, 0)
        if n:
            rc, _, err = run(tool, ["-q", "--fail-if", f"crtc={t['crtc']},missed>{n - 1}",
                                    dat])
            eq(f"gate crtc={t['crtc']},missed>{n - 1} exit", rc, 3)
            if f"crtc {t['crtc']}: missed = {n}" not in err:
                bad.append(f"gate message: {err.strip()!r}")
    rc, _, err = run(tool, ["-q", "--fail-if", "crtc=9,missed>0", dat])
    eq("gate on a CRTC not in the trace exit", rc, 3)

    # the stall threshold: the refresh of the fastest CRTC (exact for a
    # fixed refresh with hardware timestamps: every interval is equal)
    fixed = [t for t in truth["crtcs"] if not t["vrr"]]
    if truth["vblank_instant"] == "time" and fixed and len(fixed) == len(truth["crtcs"]):
        best = min(fixed, key=lambda t: t["refresh_ns"])
        eq("stall_threshold_ns", rep["stall_threshold_ns"], best["refresh_ns"])
        eq("stall_threshold_from_crtc", fr["stall_threshold_from_crtc"], best["crtc"])
    rc, out, _ = run(tool, ["--threshold", "5ms", "--json", dat])
    eq("--threshold overrides", json.loads(out)["stall_threshold_ns"], 5000000)

    # a job filter would hide work of a frame: refused with one line
    rc, out, err = run(tool, ["--frames", "--pid", "1", dat])
    eq("--frames --pid exit", rc, 1)
    eq("--frames --pid stdout", out, "")
    eq("--frames --pid stderr lines", len(err.strip().splitlines()), 1)
    rc, out, _ = run(tool, ["--frames", "--csv", dat])
    rows = [l.split(",") for l in out.strip().splitlines()]
    eq("csv crtc rows", sum(1 for r in rows if r[0] == "crtc"), len(truth["crtcs"]))
    for t in truth["clients"]:
        row = [r for r in rows if r[0] == "client" and r[2] == str(t["pid"])]
        eq(f"csv client {t['pid']} late,missed", [row[0][9], row[0][10]] if row else None,
           [str(t["late"]), str(t["missed"])])

    if bad:
        print(f"{dat}: {len(bad)} mismatches with {truth_path}:")
        for b in bad[:40]:
            print("  " + b)
        sys.exit(1)
    print(f"{dat}: frames agree with the truth")


if __name__ == "__main__":
    main()

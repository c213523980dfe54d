#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Issue 16 item 6: worst-job and incomplete-job rows name the job the way
`trace-cmd report` (the gpu_sched plugin) prints it, and --jobs without
--json/--csv prints a per-job text table. Expected identities are built from
the generator's truth (fence_ctx:fence_seqno on 6.17+, job=RING#ID plus the
16-bit handle of the finished-fence pointer and which job of the trace with
that handle it is, fence=HHHH.N, before), not from the tool.

usage: test_identity.py TOOL SAMPLES
"""
import json
import sys

from tcheck import check, finish, run

M = (1 << 64) - 1


def handle(p):
    """murmur3's 64-bit finaliser cut to 16 bits (the plugin's fence=HHHH)"""
    p ^= p >> 33
    p = (p * 0xff51afd7ed558ccd) & M
    p ^= p >> 33
    p = (p * 0xc4ceb9fe1a85ec53) & M
    p ^= p >> 33
    return p & 0xffff


def number(truth):
    """j["gen"]: the how-many-th job of the truth with its handle, in order of
    the first stage the trace shows (issue 16 item 7: one job per identity)"""
    first = []
    for j in truth["jobs"]:
        lost = set(j.get("lost_stages") or [])
        ts = [j[s + "_ts"] for s in ("queue", "run", "done")
              if j.get(s + "_ts") is not None and s not in lost]
        if j.get("fence_ptr") and ts:
            first.append((min(ts), j["index"], j))
    gens = {}
    for _, _, j in sorted(first, key=lambda x: x[:2]):
        h = handle(int(j["fence_ptr"], 16))
        gens[h] = gens.get(h, 0) + 1
        j["gen"] = gens[h]


def identity(j, era617):
    if era617:
        return f"fence={j['fence_ctx']}:{j['fence_seqno']}"
    return f"job={j['ring']}#{j['id']} fence={handle(int(j['fence_ptr'], 16)):04x}.{j['gen']}"


def main():
    tool, s = sys.argv[1], sys.argv[2]
    for name, era617 in (("steady.dat", False), ("steady-617.dat", True), ("hang.dat", False)):
        truth = json.load(open(f"{s}/{name.replace('.dat', '.truth.json')}"))
        number(truth)
        by_queue = {(j["dev"], j["ring"], j["queue_ts"]): j for j in truth["jobs"]}
        d = json.loads(run(tool, ["--json", f"{s}/{name}"]).stdout)
        rows = d["worst"] + d["incomplete"]
        check(f"{name}: worst/incomplete jobs to check", len(rows) > 0)
        for w in rows:
            t = by_queue.get((w["dev"], w["ring"], w["queue_ts"]))
            want = identity(t, era617) if t else None
            check(f"{name}: JSON identity of the job queued at {w['queue_ts']} is {want}",
                  w.get("identity") == want, (w.get("identity"), want))
        text = run(tool, [f"{s}/{name}"]).stdout.splitlines()
        for title in ("Worst ", "Incomplete jobs: "):
            sec = [i for i, l in enumerate(text) if l.startswith(title)]
            if not sec or "none" in text[sec[0]]:
                continue
            head = text[sec[0] + 1]
            check(f"{name}: {title.strip()} table ends with a job column",
                  head.rstrip().endswith(" job"), head)
            body = []
            for l in text[sec[0] + 2:]:
                if not l.startswith("  ") or l.startswith("  ..."):
                    break
                body.append(l)
            want = {identity(by_queue[k], era617) for k in by_queue}
            got = [l.split("  ")[-1].strip() for l in body]
            check(f"{name}: every {title.strip()} row names a job of the trace",
                  got and all(g in want for g in got), got[:5])
        # --jobs in text: one row per job, each named
        p = run(tool, ["--jobs", f"{s}/{name}"])
        lines = p.stdout.splitlines()
        i = [k for k, l in enumerate(lines) if l.startswith("Jobs (--jobs: ")]
        check(f"{name}: --jobs text table", p.returncode == 0 and len(i) == 1, p.stderr)
        if i:
            body = lines[i[0] + 2:]
            ids = sorted(l.split("  ")[-1].strip() for l in body)
            want = sorted(identity(j, era617) for j in truth["jobs"])
            check(f"{name}: --jobs text lists the {len(want)} jobs of the truth by identity",
                  ids == want, (len(ids), len(want), ids[:3], want[:3]))
    return finish()


if __name__ == "__main__":
    sys.exit(main())

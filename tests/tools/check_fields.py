#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""The report model's one field table against the docs and the writers.

usage: check_fields.py TOOL DOC TRACE...

  - docs/gpu-latency.md's field list is exactly `--fields` (the table)
  - every JSON member and CSV column of real reports of TRACE is a field of
    the table, in table order, and every field is written (a writer that
    knows a field the table does not, or forgets one, fails)
"""
import json
import re
import sys

from tcheck import check, finish, run


def parse_fields(text):
    """{section: [(name, rows, flags)]} from the --fields Markdown"""
    out, sec = {}, None
    for line in text.splitlines():
        if line.startswith("#### "):
            sec = line[5:].split(" ")[0].rstrip(",")
            out[sec] = []
            continue
        m = re.match(r"\| `([a-z0-9_]+)` \| ([a-z ]+) \| [^|]* \| (.*) \|$", line)
        if m and sec:
            meaning = m.group(3)
            out[sec].append((m.group(1), m.group(2).split(),
                             {"nocsv": "not in CSV" in meaning,
                              "optional": "only when set" in meaning,
                              "top": "JSON: top-level" in meaning,
                              "list": "'|'-separated" in meaning}))
    return out


def names(fields, row=None, csv=False, drop_optional_of=None):
    r = []
    for name, rows, fl in fields:
        if row and row not in rows:
            continue
        if csv and fl["nocsv"]:
            continue
        if drop_optional_of is not None and fl["optional"] and name not in drop_optional_of:
            continue
        r.append(name)
    if csv:
        lists = [n for n, _, fl in fields if fl["list"] and n in r]
        r = [n for n in r if n not in lists] + lists
    return r


def main():
    tool, doc, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    p = run(tool, ["--fields"])
    check("--fields exits 0", p.returncode == 0, p.stderr)
    table = p.stdout
    text = open(doc, encoding="utf-8").read()
    m = re.search(r"<!-- fields:begin[^>]*-->\n(.*?)<!-- fields:end -->", text, re.S)
    check("docs/gpu-latency.md has the field list", m is not None)
    if m:
        check("docs/gpu-latency.md field list == --fields (regenerate it)",
              m.group(1) == table, "first difference near: " + next(
                  (a + " | " + b for a, b in zip(m.group(1).splitlines(), table.splitlines())
                   if a != b), "(length)"))
    f = parse_fields(table)
    for sec in ("trace", "ring", "summary", "job", "dep", "stall", "depwait"):
        check(f"section {sec} has fields", bool(f.get(sec)))
    metrics = ["wait", "hw_queue", "exec", "total", "dep_wait"]

    for trace in traces:
        p = run(tool, ["--json", "--jobs", "-q", trace])
        check(f"{trace}: --json --jobs exits 0", p.returncode == 0, p.stderr)
        if p.returncode:
            continue
        d = json.loads(p.stdout)
        top = [n for n, _, fl in f["trace"] if fl["top"]]
        counts = [n for n, _, fl in f["trace"] if not fl["top"] and
                  (not fl["optional"] or n in d["counts"])]
        check(f"{trace}: top-level trace fields", all(n in d for n in top),
              [n for n in top if n not in d])
        check(f"{trace}: counts == trace fields", list(d["counts"]) == counts,
              f"{list(d['counts'])} != {counts}")
        for key, row in (("rings", "ring"), ("processes", "process"), ("clients", "client"),
                         ("devices", "device")):
            for g in d[key]:
                want = names(f["ring"], row, drop_optional_of=g) + metrics
                check(f"{trace}: {key} members == {row} fields", list(g) == want,
                      f"{list(g)} != {want}")
                for mname in metrics:
                    check(f"{trace}: {key} {mname} == summary fields",
                          list(g[mname]) == names(f["summary"]))
                break
        jobs = d["worst"] + d["incomplete"] + d["jobs"]
        check(f"{trace}: has jobs", bool(jobs))
        bad = [list(j) for j in jobs if list(j) != names(f["job"], drop_optional_of=j)]
        check(f"{trace}: job members == job fields", not bad, bad[:1])
        deps = [x for j in jobs for x in j["deps"]]
        check(f"{trace}: dep members == dep fields",
              all(list(x) == names(f["dep"]) for x in deps))
        for key, sec in (("stalls", "stall"), ("depwaits", "depwait")):
            check(f"{trace}: {key} members == {sec} fields",
                  all(list(x) == names(f[sec]) for x in d[key]))

        # the diagnosis' counts: in "counts" with --explain / --fence-path only
        p = run(tool, ["--json", "--explain", "--fence-path", "-q", trace])
        dc = json.loads(p.stdout)["counts"] if p.returncode == 0 else {}
        diag = ["gpu_irq_source", "done_in_gpu_irq", "done_events", "stall_explanations_dropped"]
        check(f"{trace}: --explain adds the diagnosis counts",
              all(n in dc for n in diag) and not any(n in d["counts"] for n in diag),
              [n for n in diag if n not in dc])
        check(f"{trace}: --explain counts == trace fields",
              list(dc) == [n for n, _, fl in f["trace"] if not fl["top"] and
                           (not fl["optional"] or n in dc)], list(dc))

        p = run(tool, ["--csv", "-q", trace])
        want = ",".join(["group"] + names(f["ring"], csv=True) + ["metric"] +
                        names(f["summary"], csv=True))
        check(f"{trace}: CSV header == group + summary fields",
              p.stdout.splitlines()[0] == want, f"{p.stdout.splitlines()[0]} != {want}")
        p = run(tool, ["--csv", "--jobs", "-q", trace])
        want = ",".join(names(f["job"], csv=True))
        check(f"{trace}: --csv --jobs header == job fields",
              p.stdout.splitlines()[0] == want, f"{p.stdout.splitlines()[0]} != {want}")

    return finish()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""GPU job latency from `trace-cmd report` text: what a user does without us.

    trace-cmd report -t trace.dat | python3 report_to_latency.py [--json]

Reads the report on stdin (the stock event formats, no gpu-sched-trace plugin;
-t gives ns timestamps, without it they are us), links the gpu_scheduler
events of a job and prints per ring the nearest-rank percentiles of

    wait = run - queue            exec = done - max(run, previous done on the ring)

the same definitions as `trace-cmd gpu-latency` (docs/truth-format.md).
Kernel eras: 5.7-6.16 (drm_sched_job / drm_run_job / drm_sched_process_job,
linked by the finished-fence pointer, the most recent open job holding it) and
6.17+ (drm_sched_job_queue / _run / _done, linked by fence context:seqno).
Python 3 standard library only; written the way a performance engineer would
write it in an afternoon (one pass, a substring test to skip most lines).
"""
import json
import math
import sys

QUANTILES = (0.5, 0.9, 0.99)


def ts_ns(s):
    sec, _, frac = s.partition(".")
    return int(sec) * 1000000000 + int((frac + "000000000")[:9])


def fields(text):
    """'a=1, b=x, job count:0' -> {'a': '1', 'b': 'x'} (only k=v pairs)"""
    out = {}
    for part in text.split(", "):
        k, eq, v = part.partition("=")
        if eq:
            out[k.strip()] = v.strip()
    return out


def quantile(sorted_vals, p):
    return sorted_vals[max(0, math.ceil(p * len(sorted_vals)) - 1)]


def main():
    as_json = "--json" in sys.argv[1:]
    open_jobs = {}      # link key -> [ring, queue_ts, run_ts]
    last_done = {}      # ring -> done ts of the previous job
    waits = {}          # ring -> [ns]
    execs = {}
    for line in sys.stdin:
        if "drm_" not in line:
            continue
        # "   comm-pid   [cpu]  ts: event:   fields"
        try:
            head, _, rest = line.partition("] ")
            tstr, _, rest = rest.strip().partition(": ")
            event, _, args = rest.partition(":")
        except ValueError:
            continue
        args = args.strip()
        if event in ("drm_sched_job", "drm_sched_job_queue"):
            f = fields(args)
            ring = f.get("ring")
            if "dev" in f:
                ring = f["dev"] + "/" + ring
            open_jobs[f["fence"]] = [ring, ts_ns(tstr), None]
        elif event in ("drm_run_job", "drm_sched_job_run"):
            job = open_jobs.get(fields(args).get("fence"))
            if job is not None and job[2] is None:
                job[2] = ts_ns(tstr)
        elif event in ("drm_sched_process_job", "drm_sched_job_done"):
            fence = args.split()[0].partition("=")[2]
            job = open_jobs.pop(fence, None)
            if job is None or job[2] is None:
                continue
            ring, queue, run = job
            done = ts_ns(tstr)
            start = max(run, last_done.get(ring, 0))
            last_done[ring] = done
            waits.setdefault(ring, []).append(run - queue)
            execs.setdefault(ring, []).append(done - start)

    rings = {}
    for ring in sorted(waits):
        entry = {"jobs": len(waits[ring])}
        for name, vals in (("wait", waits[ring]), ("exec", execs[ring])):
            vals.sort()
            entry[name] = {"p%g" % (q * 100): quantile(vals, q) for q in QUANTILES}
            entry[name]["max"] = vals[-1]
        rings[ring] = entry
    if as_json:
        json.dump({"rings": rings, "open_at_end": len(open_jobs)}, sys.stdout, indent=1)
        print()
        return
    print("%-24s %8s %-5s %10s %10s %10s %10s" %
          ("ring", "jobs", "", "p50 us", "p90 us", "p99 us", "max us"))
    for ring, e in rings.items():
        for name in ("wait", "exec"):
            m = e[name]
            print("%-24s %8s %-5s %10.1f %10.1f %10.1f %10.1f" %
                  (ring if name == "wait" else "", e["jobs"] if name == "wait" else "",
                   name, m["p50"] / 1e3, m["p90"] / 1e3, m["p99"] / 1e3, m["max"] / 1e3))
    print("jobs still open at end of trace: %d" % len(open_jobs))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Decode `trace-cmd gpu-latency --perfetto` exports and check them against the truth.

usage: check_perfetto.py [--full] TOOL PROTOC PROTO WORKDIR TRACE.dat TRACE.truth.json [TRACE-CMD]

--full adds the --perfetto-sched and filter exports (a few traces get them,
to keep the default suite fast).

The export is decoded with python3-protobuf, from a module protoc generates
here from the project's proto/perfetto_subset.proto (the same schema the C
exporter is generated from; its field numbers are Perfetto's). Checked
against the generator's truth file (docs/truth-format.md), never against the
tool's own report:
  - the trace: one sequence, interned names first, every track event on a
    declared track, slices properly nested on every track
  - one ring track per (device, ring) under one GPU track per device, named
    as the report names rings; nothing merged, nothing doubled
  - every job exactly once, on a lane of its ring: begin/end and the
    wait / hw_queue / exec slices to the nanosecond (only the stages the
    trace holds for jobs that did not complete)
  - every job with a queue event: a "submit" instant on its process track
    (pid of the truth) with a flow into the job slice
  - every dependency on a traced job: a flow from an instant at the
    producer's done on the producer ring's "signals" track to the waiting
    job at its run (at its queue before Linux 5.7)
  - ring depth counters: the largest value is the truth's max_depth
  - late frames (frames-* samples): per client and CRTC as many instants as
    the truth's late frames, with its missed vblanks; per CRTC one "vblank"
    instant per vblank at the truth's instant, with its count
  - with TRACE-CMD: --perfetto-sched holds every sched_switch of the trace
    (as counted by `trace-cmd report`), time ordered per CPU
  - filters: --ring and --start/--end keep exactly the truth's matching jobs
Exit 0 when everything matches, 1 with a list of the differences.
"""
import collections
import importlib
import json
import os
import subprocess
import sys

MAX_REPORTED = 40


class Diff:
    def __init__(self):
        self.items = []
        self.checked = 0

    def ok(self, cond, what):
        self.checked += 1
        if not cond:
            self.items.append(what)

    def eq(self, what, ours, truth):
        self.ok(ours == truth, f"{what}: export {ours!r}, truth {truth!r}")


def load_schema(protoc, proto, work):
    out = os.path.join(work, "py")
    os.makedirs(out, exist_ok=True)
    inc = os.path.dirname(os.path.abspath(proto))
    p = subprocess.run([protoc, "--python_out=" + out, "-I" + inc, os.path.abspath(proto)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"check_perfetto: protoc failed: {p.stderr.strip()}")
    sys.path.insert(0, out)
    name = os.path.splitext(os.path.basename(proto))[0] + "_pb2"
    return importlib.import_module(name)


def export(tool, trace, out, extra=()):
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run([tool, "-q", "--perfetto", out] + list(extra) + [trace],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"check_perfetto: {tool} failed ({p.returncode}): {p.stderr.strip()}")
    leftovers = [f for f in os.listdir(os.path.dirname(out) or ".")
                 if f.startswith(os.path.basename(out) + ".tmp")]
    if leftovers:
        sys.exit(f"check_perfetto: temporary files left behind: {leftovers}")
    with open(out, "rb") as f:
        return f.read()


class Slice:
    def __init__(self, track, name, ts, args, flows, term, depth, parent):
        self.track = track
        self.name = name
        self.ts = ts
        self.end = None
        self.args = args
        self.flows = flows
        self.term = term
        self.depth = depth
        self.parent = parent
        self.children = []


class Model:
    """The export as Perfetto would read it: tracks, slices, instants, counters."""

    def __init__(self, pb, data, d):
        trace = pb.Trace.FromString(data)
        P = pb.TracePacket
        pk = list(trace.packet)
        d.ok(len(pk) > 0, "the export holds no packet")
        first = pk[0]
        d.ok(first.HasField("interned_data") and
             first.sequence_flags & P.SEQ_INCREMENTAL_STATE_CLEARED,
             "the first packet must clear the sequence state and carry the interned names")
        self.names = {e.iid: e.name for e in first.interned_data.event_names}
        self.argnames = {a.iid: a.name for a in first.interned_data.debug_annotation_names}
        seqs = {p.trusted_packet_sequence_id for p in pk}
        d.eq("trusted_packet_sequence_ids", seqs, {seqs and min(seqs)})
        self.tracks = {}
        self.bundles = []
        events = []
        for i, p in enumerate(pk):
            kind = p.WhichOneof("data")
            if kind == "track_descriptor":
                t = p.track_descriptor
                d.ok(t.uuid not in self.tracks, f"track {t.uuid} declared twice")
                self.tracks[t.uuid] = t
            elif kind == "track_event":
                uses = p.track_event.HasField("name_iid") or any(
                    a.HasField("name_iid") for a in p.track_event.debug_annotations)
                if uses:
                    d.ok(p.sequence_flags & P.SEQ_NEEDS_INCREMENTAL_STATE,
                         f"packet {i} uses interned names without SEQ_NEEDS_INCREMENTAL_STATE")
                events.append((p.timestamp, i, p.track_event))
            elif kind == "ftrace_events":
                self.bundles.append(p.ftrace_events)
        self.children = collections.defaultdict(list)
        for t in self.tracks.values():
            if t.HasField("parent_uuid"):
                d.ok(t.parent_uuid in self.tracks, f"track {t.name}: parent not declared")
                self.children[t.parent_uuid].append(t)
        # Perfetto sorts by timestamp, ties in file order (trace_sorter.h)
        events.sort(key=lambda e: (e[0], e[1]))
        TE = pb.TrackEvent
        stacks = collections.defaultdict(list)
        self.slices = collections.defaultdict(list)     # track -> top-level slices
        self.all_slices = []
        self.instants = collections.defaultdict(list)
        self.counters = collections.defaultdict(list)
        for ts, i, e in events:
            d.ok(e.track_uuid in self.tracks, f"event on undeclared track {e.track_uuid}")
            name = self.names.get(e.name_iid) if e.HasField("name_iid") else e.name
            args = {}
            for a in e.debug_annotations:
                an = self.argnames.get(a.name_iid) if a.HasField("name_iid") else a.name
                args[an] = getattr(a, a.WhichOneof("value"))
            st = stacks[e.track_uuid]
            if e.type in (TE.TYPE_SLICE_BEGIN, TE.TYPE_INSTANT):
                s = Slice(e.track_uuid, name, ts, args, list(e.flow_ids),
                          list(e.terminating_flow_ids), len(st), st[-1] if st else None)
                if s.parent:
                    s.parent.children.append(s)
                else:
                    self.slices[e.track_uuid].append(s)
                self.all_slices.append(s)
                if e.type == TE.TYPE_SLICE_BEGIN:
                    st.append(s)
                else:
                    s.end = ts
                    self.instants[e.track_uuid].append(s)
            elif e.type == TE.TYPE_SLICE_END:
                d.ok(bool(st), f"slice end at {ts} on track {e.track_uuid} without a begin")
                if st:
                    st.pop().end = ts
            elif e.type == TE.TYPE_COUNTER:
                self.counters[e.track_uuid].append((ts, e.counter_value))
        for u, st in stacks.items():
            d.ok(not st, f"{len(st)} slices never end on track {self.tracks[u].name}")
        # flows: id -> [(slice, terminating)], in time order
        self.flows = collections.defaultdict(list)
        for s in self.all_slices:
            for f in s.flows:
                self.flows[f].append(s)
            for f in s.term:
                self.flows[f].append(s)

    def named_children(self, uuid, name):
        return [t for t in self.children[uuid] if t.name == name]


def shown_rings(truth):
    """Before 5.19 the trace holds only the address of a ring's name
    (ring_label); every front end names the ring after its drm_sched fence
    timelines (the generator's ring) when dma_fence events were recorded."""
    if truth.get("options", {}).get("dma_fence"):
        for x in truth["jobs"] + truth["rings"]:
            x["ring_label"] = x["ring"]


def ring_name(dev, label):
    return f"{dev}/{label}" if dev else label


# Before 5.19 a ring is traced as the address of its name: the truth has both
# the name ("ring") and what the trace holds ("ring_label"). The export names
# a ring as the report does, by one of them for all its rings (which one is
# the report's choice, lib/ringname): found once per export, then every
# ring, job and flow is checked against that spelling.
RING_KEY = "ring_label"


def rkey(j):
    return (j["dev"] or "", ring_name(j["dev"], j[RING_KEY]))


def job_begin(t):
    for k in ("queue_ts", "run_ts", "start_ts", "done_ts"):
        if t.get(k) is not None and (k == "start_ts" or k[:-3] not in (t.get("lost_stages") or [])):
            return t[k]
    return None


def check_export(pb, data, truth, d, jobs=None):
    """Check one export; @jobs: the truth jobs it must hold (default: all)."""
    m = Model(pb, data, d)
    jobs = truth["jobs"] if jobs is None else jobs
    lost_rings = None

    # GPUs and rings
    gpus = {t.uuid: t for t in m.tracks.values()
            if not t.HasField("parent_uuid") and t.name.startswith("GPU")}
    want_devs = {j["dev"] or "" for j in jobs}
    got_devs = collections.Counter(t.name[4:] if t.name != "GPU" else "" for t in gpus.values())
    for dev in want_devs:
        d.eq(f"GPU tracks for device {dev!r}", got_devs.get(dev, 0), 1)
    rings = {}
    for g in gpus.values():
        dev = g.name[4:] if g.name != "GPU" else ""
        for t in m.children[g.uuid]:
            key = (dev, t.name)
            d.ok(key not in rings, f"ring track {key} twice")
            rings[key] = t
    global RING_KEY
    for k in ("ring_label", "ring"):
        RING_KEY = k
        if {rkey(j) for j in jobs} == set(rings):
            break
    else:
        RING_KEY = "ring_label"
    want_rings = {rkey(j) for j in jobs}
    d.eq("ring tracks (device, ring)", sorted(rings), sorted(want_rings))

    # jobs on the lanes of their ring
    by_ring = {}
    for key, t in rings.items():
        lanes = m.named_children(t.uuid, t.name)
        by_ring[key] = [s for ln in lanes for s in m.slices[ln.uuid] if s.end is not None
                        and s.name not in ("dep",)]
    total = sum(len(v) for v in by_ring.values())
    d.eq("job slices", total, len(jobs))
    index = {}
    for key, sl in by_ring.items():
        for s in sl:
            index.setdefault((key, s.ts), []).append(s)
    found = {}
    for t in jobs:
        key = rkey(t)
        b = job_begin(t)
        cand = [s for s in index.get((key, b), []) if id(s) not in found]
        name = f"job {t['index']} ({key[1]} queue {t.get('queue_ts')})"
        if not cand:
            d.items.append(f"{name}: no job slice begins at {b} on its ring")
            continue
        if t.get("fence_ctx") is not None and truth["era"] == "6.17+":
            cand = [s for s in cand if s.name.endswith(f" {t['fence_ctx']}:{t['fence_seqno']}")]
            if not cand:
                d.items.append(f"{name}: no slice named ... {t['fence_ctx']}:{t['fence_seqno']}")
                continue
        s = cand[0]
        found[id(s)] = t
        found[t["index"]] = s
        lost = set(t.get("lost_stages") or [])
        if "queue" not in lost and t.get("comm"):
            d.ok(s.name.startswith(t["comm"] + " "), f"{name}: slice name {s.name!r}")
        if t.get("id") is not None:
            d.eq(f"{name} id", s.args.get("id"), t["id"])
        if t["status"] == "complete":
            d.eq(f"{name} end", s.end, t["done_ts"])
        stages = {c.name: c for c in s.children if c.end is not None and c.ts != c.end or
                  c.name in ("wait", "hw_queue", "exec")}
        want = []
        q, r, st, dn = (t.get(k) for k in ("queue_ts", "run_ts", "start_ts", "done_ts"))
        if "queue" in lost:
            q = None
        if "run" in lost:
            r = None
        if "done" in lost or t["status"] != "complete":
            st = dn = None
        # a stage of 0 ns is no slice
        if q is not None and r is not None and r > q:
            want.append(("wait", q, r))
        if r is not None and st is not None and st > r:
            want.append(("hw_queue", r, st))
        if st is not None and dn is not None and dn > st:
            want.append(("exec", st, dn))
        for nm, b0, e0 in want:
            c = stages.get(nm)
            if c is None:
                d.items.append(f"{name}: no {nm} slice")
                continue
            d.eq(f"{name} {nm}", (c.ts, c.end), (b0, e0))
        if t["status"] == "complete":
            d.eq(f"{name} stages", sorted(c for c in stages
                                          if c in ("wait", "hw_queue", "exec")),
                 sorted(w[0] for w in want))

    # submissions: an instant on the process track, flowing into the job
    procs = {t.uuid: t for t in m.tracks.values() if t.HasField("process")}
    for t in jobs:
        s = found.get(t["index"])
        if s is None or t.get("queue_ts") is None or "queue" in (t.get("lost_stages") or []):
            continue
        name = f"job {t['index']} submit"
        srcs = [x for f in s.term for x in m.flows[f] if x is not s]
        ok = [x for x in srcs if x.track in procs and x.name == "submit" and x.ts == t["queue_ts"]
              and procs[x.track].process.pid == t["pid"]]
        d.ok(len(ok) == 1, f"{name}: {len(ok)} submit instants of pid {t['pid']} at "
             f"{t['queue_ts']} flow into the job")

    # dependencies: producer's done (signals track) -> waiter at run
    by_index = {t["index"]: t for t in truth["jobs"]}
    want_idx = {t["index"] for t in jobs}
    for t in jobs:
        s = found.get(t["index"])
        if s is None:
            continue
        for dep in t.get("deps") or []:
            pi = dep.get("job_index")
            if pi is None or pi not in want_idx:
                continue
            p = by_index[pi]
            # a scheduled fence (6.17+) signals at its job's run, not its done
            sig_at = p.get("run_ts") if dep.get("scheduled") else p.get("done_ts")
            if sig_at is None:
                continue
            pkey = rkey(p)
            sig = rings.get(pkey)
            sig_tracks = {x.uuid for x in m.named_children(sig.uuid, "signals")} if sig else set()
            at = t.get("run_ts") if t.get("run_ts") is not None else job_begin(t)
            ends = [s] + [c for c in s.children]
            hits = 0
            for e in ends:
                if e.ts != at:
                    continue
                for f in e.term:
                    for x in m.flows[f]:
                        if x.track in sig_tracks and x.ts == sig_at and f in x.flows:
                            hits += 1
            d.ok(hits == 1, f"job {t['index']}: {hits} flows from job {pi}'s "
                 f"{'run' if dep.get('scheduled') else 'done'} ({sig_at}, {pkey[1]}) to its "
                 f"run ({at}), want 1")

    # ring depth
    for key, t in rings.items():
        dep = m.named_children(t.uuid, "depth")
        d.eq(f"ring {key[1]} depth tracks", len(dep), 1)
        if lost_rings is None:
            lost_rings = {rkey(j) for j in truth["jobs"] if j.get("lost_stages")}
        if not dep or key in lost_rings:
            continue
        tr = [r for r in truth["rings"] if rkey(r) == key]
        vals = [v for _, v in m.counters[dep[0].uuid]]
        if tr and jobs is truth["jobs"]:
            d.eq(f"ring {key[1]} max depth", max(vals) if vals else 0, tr[0]["max_depth"])
        d.ok(all(v >= 0 for v in vals), f"ring {key[1]}: negative depth")

    # late frames (--frames' analysis): one instant per late frame of each
    # client (the first 32 are kept) on Display / "crtc N late frames"
    fr = truth.get("frames")
    if fr and jobs is truth["jobs"]:
        disp = [t for t in m.tracks.values() if not t.HasField("parent_uuid")
                and t.name == "Display"]
        d.eq("Display tracks", len(disp), 1 if fr["crtcs"] else 0)
        # vblank ticks: one instant per vblank at the instant --frames uses
        # (the generator's hardware time, or the record timestamp)
        for c in fr["crtcs"]:
            if "vblank_ts" not in c:
                continue
            tr = [t for g in disp for t in m.named_children(g.uuid, f"crtc {c['crtc']} vblanks")]
            got = [x for t in tr for x in m.instants[t.uuid] if x.name == "vblank"]
            d.eq(f"crtc {c['crtc']} vblank ticks", [x.ts for x in got], c["vblank_ts"])
            d.eq(f"crtc {c['crtc']} vblank counts", [x.args.get("vblank_seq") for x in got],
                 list(range(c["first_seq"], c["first_seq"] + len(c["vblank_ts"]))))
        for c in fr["clients"]:
            tr = [t for g in disp for t in m.named_children(g.uuid, f"crtc {c['crtc']} late frames")]
            got = [x for t in tr for x in m.instants[t.uuid]
                   if x.name == f"late frame {c['comm']}-{c['pid']}"]
            d.eq(f"late frames of {c['comm']}-{c['pid']} on crtc {c['crtc']}", len(got),
                 min(c["late"], 32))
            d.eq(f"late frames of {c['comm']}-{c['pid']}: missed vblanks",
                 sum(x.args.get("missed_vblanks", 0) for x in got),
                 c["missed"] if c["late"] <= 32 else sum(x.args.get("missed_vblanks", 0)
                                                         for x in got))
    return m


def check_sched(m, trace_cmd, trace, d):
    n = 0
    last = {}
    for b in m.bundles:
        for e in b.event:
            if e.WhichOneof("event") == "sched_switch":
                n += 1
            d.ok(e.timestamp >= last.get(b.cpu, 0), f"cpu {b.cpu}: sched events out of order")
            last[b.cpu] = e.timestamp
    p = subprocess.run([trace_cmd, "report", "-F", "sched/sched_switch", trace],
                       capture_output=True, text=True)
    if p.returncode != 0:
        d.items.append(f"trace-cmd report failed: {p.stderr.strip()[-200:]}")
        return
    want = sum(1 for ln in p.stdout.splitlines() if " sched_switch:" in ln)
    d.eq("sched_switch events", n, want)


def main():
    argv = sys.argv[1:]
    full = bool(argv) and argv[0] == "--full"
    if full:
        argv = argv[1:]
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    tool, protoc, proto, work, trace, truth_path = argv[:6]
    trace_cmd = argv[6] if len(argv) == 7 else None
    os.makedirs(work, exist_ok=True)
    pb = load_schema(protoc, proto, work)
    with open(truth_path) as f:
        truth = json.load(f)
    shown_rings(truth)
    d = Diff()
    out = os.path.join(work, os.path.basename(trace) + ".pftrace")

    m = check_export(pb, export(tool, trace, out), truth, d)

    d.eq("sched bundles without --perfetto-sched", len(m.bundles), 0)
    if not full:
        return report(d, truth)
    if trace_cmd:
        data = export(tool, trace, out, ["--perfetto-sched"])
        check_sched(check_export(pb, data, truth, d), trace_cmd, trace, d)

    # --ring: the first ring's jobs only, selected by what the trace holds
    # (the name, or the address before 5.19)
    ring = sorted({j["ring_label"] for j in truth["jobs"]})[0]
    jobs = [j for j in truth["jobs"] if j["ring_label"] == ring]
    if jobs:
        check_export(pb, export(tool, trace, out, ["--ring", ring]), truth, d, jobs)
    # --start/--end: the middle third, by first seen stage
    ts = sorted(job_begin(j) for j in truth["jobs"])
    lo, hi = ts[len(ts) // 3], ts[2 * len(ts) // 3]
    jobs = [j for j in truth["jobs"] if lo <= job_begin(j) <= hi]
    check_export(pb, export(tool, trace, out, ["--start", "%d.%09d" % divmod(lo, 10**9),
                                               "--end", "%d.%09d" % divmod(hi, 10**9)]),
                 truth, d, jobs)
    return report(d, truth)


def report(d, truth):
    if d.items:
        print(f"{len(d.items)} differences ({d.checked} checks):")
        for it in d.items[:MAX_REPORTED]:
            print("  " + it)
        if len(d.items) > MAX_REPORTED:
            print(f"  ... {len(d.items) - MAX_REPORTED} more")
        return 1
    print(f"ok: {d.checked} checks, {len(truth['jobs'])} jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())

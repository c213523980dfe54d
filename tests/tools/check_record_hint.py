#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""The recommended `trace-cmd record` lines are one text (lib/hint.c,
gpulat_record_hint()): the error for a log without GPU events is one line plus
that text, --help ends with it, and the README, the man page (source and as
man renders it) and the docs show it unchanged.

The `--frames:` line is gpulat_record_frames(): with --frames-doc DOC and
--no-vblank TRACE, DOC shows that text on a line of its own and `--frames` on
TRACE (GPU events, no vblank event) prints it.

usage: check_record_hint.py TOOL WORKDIR README MANPAGE [DOC...]
                            [--frames-doc DOC --no-vblank TRACE]
"""
import os
import re
import shutil
import subprocess
import sys

failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def man_source_text(page):
    """the page's text with the roff escapes the hint needs undone"""
    with open(page) as f:
        src = f.read()
    return src.replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\")


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    args = sys.argv[1:]
    frames_doc = no_vblank = None
    if "--frames-doc" in args:
        i = args.index("--frames-doc")
        frames_doc = args[i + 1]
        del args[i:i + 2]
    if "--no-vblank" in args:
        i = args.index("--no-vblank")
        no_vblank = args[i + 1]
        del args[i:i + 2]
    tool, work, readme, man = args[0:4]
    docs = args[4:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    log = os.path.join(work, "sched-only.txt")
    with open(log, "w") as f:
        f.write("# tracer: nop\n#\n"
                "          <idle>-0       [001] d..2.   100.000001: sched_switch: "
                "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> "
                "next_comm=Xorg next_pid=1234 next_prio=120\n")

    p = subprocess.run([tool, log], capture_output=True, text=True, timeout=60)
    first, _, hint = p.stderr.partition("\n")
    if p.returncode != 1 or p.stdout:
        fail(f"no-GPU log: exit {p.returncode}, {len(p.stdout)} bytes on stdout")
    if not re.match(r"trace-cmd gpu-latency: .*sched-only\.txt: no GPU scheduler events", first):
        fail(f"no-GPU log: first line {first!r}")
    lines = hint.splitlines()
    # the hint: indented lines, record lines for each era, nothing else
    if len(lines) < 5 or any(not ln.startswith("  ") for ln in lines):
        fail(f"the error is not one line plus the indented hint: {p.stderr!r}")
    for want in ("Linux 6.17+:", "Linux 5.7-6.16:", "Linux 4.16-5.6:", "any era:",
                 "trace-cmd record -e gpu_scheduler -e dma_fence COMMAND", "--frames:"):
        if want not in hint:
            fail(f"the hint lacks {want!r}")

    h = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=60)
    if h.returncode != 0 or hint not in h.stdout:
        fail("--help does not show the hint unchanged")

    with open(readme) as f:
        text = f.read()
    if "```\n" + hint + "```\n" not in text:
        fail(f"{readme}: no code block with the hint unchanged")
    for doc in docs:
        with open(doc) as f:
            if hint not in f.read():
                fail(f"{doc}: does not show the hint unchanged")

    if ".nf\n" + hint + ".fi\n" not in man_source_text(man):
        fail(f"{man}: no .nf block with the hint unchanged")
    if shutil.which("man"):
        env = dict(os.environ, MANWIDTH="1000", MANPAGER="cat", PAGER="cat", LC_ALL="C.UTF-8")
        r = subprocess.run(["man", "-l", man], capture_output=True, text=True, env=env,
                           timeout=60)
        shown = {ln.strip() for ln in r.stdout.splitlines()}
        for ln in lines:
            if ln.strip() not in shown:
                fail(f"{man} as man renders it lacks the line {ln.strip()!r}")

    # the --frames line: "add " + gpulat_record_frames()
    frames_add = [ln.split("--frames:", 1)[1].strip() for ln in lines if "--frames:" in ln]
    frames_rec = frames_add[0][4:] if frames_add and frames_add[0].startswith("add ") else None
    if not frames_rec or "drm:drm_vblank_event" not in frames_rec or "-C mono" not in frames_rec:
        fail(f"the --frames line is not 'add <the drm vblank events>': {frames_add!r}")
    if frames_rec and frames_doc:
        with open(frames_doc) as f:
            if frames_rec not in (ln.strip() for ln in f.read().splitlines()):
                fail(f"{frames_doc}: no line with the --frames record text {frames_rec!r}")
    if frames_rec and no_vblank:
        r = subprocess.run([tool, "--frames", no_vblank], capture_output=True, text=True,
                           timeout=60)
        if r.returncode != 0 or f"record with {frames_rec}" not in r.stdout:
            fail(f"--frames on {no_vblank}: exit {r.returncode}, the record text not shown: "
                 f"{r.stdout[:300]!r}")

    if failures:
        return 1
    print(f"record hint: one text in the error, --help, {readme}, {man} "
          f"and {len(docs)} doc(s) ({len(lines)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""The `trace-cmd` front: `trace-cmd gpu-latency` reaches our tool, every other
word reaches the real trace-cmd with the arguments unchanged, and the front
never recurses (itself or another front on PATH).

usage: test_front.py FRONT TOOL TRACE WORKDIR

FRONT is the built front (build/tools/trace-cmd, next to TOOL). Exit 77 (skip)
when no real trace-cmd is installed.
"""
import os
import shutil
import subprocess
import sys

from tcheck import check, finish


def run(argv, path, env_extra=None, cwd=None):
    env = dict(os.environ)
    env["PATH"] = path
    env.pop("GST_TRACE_CMD_FRONTS", None)
    if env_extra:
        env.update(env_extra)
    return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=30)


def find_real(front):
    me = os.path.realpath(front)
    for d in os.environ.get("PATH", "").split(":") + ["/usr/bin", "/usr/local/bin"]:
        c = os.path.join(d or ".", "trace-cmd")
        if os.access(c, os.X_OK) and os.path.realpath(c) != me:
            return c
    return None


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    front, tool, trace, work = (os.path.abspath(a) for a in sys.argv[1:])
    real = find_real(front)
    if not real:
        print("SKIP: no real trace-cmd installed")
        return 77
    real_dir = os.path.dirname(real)
    front_dir = os.path.dirname(front)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base_path = f"{real_dir}:/usr/bin:/bin"

    # 1. the word gpu-latency reaches our tool (found next to the front)
    path = f"{front_dir}:{base_path}"
    a = run(["trace-cmd", "gpu-latency", "-q", trace], path)
    b = run([tool, "-q", trace], path)
    check("trace-cmd gpu-latency = trace-cmd-gpu-latency (report)",
          a.returncode == 0 and a.stdout == b.stdout and a.stdout,
          f"rc {a.returncode}: {a.stderr}")
    a = run(["trace-cmd", "gpu-latency", "--version"], path)
    check("trace-cmd gpu-latency --version", a.returncode == 0 and "gpu-latency" in a.stdout,
          a.stdout + a.stderr)
    a = run(["trace-cmd", "gpu-latency", "--fail-if", "p99.total>1ns", "-q", trace], path)
    check("exit status passes through (gate: 3)", a.returncode == 3, f"rc {a.returncode}")
    a = run(["trace-cmd", "help", "gpu-latency"], path)
    check("trace-cmd help gpu-latency", a.returncode == 0 and "--fail-if" in a.stdout,
          a.stdout[:200] + a.stderr)

    # 2. any other word reaches the real trace-cmd, unchanged
    for args in (["version"], ["report", "--help"], ["list", "-h"], [],
                 ["report", "-i", trace, "--cpu", "0"], ["no-such-command"]):
        a = run(["trace-cmd"] + args, path)
        r = run([real] + args, base_path)
        check(f"trace-cmd {' '.join(args) or '(no arguments)'} = real trace-cmd",
              a.returncode == r.returncode and a.stdout == r.stdout and a.stderr == r.stderr,
              f"front rc {a.returncode}, real rc {r.returncode}\n"
              f"front: {a.stdout[:200]}{a.stderr[:200]}\nreal: {r.stdout[:200]}{r.stderr[:200]}")

    # 3. a word whose trace-cmd-WORD is on PATH (not next to the front) is run too
    extra = os.path.join(work, "extra")
    os.makedirs(extra)
    script = os.path.join(extra, "trace-cmd-hello")
    with open(script, "w") as f:
        f.write("#!/bin/sh\necho \"hello $*\"\n")
    os.chmod(script, 0o755)
    a = run(["trace-cmd", "hello", "a b", "c"], f"{front_dir}:{extra}:{base_path}")
    check("trace-cmd WORD runs trace-cmd-WORD from PATH with its arguments",
          a.returncode == 0 and a.stdout == "hello a b c\n", a.stdout + a.stderr)

    # 4. no recursion: the front on PATH twice, a second front copy, a symlink
    dup = os.path.join(work, "dup")
    os.makedirs(dup)
    shutil.copy2(front, os.path.join(dup, "trace-cmd"))
    link = os.path.join(work, "link")
    os.makedirs(link)
    os.symlink(front, os.path.join(link, "trace-cmd"))
    r = run([real, "version"], base_path)
    for name, p in (("front twice on PATH", f"{front_dir}:{front_dir}:{base_path}"),
                    ("two different fronts on PATH", f"{front_dir}:{dup}:{base_path}"),
                    ("two fronts, reversed", f"{dup}:{front_dir}:{base_path}"),
                    ("symlinked front + front", f"{link}:{front_dir}:{dup}:{base_path}")):
        try:
            a = run(["trace-cmd", "version"], p)
            ok = a.returncode == r.returncode and a.stdout == r.stdout
            detail = a.stdout[:200] + a.stderr[:200]
        except subprocess.TimeoutExpired:
            ok, detail = False, "timed out (recursion?)"
        check(f"no recursion: {name}", ok, detail)

    # 5. the chain guard stops a runaway chain with an error, not a hang
    a = run(["trace-cmd", "version"], f"{front_dir}:{base_path}",
            {"GST_TRACE_CMD_FRONTS": ":".join(f"/x/front{i}" for i in range(16))})
    check("too many fronts: exit 127 with a message",
          a.returncode == 127 and "fronts" in a.stderr, f"rc {a.returncode} {a.stderr}")

    return finish("problem(s)")


if __name__ == "__main__":
    sys.exit(main())

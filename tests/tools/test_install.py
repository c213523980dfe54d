#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""`cmake --install --prefix P` gives a working `trace-cmd gpu-latency`: the tool in
bin/, the front in libexec/gpu-sched-trace/bin/ (and bin/ for a non-/usr prefix),
the man page (gzipped) in share/man/man1/. Installed with DESTDIR=WORKDIR/root and a prefix
other than the configured one: every file must land under WORKDIR/root/P (nothing
in the real /usr/local or /opt), and the front must find the tool from its own
location.

usage: test_install.py CMAKE BUILD_DIR WORKDIR TRACE
"""
import os
import shutil
import subprocess
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    cmake, build, work, trace = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    root = os.path.join(work, "root")
    final = "/opt/gpu-sched-trace-test"     # the prefix as installed; DESTDIR puts it in root
    prefix = root + final
    p = subprocess.run([cmake, "--install", build, "--prefix", final],
                       capture_output=True, text=True, env=dict(os.environ, DESTDIR=root))
    if p.returncode != 0:
        print(p.stdout[-2000:], p.stderr[-2000:])
        return 1
    problems = []
    with open(os.path.join(build, "install_manifest.txt")) as f:
        written = [line.strip() for line in f if line.strip()]
    if not written:
        problems.append("install_manifest.txt lists no files")
    # cmake lists the files without DESTDIR: each is under the new prefix, and landed
    # under DESTDIR (a destination fixed at configure time would not have)
    for w in written:
        if not w.startswith(final + "/") or not os.path.isfile(root + w):
            problems.append(f"installed outside DESTDIR/prefix: {w}")
    if os.path.exists(final):
        problems.append(f"{final} exists outside DESTDIR")
    for rel in ("bin/trace-cmd-gpu-latency", "libexec/gpu-sched-trace/bin/trace-cmd",
                "share/man/man1/trace-cmd-gpu-latency.1.gz"):
        if not os.path.exists(os.path.join(prefix, rel)):
            problems.append(f"not installed: {rel}")
    env = dict(os.environ)
    env.pop("GST_TRACE_CMD_FRONTS", None)
    env["PATH"] = (f"{prefix}/libexec/gpu-sched-trace/bin:{prefix}/bin:"
                   + os.environ.get("PATH", "/usr/bin:/bin"))
    a = subprocess.run(["trace-cmd", "gpu-latency", "-q", trace], capture_output=True,
                       text=True, env=env)
    b = subprocess.run([os.path.join(prefix, "bin/trace-cmd-gpu-latency"), "-q", trace],
                       capture_output=True, text=True, env=env)
    if a.returncode != 0 or a.stdout != b.stdout or not a.stdout:
        problems.append(f"installed trace-cmd gpu-latency: exit {a.returncode} {a.stderr}")
    page = os.path.join(prefix, "share/man/man1/trace-cmd-gpu-latency.1.gz")
    if shutil.which("man"):
        m = subprocess.run(["man", "-l", page], capture_output=True, text=True,
                           env=dict(env, MANPAGER="cat", PAGER="cat"))
        if "fail-if" not in m.stdout:
            problems.append("installed man page does not render")
    for pr in problems:
        print("FAIL: " + pr)
    if not problems:
        print(f"ok: installed to {prefix}; trace-cmd gpu-latency works from PATH")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

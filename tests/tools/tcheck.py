# SPDX-License-Identifier: LGPL-2.1
"""tcheck.py: what the tests/tools scripts share (import it; not a test).

    from tcheck import check, finish, run

    check(name, cond, detail="")  print "ok: NAME" or "FAIL: NAME" (and the
                                  detail indented below it); a failure is
                                  remembered
    run(tool, args, cwd=None)     the tool's CompletedProcess (text, 120 s)
    finish(what="check(s) failed")
                                  the exit code: 0, or 1 after printing how
                                  many checks failed ("N what")
    failures                      the names of the failed checks
"""
import subprocess

failures = []


def check(name, cond, detail=""):
    print(f"{'ok' if cond else 'FAIL'}: {name}")
    if not cond:
        if detail:
            print("      " + str(detail).replace("\n", "\n      ")[:2000])
        failures.append(name)
    return bool(cond)


def run(tool, args, cwd=None):
    return subprocess.run([tool] + args, capture_output=True, text=True, cwd=cwd, timeout=120)


def finish(what="check(s) failed"):
    if failures:
        print(f"{len(failures)} {what}")
        return 1
    return 0

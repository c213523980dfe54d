#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""mutate.py: write mutated copies of fuzz seeds, the same bytes on every machine.

    mutate.py --seed S --first K --count N --max-len L [--dict FILE] --out DIR SEEDS...

Input number i (K <= i < K + N) is made from random.Random(S * 1000003 + i) only:
one seed file (SEEDS: files or directories, in sorted order), 1 to 8 mutations
of the kinds libFuzzer uses (bit flips, bytes, interesting integers, ASCII
numbers, dictionary tokens, erased / duplicated / inserted ranges, splices with
another seed, truncation). The output does not depend on K, on N or on the
order of the calls, so `run-fuzz -r RUNS -s SEED` gives the same inputs on
every machine and in every batch size: CI's verdict cannot depend on
libFuzzer's coverage feedback, which is not reproducible here (FINDINGS.md,
"Counted runs"). Written to DIR/NNNNNNNN; one line per input in DIR/how.txt
says which seed it came from and which mutations were made.
"""
import argparse
import os
import random
import re
import sys

INTERESTING = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
               0x7fffffff, 0x80000000, 0xffffffff, 0x100000000,
               0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff]


def read_dict(path):
    """libFuzzer dictionary: one "token" per line, \\xNN \\\\ \\" escapes"""
    out = []
    if not path:
        return out
    with open(path, "rb") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith(b"#"):
                continue
            m = re.search(rb'"(.*)"\s*$', line)
            if not m:
                continue
            s, tok, i = m.group(1), bytearray(), 0
            while i < len(s):
                if s[i:i + 2] == b"\\x" and i + 4 <= len(s):
                    tok.append(int(s[i + 2:i + 4], 16))
                    i += 4
                elif s[i:i + 1] == b"\\" and i + 1 < len(s):
                    tok.append(s[i + 1])
                    i += 2
                else:
                    tok.append(s[i])
                    i += 1
            if tok:
                out.append(bytes(tok))
    return out


def seed_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, f) for f in sorted(os.listdir(p))
                      if os.path.isfile(os.path.join(p, f))]
        elif os.path.isfile(p):
            files.append(p)
    return files


def mutate_one(r, b, seeds, toks, maxlen):
    kinds = ["bit", "byte", "int", "ascii", "dict-insert", "dict-over", "erase",
             "dup", "insert", "splice", "truncate"]
    if not toks:
        kinds = [k for k in kinds if not k.startswith("dict")]
    k = r.choice(kinds)
    n = len(b)
    pos = r.randrange(n + 1) if n else 0
    if k == "bit" and n:
        i = r.randrange(n)
        b[i] ^= 1 << r.randrange(8)
    elif k == "byte" and n:
        b[r.randrange(n)] = r.randrange(256)
    elif k == "int" and n:
        w = r.choice([1, 2, 4, 8])
        v = r.choice(INTERESTING)
        if r.random() < 0.3:
            v = (v + r.choice([-1, 1])) % (1 << 64)
        v &= (1 << (8 * w)) - 1
        bs = v.to_bytes(w, r.choice(["little", "big"]))
        i = r.randrange(max(1, n - w + 1))
        b[i:i + w] = bs
    elif k == "ascii":
        digits = [m.span() for m in re.finditer(rb"[0-9]+", bytes(b))]
        if digits:
            s, e = r.choice(digits)
            v = r.choice([0, 1, -1, r.randrange(1 << 16), r.randrange(1 << 64),
                          (1 << 64) - 1, 1 << 63, r.randrange(100)])
            b[s:e] = str(v).encode()
    elif k == "dict-insert":
        b[pos:pos] = r.choice(toks)
    elif k == "dict-over" and n:
        t = r.choice(toks)
        b[pos:pos + len(t)] = t
    elif k == "erase" and n:
        ln = r.randrange(1, min(n, 512) + 1)
        del b[pos:pos + ln]
    elif k == "dup" and n:
        s = r.randrange(n)
        ln = r.randrange(1, min(n - s, 512) + 1)
        b[pos:pos] = b[s:s + ln]
    elif k == "insert":
        ln = r.randrange(1, 65)
        fill = r.choice([None, 0, 0xff, 0x20])
        b[pos:pos] = bytes(r.randrange(256) if fill is None else fill for _ in range(ln))
    elif k == "splice" and len(seeds) > 1:
        with open(r.choice(seeds), "rb") as fh:
            o = fh.read(maxlen)
        if o:
            s = r.randrange(len(o))
            ln = r.randrange(1, min(len(o) - s, 4096) + 1)
            if r.random() < 0.5:
                b[pos:pos] = o[s:s + ln]
            else:
                b[pos:pos + ln] = o[s:s + ln]
    elif k == "truncate" and n:
        del b[r.randrange(n):]
    if len(b) > maxlen:
        del b[maxlen:]
    return "%s@%d" % (k, pos)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--max-len", type=int, required=True)
    ap.add_argument("--dict")
    ap.add_argument("--out", required=True)
    ap.add_argument("seeds", nargs="+")
    a = ap.parse_args()
    seeds = seed_files(a.seeds)
    if not seeds:
        sys.exit("mutate.py: no seed files in %s" % a.seeds)
    toks = read_dict(a.dict)
    os.makedirs(a.out, exist_ok=True)
    log = open(os.path.join(a.out, "how.txt"), "w")
    for i in range(a.first, a.first + a.count):
        r = random.Random(a.seed * 1000003 + i)
        src = r.choice(seeds)
        with open(src, "rb") as fh:
            b = bytearray(fh.read(a.max_len))
        how = [mutate_one(r, b, seeds, toks, a.max_len) for _ in range(r.randrange(1, 9))]
        name = os.path.join(a.out, "%08d" % i)
        with open(name, "wb") as fh:
            fh.write(b)
        log.write("%08d %s %s\n" % (i, os.path.basename(src), " ".join(how)))
    log.close()


if __name__ == "__main__":
    main()

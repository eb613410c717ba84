#!/usr/bin/env python3
"""Writes kernels/micro/shared_random.json and shared_random.bin: random single-instruction
shared-memory patterns for shared_random.cu (issue 10: the two truths of shared wavefronts).

Every launch is one warp (1 block x 32 threads) running exactly one LDS or STS; its 32 byte
offsets and its active-lane mask are row `pattern` of the table in shared_random.bin (33
little-endian u32 per row: offsets of lanes 0-31, then the mask), so one kernel per (op, width)
serves every pattern. The generator is seeded (SEED below): the same files come out on every run.

Families (each with a random mask from MASKS): random offsets in a window, strides, broadcasts,
a few distinct addresses spread over the lanes by a lane function (lane & ~bits, lane >> k,
lane % m, a random table), lane-pair structures (lane n and n^x share an address) and permuted
contiguous blocks. Widths 8 and 16 get most patterns (the source-view rule differs there).
A launch's description names its family, mask and table row.

Run: python3 kernels/micro/make_shared_random.py [--seed N] [--count-scale F] [--prefix NAME]"""
import argparse
import json
import os
import random
import struct

SHARED_BYTES = 8192
GUARD = 0x13579BDF  # loaded values never equal this (uninitialised shared aside)
FULL = 0xFFFFFFFF
SEED = 20261123

# (op, width) -> number of patterns
COUNTS = {
    ("ld", 1): 40, ("st", 1): 40, ("ld", 2): 40, ("st", 2): 40, ("ld", 4): 70, ("st", 4): 70,
    ("ld", 8): 330, ("st", 8): 110, ("ld", 16): 380, ("st", 16): 130,
}


def quarter_mask(qs):
    m = 0
    for q in qs:
        m |= 0xFF << (8 * q)
    return m


def random_mask(rng):
    """An active-lane mask: full most often, else halves, quarters, parity, random density."""
    kind = rng.choices(
        ["full", "half", "quarters", "even", "odd", "every4", "density", "one", "pairs_off",
         "half_density"],
        weights=[30, 10, 12, 5, 5, 4, 14, 3, 10, 7])[0]
    if kind == "full":
        return FULL, kind
    if kind == "half":
        return rng.choice([0x0000FFFF, 0xFFFF0000]), kind
    if kind == "quarters":
        n = rng.choice([1, 1, 2, 2, 3])
        qs = rng.sample(range(4), n)
        return quarter_mask(qs), kind + "".join(str(q) for q in sorted(qs))
    if kind == "even":
        return 0x55555555, kind
    if kind == "odd":
        return 0xAAAAAAAA, kind
    if kind == "every4":
        return 0x11111111 << rng.randrange(4), kind
    if kind == "one":
        return 1 << rng.randrange(32), kind
    if kind == "pairs_off":  # one lane of some lane pairs (n, n^x) switched off
        x = rng.choice([1, 1, 2, 4, 16])
        m = FULL
        for n in range(32):
            if n & x == 0 and rng.random() < 0.4:
                m &= ~(1 << (n ^ (x if rng.random() < 0.5 else 0)))
        return m or FULL, f"pairs_off{x}"
    if kind == "half_density":  # random density inside one half-warp
        lo = rng.choice([0, 16])
        m = 0
        for n in range(16):
            if rng.random() < 0.6:
                m |= 1 << (lo + n)
        return m or (1 << lo), kind
    p = rng.choice([0.25, 0.5, 0.75, 0.9])
    m = 0
    for n in range(32):
        if rng.random() < p:
            m |= 1 << n
    return m or 1, f"density{int(p * 100)}"


def clamp_offsets(offs, w):
    """Wraps offsets into shared memory, aligned to the width."""
    return [(o % (SHARED_BYTES - 16)) // w * w for o in offs]


def addr_pool(rng, w, k):
    """k distinct aligned addresses: same bank (128 B apart), adjacent, or random."""
    style = rng.choice(["samebank", "adjacent", "random", "random"])
    base = rng.randrange(0, 2048) // w * w
    if style == "samebank":
        rows = rng.sample(range(0, 40), k)
        return [base + 128 * r for r in rows], style
    if style == "adjacent":
        return [base + w * i for i in range(k)], style
    window = max(rng.choice([128, 256, 512, 4096]), 2 * k * w)
    pool = set()
    while len(pool) < k:
        pool.add(base + rng.randrange(0, window) // w * w)
    return list(pool), style


def pattern(rng, w, op):
    """Returns (32 offsets, family description)."""
    # Wide loads: more lane-pair structures (where packing applies or almost does).
    weights = [10, 10, 5, 28, 38, 9] if (op == "ld" and w >= 8) else [18, 16, 6, 30, 22, 8]
    fam = rng.choices(["random", "stride", "bcast", "groups", "pairs", "perm"],
                      weights=weights)[0]
    if fam == "random":
        window = rng.choice([128, 256, 512, 1024, 4096])
        base = rng.randrange(0, 1024)
        return [base + rng.randrange(0, window) for _ in range(32)], f"random{window}"
    if fam == "stride":
        s = rng.choice([0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 24, 31, 32, 33, rng.randrange(1, 64)])
        base = rng.randrange(0, 1024) // w * w
        return [base + n * s * w for n in range(32)], f"stride{s}"
    if fam == "bcast":
        a = rng.randrange(0, 4096)
        return [a] * 32, "bcast"
    if fam == "groups":
        # lane -> group by a lane function, each group one address from a pool
        fn = rng.choice(["and_not", "shift", "mod", "table", "xor_half"])
        if fn == "and_not":
            bits = rng.choice([1, 2, 2, 3, 4, 8, 16, 24, 5, 6, 10, 18, 12, 7, 15, 30, 31])
            keys = [n & ~bits for n in range(32)]
            tag = f"and_not{bits}"
        elif fn == "shift":
            k = rng.randrange(1, 6)
            keys = [n >> k for n in range(32)]
            tag = f"shift{k}"
        elif fn == "mod":
            m = rng.choice([2, 3, 4, 5, 8, 16])
            keys = [n % m for n in range(32)]
            tag = f"mod{m}"
        elif fn == "xor_half":
            keys = [(n & 15) ^ (n >> 4) for n in range(32)]
            tag = "xor_half"
        else:
            k = rng.randrange(2, 9)
            keys = [rng.randrange(k) for _ in range(32)]
            tag = f"table{k}"
        distinct = sorted(set(keys))
        if rng.random() < 0.5:
            # a small pool shared by the groups: addresses repeat across half- and quarter-warps
            pool, style = addr_pool(rng, w, rng.randrange(2, 7))
            where = {kk: rng.choice(pool) for kk in distinct}
            return [where[kk] for kk in keys], f"groups_{tag}_pool{len(pool)}_{style}"
        pool, style = addr_pool(rng, w, len(distinct))
        where = dict(zip(distinct, pool))
        return [where[kk] for kk in keys], f"groups_{tag}_{style}"
    if fam == "pairs":
        # lane n and n^x read one address; pair addresses from a stride or a same-bank pool
        x = rng.choice([1, 1, 2, 2, 2, 4, 8, 16, 3])
        reps = sorted({min(n, n ^ x) for n in range(32)})
        style = rng.choice(["stride1", "stride2", "samebank", "random"])
        base = rng.randrange(0, 1024) // w * w
        if style == "stride1":
            addrs = [base + i * w for i in range(len(reps))]
        elif style == "stride2":
            addrs = [base + 2 * i * w for i in range(len(reps))]
        elif style == "samebank":
            addrs = [base + 128 * rng.randrange(0, 3) + (i % 2) * w for i in range(len(reps))]
        else:
            addrs = [base + rng.randrange(0, 512) for _ in reps]
        where = dict(zip(reps, addrs))
        offs = [where[min(n, n ^ x)] for n in range(32)]
        # sometimes break a few pairs
        if rng.random() < 0.3:
            for _ in range(rng.randrange(1, 4)):
                n = rng.randrange(32)
                offs[n] = base + rng.randrange(0, 512)
            return offs, f"pairs{x}_{style}_broken"
        return offs, f"pairs{x}_{style}"
    # perm: a contiguous block of 32 elements, permuted (within quarters, halves or the warp)
    scope = rng.choice([8, 16, 32])
    base = rng.randrange(0, 1024) // w * w
    idx = list(range(32))
    for s in range(0, 32, scope):
        part = idx[s:s + scope]
        rng.shuffle(part)
        idx[s:s + scope] = part
    return [base + i * w for i in idx], f"perm{scope}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--count-scale", type=float, default=1.0)
    ap.add_argument("--prefix", default="shared_random")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(args.seed)
    rows, launches = [], []
    for (op, w), n in COUNTS.items():
        for i in range(max(1, round(n * args.count_scale))):
            offs, fam = pattern(rng, w, op)
            offs = clamp_offsets(offs, w)
            mask, mkind = random_mask(rng)
            index = len(rows)
            rows.append(offs + [mask])
            launches.append({
                "name": f"shr_{op}_b{w}_{i:03d}",
                "description": f"{fam}; mask {mkind} 0x{mask:08x}; table row {index}",
                "source": "shared_random.cu",
                "kernel": f"shr_{op}_b{w}",
                "grid": [1, 1, 1],
                "block": [32, 1, 1],
                "dynamic_shared_bytes": SHARED_BYTES,
                "args": [
                    {"buffer": "table", "type": "u32", "count": None,
                     "init": f"file:{args.prefix}.bin"},
                    {"value": index, "type": "u32"},
                    {"buffer": "out", "type": "u32", "count": 32, "init": "zero"},
                    {"value": GUARD if op == "ld" else 0, "type": "u32"},
                ],
            })
    for l in launches:
        l["args"][0]["count"] = len(rows) * 33
    with open(os.path.join(here, args.prefix + ".bin"), "wb") as f:
        for r in rows:
            f.write(struct.pack("<33I", *r))
    path = os.path.join(here, args.prefix + ".json")
    with open(path, "w") as f:
        f.write("{\"description\": \"random single-instruction shared-memory patterns (generated by "
                f"make_shared_random.py, seed {args.seed})\",\n \"launches\": [\n")
        f.write(",\n".join("  " + json.dumps(l) for l in launches))
        f.write("\n]}\n")
    print(f"{path}: {len(launches)} launches, table {len(rows)} rows")


if __name__ == "__main__":
    main()

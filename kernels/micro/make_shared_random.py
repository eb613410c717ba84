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

Run: python3 kernels/micro/make_shared_random.py [--seed N] [--count-scale F] [--prefix NAME]
     python3 kernels/micro/make_shared_random.py --mode probe16 --prefix shared_random_probe16
The probe16 mode writes a targeted LDS.128 set instead (the source-view rule for 16-byte loads
with lanes switched off, CALIBRATION.md "Two truths"): ten simple address structures (one address
per quarter- or half-warp, lane-pair and lane^4 structures, the same 8 or 16 addresses repeated
per quarter or half) crossed with structured masks (every quarter subset, even/odd lanes per half,
single lanes, two lanes) and random masks of several densities (seeded)."""
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


# probe16: address structures, lane -> 16-byte slot index k (byte offset PROBE_BASE + 16 k; the
# bank quad is k mod 8). Chosen so that each isolates one question about LDS.128 with lanes off.
PROBE_BASE = 1024
PROBE16_STRUCTS = {
    # one address per half-warp (quarters 0-1 on X, 2-3 on Y), Y in another bank quad / the same
    "half_bcast_diffquad": lambda n: 0 if n < 16 else 3,
    "half_bcast_samequad": lambda n: 0 if n < 16 else 8,
    # one address per quarter, four quads / two per half in one quad (X X Y Y row-shifted)
    "quarter_bcast_4quads": lambda n: [0, 2, 5, 7][n >> 3],
    "quarter_bcast_qsame": lambda n: [0, 8, 16, 24][n >> 3],
    # the whole warp on one address
    "warp_bcast": lambda n: 0,
    # lane pairs (n, n^1) share consecutive slots: 16 slots, quads 0-7 per half-warp
    "pairs1_stride1": lambda n: n >> 1,
    # lane pairs (n, n^2) share: slot 2*(n>>2) + (n&1)
    "pairs2_stride1": lambda n: 2 * (n >> 2) + (n & 1),
    # lanes n and n^4 share within a quarter: 4 slots per quarter, quarters 0/2 on quads 0-3,
    # 1/3 on quads 4-7 (rows differ between halves)
    "xor4_quads": lambda n: 4 * (n >> 3) + (n & 3) + (8 if n >= 16 else 0),
    # the same 8 addresses in every quarter (lane n -> quad n mod 8, one row)
    "same8_per_quarter": lambda n: n & 7,
    # 16 distinct addresses per half-warp, the second half repeating the first
    "same16_per_half": lambda n: n & 15,
}


def probe16_masks(rng):
    """(mask, name) list: structured masks, then seeded random ones."""
    out = []
    for qs in range(1, 16):
        out.append((quarter_mask([q for q in range(4) if qs >> q & 1]), f"quarters{qs:x}"))
    halves = {"full": 0xFFFF, "even": 0x5555, "odd": 0xAAAA, "none": 0}
    for a, ma in halves.items():
        for b, mb in halves.items():
            if (a, b) in (("full", "full"), ("none", "none"), ("full", "none"), ("none", "full")):
                continue  # quarter subsets above
            out.append((ma | mb << 16, f"h0{a}_h1{b}"))
    for n in (0, 1, 7, 8, 15, 16, 17, 31):
        out.append((1 << n, f"one{n}"))
    for a, b in ((0, 16), (1, 17), (0, 8), (16, 24), (0, 1), (1, 9), (3, 19), (7, 8), (1, 3),
                 (17, 19)):
        out.append(((1 << a) | (1 << b), f"two{a}_{b}"))
    for p, k in ((0.25, 6), (0.5, 8), (0.75, 6), (0.9, 6)):
        for _ in range(k):
            m = 0
            for n in range(32):
                if rng.random() < p:
                    m |= 1 << n
            out.append((m or 1, f"density{int(p * 100)}"))
    return out


def probe16_rows(rng):
    """(offsets, mask, description) for the targeted LDS.128 set, duplicates removed."""
    rows, seen = [], set()
    for sname, fn in PROBE16_STRUCTS.items():
        offs = [PROBE_BASE + 16 * fn(n) for n in range(32)]
        for mask, mname in probe16_masks(rng):
            key = (tuple(offs[n] if mask >> n & 1 else -1 for n in range(32)), mask)
            if key in seen:
                continue
            seen.add(key)
            rows.append((offs, mask, f"{sname}; mask {mname} 0x{mask:08x}"))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--count-scale", type=float, default=1.0)
    ap.add_argument("--prefix", default="shared_random")
    ap.add_argument("--mode", choices=["random", "probe16"], default="random")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(args.seed)
    # (op, width, index within the kernel, offsets, mask, description)
    items = []
    if args.mode == "probe16":
        for i, (offs, mask, desc) in enumerate(probe16_rows(rng)):
            items.append(("ld", 16, i, offs, mask, desc))
    else:
        for (op, w), n in COUNTS.items():
            for i in range(max(1, round(n * args.count_scale))):
                offs, fam = pattern(rng, w, op)
                offs = clamp_offsets(offs, w)
                mask, mkind = random_mask(rng)
                items.append((op, w, i, offs, mask, f"{fam}; mask {mkind} 0x{mask:08x}"))
    rows, launches = [], []
    for op, w, i, offs, mask, desc in items:
        index = len(rows)
        rows.append(offs + [mask])
        launches.append({
            "name": f"shr_{op}_b{w}_{i:03d}",
            "description": f"{desc}; table row {index}",
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
        what = ("targeted LDS.128 patterns with lanes switched off (make_shared_random.py --mode "
                "probe16" if args.mode == "probe16" else
                "random single-instruction shared-memory patterns (generated by make_shared_random.py")
        f.write(f"{{\"description\": \"{what}, seed {args.seed})\",\n \"launches\": [\n")
        f.write(",\n".join("  " + json.dumps(l) for l in launches))
        f.write("\n]}\n")
    print(f"{path}: {len(launches)} launches, table {len(rows)} rows")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the speed suite (issue 11): bench.json (no functional checks: warplens picks its
address-only mode) and bench_checked.json (the same launches with checks: full mode).
Usage: kernels/bench/make_bench.py [--sgemm N] [--transpose N] [--out PREFIX]
The defaults are the sizes the ncu figures were taken at: SGEMM 1024^3, transposes 2048^2."""
import argparse, json, os

here = os.path.dirname(os.path.abspath(__file__))

ap = argparse.ArgumentParser()
ap.add_argument("--sgemm", type=int, default=1024)
ap.add_argument("--transpose", type=int, default=2048)
ap.add_argument("--out", default=None, help="write PREFIX.json and PREFIX_checked.json")
a = ap.parse_args()

def sgemm(name, kernel, grid, block, n):
    args = [{"value": n, "type": "i32"}] * 3 + [
        {"value": 1.0, "type": "f32"},
        {"buffer": "A", "type": "f32", "count": n * n, "init": "random:3"},
        {"buffer": "B", "type": "f32", "count": n * n, "init": "random:4"},
        {"value": 0.0, "type": "f32"},
        {"buffer": "C", "type": "f32", "count": n * n, "init": "zero"}]
    return {"name": f"{name}_{n}", "source": "sgemm.cu", "kernel": kernel, "grid": grid + [1],
            "block": block + [1], "args": args,
            "check": {"C": {"sgemm_of": ["A", "B"], "m": n, "n": n, "k": n}}}

def transpose(name, kernel, n, check):
    l = {"name": f"{name}_{n}", "source": "transpose.cu", "kernel": kernel,
         "grid": [n // 32, n // 32, 1], "block": [32, 8, 1],
         "args": [{"buffer": "out", "type": "f32", "count": n * n, "init": "poison"},
                  {"buffer": "in", "type": "f32", "count": n * n, "init": "iota"},
                  {"value": n, "type": "i32"}, {"value": n, "type": "i32"}]}
    if check == "copy":
        l["check"] = {"out": {"copy_of": "in"}}
    elif check == "transpose":
        l["check"] = {"out": {"transpose_of": "in", "rows": n, "cols": n}}
    return l

n = a.sgemm
launches = [
    sgemm("sgemm01_naive", "sgemm01Naive", [n // 32, n // 32], [32, 32], n),
    sgemm("sgemm02_coalesced", "sgemm02Coalesced", [n // 32, n // 32], [1024], n),
    sgemm("sgemm03_shared", "sgemm03SharedBlocking", [n // 32, n // 32], [1024], n),
    sgemm("sgemm04_blocktile1d", "sgemm04Blocktile1D", [n // 64, n // 64], [512], n),
    sgemm("sgemm05_blocktile2d", "sgemm05Blocktile2D", [n // 128, n // 128], [256], n),
    sgemm("sgemm06_vectorized", "sgemm06Vectorized", [n // 128, n // 128], [256], n),
    sgemm("sgemm07_vectorized64", "sgemm07Vectorized64", [n // 64, n // 64], [256], n),
    sgemm("sgemm08_vectorized_padded", "sgemm08VectorizedPadded", [n // 128, n // 128], [256], n),
    sgemm("sgemm09_autotuned", "sgemm09Autotuned", [n // 128, n // 64], [128], n),
    sgemm("sgemm10_warptiling", "sgemm10Warptiling", [n // 128, n // 128], [128], n),
    sgemm("sgemm11_double_buffered", "sgemm11DoubleBuffered", [n // 128, n // 128], [128], n),
    sgemm("sgemm12_tiled16", "sgemm12Tiled16", [n // 16, n // 16], [16, 16], n),
]
t = a.transpose
launches += [
    transpose("t1_copy", "copySimple", t, "copy"),
    transpose("t2_copy_shared", "copySharedMem", t, "copy"),
    transpose("t3_naive", "transposeNaive", t, "transpose"),
    transpose("t4_coalesced", "transposeCoalesced", t, "transpose"),
    transpose("t5_no_bank_conflicts", "transposeNoBankConflicts", t, "transpose"),
    transpose("t6_diagonal", "transposeDiagonal", t, "transpose"),
    transpose("t7_fine_grained", "transposeFineGrained", t, None),
    transpose("t8_coarse_grained", "transposeCoarseGrained", t, None),
]
prefix = a.out or os.path.join(here, "bench")
checked = {"launches": launches}
plain = {"launches": [{k: v for k, v in l.items() if k != "check"} for l in launches]}
if os.path.abspath(os.path.dirname(prefix) or ".") != here:  # sources stay in kernels/bench
    for d in (checked, plain):
        for l in d["launches"]:
            l["source"] = os.path.join(here, l["source"])
os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
for d, path in ((plain, prefix + ".json"), (checked, prefix + "_checked.json")):
    with open(path, "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")

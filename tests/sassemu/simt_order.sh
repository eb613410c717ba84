#!/usr/bin/env bash
# The engine's warp instructions per SASS instruction against the H100's (CUPTI SASS metrics,
# validation/h100/simt_order/measured_pc_counts.txt) for divergent held-out launches that run in
# seconds: per launch, the sum over pcs of |engine - measured| must stay under BAR of the measured
# total. Measured 2026-11-25: 0.01-0.05% with the hardware's SIMT order (CtrlOps.cpp); 2-3% with
# the former lowest-pc-first order (WARPLENS_SIMT=lowest), which ran each loop's BSYNC once.
# Usage: simt_order.sh WARPLENS OUTDIR BAR
set -euo pipefail
warplens=$1 out=$2 bar=$3
mkdir -p "$out"
rm -f "$out/pc_engine.txt"
while read -r suite name; do
  WARPLENS_PC_COUNTS="$out/pc_engine.txt" "$warplens" suite "kernels/timing/$suite.json" --only "$name" \
      --format json -o "$out/$name.json" 2> "$out/$name.log" || { echo "simt_order: $name failed"; cat "$out/$name.log"; exit 1; }
done <<'LIST'
heldout9 heldout9_heat_plate_persistent_8x32x32_1000
heldout9 heldout9_cholesky64_warp_32w_x2
heldout11 heldout11_rrt_depth_walk_32M_768t_q24
heldout4 heldout4_compact_positive_8M
heldout11 heldout11_bloom_probe_smem_16M_k8
heldout9 heldout9_gcd_euclid_u32_2M
heldout8 heldout8_poisson_knuth_256K_s8
LIST
python3 - validation/h100/simt_order/measured_pc_counts.txt "$out/pc_engine.txt" "$bar" <<'PY'
import sys
def load(path):
    d, cur = {}, None
    for line in open(path):
        if line.startswith("##"):
            continue
        if line.startswith("# "):
            cur = line[2:].strip(); d[cur] = {}
            continue
        p = line.split(" ", 2)
        if cur is not None and len(p) >= 2:
            d[cur][int(p[0], 16)] = int(p[1])
    return d
hw, sim, bar = load(sys.argv[1]), load(sys.argv[2]), float(sys.argv[3])
bad = 0
for name, s in sim.items():
    h = hw[name]
    total = sum(h.values())
    off = sum(abs(h.get(pc, 0) - s.get(pc, 0)) for pc in set(h) | set(s))
    ok = off <= bar * total
    bad += not ok
    print(f"{'ok ' if ok else 'BAD'} {name}: measured {total}, engine {sum(s.values())}, "
          f"per-pc |difference| {off} ({100.0 * off / total:.3f}%)")
sys.exit(1 if bad or not sim else 0)
PY

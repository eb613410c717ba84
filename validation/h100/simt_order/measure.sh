#!/usr/bin/env bash
# measure.sh: per-SASS-instruction warp executions (CUPTI SASS metrics) of launches whose engine
# instruction totals fall short of smsp__inst_executed.sum; results into $OUT (default /tmp/simt_order)
OUT=${OUT:-/tmp/simt_order}; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
export WARPLENS_ROOT=$PWD WARPLENS_CACHE=/tmp/wlcache
WL=${WARPLENS:-$PWD/build/analysis/warplens}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
S=kernels/timing
while read -r a b; do
  WARPLENS_PC_COUNTS=$OUT/pc_hw.txt timeout 120 "$WL" probe $S/$a.json --only "$b" --no-timing --no-range -q -o $OUT/$b.json > $OUT/$b.log 2>&1
  echo "$b rc=$?"
done <<'LIST'
heldout11 heldout11_bloom_probe_smem_16M_k8
heldout11 heldout11_sdf_spheretrace_1024x1024
heldout8 heldout8_poisson_knuth_256K_s8
heldout9 heldout9_cholesky64_warp_32w_x2
heldout9 heldout9_heat_plate_persistent_8x32x32_1000
heldout9 heldout9_gcd_euclid_u32_2M
heldout10 heldout10_miller_rabin_u32_256K
heldout11 heldout11_rrt_depth_walk_32M_768t_q24
heldout7 heldout7_oddeven_sort256_4096
heldout8 heldout8_edit_distance_wavefront_4096x128
heldout4 heldout4_compact_positive_8M
LIST

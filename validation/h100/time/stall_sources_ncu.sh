#!/usr/bin/env bash
# stall_sources_ncu.sh (session 20): where the issue-bound and dependency-bound held-out launches
# the time model under-predicts lose their cycles: ncu's warp-state breakdown (all stall reasons,
# per issued instruction) and the per-SASS-instruction stall sampling (source page) of sturm_bisect
# (-15.6%), edit_distance_wavefront (-16.5%), philox_mc_pi (-15.2%) and mandel_f64 (-16.8%).
# Run from the repository root on the GPU machine, warplens in $WL; output in /tmp/st, packed as
# $OUT/stall_sources_ncu.tgz.
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
export WARPLENS_ROOT=$PWD WARPLENS_CACHE=/tmp/wlcache
WL=${WL:-$PWD/build/analysis/warplens}
mkdir -p /tmp/st
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > /tmp/st/gpu.txt; date -u >> /tmp/st/gpu.txt
run() { # SUITE LAUNCH KERNEL
  timeout 120 ncu --clock-control none -k "regex:^$3\$" -c 1 --section WarpStateStats --section SourceCounters \
    --metrics gpu__time_duration.sum,smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active \
    -o "/tmp/st/$2" "$WL" probe "$WARPLENS_ROOT/$1" --only "$2" --no-range --no-sass-metrics --no-timing -q -o /dev/null \
    > "/tmp/st/$2.log" 2>&1
  echo "$2 profile rc=$?"
  ncu -i "/tmp/st/$2.ncu-rep" --page raw --csv > "/tmp/st/$2.raw.csv" 2>> "/tmp/st/$2.log"
  ncu -i "/tmp/st/$2.ncu-rep" --page source --print-source sass --csv > "/tmp/st/$2.sass.csv" 2>> "/tmp/st/$2.log"
  echo "$2 export rc=$? $(wc -l < /tmp/st/$2.sass.csv) sass rows"
}
S=kernels/timing
while read -r a b c; do run $S/$a.json $b $c; done <<'LIST'
heldout11 heldout11_sturm_bisect_eig_4x128_it28 sturm_bisect_eig
heldout8 heldout8_edit_distance_wavefront_4096x128 edit_distance_wavefront
heldout5 heldout5_philox_mc_pi_512K_s16 philox_mc_pi
heldout5 heldout5_mandel_f64_1024x768 mandel_f64
LIST
tar czf "$OUT/stall_sources_ncu.tgz" -C /tmp st

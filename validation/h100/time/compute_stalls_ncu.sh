#!/usr/bin/env bash
# compute_stalls_ncu.sh: ncu warp-state sections on compute-bound held-out launches (run from the repository root on the GPU machine); results into $OUT/diag3.tgz, summarised in compute_stalls_ncu.csv
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
export WARPLENS_ROOT=$PWD WARPLENS_CACHE=/tmp/wlcache
WL=${WL:-$PWD/build/analysis/warplens}
mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > /tmp/o/gpu.txt; date -u >> /tmp/o/gpu.txt
run() { # SUITE LAUNCH KERNEL
  timeout 90 ncu --clock-control none -k "regex:^$3\$" -c 1 --section WarpStateStats --section SchedulerStats --section InstructionStats --section Occupancy --section LaunchStats \
   --metrics smsp__thread_inst_executed_per_inst_executed.ratio,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets.sum,smsp__inst_executed.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_xu.sum \
   --csv --page raw "$WL" probe "$WARPLENS_ROOT/$1" --only "$2" --no-range --no-sass-metrics --no-timing -q -o /dev/null > "/tmp/o/$2.csv" 2> "/tmp/o/$2.err"
  echo "$2 rc=$? $(wc -c < /tmp/o/$2.csv)"
}
S=kernels/timing
while read -r a b c; do run $S/$a.json $b $c; done <<'LIST'
heldout5 heldout5_mandel_f64_1024x768 mandel_f64
heldout11 heldout11_sdf_spheretrace_1024x1024 sdf_spheretrace
heldout11 heldout11_bloom_probe_smem_16M_k8 bloom_probe_smem
heldout8 heldout8_poisson_knuth_256K_s8 poisson_knuth
heldout5 heldout5_philox_mc_pi_512K_s16 philox_mc_pi
heldout10 heldout10_deboor_quintic_f64_4M deboor_quintic_f64
heldout8 heldout8_lj_forces_f64_4096_j256 lj_forces_f64
heldout12 heldout12_montgomery_modexp256_64K_e32 montgomery_modexp256
heldout6 heldout6_sobel_mag_4096 sobel_mag
heldout3 heldout3_mandel_1024 mandel_fixed
heldout7 heldout7_julia_smooth_f32_2048 julia_smooth_f32
heldout13 heldout13_inverse4x4_cofactor_f64_1M_ns8 inverse4x4_cofactor_f64
heldout11 heldout11_sph_harm_eval_f64_l15_1M sph_harm_eval_f64
heldout12 heldout12_genz_bvn_cdf_f64_512K genz_bvn_cdf_f64
LIST
cd /tmp/o && tar czf $OUT/diag3.tgz . && ls -la $OUT

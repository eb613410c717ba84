#!/usr/bin/env bash
# misses_ncu.sh (session 18): ncu sections on the held-out launches the time model misses by more
# than 15% (run from the repository root on the GPU machine, warplens carried in $WL); one CSV per
# launch into /tmp/o, packed as $OUT/misses_ncu.tgz and summarised in misses_ncu.csv.
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
export WARPLENS_ROOT=$PWD WARPLENS_CACHE=/tmp/wlcache
WL=${WL:-$PWD/build/analysis/warplens}
mkdir -p /tmp/o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > /tmp/o/gpu.txt; date -u >> /tmp/o/gpu.txt
run() { # SUITE LAUNCH KERNEL
  timeout 100 ncu --clock-control none --cache-control all -k "regex:^$3\$" -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
   --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
   --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.avg,sm__cycles_active.max,smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warp_latency_per_inst_issued.ratio,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio \
   --csv --page raw "$WL" probe "$WARPLENS_ROOT/$1" --only "$2" --no-range --no-sass-metrics --no-timing -q -o /dev/null > "/tmp/o/$2.csv" 2> "/tmp/o/$2.err"
  echo "$2 rc=$? $(wc -c < /tmp/o/$2.csv)"
}
S=kernels/timing
while read -r a b c; do run $S/$a.json $b $c; done <<'LIST'
heldout9 heldout9_forest_infer_complete_4096s_32t_d12 forest_infer_complete
heldout8 heldout8_prefix_sum_one_block_1M prefix_sum_one_block
heldout6 heldout6_trmv_lower_rows_2048 trmv_lower_rows
heldout10 heldout10_rope_gptj_h2_16Kx32x128 rope_gptj_h2
heldout4 heldout4_gemv_thread_512x1024 gemv_thread
heldout5 heldout5_transpose_add16_4096 transpose_add16
heldout5 heldout5_row_l2norm_32768x512 row_l2norm
heldout heldout_stencil5_4096 stencil5
heldout5 heldout5_matmul_tiled16_512 matmul_tiled16
heldout4 heldout4_blelloch_scan_4M blelloch_scan
heldout12 heldout12_bayer_demosaic_rggb_u8_4096x3072 bayer_demosaic_rggb_u8
heldout3 heldout3_aos_drift_4M aos_drift
heldout10 heldout10_tiny_mlp3_relu_1M tiny_mlp3_relu
heldout13 heldout13_box5x5_shared_f32_4096 box5x5_shared_f32
heldout12 heldout12_tet_grad_gather_f64_2M tet_grad_gather_f64
heldout10 heldout10_deboor_quintic_f64_4M deboor_quintic_f64
LIST
tar czf "$OUT/misses_ncu.tgz" -C /tmp o

#!/usr/bin/env bash
# heldout_sol_ncu.sh (session 18): one ncu pass of throughput, sector and stall counters over every
# launch of the thirteen held-out timing sets (run from the repository root on the GPU machine,
# warplens carried in $WL): which unit is busiest in each, the L1 -> L2 write sectors (stores the
# L1 merged), L2 read hits. CSV per set into /tmp/sol, packed as $OUT/heldout_sol_ncu.tgz;
# summarised in heldout_sol_ncu.csv.
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
export WARPLENS_ROOT=$PWD WARPLENS_CACHE=/tmp/wlcache
WL=${WL:-$PWD/build/analysis/warplens}
mkdir -p /tmp/sol
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > /tmp/sol/gpu.txt; date -u >> /tmp/sol/gpu.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.avg,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active
M=$M,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
for s in heldout heldout2 heldout3 heldout4 heldout5 heldout6 heldout7 heldout8 heldout9 heldout10 heldout11 heldout12 heldout13; do
  t0=$(date +%s)
  timeout 70 ncu --clock-control none --cache-control all --metrics $M --csv --page raw \
    "$WL" probe "$WARPLENS_ROOT/kernels/timing/$s.json" --no-range --no-sass-metrics --no-timing -q -o /dev/null > "/tmp/sol/$s.csv" 2> "/tmp/sol/$s.err"
  echo "$s rc=$? $(( $(date +%s) - t0 ))s $(grep -c '^"[0-9]' /tmp/sol/$s.csv) rows"
done
tar czf "$OUT/heldout_sol_ncu.tgz" -C /tmp sol

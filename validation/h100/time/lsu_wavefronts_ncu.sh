#!/usr/bin/env bash
# lsu_wavefronts_ncu.sh (session 19): the L1 data path's shared-memory wavefronts in total
# (l1tex__data_pipe_lsu_wavefronts_mem_shared) beside the per-operation counters warplens predicts
# (_op_ld, _op_st) and the instructions executed, over every launch of the held-out timing sets,
# the fit set (kernels/timing/timing.json) and the seeds. Question: does a shared-memory
# instruction that a warp executes with every lane predicated off take a data-path wavefront?
# (heldout4 blelloch_scan: 9.16M wavefronts in total, 5.39M in _op_ld + _op_st; 3.62M all-off
# executions by warplens' count.) Run from the repository root on the GPU machine, warplens in $WL;
# CSV per suite into /tmp/lsu, packed as $OUT/lsu_wavefronts_ncu.tgz.
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
export WARPLENS_ROOT=$PWD WARPLENS_CACHE=/tmp/wlcache
WL=${WL:-$PWD/build/analysis/warplens}
mkdir -p /tmp/lsu
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > /tmp/lsu/gpu.txt; date -u >> /tmp/lsu/gpu.txt
ncu --query-metrics --chip gh100 > /tmp/lsu/query.txt 2>&1
M=""
for m in gpu__time_duration sm__cycles_elapsed l1tex__data_pipe_lsu_wavefronts l1tex__data_pipe_lsu_wavefronts_mem_shared \
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st \
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom l1tex__lsuin_requests smsp__inst_executed_op_shared_ld \
  smsp__inst_executed_op_shared_st smsp__inst_executed_op_global_ld smsp__inst_executed_op_global_st \
  l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_requests_pipe_lsu_mem_global_op_st smsp__inst_executed_op_ldsm; do
  if grep -q "^$m " /tmp/lsu/query.txt; then
    case $m in sm__cycles_elapsed) M="$M,$m.max";; *) M="$M,$m.sum";; esac
  else echo "no metric $m"; fi
done
M=${M#,}
echo "metrics: $M"
for s in kernels/timing/heldout kernels/timing/heldout2 kernels/timing/heldout3 kernels/timing/heldout4 kernels/timing/heldout5 \
  kernels/timing/heldout6 kernels/timing/heldout7 kernels/timing/heldout8 kernels/timing/heldout9 kernels/timing/heldout10 \
  kernels/timing/heldout11 kernels/timing/heldout12 kernels/timing/heldout13 kernels/seeds kernels/timing/timing; do
  t0=$(date +%s); b=$(basename $s)
  lim=45; [[ $b == timing ]] && lim=240
  timeout $lim ncu --clock-control none --cache-control all --metrics $M --csv --page raw \
    "$WL" probe "$WARPLENS_ROOT/$s.json" --no-range --no-sass-metrics --no-timing -q -o /dev/null > "/tmp/lsu/$b.csv" 2> "/tmp/lsu/$b.err"
  echo "$b rc=$? $(( $(date +%s) - t0 ))s $(grep -c '^"[0-9]' /tmp/lsu/$b.csv) rows"
done
tar czf "$OUT/lsu_wavefronts_ncu.tgz" -C /tmp lsu

#!/usr/bin/env bash
# session22_ncu.sh: the shared-atomic study under the probe (durations, counters, SASS metrics per
# instruction) and ncu's stall sampling per SASS instruction of single-block k-means (-19.5%) and
# three study launches. Run from the repository root on the GPU machine, warplens in $WL; output
# in $OUT (measured_atoms_study.json, session22_ncu.tgz).
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}"
export WARPLENS_ROOT=$PWD WARPLENS_CACHE=/tmp/wlcache
WL=${WL:-$PWD/build/analysis/warplens}
mkdir -p /tmp/st
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > /tmp/st/gpu.txt; date -u >> /tmp/st/gpu.txt
timeout 200 "$WL" probe kernels/timing/atoms_study.json -o "$OUT/measured_atoms_study.json" > /tmp/st/probe.log 2>&1
echo "probe rc=$? $(date -u)"
run() { # SUITE LAUNCH KERNEL
  timeout 100 ncu --clock-control none -k "regex:^$3\$" -c 1 --section WarpStateStats --section SourceCounters \
    --metrics gpu__time_duration.sum,smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum \
    -o "/tmp/st/$2" "$WL" probe "$WARPLENS_ROOT/$1" --only "$2" --no-range --no-sass-metrics --no-timing -q -o /dev/null \
    > "/tmp/st/$2.log" 2>&1
  echo "$2 profile rc=$?"
  ncu -i "/tmp/st/$2.ncu-rep" --page raw --csv > "/tmp/st/$2.raw.csv" 2>> "/tmp/st/$2.log"
  ncu -i "/tmp/st/$2.ncu-rep" --page source --print-source sass --csv > "/tmp/st/$2.sass.csv" 2>> "/tmp/st/$2.log"
  echo "$2 export rc=$? $(wc -l < /tmp/st/$2.sass.csv) sass rows"
}
S=kernels/timing
while read -r a b c; do run $S/$a.json $b $c; done <<'LIST'
heldout14 heldout14_kmeans_single_block_4096pts_k8_it32 kmeans_single_block_f32
heldout14 heldout14_hash_probe_linear_u64_256MiB_2Mq hash_probe_linear_u64
atoms_study as_add_m32 atoms_add
atoms_study as_add_rand8_shared atoms_add
atoms_study as_inc_rand8_shared atoms_inc
LIST
rm -f /tmp/st/*.ncu-rep.bak
tar czf "$OUT/session22_ncu.tgz" -C /tmp st

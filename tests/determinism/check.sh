#!/usr/bin/env bash
# check.sh WARPLENS OUTDIR: runs tests/determinism/suite.json with --threads 1, 2 and 8 (and 1
# again) in text and JSON, and fails unless every output is byte-identical to the first run.
set -euo pipefail
warplens="$1"
out="$2"
suite="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/suite.json"
mkdir -p "$out"
runs=(1 2 8 1)
for i in "${!runs[@]}"; do
  t=${runs[$i]}
  "$warplens" suite "$suite" --sass none --threads "$t" --format text -o "$out/run$i.txt" \
    --json "$out/run$i.json" 2>"$out/run$i.err"
done
status=0
for i in 1 2 3; do
  for ext in txt json; do
    if ! cmp -s "$out/run0.$ext" "$out/run$i.$ext"; then
      echo "determinism: --threads ${runs[$i]} (run $i) differs from --threads 1 in .$ext:" >&2
      diff "$out/run0.$ext" "$out/run$i.$ext" | head -20 >&2 || true
      status=1
    fi
  done
done
# The runs must have analyzed something: every launch appears in the JSON.
for name in transpose_shared16 transpose_naive reduce_dynamic_shared warp_ops_atomics matvec_warp_per_row; do
  grep -q "\"$name\"" "$out/run0.json" || { echo "determinism: launch $name missing" >&2; status=1; }
done
exit $status

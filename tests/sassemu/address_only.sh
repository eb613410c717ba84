#!/usr/bin/env bash
# Address-only mode (sassemu/Slice.h) must give the counts of full execution: runs every suite
# given with `--mode full` and `--mode address` and compares every launch's instructions,
# metrics and time prediction (the modes differ only in "mode", functional checks and notes).
# Usage: address_only.sh WARPLENS OUTDIR SUITE.json...
set -euo pipefail
warplens=$1 out=$2
shift 2
mkdir -p "$out"
status=0
for suite in "$@"; do
  stem=$(basename "$(dirname "$suite")")_$(basename "$suite" .json)
  "$warplens" suite "$suite" --engine sass --mode full --format json -o "$out/$stem.full.json" 2>"$out/$stem.full.log" || true
  "$warplens" suite "$suite" --engine sass --mode address --format json -o "$out/$stem.address.json" 2>"$out/$stem.address.log" || true
  python3 - "$out/$stem.full.json" "$out/$stem.address.json" "$stem" <<'PY' || status=1
import json, sys
full = json.load(open(sys.argv[1]))["launches"]
addr = json.load(open(sys.argv[2]))["launches"]
stem = sys.argv[3]
assert len(full) == len(addr), f"{stem}: {len(full)} vs {len(addr)} launches"
bad = sliced = 0
for f, a in zip(full, addr):
    if "error" in f or "error" in a:
        if f.get("error") != a.get("error"):
            print(f"{stem}/{f['name']}: full error {f.get('error')!r}, address error {a.get('error')!r}")
            bad += 1
        continue
    assert f.get("mode") == "full", f"{stem}/{f['name']}: full run in mode {f.get('mode')}"
    # The slice declines kernels with instructions outside its tables (Slice.cpp): full then.
    assert a.get("mode") in ("address-only", "full"), f"{stem}/{a['name']}: mode {a.get('mode')}"
    sliced += a.get("mode") == "address-only"
    for key in ("instructions", "metrics", "time"):
        if f.get(key) != a.get(key):
            bad += 1
            print(f"{stem}/{f['name']}: {key} differ")
            if key == "instructions":
                for i, j in zip(f[key], a[key]):
                    if i != j:
                        print("  full   ", json.dumps(i, sort_keys=True)[:300])
                        print("  address", json.dumps(j, sort_keys=True)[:300])
                        break
print(f"{stem}: {len(full)} launches, {len(full) - bad} identical in both modes ({sliced} sliced)")
sys.exit(1 if bad else 0)
PY
done
exit $status

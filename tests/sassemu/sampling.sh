#!/usr/bin/env bash
# Sampling mode (--sample-blocks, issue 11): runs suites exactly and with N sampled blocks (their
# functional checks dropped: sampling runs only without one) and compares every count with its
# extrapolated estimate and 95% half-width. Fails when fewer than MIN_INSIDE of the counts lie
# inside their interval or an estimate is off by more than MAX_REL of the exact count.
# Usage: sampling.sh WARPLENS OUTDIR N MIN_INSIDE MAX_REL SUITE.json...
set -euo pipefail
warplens=$1 out=$2 n=$3 min_inside=$4 max_rel=$5
shift 5
mkdir -p "$out"
for suite in "$@"; do
  stem=$(basename "$(dirname "$suite")")_$(basename "$suite" .json)
  python3 - "$suite" "$out/$stem.nocheck.json" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
base = os.path.dirname(os.path.abspath(sys.argv[1]))
for l in d["launches"]:
    l.pop("check", None)
    if "source" in l and not os.path.isabs(l["source"]):
        l["source"] = os.path.join(base, l["source"])
json.dump(d, open(sys.argv[2], "w"))
PY
  "$warplens" suite "$out/$stem.nocheck.json" --format json -o "$out/$stem.exact.json" 2>"$out/$stem.exact.log"
  "$warplens" suite "$out/$stem.nocheck.json" --sample-blocks "$n" --format json -o "$out/$stem.sampled.json" 2>"$out/$stem.sampled.log"
done
python3 - "$out" "$min_inside" "$max_rel" <<'PY'
import glob, json, sys
out, min_inside, max_rel = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
counts = inside = sampled = 0
worst = (0.0, "")
for ex in sorted(glob.glob(out + "/*.exact.json")):
    exact = {l["name"]: l for l in json.load(open(ex))["launches"]}
    for l in json.load(open(ex.replace(".exact.", ".sampled.")))["launches"]:
        e = exact[l["name"]]
        assert "error" not in l and "error" not in e, l["name"]
        s = l.get("sampling")
        if not s:  # too few blocks to sample: must be the exact result
            assert l["instructions"] == e["instructions"], l["name"] + ": not sampled but differs"
            continue
        sampled += 1
        ci = {r["sass_pc"]: r for r in s["ci95"]}
        for a, b in zip(l["instructions"], e["instructions"]):
            r = ci.get(a.get("sass_pc"))
            if r is None:
                continue
            for k in ("executed", "requests", "sectors", "wavefronts"):
                if k not in b:
                    continue
                counts += 1
                inside += abs(a.get(k, 0) - b[k]) <= r[k] + 0.5
                if b[k]:
                    rel = abs(a.get(k, 0) - b[k]) / b[k]
                    if rel > worst[0]:
                        worst = (rel, f"{l['name']} pc {a.get('sass_pc')} {k}: {a.get(k, 0)} vs {b[k]} +- {r[k]:.1f}")
print(f"sampling: {sampled} launches sampled; {inside} of {counts} counts inside their 95% interval "
      f"({100.0 * inside / max(counts, 1):.2f}%); worst relative error {100 * worst[0]:.2f}% ({worst[1]})")
ok = sampled > 0 and inside >= min_inside * counts and worst[0] <= max_rel
sys.exit(0 if ok else 1)
PY

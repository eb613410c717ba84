#!/usr/bin/env python3
"""DRAM bytes read, predicted against the GPU's, for the L2 capacity rule (session 21).

usage: check_l2_dram.py PREDICTED.json MEASURED.json MIN_SHARE

PREDICTED: `warplens suite kernels/timing/l2_study.json --device D --json` (the re-fetches at D's
L2 reuse capacity, model/DramSectorModel.h); MEASURED: validation/<dev>/time/measured_l2_study.json.
Prints predicted and measured dram__bytes_read per launch; fails (exit 1) unless the share within
15% reaches MIN_SHARE; exit 2 on bad input.
"""
import json
import sys


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        pred = {l["name"]: l for l in json.load(open(argv[1]))["launches"]}
        meas = {l["name"]: l for l in json.load(open(argv[2]))["launches"]}
        share = float(argv[3])
    except (OSError, ValueError, KeyError) as e:
        print(f"check_l2_dram.py: {e}", file=sys.stderr)
        return 2
    within = total = 0
    for name, m in meas.items():
        got = m.get("metrics", {}).get("dram__bytes_read.sum")
        if name not in pred or got is None:
            print(f"check_l2_dram.py: {name}: not in both files", file=sys.stderr)
            return 2
        p = pred[name]["metrics"]["dram__bytes_read.sum"]
        err = p / got - 1 if got else 0.0
        ok = abs(err) <= 0.15
        within += ok
        total += 1
        print(f"{name:32s} predicted {p / 1e6:8.1f} MB  measured {got / 1e6:8.1f} MB  {err:+7.1%}{'' if ok else '  (over 15%)'}")
    print(f"{within}/{total} within 15% (need {share:.2f})")
    return 0 if total and within >= share * total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

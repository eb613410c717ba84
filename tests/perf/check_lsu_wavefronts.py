#!/usr/bin/env python3
"""The L1 data path's shared-memory wavefronts, predicted against an ncu measurement.

usage: check_lsu_wavefronts.py MEASURED.csv MIN_SHARE PREDICTED.json...

Per launch of the PREDICTED suites (warplens suite --json) that MEASURED.csv
(validation/h100/time/lsu_wavefronts_ncu.sh's summary) holds: warplens' count of the wavefronts the
L1 data path takes for shared memory and its kin (time.inputs: shared_wavefronts + data_path_extra_wavefronts +
shuffle_instructions) against l1tex__data_pipe_lsu_wavefronts_mem_shared less its _op_atom part
(shared atomics are the time model's atomics columns). Session 19: the counter holds, besides the
loads and stores, one wavefront per S2R of a per-lane register (SR_TID.*, SR_LANEID, lane masks),
per shuffle and per shared-memory instruction a warp executes with every lane predicated off.
Fails (exit 1) unless the share of launches within 5% reaches MIN_SHARE; exit 2 on bad input.
"""
import csv
import json
import sys


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    measured_path, share_text, predicted = argv[1], argv[2], argv[3:]
    try:
        min_share = float(share_text)
        with open(measured_path) as f:
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
        measured = {r["launch"]: r for r in rows}
        launches = []
        for p in predicted:
            with open(p) as f:
                launches += json.load(f)["launches"]
    except (OSError, ValueError, KeyError) as e:
        print(f"check_lsu_wavefronts: {e}", file=sys.stderr)
        return 2
    within = total = 0
    for launch in launches:
        m = measured.get(launch.get("name"))
        inputs = launch.get("time", {}).get("inputs")
        if m is None or inputs is None:
            continue
        wanted = float(m["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"]) - float(
            m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] or 0)
        extra = inputs.get("data_path_extra_wavefronts", inputs.get("idle_wavefronts", 0))  # session 19's name
        got = inputs["shared_wavefronts"] + extra + inputs["shuffle_instructions"]
        err = (got - wanted) / max(wanted, 1.0)
        total += 1
        if abs(err) <= 0.05:
            within += 1
        else:
            print(f"{launch['name']}: predicted {got:.0f}, measured {wanted:.0f} ({100 * err:+.1f}%)")
    if total == 0:
        print("check_lsu_wavefronts: no launch of the predicted suites is in the measurement", file=sys.stderr)
        return 2
    print(f"{within}/{total} launches within 5% (need {min_share:.2f})")
    return 0 if within >= min_share * total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

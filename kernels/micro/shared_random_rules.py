#!/usr/bin/env python3
"""Reference arithmetic for the shared-memory rules, used to study measurements of
shared_random.json (issue 10). Independent of the C++ model (SharedModel): it recomputes, per
pattern of shared_random.bin, the wavefronts under candidate rules and counts how many measured
patterns each candidate gets exactly, for the source-view SASS metric
(smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared and _ideal) and for the L1 hardware counters
(l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st, l1tex__data_bank_conflicts_...).

Run: python3 kernels/micro/shared_random_rules.py validation/h100/measured_shared_random.json
     [--suite kernels/micro/shared_random.json] [--show N]
(the suite defaults to the measured file's "suite" key, else shared_random.json)"""
import argparse
import json
import math
import os
import struct


def load_table(path):
    data = open(path, "rb").read()
    rows = []
    for i in range(len(data) // 132):
        r = struct.unpack_from("<33I", data, i * 132)
        rows.append((list(r[:32]), r[32]))
    return rows


def words(addr, w):
    if w <= 4:
        return [addr // 4]
    return [addr // 4 + i for i in range(w // 4)]


def phase_cost(lanes, offs, w):
    """Max over banks of the distinct words the lanes touch (0 for no lanes)."""
    per_bank = {}
    for n in lanes:
        for wd in words(offs[n], w):
            per_bank.setdefault(wd % 32, set()).add(wd)
    return max((len(s) for s in per_bank.values()), default=0)


def pack_ok(offs, mask, x):
    for n in range(32):
        p = n ^ x
        if (mask >> n) & 1 and (mask >> p) & 1 and offs[n] != offs[p]:
            return False
    return True


def cost(offs, mask, w, op, xors=(1, 2), packed_phase=None, plain_phase=None):
    """Wavefronts and conflict-free phases under the calibrated hardware rule (SharedModel)."""
    plain = plain_phase or {1: 32, 2: 32, 4: 32, 8: 16, 16: 8}[w]
    lpp = plain
    packed = False
    if op == "ld" and w >= 8:
        for x in xors:
            if pack_ok(offs, mask, x):
                lpp = packed_phase or {8: 32, 16: 16}[w]
                packed = True
                break
    wf = cf = 0
    for p in range(0, 32, lpp):
        lanes = [n for n in range(p, p + lpp) if (mask >> n) & 1]
        if lanes:
            wf += phase_cost(lanes, offs, w)
            cf += 1
    return wf, cf, packed


def ideal(wf, mask, w):
    active = bin(mask).count("1")
    return min(wf, max(1, math.ceil(active * w / 128)))


# Candidate rules for the source view: name -> function(offs, mask, w, op) -> (wf, ideal)
def sv_same_as_hw(offs, mask, w, op):
    wf, _, _ = cost(offs, mask, w, op)
    return wf, ideal(wf, mask, w)


def sv_xor1_only(offs, mask, w, op):
    wf, _, _ = cost(offs, mask, w, op, xors=(1,))
    return wf, ideal(wf, mask, w)


def sv_no_pack(offs, mask, w, op):
    wf, _, _ = cost(offs, mask, w, op, xors=())
    return wf, ideal(wf, mask, w)


def pack_ok_in(offs, mask, x, lanes):
    """The pack condition restricted to `lanes`: every active lane whose partner n^x is active
    reads the partner's address."""
    for n in lanes:
        p = n ^ x
        if (mask >> n) & 1 and (mask >> p) & 1 and offs[n] != offs[p]:
            return False
    return True


def pair_ok_strict(offs, mask, x, lanes):
    """Every active lane of `lanes` has its partner n^x active too, reading the same address."""
    for n in lanes:
        if not (mask >> n) & 1:
            continue
        p = n ^ x
        if not (mask >> p) & 1 or offs[n] != offs[p]:
            return False
    return True


def sv_rule(offs, mask, w, op, xors=(1, 2)):
    """The source-view rule (sm_90.json shared.rules.<w>.ld.sourceView), 8- and 16-byte loads.
    A packed phase (whole warp for 8 bytes, half-warp for 16) is one wavefront when its lanes
    are conflict-free and, within that phase, meet the pair condition; otherwise its plain
    phases (half-warps, quarter-warps) count. 16-byte loads (found from shared_random_probe16):
    - every active lane on one address: ceil(active lanes / 16);
    - half-warp 0: the pair condition is strict (each active lane's partner n^x active and on
      the same address) - except while lane 31 is inactive: then a conflict-free half-warp 0
      is one wavefront without any pair condition;
    - half-warp 1: the hardware's lenient pair condition (inactive partners allowed)."""
    if op != "ld" or w < 8:
        wf, _, _ = cost(offs, mask, w, op)
        return wf, ideal(wf, mask, w)
    plain = {8: 16, 16: 8}[w]
    packed = {8: 32, 16: 16}[w]
    active = [n for n in range(32) if (mask >> n) & 1]
    if w == 16 and len({offs[n] for n in active}) == 1:
        wf = (len(active) + 15) // 16
        return wf, ideal(wf, mask, w)
    lane31_off = not (mask >> 31) & 1
    total = 0
    for g in range(0, 32, packed):
        group = range(g, g + packed)
        lanes = [n for n in group if (mask >> n) & 1]
        if not lanes:
            continue
        strict = w == 16 and g == 0
        if strict:
            pairs = any(pair_ok_strict(offs, mask, x, group) for x in xors)
        else:
            pairs = any(pack_ok_in(offs, mask, x, group) for x in xors)
        if w == 16 and g == 0 and lane31_off:
            pairs = True
        if pairs and phase_cost(lanes, offs, w) <= 1:
            total += 1
            continue
        for p in range(g, g + packed, plain):
            total += phase_cost([n for n in range(p, p + plain) if (mask >> n) & 1], offs, w)
    return total, ideal(total, mask, w)


def sv_rule_2026_11_23_first(offs, mask, w, op, xors=(1, 2)):
    """The first source-view rule (before the targeted set): per-phase packing as above with the
    lenient pair condition everywhere, and for 16-byte loads a conflict-free warp of at most 16
    active lanes whose lanes n and n^16 agree is one wavefront."""
    if op != "ld" or w < 8:
        wf, _, _ = cost(offs, mask, w, op)
        return wf, ideal(wf, mask, w)
    plain = {8: 16, 16: 8}[w]
    packed = {8: 32, 16: 16}[w]
    active = [n for n in range(32) if (mask >> n) & 1]
    if w == 16 and len(active) <= 16 and phase_cost(active, offs, w) <= 1 and \
            pack_ok_in(offs, mask, 16, range(32)):
        return 1, ideal(1, mask, w)
    total = 0
    for g in range(0, 32, packed):
        lanes = [n for n in range(g, g + packed) if (mask >> n) & 1]
        if not lanes:
            continue
        if phase_cost(lanes, offs, w) <= 1 and any(
                pack_ok_in(offs, mask, x, range(g, g + packed)) for x in xors):
            total += 1
            continue
        for p in range(g, g + packed, plain):
            total += phase_cost([n for n in range(p, p + plain) if (mask >> n) & 1], offs, w)
    return total, ideal(total, mask, w)


CANDIDATES = {
    "source-view rule (sm_90.json sourceView)": sv_rule,
    "first source-view rule (before shared_random_probe16)": sv_rule_2026_11_23_first,
    "hw_rule (xor 1,2)": sv_same_as_hw,
    "xor1 only": sv_xor1_only,
    "no packing": sv_no_pack,
}


def measured_rows(measured, suite):
    """(launch name, kernel op, width, table row, measured numbers) per launch."""
    spec = {l["name"]: l for l in suite["launches"]}
    out = []
    for L in measured["launches"]:
        s = spec.get(L["name"])
        if not s:
            continue
        k = s["kernel"]  # shr_ld_b8
        op, w = k.split("_")[1], int(k.split("_")[2][1:])
        row = s["args"][1]["value"]
        shared = [i for i in L.get("instructions", [])
                  if i.get("space") == "shared" and i.get("executed", 0) > 0]
        m = L.get("metrics", {})
        rec = {
            "sv_wf": sum(i.get("wavefronts", 0) for i in shared),
            "sv_ideal": sum(i.get("wavefronts_ideal", 0) for i in shared),
            "hw_wf": m.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"),
            "hw_conf": m.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"),
        }
        out.append((L["name"], op, w, row, rec, s.get("description", "")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("measured")
    ap.add_argument("--suite", default=None)
    ap.add_argument("--show", type=int, default=10)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    measured = json.load(open(a.measured))
    suite_path = a.suite or (os.path.join(here, os.path.basename(measured["suite"]))
                             if measured.get("suite") else os.path.join(here, "shared_random.json"))
    suite = json.load(open(suite_path))
    table = load_table(os.path.join(os.path.dirname(suite_path),
                                    suite["launches"][0]["args"][0]["init"][5:]))
    rows = measured_rows(measured, suite)
    print(f"{len(rows)} measured patterns")
    # hardware counter vs the calibrated rule
    bad = []
    for name, op, w, r, rec, desc in rows:
        offs, mask = table[r]
        wf, cf, _ = cost(offs, mask, w, op)
        if rec["hw_wf"] is None:
            continue
        if (wf, wf - cf) != (rec["hw_wf"], rec["hw_conf"]):
            bad.append((name, desc, (wf, wf - cf), (rec["hw_wf"], rec["hw_conf"])))
    print(f"hardware counter (wavefronts, conflicts) vs calibrated rule: {len(rows) - len(bad)} exact, "
          f"{len(bad)} differ")
    for b in bad[:a.show]:
        print("   ", b)
    for cname, fn in CANDIDATES.items():
        bad = []
        for name, op, w, r, rec, desc in rows:
            offs, mask = table[r]
            got = fn(offs, mask, w, op)
            if got != (rec["sv_wf"], rec["sv_ideal"]):
                bad.append((name, desc, got, (rec["sv_wf"], rec["sv_ideal"])))
        print(f"source view (wavefronts, ideal) vs '{cname}': {len(rows) - len(bad)} exact, "
              f"{len(bad)} differ")
        for b in bad[:a.show]:
            print("   ", b)


if __name__ == "__main__":
    main()

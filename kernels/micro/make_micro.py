#!/usr/bin/env python3
"""Writes kernels/micro/micro.json: the calibration launches for shared_access.cu and
global_access.cu. Every launch is 2 blocks x 64 threads (4 warps); the index formula is in the .cu
files. Launches are ordered by priority (most informative first) so that a probe run cut short
still measured the important ones. Run: python3 kernels/micro/make_micro.py"""
import json
import os

BLOCKS, THREADS = 2, 64
WARPS = BLOCKS * THREADS // 32
SHARED_GUARD = 0x13579BDF  # loaded values never equal this (uninitialised shared aside)
GLOBAL_GUARD = 0x7FFFFFF1  # iota-filled buffers never fold to this
ALL, EVEN, FIRST8, FIRST16 = 0xFFFFFFFF, 0x55555555, 0x000000FF, 0x0000FFFF
WIDTHS = [1, 2, 4, 8, 16]


def lane_max_index(stride, shift, group_stride, offset=0):
    period = 1 << shift
    return max((l & (period - 1)) * stride + (l >> shift) * group_stride + offset for l in range(32))


def shared(op, w, stride, shift=5, group_stride=0, offset=0, mask=ALL, name=None, prio=5, why=""):
    top = lane_max_index(stride, shift, group_stride, offset)
    dyn = max(16, ((top + 1) * w + 15) // 16 * 16)
    return prio, {
        "name": name,
        "description": why,
        "source": "shared_access.cu",
        "kernel": f"sh_{op}_b{w}",
        "grid": [BLOCKS, 1, 1],
        "block": [THREADS, 1, 1],
        "dynamic_shared_bytes": dyn,
        "args": [
            {"buffer": "out", "type": "u32", "count": BLOCKS * THREADS, "init": "zero"},
            {"value": stride, "type": "u32"},
            {"value": shift, "type": "u32"},
            {"value": group_stride, "type": "u32"},
            {"value": offset, "type": "u32"},
            {"value": mask, "type": "u32"},
            {"value": SHARED_GUARD if op == "ld" else 0, "type": "u32"},
        ],
    }


def buffer_type(w):
    return {1: ("u8", 1), 2: ("u16", 2), 4: ("u32", 4), 8: ("u64", 8), 16: ("u32", 4)}[w]


def global_(op, w, stride, shift=5, group_stride=0, offset_bytes=0, mask=ALL, name=None, prio=5,
            why=""):
    top = lane_max_index(stride, shift, group_stride)
    per_line = max(1, 128 // w)
    warp_stride = (top + 1 + per_line - 1) // per_line * per_line
    total_bytes = offset_bytes + ((WARPS - 1) * warp_stride + top + 1) * w
    tname, tsize = buffer_type(w)
    count = (total_bytes + tsize - 1) // tsize
    data = {"buffer": "data", "type": tname, "count": count,
            "init": "iota" if op == "ld" else "poison"}
    if offset_bytes:
        data["offset_bytes"] = offset_bytes
    args = [data]
    if op == "ld":
        args.append({"buffer": "out", "type": "u32", "count": BLOCKS * THREADS, "init": "zero"})
    args += [{"value": stride, "type": "u32"}, {"value": shift, "type": "u32"},
             {"value": group_stride, "type": "u32"}, {"value": warp_stride, "type": "u32"},
             {"value": mask, "type": "u32"}]
    if op == "ld":
        args.append({"value": GLOBAL_GUARD, "type": "u32"})
    return prio, {
        "name": name,
        "description": why,
        "source": "global_access.cu",
        "kernel": f"gl_{op}_b{w}",
        "grid": [BLOCKS, 1, 1],
        "block": [THREADS, 1, 1],
        "args": args,
    }


def launches():
    out = []
    # Shared: strides (elements) for every width, loads and stores.
    for w in WIDTHS:
        for op in ("ld", "st"):
            for s in (1, 2, 3, 4, 8, 16, 17, 32):
                prio = 1 if w >= 4 else 6
                out.append(shared(op, w, s, name=f"sh_{op}_b{w}_s{s}", prio=prio,
                                  why=f"shared {op} {w} B, stride {s} elements"))
    # Broadcast: every lane the same element.
    for w in WIDTHS:
        for op in ("ld", "st"):
            out.append(shared(op, w, 0, name=f"sh_{op}_b{w}_bcast", prio=2,
                              why="all lanes the same element"))
    # Phase merging for 64/128-bit: groups of lanes repeating the same addresses.
    for w in (8, 16):
        for op in ("ld", "st"):
            out.append(shared(op, w, 1, shift=4, group_stride=0, name=f"sh_{op}_b{w}_halfsame",
                              prio=2, why="lanes 16-31 repeat the addresses of lanes 0-15"))
            out.append(shared(op, w, 1, shift=3, group_stride=0, name=f"sh_{op}_b{w}_quartersame",
                              prio=2, why="each quarter-warp repeats lanes 0-7's addresses"))
            out.append(shared(op, w, 1, shift=2, group_stride=0, name=f"sh_{op}_b{w}_eighthsame",
                              prio=3, why="each group of 4 lanes repeats lanes 0-3's addresses"))
            out.append(shared(op, w, 0, shift=1, group_stride=1, name=f"sh_{op}_b{w}_pairsame",
                              prio=3, why="lanes 2k and 2k+1 share an element (index lane/2)"))
            out.append(shared(op, w, 1, shift=4, group_stride=32, name=f"sh_{op}_b{w}_halfshift",
                              prio=3, why="second half-warp 32 elements further (same banks)"))
    # 2 and 4 distinct addresses, same bank (128 B apart) vs different banks.
    for w in (4, 8, 16):
        same = 128 // w
        for op in (("ld", "st") if w == 4 else ("ld",)):
            for n, shift in ((2, 4), (4, 3)):
                out.append(shared(op, w, 0, shift=shift, group_stride=same,
                                  name=f"sh_{op}_b{w}_{n}addr_samebank", prio=2,
                                  why=f"{n} distinct elements 128 B apart (same banks)"))
                out.append(shared(op, w, 0, shift=shift, group_stride=1,
                                  name=f"sh_{op}_b{w}_{n}addr_diffbank", prio=2,
                                  why=f"{n} distinct adjacent elements (different banks)"))
    # Partial masks.
    for w in (4, 8, 16):
        for op in (("ld", "st") if w == 4 else ("ld",)):
            for mname, mask in (("even", EVEN), ("first8", FIRST8), ("first16", FIRST16)):
                out.append(shared(op, w, 1, mask=mask, name=f"sh_{op}_b{w}_s1_{mname}", prio=3,
                                  why=f"stride 1, only {mname} lanes active"))
    # Global: strides.
    for w in WIDTHS:
        for s in (1, 2, 3, 4, 8, 32):
            out.append(global_("ld", w, s, name=f"gl_ld_b{w}_s{s}", prio=1 if w >= 4 else 4,
                               why=f"global load {w} B, stride {s} elements"))
    for w in WIDTHS:
        for s in ((1, 2, 32) if w >= 4 else (1,)):
            out.append(global_("st", w, s, name=f"gl_st_b{w}_s{s}", prio=2 if w >= 4 else 4,
                               why=f"global store {w} B, stride {s} elements"))
    # Misaligned base pointers (offset_bytes).
    for w, offs in ((1, (1,)), (2, (2,)), (4, (4, 8, 16)), (8, (8, 16)), (16, (16,))):
        for off in offs:
            for op in ("ld", "st"):
                out.append(global_(op, w, 1, offset_bytes=off, name=f"gl_{op}_b{w}_s1_off{off}",
                                   prio=2 if w >= 4 else 4,
                                   why=f"stride 1 from a pointer {off} B past a 512 B boundary"))
    # Partial masks and broadcasts.
    for w in (4, 16):
        for mname, mask in (("even", EVEN), ("first8", FIRST8)):
            out.append(global_("ld", w, 1, mask=mask, name=f"gl_ld_b{w}_s1_{mname}", prio=3,
                               why=f"stride 1, only {mname} lanes active"))
    for mname, mask in (("even", EVEN), ("first8", FIRST8)):
        out.append(global_("st", 4, 1, mask=mask, name=f"gl_st_b4_s1_{mname}", prio=3,
                           why=f"stride 1, only {mname} lanes active"))
    for w in WIDTHS:
        out.append(global_("ld", w, 0, name=f"gl_ld_b{w}_bcast", prio=3,
                           why="all lanes of a warp load the same element"))
    out.append(global_("st", 4, 0, name="gl_st_b4_bcast", prio=3,
                       why="all lanes of a warp store to the same element"))
    out.append(global_("ld", 4, 1, shift=4, group_stride=0, name="gl_ld_b4_halfsame", prio=3,
                       why="lanes 16-31 repeat the addresses of lanes 0-15"))
    out.sort(key=lambda pl: pl[0])  # stable: priority, then the order above
    names = [l["name"] for _, l in out]
    assert len(names) == len(set(names)), "duplicate launch names"
    return [l for _, l in out]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = {"description": "warplens calibration microbenchmarks (generated by make_micro.py; "
                            "ordered by priority)",
             "launches": launches()}
    path = os.path.join(here, "micro.json")
    with open(path, "w") as f:
        f.write("{\"description\": " + json.dumps(suite["description"]) + ",\n \"launches\": [\n")
        f.write(",\n".join("  " + json.dumps(l) for l in suite["launches"]))
        f.write("\n]}\n")
    print(f"{path}: {len(suite['launches'])} launches")


if __name__ == "__main__":
    main()

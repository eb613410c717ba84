#!/usr/bin/env python3
"""Writes kernels/timing/timing.json (the microbenchmarks the time model is fitted on, one family
per limiter, named <family>_<detail>) and kernels/timing/heldout.json (kernels never used in the
fit). Buffers are 'zero' or 'iota' so that loaded values are never -1 (see timing.cu).
Run: python3 kernels/timing/make_timing.py"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MB = 1 << 20


def launch(name, family, kernel, grid, block, args, why, source="timing.cu"):
    return {"name": name, "description": why, "source": source,
            "kernel": kernel, "grid": [grid, 1, 1] if isinstance(grid, int) else grid,
            "block": [block, 1, 1] if isinstance(block, int) else block, "args": args}


def pipe_launch(name, family, kernel, ty, grid, block, iters, scalars, why):
    """A throughput/chain kernel's launch: (out buffer of `ty`, one element per thread, iters,
    then the scalar (value, type) pairs)."""
    return launch(name, family, kernel, grid, block,
                  [{"buffer": "out", "type": ty, "count": grid * block, "init": "zero"},
                   {"value": iters, "type": "u32"}] + [{"value": v, "type": t} for v, t in scalars], why)


def rd_stride(e, s, footprint=64 * MB, family="dramrule"):
    n = footprint // s
    t = {4: "f32", 8: "f64", 16: "f32"}[e]
    count = n * s // (4 if e == 16 else e)
    return launch(f"{family}_rd_b{e}_s{s}" + ("" if footprint == 64 * MB else f"_{footprint // 1024}k"),
                  family, f"rd_stride_b{e}", (n + 255) // 256, 256,
                  [{"buffer": "in", "type": t, "count": count, "init": "zero"},
                   {"buffer": "out", "type": t, "count": n * (4 if e == 16 else 1) // (4 if e == 16 else 1), "init": "zero"},
                   {"value": s // e, "type": "u32"}, {"value": n, "type": "u32"}],
                  f"{n} threads each read {e} B, {s} B apart ({footprint // MB if footprint >= MB else footprint / MB} MiB span)")


def wr_stride(e, s, footprint=128 * MB, family="dramrule"):
    n = footprint // s
    t = {4: "f32", 8: "f64", 16: "f32"}[e]
    count = n * s // (4 if e == 16 else e)
    return launch(f"{family}_wr_b{e}_s{s}" + ("" if footprint == 128 * MB else f"_{footprint // 1024}k"),
                  family, f"wr_stride_b{e}", (n + 255) // 256, 256,
                  [{"buffer": "out", "type": t, "count": count, "init": "zero"},
                   {"value": s // e, "type": "u32"}, {"value": n, "type": "u32"}],
                  f"{n} threads each write {e} B, {s} B apart")


def timing_suite():
    out = []
    # DRAM fetch rule: bytes read from DRAM per distinct sector, by stride and width.
    for s in [4, 32, 64, 128, 132, 256, 4096, 8, 16, 96, 512]:
        out.append(rd_stride(4, s))
    for s in [8, 64, 128, 16384, 16, 32, 256]:
        out.append(rd_stride(8, s))
    for s in [16, 64, 128, 32, 256]:
        out.append(rd_stride(16, s))
    for s in [4, 32, 64, 128, 132]:
        out.append(wr_stride(4, s))
    for s in [8, 64, 16384]:
        out.append(wr_stride(8, s))
    for s in [16, 64, 128]:
        out.append(wr_stride(16, s))
    # DRAM bandwidth and short kernels: coalesced float4 read / write / copy of n float4.
    for lg in [14, 16, 18, 20, 22, 23, 24]:
        n = 1 << lg
        out.append(launch(f"dram_copy_{n * 16 // 1024}k", "dram", "copy_b16", (n + 255) // 256, 256,
                          [{"buffer": "in", "type": "f32", "count": 4 * n, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": 4 * n, "init": "zero"},
                           {"value": n, "type": "u32"}], f"copy {n * 16} B, float4 per thread"))
    for lg in [14, 16, 18, 20, 22, 24]:
        out.append(rd_stride(16, 16, (1 << lg) * 16, family="dram"))
    for lg in [16, 18, 20, 22, 24]:
        out.append(wr_stride(16, 16, (1 << lg) * 16, family="dram"))
    # Few warps in flight: grid-stride read of 64 MiB with 132 blocks of 32..1024 threads.
    n = 1 << 22
    for grid, block in [(132, 32), (132, 64), (132, 128), (132, 256), (132, 512), (132, 1024),
                        (264, 1024), (33, 256)]:
        out.append(launch(f"latency_readloop_{grid}x{block}", "latency", "read_loop_b16", grid, block,
                          [{"buffer": "in", "type": "f32", "count": 4 * n, "init": "zero"},
                           {"buffer": "out", "type": "f32", "count": 4, "init": "zero"},
                           {"value": n, "type": "u32"}], f"{grid}x{block} threads read 64 MiB (grid-stride)"))
    for grid, block, steps in [(1, 32, 256), (132, 32, 64), (132, 128, 64), (132, 512, 32)]:
        out.append(launch(f"latency_chase_{grid}x{block}_{steps}", "latency", "chase", grid, block,
                          [{"buffer": "next", "type": "u32", "count": 1 << 24, "init": "iota"},
                           {"buffer": "out", "type": "u32", "count": grid * block, "init": "zero"},
                           {"value": steps, "type": "u32"}, {"value": (1 << 24) - 1, "type": "u32"}],
                          f"{steps} dependent loads per thread over 64 MiB"))
    # L2 bandwidth: 4 MiB buffer re-read (ld.global.cg).
    for grid, iters in [(1056, 64), (1056, 16), (264, 64)]:
        out.append(launch(f"l2_read_{grid}x256_{iters}", "l2", "l2_read", grid, 256,
                          [{"buffer": "in", "type": "f32", "count": 4 << 18, "init": "zero"},
                           {"buffer": "out", "type": "f32", "count": grid * 256, "init": "zero"},
                           {"value": (1 << 18) - 1, "type": "u32"}, {"value": iters, "type": "u32"}],
                          f"{iters} float4 loads per thread from a 4 MiB buffer"))
    # L1 and L2 hit latency: dependent loads over 16 KiB (L1) and 4 MiB (L2, ld.global.cg).
    for kern, grid, block, steps, lg in [("chase", 132, 32, 1024, 12), ("chase", 132, 128, 512, 12),
                                         ("chase_cg", 132, 32, 256, 20), ("chase_cg", 132, 128, 256, 20)]:
        lvl = "l1" if kern == "chase" else "l2"
        out.append(launch(f"latency_chase_{lvl}_{grid}x{block}_{steps}", "latency", kern, grid, block,
                          [{"buffer": "next", "type": "u32", "count": 1 << lg, "init": "iota"},
                           {"buffer": "out", "type": "u32", "count": grid * block, "init": "zero"},
                           {"value": steps, "type": "u32"}, {"value": (1 << lg) - 1, "type": "u32"}],
                          f"{steps} dependent loads per thread over {(4 << lg) // 1024} KiB"))
    # Scattered stores completed in L2 (naive transpose's store side), n x n, block 32x8.
    for t, n in [("f32", 2048), ("f64", 2048), ("f32", 1024), ("f32", 4096)]:
        out.append(launch(f"l2_scatter_st_{t}_{n}", "l2", f"scatter_store_{t}", [n // 32, n // 8, 1], [32, 8, 1],
                          [{"buffer": "out", "type": t, "count": n * n, "init": "zero"},
                           {"value": n, "type": "u32"}],
                          f"column stores of a {n}x{n} {t} matrix (32 lines per request)"))
    # L1 tag rate: loads hitting L1 with 1..32 lines per request.
    for lines in [1, 8, 32]:
        iters = 512 if lines < 32 else 128
        out.append(launch(f"l1_lines_{lines}_264x256_{iters}", "l1", "l1_lines", 264, 256,
                          [{"buffer": "in", "type": "f32", "count": 1024, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": 264 * 256, "init": "zero"},
                           {"value": lines, "type": "u32"}, {"value": iters, "type": "u32"}],
                          f"{iters} L1-hit loads per thread, {lines} lines per request"))
    # Shared wavefronts: w-way conflicts.
    for ways, iters in [(1, 1024), (2, 512), (4, 256), (8, 128), (32, 64), (1, 256), (32, 16)]:
        out.append(launch(f"shared_w{ways}_{iters}", "shared", "shared_ways", 264, 1024,
                          [{"buffer": "out", "type": "f32", "count": 264 * 1024, "init": "zero"},
                           {"value": ways, "type": "u32"}, {"value": iters, "type": "u32"}],
                          f"{iters} shared loads per thread, {ways}-way conflict"))
    # FMA pipe and ALU issue.
    for grid, block, iters in [(264, 1024, 128), (264, 1024, 512), (132, 256, 512)]:
        out.append(pipe_launch(f"fma_{grid}x{block}_{iters}", "fma", "fma_chains", "f32", grid, block, iters,
                               [(0.999, "f32"), (0.001, "f32")], f"8 x {iters} dependent FMA chains per thread"))
    for iters in [128, 512]:
        out.append(pipe_launch(f"alu_264x1024_{iters}", "alu", "alu_chains", "u32", 264, 1024, iters,
                               [(0x9E3779B9, "u32")], f"8 x {iters} xor/shift chains per thread"))
    # Barrier-phased rounds: one coalesced float load per thread, a barrier, a shared phase, a
    # store; 2, 8 or 16 resident blocks per SM (1024, 256, 128 threads), conflict-free or 32-way.
    for n, block, rounds, stride, reps in [(1 << 22, 1024, 1, 1, 1), (1 << 22, 256, 1, 1, 1),
                                           (1 << 22, 128, 1, 1, 1), (1 << 22, 1024, 1, 32, 1),
                                           (1 << 22, 256, 1, 32, 1), (1 << 22, 1024, 1, 1, 8),
                                           (1 << 22, 1024, 16, 1, 1), (1 << 22, 256, 16, 1, 1),
                                           (1 << 20, 1024, 1, 1, 1), (1 << 24, 256, 1, 1, 1)]:
        grid = n // (block * rounds)
        out.append(launch(f"bar_phase_{n >> 20}m_b{block}_r{rounds}_s{stride}_x{reps}", "barrier", "bar_phase",
                          grid, block,
                          [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": n, "init": "zero"},
                           {"value": rounds, "type": "u32"}, {"value": stride, "type": "u32"},
                           {"value": reps, "type": "u32"}],
                          f"{rounds} x (load, barrier, {reps} shared reads stride {stride}, store) per block of {block}"))
    # L1 line rate without bank conflicts (session 5): 1..32 lines per request, every lane in its
    # own bank (l1_lines_32 above: 32 lines in one bank).
    for lines in [2, 4, 8, 16, 32]:
        out.append(launch(f"l1_banks_{lines}_264x256_512", "l1", "l1_banks", 264, 256,
                          [{"buffer": "in", "type": "f32", "count": 1024, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": 264 * 256, "init": "zero"},
                           {"value": lines, "type": "u32"}, {"value": 512, "type": "u32"}],
                          f"512 L1-hit loads per thread, {lines} lines per request, no bank conflict"))
    # DRAM latency by the spread of a round (session 5): one warp, 512 dependent rounds over a
    # 256 MiB buffer: 1 or 32 lines per round, consecutive, 64 KiB or 2 MiB (+128 B) apart.
    words = 1 << 26
    for tag, per_line, lane_stride, round_stride in [("seq1", 32, 0, 32), ("far1", 32, 0, (1 << 18) + 32),
                                                     ("tlb1", 32, 0, (1 << 19) + 32), ("seq32", 1, 32, 1024),
                                                     ("page8", 4, 1 << 14, 32), ("page32", 1, 1 << 14, 32),
                                                     ("tlb32", 1, 1 << 19, 32)]:
        out.append(launch(f"spread_{tag}_1x32_512", "latency", "spread_chase", 1, 32,
                          [{"buffer": "in", "type": "f32", "count": words, "init": "zero"},
                           {"buffer": "out", "type": "f32", "count": 32, "init": "zero"},
                           {"value": 512, "type": "u32"}, {"value": per_line, "type": "u32"},
                           {"value": lane_stride, "type": "u32"}, {"value": round_stride, "type": "u32"},
                           {"value": words - 1, "type": "u32"}],
                          f"512 dependent rounds of one warp, {32 // per_line} lines per round, "
                          f"lanes {lane_stride * 4} B and rounds {round_stride * 4} B apart"))
    # Rounds with and without stores (session 5): grid-stride float read / copy of 64 MiB by 132
    # blocks of 128..1024 threads (one coalesced 128-byte load per warp and round).
    n = 1 << 24
    for kern, tag in [("read_loop_b4", "rdloop4"), ("copy_loop_b4", "cploop4")]:
        for block in [128, 256, 512, 1024]:
            out.append(launch(f"latency_{tag}_132x{block}", "latency", kern, 132, block,
                              [{"buffer": "in", "type": "f32", "count": n, "init": "zero"},
                               {"buffer": "out", "type": "f32", "count": n if kern == "copy_loop_b4" else 4,
                                "init": "zero"},
                               {"value": n, "type": "u32"}],
                              f"132x{block} threads {'copy' if kern == 'copy_loop_b4' else 'read'} 64 MiB of floats (grid-stride)"))
    # Session 6: atomics on one or few addresses (RED, and ATOM with the value used), dependent
    # chains with few warps (FMA, MUFU.RSQ, SHFL): the terms the second held-out set showed missing.
    for kern, lanes, stride, addrs, grid, reps in [
            ("red", 1, 0, 1, 264, 1), ("red", 1, 0, 1, 264, 4), ("red", 1, 0, 1, 264, 16),
            ("red", 1, 0, 1, 1056, 4), ("red", 32, 0, 1, 264, 1), ("red", 32, 1, 1, 264, 4),
            ("red", 1, 0, 1024, 264, 16), ("red", 32, 1, 2112, 264, 16),
            ("ret", 1, 0, 1, 264, 4), ("ret", 32, 1, 2112, 264, 16)]:
        args = [{"buffer": "out", "type": "f32", "count": addrs * 32, "init": "zero"}]
        if kern == "ret":
            args.append({"buffer": "sink", "type": "f32", "count": grid * 256, "init": "zero"})
        args += [{"value": v, "type": "u32"} for v in (lanes, stride, addrs, reps)]
        out.append(launch(f"atomic_{kern}_l{lanes}_s{stride}_a{addrs}_{grid}x256_r{reps}", "atomic", f"atomic_{kern}",
                          grid, 256, args, f"{lanes} lanes per warp, {reps} atomicAdd each on {addrs} line(s)"
                          + (" (value used)" if kern == "ret" else "")))
    for kern, grid, block, iters in [("fma1", 132, 32, 8192), ("fma1", 132, 128, 8192), ("fma1", 132, 512, 8192),
                                     ("fma1", 264, 1024, 2048), ("fma2", 132, 128, 8192), ("fma2", 132, 512, 8192),
                                     ("rsqrt", 132, 32, 2048), ("rsqrt", 264, 1024, 512),
                                     ("shfl", 132, 32, 2048), ("shfl", 132, 512, 2048), ("shfl", 264, 1024, 512)]:
        args = [{"buffer": "out", "type": "f32", "count": grid * block, "init": "zero"},
                {"value": iters, "type": "u32"}]
        if kern.startswith("fma"):
            args += [{"value": 0.999, "type": "f32"}, {"value": 0.001, "type": "f32"}]
        elif kern == "rsqrt":
            args += [{"value": 1.5, "type": "f32"}]
        out.append(launch(f"chain_{kern}_{grid}x{block}_{iters}", "chain", f"chain_{kern}", grid, block, args,
                          f"{iters} dependent steps ({kern}) per thread"))
    # Session 6, second round (after heldout3's blind check): which lines serialise atomics
    # together (8 lines 128 B .. 4 KiB apart), atomics after the work or spread over it, and FMAs
    # with three register operands (1 or 4 chains).
    for stride in [128, 256, 512, 1024, 2048, 4096]:
        out.append(launch(f"atomic_lines_8_s{stride}_264x256_r8", "atomic", "atomic_lines", 264, 256,
                          [{"buffer": "out", "type": "f32", "count": 8 * stride // 4, "init": "zero"},
                           {"value": 8, "type": "u32"}, {"value": stride // 4, "type": "u32"},
                           {"value": 8, "type": "u32"}],
                          f"32 lanes on the words of 8 lines {stride} B apart, 8 atomicAdd each"))
    for grid, iters, addrs in [(1056, 128, 1), (1056, 512, 1), (1056, 128, 8448), (264, 512, 1)]:
        out.append(launch(f"atomic_tail_{grid}x256_{iters}_a{addrs}", "atomic", "work_then_atomic", grid, 256,
                          [{"buffer": "out", "type": "f32", "count": addrs * 32, "init": "zero"},
                           {"value": iters, "type": "u32"}, {"value": addrs, "type": "u32"},
                           {"value": 0.999, "type": "f32"}, {"value": 0.001, "type": "f32"}],
                          f"8 x {iters} FMA chains, then one atomicAdd per warp on {addrs} line(s)"))
    for iters, every in [(512, 16), (512, 64)]:
        out.append(launch(f"atomic_spread_1056x256_{iters}_e{every}", "atomic", "work_with_atomics", 1056, 256,
                          [{"buffer": "out", "type": "f32", "count": 1 + 1056 * 256, "init": "zero"},
                           {"value": iters, "type": "u32"}, {"value": every, "type": "u32"},
                           {"value": 0.999, "type": "f32"}, {"value": 0.001, "type": "f32"}],
                          f"8 x {iters} FMA chains, lane 0 adds to one word every {every} iterations"))
    for grid, block, iters, chains in [(264, 1024, 256, 1), (264, 1024, 64, 4), (132, 128, 1024, 1)]:
        out.append(launch(f"fma_regs_c{chains}_{grid}x{block}_{iters}", "fma", "fma_regs", grid, block,
                          [{"buffer": "coef", "type": "f32", "count": 8, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": grid * block, "init": "zero"},
                           {"value": iters, "type": "u32"}, {"value": chains, "type": "u32"}],
                          f"{chains} chain(s) of {iters} x 8 FMAs with three register operands"))
    # Session 6, third round (after heldout3's hist256 miss): requests over 1, 2, 4 lines of one
    # unit, or all 8 lines of a KiB.
    for k in [1, 2, 4, 8]:
        out.append(launch(f"atomic_multiline_k{k}_264x256_r8", "atomic", "atomic_multiline", 264, 256,
                          [{"buffer": "out", "type": "f32", "count": 256, "init": "zero"},
                           {"value": k, "type": "u32"}, {"value": 8, "type": "u32"}],
                          f"32 lanes over {k} line(s) of one KiB, distinct words, 8 atomicAdd each"))
    # Session 7: block launches against one load round and a store (copy_f32 by block size,
    # nbr3), which bins serialise atomics (sectors per line, two lanes per word, random bins;
    # integer and float), atomics after a memory-bound phase (one word or one line per warp).
    n = 1 << 24
    for block in [64, 128, 256, 1024]:
        out.append(launch(f"blk_copy_f32_16M_b{block}", "blocks", "copy_f32", n // block, block,
                          [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": n, "init": "zero"},
                           {"value": n, "type": "u32"}],
                          f"one float per thread loaded and stored, blocks of {block}"))
    out.append(launch("blk_copy_f32_4M_b256", "blocks", "copy_f32", (n // 4) // 256, 256,
                      [{"buffer": "in", "type": "f32", "count": n // 4, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": n // 4, "init": "zero"},
                       {"value": n // 4, "type": "u32"}], "one float per thread loaded and stored, 4M"))
    out.append(launch("blk_nbr3_f32_16M_b256", "blocks", "nbr3_f32", n // 256, 256,
                      [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": n, "init": "zero"},
                       {"value": n, "type": "u32"}], "three neighbours loaded, one store per thread"))
    for ty in ["u32", "f32"]:
        for mode in [0, 1, 2, 3]:
            out.append(launch(f"atomic_bins_{ty}_m{mode}_264x256_r8", "atomic", f"atomic_bins_{ty}", 264, 256,
                              [{"buffer": "bins", "type": ty, "count": 256, "init": "zero"},
                               {"value": mode, "type": "u32"}, {"value": 8, "type": "u32"}],
                              f"32 lanes on a 256-word table, mode {mode}, 8 atomicAdd each"))
    out.append(launch("atomic_bins_u32_m3_1056x256_r4", "atomic", "atomic_bins_u32", 1056, 256,
                      [{"buffer": "bins", "type": "u32", "count": 256, "init": "zero"},
                       {"value": 3, "type": "u32"}, {"value": 4, "type": "u32"}],
                      "random bins of a 256-word table, 4 atomicAdd per thread"))
    for total, grid, addrs in [(1 << 23, 528, 1), (1 << 23, 528, 4224), (1 << 25, 2112, 1), (1 << 25, 2112, 16896)]:
        out.append(launch(f"sum_atomic_{total >> 20}M_{grid}x256_a{addrs}", "atomic", "sum_then_atomic", grid, 256,
                          [{"buffer": "in", "type": "f32", "count": total, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": addrs * 32, "init": "zero"},
                           {"value": total, "type": "u32"}, {"value": addrs, "type": "u32"}],
                          f"grid-stride sum of {total >> 20}M floats, one atomicAdd per warp on {addrs} word(s)"))
    # Session 7, second round (after heldout4's blind check): FP64 pipe and MUFU throughput.
    for grid, block, iters in [(264, 1024, 64), (264, 1024, 256), (132, 256, 256)]:
        out.append(pipe_launch(f"fp64_fma_{grid}x{block}_{iters}", "fp64", "fp64_fma", "f64", grid, block, iters,
                               [(0.999, "f64"), (0.001, "f64")],
                               f"8 independent f64 FMA chains of {iters} steps per thread"))
    for grid, block, iters in [(264, 1024, 64), (264, 1024, 256), (132, 256, 256)]:
        out.append(pipe_launch(f"mufu_ex2_{grid}x{block}_{iters}", "xu", "mufu_ex2", "f32", grid, block, iters,
                               [(0.5, "f32")], f"8 independent exp2f chains of {iters} steps per thread"))
    for passes in [1, 4]:
        out.append(launch(f"reread_rows_132x64_8192_p{passes}", "latency", "reread_rows", 132, 64,
                          [{"buffer": "in", "type": "f32", "count": 264 * 8192, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": 264, "init": "zero"},
                           {"value": 8192, "type": "i32"}, {"value": passes, "type": "i32"}],
                          f"one warp per 32 KiB row, {passes} pass(es) over it"))
    # Session 7, third round (after heldout4's blind check): integer atomics on one word, random
    # gathers, barrier levels.
    for lanes, reps in [(1, 16), (32, 1)]:
        out.append(launch(f"atomic_red_u32_l{lanes}_a1_264x256_r{reps}", "atomic", "atomic_red_u32", 264, 256,
                          [{"buffer": "out", "type": "u32", "count": 32, "init": "zero"},
                           {"value": lanes, "type": "u32"}, {"value": 1, "type": "u32"},
                           {"value": reps, "type": "u32"}],
                          f"{lanes} lane(s) of every warp add 1u to one word, {reps} times"))
    out.append(launch("atomic_ret_u32_a1_264x256_r4", "atomic", "atomic_ret_u32", 264, 256,
                      [{"buffer": "out", "type": "u32", "count": 32, "init": "zero"},
                       {"buffer": "sink", "type": "u32", "count": 264 * 256, "init": "zero"},
                       {"value": 1, "type": "u32"}, {"value": 4, "type": "u32"}],
                      "lane 0 of every warp adds 1u to one word and uses the result, 4 times"))
    n = 1 << 24
    for tbl in [1 << 20, 1 << 26]:
        out.append(launch(f"gather_rand_16M_t{tbl >> 20}M", "l2", "gather_rand", n // 256, 256,
                          [{"buffer": "x", "type": "f32", "count": tbl, "init": "iota"},
                           {"buffer": "idx", "type": "u32", "count": n, "init": "random:71"},
                           {"buffer": "out", "type": "f32", "count": n, "init": "zero"},
                           {"value": n, "type": "u32"}, {"value": tbl - 1, "type": "u32"}],
                          f"random 4-byte gathers from a {tbl * 4 >> 20} MiB table"))
    for blocks, levels in [(32768, 1), (32768, 8), (8192, 32)]:
        out.append(launch(f"bar_levels_{blocks}x512_l{levels}", "shared", "bar_levels", blocks, 512,
                          [{"buffer": "in", "type": "f32", "count": blocks * 512, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": blocks, "init": "zero"},
                           {"value": levels, "type": "i32"}],
                          f"512-float tile, {levels} barrier-separated read/add/write levels"))
    # Session 7, fourth round (after heldout5's blind check): POPC and F2I/I2F throughput.
    for kern, ty in [("popc_chains", "u32"), ("cvt_chains", "f32")]:
        for grid, iters in [(264, 64), (264, 256)]:
            out.append(pipe_launch(f"xu_{kern}_{grid}x1024_{iters}", "xu", kern, ty, grid, 1024, iters, [],
                                   f"8 independent {kern.split('_')[0]} chains of {iters} steps per thread"))
    # Launch overhead and block scheduling.
    for grid, block in [(1, 32), (132, 128), (1056, 128), (16384, 256), (65536, 128),
                        (65536, 32), (65536, 256), (65536, 1024)]:
        out.append(launch(f"launch_empty_{grid}x{block}", "launch", "empty_kernel", grid, block,
                          [{"buffer": "out", "type": "u32", "count": 1, "init": "zero"}],
                          f"empty kernel, {grid} blocks of {block}"))
    return out


def store_study():
    """Session 12 (after heldout12's Bayer demosaic): array-of-structs stores, k fields per thread
    written by k separate 4-byte stores, 64 MiB in all. A study of partly written sectors, measured
    (validation/h100/time/measured_store_study.json), not in the fit: see CALIBRATION.md."""
    out = []
    for k in [1, 2, 3, 4, 8]:
        n = 16 * MB // k
        out.append(launch(f"st_fields_k{k}_16M", "store", "st_fields", 1056, 256,
                          [{"buffer": "out", "type": "f32", "count": n * k, "init": "zero"},
                           {"value": n, "type": "u32"}, {"value": k, "type": "u32"}],
                          f"{n} structs of {k} floats, each written with {k} separate stores (grid-stride)"))
    return out


def store_study2():
    """Session 13: which partly written sectors the L1 merges before the L2 (store_study2.cu). 64 MiB
    per launch; F of S fields written per struct, back to back; a few at two warps per SM
    sub-partition (grid 132 x 256) against the full grid. Measured with ncu
    (validation/h100/time/store_study2_ncu.csv), not in the fit: see CALIBRATION.md."""
    out = []
    S2 = "store_study2.cu"
    cfg = [(1, 1), (2, 2), (3, 3), (4, 2), (4, 4), (5, 5), (6, 6), (7, 3), (7, 7), (8, 2), (8, 4), (8, 8),
           (12, 12), (16, 4), (16, 16)]
    for s, f in cfg:
        n = 16 * MB // s
        out.append(launch(f"st_s{s}_f{f}", "store", f"st_s{s}_f{f}", n // 256, 256,
                          [{"buffer": "out", "type": "f32", "count": n * s + 4, "init": "zero"},
                           {"value": n, "type": "u32"}, {"value": 0, "type": "u32"}],
                          f"{n} structs of {s} floats, {f} written by separate back-to-back stores", S2))
    for s, f in [(4, 4), (8, 8), (3, 3)]:
        n = 16 * MB // s
        out.append(launch(f"st_s{s}_f{f}_g132", "store", f"st_s{s}_f{f}", 132, 256,
                          [{"buffer": "out", "type": "f32", "count": n * s + 4, "init": "zero"},
                           {"value": n, "type": "u32"}, {"value": 0, "type": "u32"}],
                          f"as st_s{s}_f{f}, grid-stride over 132 blocks (two warps per sub-partition)", S2))
    # Warps storing at once: grid-stride over 1, 2, 4 and 8 blocks of 8 warps per SM.
    for s in [2, 4, 6, 8]:
        n = 16 * MB // s
        for g in [132, 264, 528, 1056]:
            if (s, g) in [(4, 132), (8, 132)]:
                continue
            out.append(launch(f"st_s{s}_f{s}_g{g}", "store", f"st_s{s}_f{s}", g, 256,
                              [{"buffer": "out", "type": "f32", "count": n * s + 4, "init": "zero"},
                               {"value": n, "type": "u32"}, {"value": 0, "type": "u32"}],
                              f"as st_s{s}_f{s}, grid-stride over {g} blocks ({g // 132 * 8} warps per SM)", S2))
    for s, f in [(3, 3), (2, 2), (4, 4)]:
        n = 32 * MB // s
        out.append(launch(f"st16_s{s}_f{f}", "store", f"st16_s{s}_f{f}", n // 256, 256,
                          [{"buffer": "out", "type": "u16", "count": n * s + 8, "init": "zero"},
                           {"value": n, "type": "u32"}, {"value": 0, "type": "u32"}],
                          f"{n} structs of {s} u16, {f} written by separate back-to-back 2-byte stores", S2))
    for s, f in [(4, 4), (3, 3)]:
        n = 16 * MB // s
        out.append(launch(f"st_sep_s{s}_f{f}", "store", f"st_sep_s{s}_f{f}", n // 256, 256,
                          [{"buffer": "out", "type": "f32", "count": n * s + 4, "init": "zero"},
                           {"value": n, "type": "u32"}, {"value": 0, "type": "u32"},
                           {"value": 0.5, "type": "f32"}],
                          f"as st_s{s}_f{f}, each store after 8 dependent FMAs", S2))
    return out


def store_study3():
    """Session 13: what stops the L1 from merging a warp's consecutive partial-sector stores
    (store_study3.cu: both floats of an 8-byte struct, one change between them). Measured with ncu,
    not in the fit: see CALIBRATION.md."""
    out = []
    S3 = "store_study3.cu"
    n = 8 * MB
    base = [{"buffer": "out", "type": "f32", "count": 2 * n + 4, "init": "zero"}]
    tail = [{"value": n, "type": "u32"}, {"value": 0, "type": "u32"}, {"value": 0, "type": "u32"}]
    for k, why in [("plain", "back to back"), ("branch", "a never-taken branch between"),
                   ("twobase", "the second through another base register"), ("reverse", "second field first"),
                   ("syncwarp", "__syncwarp() between")]:
        out.append(launch(f"st3_{k}", "store", f"st3_{k}", n // 256, 256, base + tail, f"8-byte structs, {why}", S3))
    out.append(launch("st3_load", "store", "st3_load", n // 256, 256,
                      base + [{"buffer": "in", "type": "f32", "count": n, "init": "iota"}] + tail,
                      "8-byte structs, a global load between", S3))
    out.append(launch("st3_other", "store", "st3_other", n // 256, 256,
                      base + [{"buffer": "other", "type": "f32", "count": n, "init": "zero"}] + tail,
                      "8-byte structs, a coalesced store to another array between", S3))
    out.append(launch("st3_loadfree", "store", "st3_loadfree", n // 256, 256,
                      base + [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                              {"buffer": "other", "type": "f32", "count": n, "init": "zero"}] + tail,
                      "8-byte structs, a global load between whose value neither store needs", S3))
    return out


def heldout_suite():
    H = "heldout.cu"
    out = []
    for n in [4096, 1024]:
        out.append(launch(f"heldout_stencil5_{n}", "memory", "stencil5", [n // 32, n // 8, 1], [32, 8, 1],
                          [{"buffer": "in", "type": "f32", "count": n * n, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": n * n, "init": "zero"},
                           {"value": n, "type": "i32"}, {"value": n, "type": "i32"}],
                          "5-point stencil", H))
    n = 1 << 24
    out.append(launch("heldout_reduce_shared_16M", "shared", "reduce_shared", n // 512, 256,
                      [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": n // 512, "init": "zero"},
                       {"value": n, "type": "u32"}], "block tree sum in shared memory", H))
    for n, grid in [(1 << 24, 264), (1 << 18, 1024)]:
        out.append(launch(f"heldout_saxpy_{n // 1024}k_g{grid}", "memory", "saxpy_grid", grid, 256,
                          [{"buffer": "x", "type": "f32", "count": n, "init": "iota"},
                           {"buffer": "y", "type": "f32", "count": n, "init": "iota"},
                           {"value": 2.0, "type": "f32"}, {"value": n, "type": "u32"}],
                          "saxpy, grid-stride", H))
    out.append(launch("heldout_poly_1M_1024", "compute", "poly_eval", 4096, 256,
                      [{"buffer": "in", "type": "f32", "count": 1 << 20, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": 1 << 20, "init": "zero"},
                       {"value": 1 << 20, "type": "u32"}, {"value": 1024, "type": "u32"}],
                      "Horner polynomial, degree 1024", H))
    out.append(launch("heldout_tile_columns_1024", "shared", "tile_columns", 1024, 256,
                      [{"buffer": "in", "type": "f32", "count": 1024 * 1024, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": 1024 * 256, "init": "zero"},
                       {"value": 128, "type": "u32"}], "32-way conflicted column reads", H))
    out.append(launch("heldout_rowsum_thread_2048x4096", "latency", "rowsum_thread", 8, 256,
                      [{"buffer": "a", "type": "f32", "count": 2048 * 4096, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": 2048, "init": "zero"},
                       {"value": 2048, "type": "i32"}, {"value": 4096, "type": "i32"}],
                      "row sums, one thread per row (8 blocks)", H))
    out.append(launch("heldout_colsum_thread_4096x4096", "latency", "colsum_thread", 16, 256,
                      [{"buffer": "a", "type": "f32", "count": 4096 * 4096, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": 4096, "init": "zero"},
                       {"value": 4096, "type": "i32"}, {"value": 4096, "type": "i32"}],
                      "column sums, one thread per column (16 blocks)", H))
    n = 1 << 24
    out.append(launch("heldout_tile_gather_16M", "memory", "tile_gather", n // 256, 256,
                      [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": n, "init": "zero"},
                       {"value": n, "type": "u32"}], "strided gather inside 4 KiB tiles", H))
    n = 1 << 24
    out.append(launch("heldout_scan_block_16M", "shared", "scan_block", n // 512, 512,
                      [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                       {"buffer": "out", "type": "f32", "count": n, "init": "zero"},
                       {"value": n, "type": "u32"}], "inclusive scan of 512-element tiles", H))
    for n in [1 << 24, 1 << 20]:
        out.append(launch(f"heldout_stencil1d_shared_{n >> 20}M", "memory", "stencil1d_shared", n // 256, 256,
                          [{"buffer": "in", "type": "f32", "count": n, "init": "iota"},
                           {"buffer": "out", "type": "f32", "count": n, "init": "zero"},
                           {"value": n, "type": "u32"}], "1-D stencil, radius 4, shared tile", H))
    return out


def main():
    for name, suite in [("timing.json", timing_suite()), ("heldout.json", heldout_suite()),
                        ("store_study.json", store_study()),
                        ("store_study2.json", store_study2()),
                        ("store_study3.json", store_study3())]:
        with open(os.path.join(HERE, name), "w") as f:
            json.dump({"launches": suite}, f, indent=1)
            f.write("\n")
        print(f"{name}: {len(suite)} launches")


if __name__ == "__main__":
    main()

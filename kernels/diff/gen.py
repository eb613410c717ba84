#!/usr/bin/env python3
"""Generates the differential suite of the SASS engine (kernels/diff/): one kernel per opcode
family that computes many operations per thread on random and edge-case inputs and stores every
result (as 32-bit words) to `out`, slot-major: out[slot * N + thread].

Writes, deterministically (fixed seed):
  diff_*.cu      the kernels (extern "C", one launch each)
  in_*.bin       input buffers (3 * N words, or 3 * N double words): a = in[i], b = in[N + i],
                 c = in[2N + i]; the first threads take all pairs of edge values, the rest random
  diff.json      the suite (`warplens probe kernels/diff/diff.json --save-outputs DIR` on a GPU)
  slots.json     per launch: slot names and tolerances (exact unless the slot says ulp/abs)

The GPU's outputs are recorded under validation/<device>/diff/ and compared bit for bit with the
SASS engine by tests/sassemu (DiffSuiteTest). Run: python3 kernels/diff/gen.py
"""
import json
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
N = 1024          # threads per launch (4 blocks of 256)
BLOCK = 256
rng = random.Random(20261123)

# ---- inputs ---------------------------------------------------------------------------------

INT_EDGES = [0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0xff, 0x8000, 0xffff, 0x10000,
             0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xfffffff9,
             0x12345678, 0xdeadbeef, 0x0000ffff, 0xaaaaaaaa, 0x55555555, 0x40000000]


def f32bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f64bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


FLOAT_EDGES = [0x00000000, 0x80000000, f32bits(1.0), f32bits(-1.0), f32bits(0.5), f32bits(1.5),
               f32bits(2.5), f32bits(-2.5), f32bits(-0.5), f32bits(3.0), 0x7f800000, 0xff800000,
               0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff, 0x00000001, 0x007fffff, 0x80000001,
               0x00800000, 0x7f7fffff, 0xff7fffff, f32bits(2147483648.0), f32bits(-2147483648.0),
               f32bits(4294967296.0), f32bits(2147483520.0), f32bits(0.49999997),
               f32bits(8388607.5), f32bits(16777217.0 - 1), f32bits(1e30), f32bits(65504.0),
               f32bits(65520.0), f32bits(6e-8), f32bits(1.0 / 3), f32bits(-9.2233720e18)]

DOUBLE_EDGES = [0, 1 << 63, f64bits(1.0), f64bits(-1.0), f64bits(0.5), f64bits(1.5), f64bits(2.5),
                f64bits(-2.5), f64bits(3.0), 0x7ff0000000000000, 0xfff0000000000000,
                0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x0000000000000001,
                0x000fffffffffffff, 0x8000000000000001, 0x0010000000000000, 0x7fefffffffffffff,
                f64bits(2147483648.0), f64bits(-2147483649.0), f64bits(4294967296.0),
                f64bits(9.2233720368547758e18), f64bits(1.8446744073709552e19), f64bits(1e300),
                f64bits(1.0 / 3), f64bits(3.4028235677973366e38), f64bits(1e-40), f64bits(0.1),
                f64bits(-7.0)]


def rand_float_bits():
    k = rng.random()
    if k < 0.5:   # moderate values of either sign
        return f32bits(rng.uniform(-1000, 1000)) if rng.random() < 0.5 else f32bits(rng.uniform(-2, 2))
    if k < 0.8:   # any exponent
        return rng.getrandbits(32)
    if k < 0.9:   # near integers / halves (rounding ties)
        return f32bits(rng.randint(-10 ** 6, 10 ** 6) + rng.choice([0.0, 0.5, 0.25, 0.75]))
    return rng.choice(FLOAT_EDGES) ^ rng.getrandbits(2)   # neighbours of edges


def rand_double_bits():
    k = rng.random()
    if k < 0.5:
        return f64bits(rng.uniform(-1000, 1000)) if rng.random() < 0.5 else f64bits(rng.uniform(-2, 2))
    if k < 0.8:
        return rng.getrandbits(64)
    if k < 0.9:
        return f64bits(rng.randint(-10 ** 12, 10 ** 12) + rng.choice([0.0, 0.5, 0.25]))
    return rng.choice(DOUBLE_EDGES) ^ rng.getrandbits(2)


def rand_int():
    k = rng.random()
    if k < 0.5:
        return rng.getrandbits(32)
    if k < 0.7:
        return rng.randint(0, 100)
    if k < 0.85:
        return (-rng.randint(1, 100)) & 0xffffffff
    return rng.choice(INT_EDGES) ^ rng.getrandbits(1)


def triples(edges, rand):
    """a, b, c for N threads: every (a, b) pair of edges first, c cycling; then random."""
    a, b, c = [], [], []
    e = len(edges)
    for i in range(N):
        if i < e * e:
            a.append(edges[i % e])
            b.append(edges[i // e])
            c.append(edges[(i * 7 + 3) % e])
        else:
            a.append(rand())
            b.append(rand())
            c.append(rand())
    return a + b + c


def write_bin(name, words, fmt):
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(struct.pack('<%d%s' % (len(words), fmt), *words))


def mufu_arg():
    k = rng.random()
    if k < 0.6:
        return f32bits(rng.uniform(-20, 20))
    if k < 0.8:
        return f32bits(rng.uniform(0, 4))
    return f32bits(rng.uniform(-100, 100))


INT_EDGES = INT_EDGES[:30]
write_bin('in_int.bin', triples(INT_EDGES, rand_int), 'I')
write_bin('in_float.bin', triples(FLOAT_EDGES[:32], rand_float_bits), 'I')
write_bin('in_double.bin', triples(DOUBLE_EDGES, rand_double_bits), 'Q')
# MUFU arguments: a moderate range (the documented error bounds hold there) plus edges
MUFU_EDGES = [0x00000000, 0x80000000, f32bits(1.0), f32bits(-1.0), f32bits(0.5), 0x7f800000,
              0xff800000, 0x7fc00000, 0x00000001, 0x807fffff, 0x00800000, f32bits(2.0), f32bits(4.0),
              f32bits(1e-3), f32bits(-126.0), f32bits(127.5), f32bits(-150.0), f32bits(88.0)]
write_bin('in_mufu.bin', triples(MUFU_EDGES, mufu_arg), 'I')

# ---- kernels --------------------------------------------------------------------------------

PRELUDE = r'''// Generated by kernels/diff/gen.py: do not edit. Differential test of the SASS engine:
// every slot is one operation on (a, b, c) of thread i, stored as 32-bit words at out[slot*N + i].
#include <cstdint>
#include <cuda_fp16.h>
#pragma nv_diag_suppress 177, 550
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;
#define N %d
static __device__ __forceinline__ u32 f2u(float x) { return __float_as_uint(x); }
static __device__ __forceinline__ float u2f(u32 x) { return __uint_as_float(x); }
#define PTX1(op, a) ({ u32 r_; asm(op " %%0, %%1;" : "=r"(r_) : "r"(a)); r_; })
#define PTX2(op, a, b) ({ u32 r_; asm(op " %%0, %%1, %%2;" : "=r"(r_) : "r"(a), "r"(b)); r_; })
#define PTX3(op, a, b, c) ({ u32 r_; asm(op " %%0, %%1, %%2, %%3;" : "=r"(r_) : "r"(a), "r"(b), "r"(c)); r_; })
#define PTX4(op, a, b, c, d) ({ u32 r_; asm(op " %%0, %%1, %%2, %%3, %%4;" : "=r"(r_) : "r"(a), "r"(b), "r"(c), "r"(d)); r_; })
#define PTXL2(op, a, b) ({ u64 r_; asm(op " %%0, %%1, %%2;" : "=l"(r_) : "l"(a), "r"(b)); r_; })
#define PTXF1(op, a) ({ float r_; asm(op " %%0, %%1;" : "=f"(r_) : "f"(a)); r_; })
#define PTXF2(op, a, b) ({ float r_; asm(op " %%0, %%1, %%2;" : "=f"(r_) : "f"(a), "f"(b)); r_; })
#define PTXF3(op, a, b, c) ({ float r_; asm(op " %%0, %%1, %%2, %%3;" : "=f"(r_) : "f"(a), "f"(b), "f"(c)); r_; })
''' % N

# A kernel: (name, signature kind, locals, [(slot name, expr, kind[, tolerance])]).
# kind: 'u32' (one word), 'u64' (two words: lo, hi), 'f32' (float → bits), 'f64' (two words).
KERNELS = []


def kernel(name, inp, locals_, slots, block_extra=''):
    KERNELS.append((name, inp, locals_, slots, block_extra))


INT_LOCALS = '''  u32 a = in[i], b = in[N + i], c = in[2 * N + i];
  s32 sa = (s32)a, sb = (s32)b, sc = (s32)c;
  u64 A = ((u64)b << 32) | a, B = ((u64)c << 32) | b, C = ((u64)a << 32) | c;
  s64 SA = (s64)A, SB = (s64)B;
'''

kernel('diff_int_arith', 'int', INT_LOCALS, [
    ('mul32', 'a * b', 'u32'),
    ('mad32', 'a * b + c', 'u32'),
    ('mulhi_u32', '__umulhi(a, b)', 'u32'),
    ('mulhi_s32', '(u32)__mulhi(sa, sb)', 'u32'),
    ('mulwide_u32', '(u64)a * b', 'u64'),
    ('mulwide_s32', '(u64)((s64)sa * sb)', 'u64'),
    ('madwide_u32', '(u64)a * b + B', 'u64'),
    ('madwide_s32', '(u64)((s64)sa * sb + SB)', 'u64'),
    ('mul64', 'A * B', 'u64'),
    ('mul64hi_u', '__umul64hi(A, B)', 'u64'),
    ('mul64hi_s', '(u64)__mul64hi(SA, SB)', 'u64'),
    ('add64', 'A + B', 'u64'),
    ('sub64', 'A - B', 'u64'),
    ('neg64', '0 - A', 'u64'),
    ('add64_s32', '(u64)(SA + sc)', 'u64'),
    ('add64_u32', 'A + c', 'u64'),
    ('sub64_u32', 'A - c', 'u64'),
    ('add3', 'a + b + c', 'u32'),
    ('sub3', 'a - b - c', 'u32'),
    ('addsub', 'a - b + c', 'u32'),
    ('neg_sub', '0u - a - b', 'u32'),
    ('add_cc_lo', 'PTX2("add.cc.u32", a, b)', 'u32'),
    ('add96', '({ u32 r0, r1, r2; asm("add.cc.u32 %0, %3, %6; addc.cc.u32 %1, %4, %7; addc.u32 %2, %5, %8;" : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c), "r"(c), "r"(a), "r"(b)); r0 ^ (r1 * 3) ^ (r2 * 7); })', 'u32'),
    ('add96_hi', '({ u32 r0, r1, r2; asm("add.cc.u32 %0, %3, %6; addc.cc.u32 %1, %4, %7; addc.u32 %2, %5, %8;" : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c), "r"(b), "r"(b), "r"(a)); r2; })', 'u32'),
    ('sub96', '({ u32 r0, r1, r2; asm("sub.cc.u32 %0, %3, %6; subc.cc.u32 %1, %4, %7; subc.u32 %2, %5, %8;" : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c), "r"(c), "r"(a), "r"(b)); r0 ^ (r1 * 3) ^ (r2 * 7); })', 'u32'),
    ('sub96_hi', '({ u32 r0, r1, r2; asm("sub.cc.u32 %0, %3, %6; subc.cc.u32 %1, %4, %7; subc.u32 %2, %5, %8;" : "=r"(r0), "=r"(r1), "=r"(r2) : "r"(a), "r"(b), "r"(c), "r"(b), "r"(c), "r"(a)); r2; })', 'u32'),
    ('madcc', '({ u32 r0, r1; asm("mad.lo.cc.u32 %0, %2, %3, %4; madc.hi.u32 %1, %2, %3, %5;" : "=r"(r0), "=r"(r1) : "r"(a), "r"(b), "r"(c), "r"(a)); r0 ^ r1; })', 'u32'),
    ('lea8', 'a * 8 + b', 'u32'),
    ('lea4c', 'c * 4 + a', 'u32'),
    ('lea_hi_u', '(u64)a * 16 + B', 'u64'),
    ('lea_hi_sx32', '(u64)(((s64)sa << 3) + SB)', 'u64'),
    ('lea_hi_x', 'A + ((u64)c << 2)', 'u64'),
    ('index_s', '(u64)(SB + (s64)sa * 4)', 'u64'),
    ('index_u', 'B + (u64)a * 8', 'u64'),
    ('mulc1', 'a * 0x12345u', 'u32'),
    ('mulc2', '(u32)(sa * -7)', 'u32'),
    ('mulc3', '(u32)(sa * 3 + 1)', 'u32'),
    ('mulc64', 'A * 0x100000001ull', 'u64'),
    ('sad_s', '__sad(sa, sb, c)', 'u32'),
    ('sad_u', '__usad(a, b, c)', 'u32'),
    ('hadd_s', '(u32)__hadd(sa, sb)', 'u32'),
    ('rhadd_s', '(u32)__rhadd(sa, sb)', 'u32'),
    ('hadd_u', '__uhadd(a, b)', 'u32'),
    ('rhadd_u', '__urhadd(a, b)', 'u32'),
    ('addc_big', 'a + 0x7fffffffu', 'u32'),
    ('mul24', '(u32)__mul24(sa, sb)', 'u32'),
    ('umul24', '__umul24(a, b)', 'u32'),
])

kernel('diff_int_div', 'int', INT_LOCALS, [
    ('div_u32', 'a / b', 'u32'),
    ('rem_u32', 'a % b', 'u32'),
    ('div_s32', '(u32)(sa / sb)', 'u32'),
    ('rem_s32', '(u32)(sa % sb)', 'u32'),
    ('div_u64', 'A / B', 'u64'),
    ('rem_u64', 'A % B', 'u64'),
    ('div_s64', '(u64)(SA / SB)', 'u64'),
    ('rem_s64', '(u64)(SA % SB)', 'u64'),
    ('div_u64_small', 'A / (u64)(b | 1)', 'u64'),
    ('div_c7', 'a / 7', 'u32'),
    ('div_sc7', '(u32)(sa / 7)', 'u32'),
    ('rem_c10', 'a % 10', 'u32'),
    ('div_scm3', '(u32)(sa / -3)', 'u32'),
    ('rem_sc5', '(u32)(sa % 5)', 'u32'),
    ('div64_c10', 'A / 10', 'u64'),
    ('div64_sc3', '(u64)(SA / 3)', 'u64'),
    ('div_pow2_s', '(u32)(sa / 16)', 'u32'),
    ('rem_pow2_s', '(u32)(sa % 16)', 'u32'),
])

kernel('diff_int_logic', 'int', INT_LOCALS, [
    ('and', 'a & b', 'u32'), ('or', 'a | b', 'u32'), ('xor', 'a ^ b', 'u32'), ('not', '~a', 'u32'),
    ('andn', 'a & ~b', 'u32'), ('andor', '(a & b) | c', 'u32'), ('xorand', '(a ^ b) & c', 'u32'),
    ('xor3', 'a ^ b ^ c', 'u32'), ('orandn', '(a | b) & ~c', 'u32'), ('andxorn', '(a & b) ^ ~c', 'u32'),
    ('nor3', '~(a | b | c)', 'u32'), ('maj', '(a & b) | (b & c) | (a & c)', 'u32'),
    ('ch', '(a & b) ^ (~a & c)', 'u32'), ('lop3_ptx', '({ u32 r_, q_; asm("lop3.b32 %0, %2, %3, %4, 0x96; lop3.b32 %1, %3, %4, %2, 0x1e;" : "=r"(r_), "=r"(q_) : "r"(a), "r"(b), "r"(c)); r_ * 5 + q_; })', 'u32'),
    ('and64', 'A & ~B', 'u64'), ('xor64', 'A ^ C', 'u64'),
    ('shl_m', 'a << (c & 31)', 'u32'), ('shr_m', 'a >> (c & 31)', 'u32'), ('sar_m', '(u32)(sa >> (c & 31))', 'u32'),
    ('shl_ptx', 'PTX2("shl.b32", a, c)', 'u32'),
    ('shr_ptx', 'PTX2("shr.u32", a, c)', 'u32'),
    ('sar_ptx', 'PTX2("shr.s32", a, c)', 'u32'),
    ('shl64_ptx', 'PTXL2("shl.b64", A, c)', 'u64'),
    ('shr64_ptx', 'PTXL2("shr.u64", A, c)', 'u64'),
    ('sar64_ptx', 'PTXL2("shr.s64", A, c)', 'u64'),
    ('shl64_m', 'A << (c & 63)', 'u64'),
    ('shr64_m', 'A >> (c & 63)', 'u64'),
    ('sar64_m', '(u64)(SA >> (c & 63))', 'u64'),
    ('shl64_40', 'A << 40', 'u64'), ('shr64_33', 'A >> 33', 'u64'),
    ('sar64_40', '(u64)(SA >> 40)', 'u64'), ('sar64_31', '(u64)(SA >> 31)', 'u64'),
    ('sar64_63', '(u64)(SA >> 63)', 'u64'), ('shl64_1', 'A << 1', 'u64'), ('shl_31', 'a << 31', 'u32'),
    ('fsh_l', '__funnelshift_l(a, b, c)', 'u32'), ('fsh_lc', '__funnelshift_lc(a, b, c)', 'u32'),
    ('fsh_r', '__funnelshift_r(a, b, c)', 'u32'), ('fsh_rc', '__funnelshift_rc(a, b, c)', 'u32'),
    ('rotl', '(a << (c & 31)) | (a >> ((32 - c) & 31))', 'u32'),
    ('shf_l_wrap', 'PTX3("shf.l.wrap.b32", a, b, c)', 'u32'),
    ('shf_r_clamp', 'PTX3("shf.r.clamp.b32", a, b, c)', 'u32'),
])

kernel('diff_int_bits', 'int', INT_LOCALS, [
    ('popc', '(u32)__popc(a)', 'u32'), ('popc64', '(u32)__popcll(A)', 'u32'),
    ('clz', '(u32)__clz(sa)', 'u32'), ('clz64', '(u32)__clzll(SA)', 'u32'),
    ('ffs', '(u32)__ffs(sa)', 'u32'), ('ffs64', '(u32)__ffsll(SA)', 'u32'),
    ('brev', '__brev(a)', 'u32'), ('brev64', '__brevll(A)', 'u64'),
    ('bfind_u', 'PTX1("bfind.u32", a)', 'u32'), ('bfind_s', 'PTX1("bfind.s32", a)', 'u32'),
    ('bfind_sh', 'PTX1("bfind.shiftamt.u32", a)', 'u32'),
    ('bfe_u', 'PTX3("bfe.u32", a, b & 63, c & 63)', 'u32'),
    ('bfe_s', 'PTX3("bfe.s32", a, b & 63, c & 63)', 'u32'),
    ('bfe_u_raw', 'PTX3("bfe.u32", a, b, c)', 'u32'),
    ('bfi', 'PTX4("bfi.b32", a, b, c & 63, (c >> 8) & 63)', 'u32'),
    ('bmsk_clamp', 'PTX2("bmsk.clamp.b32", b & 63, c & 63)', 'u32'),
    ('bmsk_wrap', 'PTX2("bmsk.wrap.b32", b, c)', 'u32'),
    ('szext_s_clamp', 'PTX2("szext.clamp.s32", a, c & 63)', 'u32'),
    ('szext_u_clamp', 'PTX2("szext.clamp.u32", a, c & 63)', 'u32'),
    ('szext_s_wrap', 'PTX2("szext.wrap.s32", a, c)', 'u32'),
    ('prmt', 'PTX3("prmt.b32", a, b, c)', 'u32'),
    ('byte_perm', '__byte_perm(a, b, c)', 'u32'),
    ('byte_perm_k', '__byte_perm(a, b, 0x3210) ^ __byte_perm(a, b, 0x7531)', 'u32'),
    ('sext8', '(u32)(s32)(signed char)a', 'u32'), ('sext16', '(u32)(s32)(short)a', 'u32'),
    ('zext8', '(u32)(unsigned char)b', 'u32'),
    ('sext8_64', '(u64)(s64)(signed char)a', 'u64'),
])

kernel('diff_prmt_modes', 'int', INT_LOCALS, [
    ('prmt_f4e', 'PTX3("prmt.b32.f4e", a, b, c)', 'u32'),
    ('prmt_b4e', 'PTX3("prmt.b32.b4e", a, b, c)', 'u32'),
    ('prmt_rc8', 'PTX3("prmt.b32.rc8", a, b, c)', 'u32'),
    ('prmt_ecl', 'PTX3("prmt.b32.ecl", a, b, c)', 'u32'),
    ('prmt_ecr', 'PTX3("prmt.b32.ecr", a, b, c)', 'u32'),
    ('prmt_rc16', 'PTX3("prmt.b32.rc16", a, b, c)', 'u32'),
])

kernel('diff_int_cmp', 'int', INT_LOCALS, [
    ('cmp_s32', '(u32)((sa < sb) | (sa <= sb) << 1 | (sa > sb) << 2 | (sa >= sb) << 3 | (sa == sb) << 4 | (sa != sb) << 5)', 'u32'),
    ('cmp_u32', '(u32)((a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5)', 'u32'),
    ('cmp_s64', '(u32)((SA < SB) | (SA <= SB) << 1 | (SA > SB) << 2 | (SA >= SB) << 3 | (SA == SB) << 4 | (SA != SB) << 5)', 'u32'),
    ('cmp_u64', '(u32)((A < B) | (A <= B) << 1 | (A > B) << 2 | (A >= B) << 3 | (A == B) << 4 | (A != B) << 5)', 'u32'),
    ('cmp_k', '(u32)((sa < 0) | (a > 100u) << 1 | (SA < 0) << 2 | (A > 0xffffffffull) << 3 | (sa >= -5) << 4)', 'u32'),
    ('cmp_chain_and', '(u32)(sa < sb && sb < sc)', 'u32'),
    ('cmp_chain_or', '(u32)(a < b || c == 0)', 'u32'),
    ('cmp_chain_xor', '(u32)((sa < sb) ^ (b < c))', 'u32'),
    ('sel', 'sa < sb ? a : c', 'u32'), ('sel2', 'a == b ? c : (b ^ c)', 'u32'),
    ('sel64', 'SA < SB ? A : B', 'u64'),
    ('min_s', '(u32)min(sa, sb)', 'u32'), ('max_s', '(u32)max(sa, sb)', 'u32'),
    ('min_u', 'min(a, b)', 'u32'), ('max_u', 'max(a, b)', 'u32'),
    ('min_s64', '(u64)min(SA, SB)', 'u64'), ('max_u64', 'max(A, B)', 'u64'),
    ('abs_s', '(u32)abs(sa)', 'u32'), ('abs_s64', '(u64)llabs(SA)', 'u64'),
    ('clamp', '(u32)min(max(sa, -100), 100)', 'u32'),
    ('min3', '(u32)min(min(sa, sb), sc)', 'u32'),
    ('iszero64', '(u32)(A == 0)', 'u32'),
])

FLOAT_LOCALS = '''  u32 ua = in[i], ub = in[N + i], uc = in[2 * N + i];
  float a = u2f(ua), b = u2f(ub), c = u2f(uc);
'''

kernel('diff_float_arith', 'int', FLOAT_LOCALS, [
    ('add', 'a + b', 'f32'), ('sub', 'a - b', 'f32'), ('mul', 'a * b', 'f32'), ('fma', 'fmaf(a, b, c)', 'f32'),
    ('add_rz', '__fadd_rz(a, b)', 'f32'), ('add_rd', '__fadd_rd(a, b)', 'f32'), ('add_ru', '__fadd_ru(a, b)', 'f32'),
    ('mul_rz', '__fmul_rz(a, b)', 'f32'), ('mul_rd', '__fmul_rd(a, b)', 'f32'), ('mul_ru', '__fmul_ru(a, b)', 'f32'),
    ('fma_rz', '__fmaf_rz(a, b, c)', 'f32'), ('fma_rd', '__fmaf_rd(a, b, c)', 'f32'), ('fma_ru', '__fmaf_ru(a, b, c)', 'f32'),
    ('add_ftz', 'PTXF2("add.ftz.f32", a, b)', 'f32'), ('mul_ftz', 'PTXF2("mul.ftz.f32", a, b)', 'f32'),
    ('fma_ftz', 'PTXF3("fma.rn.ftz.f32", a, b, c)', 'f32'),
    ('add_sat', 'PTXF2("add.sat.f32", a, b)', 'f32'), ('mul_sat', 'PTXF2("mul.sat.f32", a, b)', 'f32'),
    ('fma_sat', 'PTXF3("fma.rn.sat.f32", a, b, c)', 'f32'),
    ('mul_add', '__fmul_rn(a, b) + c', 'f32'), ('neg_mul', '-(a * b)', 'f32'),
    ('abs', 'fabsf(a)', 'f32'), ('neg', '-a', 'f32'), ('copysign', 'copysignf(a, b)', 'f32'),
    ('abs_add', 'fabsf(a) + fabsf(b)', 'f32'), ('sub_abs', 'a - fabsf(b)', 'f32'),
    ('fmin', 'fminf(a, b)', 'f32'), ('fmax', 'fmaxf(a, b)', 'f32'),
    ('fmin_nan', 'PTXF2("min.NaN.f32", a, b)', 'f32'), ('fmax_nan', 'PTXF2("max.NaN.f32", a, b)', 'f32'),
    ('fmin_ftz', 'PTXF2("min.ftz.f32", a, b)', 'f32'),
    ('mul_k', 'a * 3.0f', 'f32'), ('add_k', 'a + 0.1f', 'f32'), ('fma_k', 'fmaf(a, 2.0f, -1.0f)', 'f32'),
    ('mul_half', 'a * 0.5f', 'f32'),
])

kernel('diff_float_cmp', 'int', FLOAT_LOCALS, [
    ('cmp_ord', '(u32)((a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5)', 'u32'),
    ('cmp_unord', '(u32)(!(a >= b) | !(a > b) << 1 | !(a <= b) << 2 | !(a < b) << 3 | !(a < b || a > b) << 4 | (isnan(a) || isnan(b)) << 5 | !(isnan(a) || isnan(b)) << 6)', 'u32'),
    ('cmp_ftz', '({ u32 r_; asm("{ .reg .pred p; setp.lt.ftz.f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r_) : "f"(a), "f"(b)); r_; })', 'u32'),
    ('isnan', '(u32)isnan(a)', 'u32'), ('isinf', '(u32)isinf(a)', 'u32'), ('isfinite', '(u32)isfinite(a)', 'u32'),
    ('signbit', '(u32)signbit(a)', 'u32'),
    ('fsel', 'a > b ? a : c', 'f32'), ('fsel2', 'a == c ? b : c', 'f32'),
    ('clampf', 'fminf(fmaxf(a, -1.0f), 1.0f)', 'f32'),
    ('cmp_k', '(u32)((a < 0.0f) | (a > 1.0f) << 1 | (a == 0.0f) << 2 | (a != a) << 3)', 'u32'),
    ('saturate', '__saturatef(a)', 'f32'),
])

kernel('diff_float_div', 'int', FLOAT_LOCALS, [
    ('div', 'a / b', 'f32'), ('div_rz', '__fdiv_rz(a, b)', 'f32'), ('div_rd', '__fdiv_rd(a, b)', 'f32'),
    ('div_ru', '__fdiv_ru(a, b)', 'f32'),
    ('rcp', '__frcp_rn(a)', 'f32'), ('rcp_rz', '__frcp_rz(a)', 'f32'),
    ('sqrt', 'sqrtf(a)', 'f32'), ('sqrt_rz', '__fsqrt_rz(a)', 'f32'), ('sqrt_ru', '__fsqrt_ru(a)', 'f32'),
    ('div_k', 'a / 3.0f', 'f32'), ('k_div', '1.0f / b', 'f32'),
    ('div_full', 'PTXF2("div.full.f32", a, b)', 'f32', {'ulp': 2}),
    ('fdividef', '__fdividef(a, b)', 'f32', {'ulp': 2}),
])

kernel('diff_mufu', 'mufu', FLOAT_LOCALS, [
    ('ex2', 'PTXF1("ex2.approx.ftz.f32", a)', 'f32', {'ulp': 2}),
    ('ex2_noftz', 'PTXF1("ex2.approx.f32", a)', 'f32', {'ulp': 2}),
    ('lg2', 'PTXF1("lg2.approx.ftz.f32", a)', 'f32', {'ulp': 2, 'abs': 2 ** -22}),
    ('sin', 'PTXF1("sin.approx.ftz.f32", a)', 'f32', {'abs': 2 ** -20}),
    ('cos', 'PTXF1("cos.approx.ftz.f32", a)', 'f32', {'abs': 2 ** -20}),
    ('rcp', 'PTXF1("rcp.approx.ftz.f32", a)', 'f32', {'ulp': 1}),
    ('rsqrt', 'PTXF1("rsqrt.approx.ftz.f32", a)', 'f32', {'ulp': 2}),
    ('sqrt', 'PTXF1("sqrt.approx.ftz.f32", a)', 'f32', {'ulp': 2}),
    ('tanh', 'PTXF1("tanh.approx.f32", a)', 'f32', {'ulp': 2048, 'abs': 2 ** -10}),
    ('expf', '__expf(b)', 'f32', {'ulp': 64}),
    ('logf', '__logf(fabsf(b))', 'f32', {'ulp': 4, 'abs': 2 ** -21}),
    ('rsqrtf', 'rsqrtf(fabsf(c))', 'f32', {'ulp': 2}),
])

kernel('diff_half', 'int', FLOAT_LOCALS, [
    ('h2f_lo', '__half2float(__ushort_as_half((unsigned short)ua))', 'f32'),
    ('h2f_hi', '__half2float(__ushort_as_half((unsigned short)(ua >> 16)))', 'f32'),
    ('f2h_rn', '(u32)__half_as_ushort(__float2half_rn(a))', 'u32'),
    ('f2h_rz', '(u32)__half_as_ushort(__float2half_rz(a))', 'u32'),
    ('hadd', '(u32)__half_as_ushort(__hadd(__ushort_as_half((unsigned short)ua), __ushort_as_half((unsigned short)ub)))', 'u32'),
    ('hmul', '(u32)__half_as_ushort(__hmul(__ushort_as_half((unsigned short)ua), __ushort_as_half((unsigned short)ub)))', 'u32'),
    ('hfma', '(u32)__half_as_ushort(__hfma(__ushort_as_half((unsigned short)ua), __ushort_as_half((unsigned short)ub), __ushort_as_half((unsigned short)uc)))', 'u32'),
    ('hadd2', '({ __half2 x_ = *(const __half2 *)&ua, y_ = *(const __half2 *)&ub; __half2 r_ = __hadd2(x_, y_); *(u32 *)&r_; })', 'u32'),
    ('hfma2', '({ __half2 x_ = *(const __half2 *)&ua, y_ = *(const __half2 *)&ub, z_ = *(const __half2 *)&uc; __half2 r_ = __hfma2(x_, y_, z_); *(u32 *)&r_; })', 'u32'),
])

DOUBLE_LOCALS = '''  u64 ua = in[i], ub = in[N + i], uc = in[2 * N + i];
  double a = __longlong_as_double((long long)ua), b = __longlong_as_double((long long)ub), c = __longlong_as_double((long long)uc);
'''

kernel('diff_double', 'double', DOUBLE_LOCALS, [
    ('add', 'a + b', 'f64'), ('sub', 'a - b', 'f64'), ('mul', 'a * b', 'f64'), ('fma', 'fma(a, b, c)', 'f64'),
    ('add_rz', '__dadd_rz(a, b)', 'f64'), ('add_rd', '__dadd_rd(a, b)', 'f64'), ('add_ru', '__dadd_ru(a, b)', 'f64'),
    ('mul_rz', '__dmul_rz(a, b)', 'f64'), ('mul_ru', '__dmul_ru(a, b)', 'f64'),
    ('fma_rz', '__fma_rz(a, b, c)', 'f64'), ('fma_rd', '__fma_rd(a, b, c)', 'f64'),
    ('neg', '-a', 'f64'), ('abs', 'fabs(a)', 'f64'), ('abs_add', 'fabs(a) + b', 'f64'),
    ('fmin', 'fmin(a, b)', 'f64'), ('fmax', 'fmax(a, b)', 'f64'),
    ('cmp_ord', '(u32)((a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5)', 'u32'),
    ('cmp_unord', '(u32)(!(a >= b) | !(a > b) << 1 | !(a <= b) << 2 | !(a < b) << 3 | (isnan(a) || isnan(b)) << 5)', 'u32'),
    ('dsel', 'a > b ? a : c', 'f64'),
    ('mul_k', 'a * 3.0', 'f64'), ('add_k', 'a + 0.1', 'f64'),
])

kernel('diff_double_div', 'double', DOUBLE_LOCALS, [
    ('div', 'a / b', 'f64'), ('div_rz', '__ddiv_rz(a, b)', 'f64'), ('div_ru', '__ddiv_ru(a, b)', 'f64'),
    ('rcp', '__drcp_rn(a)', 'f64'), ('sqrt', 'sqrt(a)', 'f64'), ('sqrt_rd', '__dsqrt_rd(a)', 'f64'),
    ('div_k', 'a / 3.0', 'f64'),
])

kernel('diff_convert_f32', 'int', FLOAT_LOCALS, [
    ('f2i_rn', '(u32)__float2int_rn(a)', 'u32'), ('f2i_rz', '(u32)__float2int_rz(a)', 'u32'),
    ('f2i_rd', '(u32)__float2int_rd(a)', 'u32'), ('f2i_ru', '(u32)__float2int_ru(a)', 'u32'),
    ('f2u_rn', '__float2uint_rn(a)', 'u32'), ('f2u_rz', '__float2uint_rz(a)', 'u32'),
    ('f2u_rd', '__float2uint_rd(a)', 'u32'), ('f2u_ru', '__float2uint_ru(a)', 'u32'),
    ('f2ll_rn', '(u64)__float2ll_rn(a)', 'u64'), ('f2ll_rz', '(u64)__float2ll_rz(a)', 'u64'),
    ('f2ull_rd', '(u64)__float2ull_rd(a)', 'u64'), ('f2ull_ru', '(u64)__float2ull_ru(a)', 'u64'),
    ('cast_s32', '(u32)(s32)a', 'u32'), ('cast_u32', '(u32)a', 'u32'), ('cast_s8', '(u32)(s32)(signed char)(s32)a', 'u32'),
    ('f2i_ftz', 'PTX1("cvt.rzi.ftz.s32.f32", ua)', 'u32'),
    ('f2i_s16_sat', '({ short r_; asm("cvt.rni.sat.s16.f32 %0, %1;" : "=h"(r_) : "f"(a)); (u32)(s32)r_; })', 'u32'),
    ('f2i_u8_sat', '({ unsigned short r_; asm("cvt.rzi.sat.u8.f32 %0, %1;" : "=h"(r_) : "f"(a)); (u32)r_; })', 'u32'),
    ('i2f_rn', '__int2float_rn((s32)ub)', 'f32'), ('i2f_rz', '__int2float_rz((s32)ub)', 'f32'),
    ('i2f_rd', '__int2float_rd((s32)ub)', 'f32'), ('i2f_ru', '__int2float_ru((s32)ub)', 'f32'),
    ('u2f_rn', '__uint2float_rn(ub)', 'f32'), ('u2f_rz', '__uint2float_rz(ub)', 'f32'),
    ('u2f_ru', '__uint2float_ru(ub)', 'f32'),
    ('ll2f_rn', '__ll2float_rn((long long)(((u64)ub << 32) | uc))', 'f32'),
    ('ull2f_rz', '__ull2float_rz(((u64)ub << 32) | uc)', 'f32'),
    ('ull2f_ru', '__ull2float_ru(((u64)ub << 32) | uc)', 'f32'),
    ('s8_2f', '(float)(signed char)ub', 'f32'), ('u16_2f', '(float)(unsigned short)ub', 'f32'),
    ('trunc', 'truncf(a)', 'f32'), ('floor', 'floorf(a)', 'f32'), ('ceil', 'ceilf(a)', 'f32'),
    ('rint', 'rintf(a)', 'f32'), ('round', 'roundf(a)', 'f32'), ('frnd_ftz', 'PTXF1("cvt.rni.ftz.f32.f32", a)', 'f32'),
    ('f2d_lo', '(double)a', 'f64'),
    ('f2h_sat', '(u32)__half_as_ushort(__float2half_rn(fminf(a, 1e4f)))', 'u32'),
])

kernel('diff_convert_f64', 'double', DOUBLE_LOCALS, [
    ('d2i_rn', '(u32)__double2int_rn(a)', 'u32'), ('d2i_rz', '(u32)__double2int_rz(a)', 'u32'),
    ('d2i_rd', '(u32)__double2int_rd(a)', 'u32'), ('d2u_ru', '__double2uint_ru(a)', 'u32'),
    ('d2u_rz', '__double2uint_rz(a)', 'u32'),
    ('d2ll_rn', '(u64)__double2ll_rn(a)', 'u64'), ('d2ll_rz', '(u64)__double2ll_rz(a)', 'u64'),
    ('d2ull_rd', '(u64)__double2ull_rd(a)', 'u64'), ('d2ull_rz', '(u64)__double2ull_rz(a)', 'u64'),
    ('d2f_rn', '__double2float_rn(a)', 'f32'), ('d2f_rz', '__double2float_rz(a)', 'f32'),
    ('d2f_rd', '__double2float_rd(a)', 'f32'), ('d2f_ru', '__double2float_ru(a)', 'f32'),
    ('i2d', '__int2double_rn((s32)ub)', 'f64'), ('u2d', '__uint2double_rn((u32)ub)', 'f64'),
    ('ll2d_rn', '__ll2double_rn((long long)ub)', 'f64'), ('ll2d_rz', '__ll2double_rz((long long)ub)', 'f64'),
    ('ull2d_ru', '__ull2double_ru(ub)', 'f64'), ('ull2d_rd', '__ull2double_rd(ub)', 'f64'),
    ('trunc', 'trunc(a)', 'f64'), ('floor', 'floor(a)', 'f64'), ('ceil', 'ceil(a)', 'f64'),
    ('rint', 'rint(a)', 'f64'),
    ('hi', '(u32)__double2hiint(a)', 'u32'), ('lo', '(u32)__double2loint(a)', 'u32'),
])

WARP_LOCALS = '''  u32 a = in[i], b = in[N + i], c = in[2 * N + i];
  const u32 full = 0xffffffffu;
  u32 lane = threadIdx.x & 31;
'''

kernel('diff_warp', 'int', WARP_LOCALS, [
    ('shfl_idx', '__shfl_sync(full, a, b & 31)', 'u32'),
    ('shfl_idx_w8', '__shfl_sync(full, a, b & 15, 8)', 'u32'),
    ('shfl_idx_w16', '__shfl_sync(full, a, c, 16)', 'u32'),
    ('shfl_up', '__shfl_up_sync(full, a, b & 7)', 'u32'),
    ('shfl_up_w8', '__shfl_up_sync(full, a, 3, 8)', 'u32'),
    ('shfl_down', '__shfl_down_sync(full, a, c & 7)', 'u32'),
    ('shfl_down_w4', '__shfl_down_sync(full, a, 1, 4)', 'u32'),
    ('shfl_xor', '__shfl_xor_sync(full, a, 5)', 'u32'),
    ('shfl_xor_w16', '__shfl_xor_sync(full, a, c & 31, 16)', 'u32'),
    ('shfl_u64', '__shfl_sync(full, ((u64)b << 32) | a, lane ^ 3)', 'u64'),
    ('shfl_f', 'f2u(__shfl_down_sync(full, u2f(a), 2))', 'u32'),
    ('any', '(u32)__any_sync(full, a & 1)', 'u32'),
    ('all', '(u32)__all_sync(full, (a & 3) != 3)', 'u32'),
    ('ballot', '__ballot_sync(full, a & 4)', 'u32'),
    ('ballot_div', '({ u32 r_ = 0xdead; if (b & 1) r_ = __ballot_sync(__activemask(), a & 2); r_; })', 'u32'),
    ('activemask_div', '({ u32 r_ = 0xbeef; if (c & 2) r_ = __activemask(); r_; })', 'u32'),
    ('any_div', '({ u32 r_ = 7; if (a & 8) r_ = __any_sync(__activemask(), b & 1); r_; })', 'u32'),
    ('sum_shfl', '({ u32 s_ = a; for (int o_ = 16; o_; o_ >>= 1) s_ += __shfl_xor_sync(full, s_, o_); s_; })', 'u32'),
    ('lanemask', '({ u32 r_; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r_)); r_ ^ lane; })', 'u32'),
])


def words_of(kind):
    return 2 if kind in ('u64', 'f64') else 1


def emit_store(expr, kind, slot):
    if kind == 'u32':
        return '  out[%d * N + i] = (u32)(%s);\n' % (slot, expr)
    if kind == 'f32':
        return '  out[%d * N + i] = f2u(%s);\n' % (slot, expr)
    if kind == 'u64':
        return ('  { u64 v_ = (u64)(%s); out[%d * N + i] = (u32)v_; out[%d * N + i] = (u32)(v_ >> 32); }\n'
                % (expr, slot, slot + 1))
    if kind == 'f64':
        return ('  { u64 v_ = (u64)__double_as_longlong(%s); out[%d * N + i] = (u32)v_; '
                'out[%d * N + i] = (u32)(v_ >> 32); }\n' % (expr, slot, slot + 1))
    raise ValueError(kind)


INPUT_FILE = {'int': 'in_int.bin', 'double': 'in_double.bin', 'mufu': 'in_mufu.bin'}
FLOAT_INPUT = 'in_float.bin'

launches, slots_doc = [], {}
for name, inp, locals_, slots, extra in KERNELS:
    is_double = inp == 'double'
    elem = 'u64' if is_double else 'u32'
    file_in = INPUT_FILE[inp]
    if inp == 'int' and 'float a' in locals_:
        file_in = FLOAT_INPUT
    src = PRELUDE + '\nextern "C" __global__ void %s(const %s *__restrict__ in, u32 *__restrict__ out) {\n' % (name, elem)
    src += '  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;\n' + locals_
    slot, doc = 0, []
    for s in slots:
        sname, expr, kind = s[0], s[1], s[2]
        tol = s[3] if len(s) > 3 else None
        src += emit_store(expr, kind, slot)
        for w in range(words_of(kind)):
            entry = {'slot': slot + w, 'name': sname + ('.lo' if w == 0 else '.hi') * (words_of(kind) == 2),
                     'type': kind}
            if tol and (kind == 'f32' or w == 1):
                entry['tolerance'] = tol
            doc.append(entry)
        slot += words_of(kind)
    src += '}\n'
    fname = name.replace('diff_', '') + '.cu'
    with open(os.path.join(HERE, fname), 'w') as f:
        f.write(src)
    launches.append({
        'name': name, 'source': fname, 'kernel': name, 'grid': [N // BLOCK, 1, 1], 'block': [BLOCK, 1, 1],
        'args': [{'buffer': 'in', 'type': elem, 'count': 3 * N, 'init': 'file:' + file_in},
                 {'buffer': 'out', 'type': 'u32', 'count': slot * N, 'init': 'poison'}]})
    slots_doc[name] = {'threads': N, 'slots': doc}

with open(os.path.join(HERE, 'diff.json'), 'w') as f:
    f.write('{"description": "differential suite of the SASS engine (generated by gen.py): outputs '
            'recorded on a GPU under validation/<device>/diff/, compared bit for bit offline",\n'
            ' "launches": [\n')
    f.write(',\n'.join('  ' + json.dumps(l) for l in launches))
    f.write('\n]}\n')
with open(os.path.join(HERE, 'slots.json'), 'w') as f:
    json.dump(slots_doc, f, indent=1)
    f.write('\n')
print('%d launches, %d output words' % (len(launches), sum(len(d['slots']) * N for d in slots_doc.values())))

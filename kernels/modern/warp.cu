/// \file
/// Modern corpus, warp intrinsics (issue 9): __syncthreads_count/and/or (BAR.RED), redux.sync (REDUX), match.any/all (MATCH), __ffs /
/// __clz / __popc / __brev (FLO, POPC, BREV), activemask (VOTE), cooperative-groups tiles with
/// shuffles, and warp-aggregated atomics. Launch specs: modern.json.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" {

// One output per warp: the sum of its 32 inputs with __reduce_add_sync (REDUX.SUM), then the
// unsigned max and the xor of the lanes' values folded in as a cross-check that cancels out
// only when REDUX.MAX / REDUX.XOR agree with the shuffles below.
__global__ void reduxSum(unsigned *out, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  unsigned s = __reduce_add_sync(0xffffffffu, v);
  unsigned mx = __reduce_max_sync(0xffffffffu, v);
  unsigned x = __reduce_xor_sync(0xffffffffu, v);
  unsigned mx2 = v, x2 = v;
  for (int o = 16; o > 0; o >>= 1) {
    mx2 = max(mx2, __shfl_xor_sync(0xffffffffu, mx2, o));
    x2 ^= __shfl_xor_sync(0xffffffffu, x2, o);
  }
  if ((threadIdx.x & 31) == 0) out[i / 32] = s + (mx - mx2) + (x ^ x2);
}

// Each lane finds the lanes holding the same key (in & 7) with __match_any_sync, takes the key
// from the lowest of them (__ffs) by shuffle and rebuilds its own value: out == in when MATCH,
// FLO and SHFL are right. __match_all_sync on the top bit and __popc/__brev/__clz agree too.
__global__ void matchAnyCopy(unsigned *out, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  unsigned key = v & 7u;
  unsigned peers = __match_any_sync(0xffffffffu, key);
  int leader = __ffs(peers) - 1;
  unsigned k2 = __shfl_sync(0xffffffffu, key, leader);
  int pred = 0;
  unsigned all = __match_all_sync(0xffffffffu, v >> 31 | 2u, &pred);
  unsigned lane = threadIdx.x & 31;
  // popc of the peers below me == my rank among them; brev/clz give the highest peer.
  unsigned rank = __popc(peers & ((1u << lane) - 1));
  int highest = 31 - __clz(peers);
  int highest2 = __ffs(__brev(peers)) - 1;
  bool allOk = pred ? all == __activemask() : all == 0u; // match.all: the mask, or 0 and !pred
  unsigned fix = (allOk ? 0u : 1u) + (unsigned)(highest - (31 - highest2)) +
                 (rank <= lane ? 0u : 1u);
  out[i] = ((v & ~7u) | k2) + fix;
}

// Inclusive prefix sum of each 32-element segment with a cooperative-groups tile of 32 (shfl_up),
// and the 8-lane tiles' totals checked against a tile<8> reduction.
__global__ void cgTileScan(int *out, const int *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int s = v;
  for (int o = 1; o < 32; o <<= 1) {
    int u = tile.shfl_up(s, o);
    if (tile.thread_rank() >= o) s += u;
  }
  int part = v;
  for (int o = 4; o > 0; o >>= 1) part += t8.shfl_down(part, o);
  int t8sum = t8.shfl(part, 0);
  // The 8-lane group's total from the scan: s at its last lane minus s before its first lane.
  int last = tile.shfl(s, tile.thread_rank() | 7);
  int before = tile.shfl(s, (tile.thread_rank() + 31 - tile.thread_rank() % 8) % 32);
  int mine = last - (tile.thread_rank() >= 8 ? before : 0);
  out[i] = s + (mine - t8sum);
}

// Histogram of (in & 15) into 16 bins with warp-aggregated atomics: the lanes with the same bin
// elect their lowest lane, which adds the group's size (one ATOMG per distinct bin per warp).
__global__ void warpAggHistogram(unsigned *bins, const unsigned *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned b = in[i] & 15u;
  unsigned mask = __activemask();
  unsigned peers = __match_any_sync(mask, b);
  int leader = __ffs(peers) - 1;
  if ((threadIdx.x & 31) == leader) atomicAdd(&bins[b], __popc(peers));
}


// Block 256: __syncthreads_count / _and / _or (BAR.RED.POPC/AND/OR + B2R.RESULT) checked against
// the same reductions done with shared-memory atomics: out == in when they agree.
__global__ void syncthreadsCount(int *out, const int *in) {
  __shared__ __align__(16) int red[4]; // count, any negative, any 7 (16 bytes: ptxas reads them as one LDS.128)
  int &cnt = red[0], &anyNeg = red[1], &any7 = red[2];
  if (threadIdx.x == 0) cnt = 0, anyNeg = 0, any7 = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  atomicAdd(&cnt, v & 1);
  if (v < 0) atomicOr(&anyNeg, 1);
  if (v == 7) atomicOr(&any7, 1);
  int c = __syncthreads_count(v & 1);
  int a = __syncthreads_and(v >= 0);
  int o = __syncthreads_or(v == 7);
  out[i] = v + (c - cnt) + (a - (anyNeg ? 0 : 1)) + (o - any7);
}

} // extern "C"

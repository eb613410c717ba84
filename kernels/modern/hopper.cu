/// \file
/// Modern corpus, Hopper (issue 9): thread block clusters with distributed shared memory and
/// cluster barriers, and TMA bulk copies (cp.async.bulk global<->shared completing on an
/// mbarrier / a bulk group). Launch specs: modern.json.
#include <cooperative_groups.h>
#include <cuda.h>
#include <cstdint>

namespace cg = cooperative_groups;

extern "C" {

// Cluster of 2 blocks of 256: each block stores its chunk of `a` into the OTHER block's shared
// memory (st.shared::cluster) and its chunk of `b` into its own; after cluster.sync() it reads
// its `a` chunk back from the other block (ld.shared::cluster) and writes a + b. A second
// cluster.sync() keeps each block's shared memory alive until the peer has read it.
__global__ void __cluster_dims__(2, 1, 1) clusterPeerAdd(float *out, const float *a, const float *b, int n) {
  __shared__ float mine[256];
  __shared__ float fromPeer[256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  float *peer = cluster.map_shared_rank(fromPeer, rank ^ 1);
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) {
    peer[threadIdx.x] = a[i];
    mine[threadIdx.x] = b[i];
  }
  cluster.sync();
  if (i < n) out[i] = peer[threadIdx.x] + mine[threadIdx.x];
  cluster.sync();
}

// Cluster of 4 blocks of 128: each block sums its 128 values (shuffles + shared), then thread 0
// of every block adds its partial sum into block rank 0's shared total with an atomic through
// distributed shared memory; a split cluster barrier (arrive.release / wait.acquire) orders the
// atomics before rank 0 writes the cluster's sum.
__global__ void __cluster_dims__(4, 1, 1) clusterReduce(unsigned *out, const unsigned *in) {
  __shared__ unsigned partial[4];
  __shared__ unsigned total;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned v = in[blockIdx.x * 128 + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
  if (rank == 0 && threadIdx.x == 0) total = 0;
  cluster.sync();
  if (threadIdx.x == 0) {
    unsigned *leader = cluster.map_shared_rank(&total, 0);
    atomicAdd(leader, partial[0] + partial[1] + partial[2] + partial[3]);
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
  if (rank == 0 && threadIdx.x == 0) out[blockIdx.x / 4] = total;
}

// Cluster of 2 x 2 blocks of 256 (grid 4 x 4): thread t of a block stores its element into the
// shared memory of block rank t % 4 (slot = its own rank), and after cluster.sync() loads it back
// from there: one warp's accesses mix the block's own shared memory and three other blocks'.
__global__ void __cluster_dims__(2, 2, 1) clusterScatterGather(float *out, const float *in) {
  __shared__ float slots[4][256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned t = threadIdx.x;
  float *remote = cluster.map_shared_rank(&slots[rank][t], t % 4);
  size_t i = (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * 256 + t;
  *remote = in[i];
  cluster.sync();
  out[i] = *remote;
  cluster.sync();
}

// TMA bulk copies: thread 0 of a 256-thread block loads 1 KiB of `a` and of `b` into shared
// memory with cp.async.bulk completing on one mbarrier (expect_tx 2 KiB), every thread waits on
// the barrier's phase 0, adds, and thread 0 stores the 1 KiB result back with a bulk store
// (bulk_group commit / wait).
__global__ void bulkAdd(float *out, const float *a, const float *b) {
  __shared__ __align__(128) float sa[256];
  __shared__ __align__(128) float sb[256];
  __shared__ __align__(8) uint64_t bar;
  unsigned barAddr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  unsigned saAddr = static_cast<unsigned>(__cvta_generic_to_shared(sa));
  unsigned sbAddr = static_cast<unsigned>(__cvta_generic_to_shared(sb));
  size_t base = size_t(blockIdx.x) * 256;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(barAddr));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barAddr), "r"(2048) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(saAddr), "l"(a + base), "r"(1024), "r"(barAddr) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(sbAddr), "l"(b + base), "r"(1024), "r"(barAddr) : "memory");
  }
  asm volatile("{\n .reg .pred done;\n wait:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
               " @!done bra wait;\n}\n" ::"r"(barAddr) : "memory");
  sa[threadIdx.x] += sb[threadIdx.x];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
                 ::"l"(out + base), "r"(saAddr), "r"(1024) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
}

// TMA tensor copies: a 2D f32 tensor map over `in` (rows x cols, box 32 x 32) passed as a
// __grid_constant__ parameter; thread 0 loads the block's 32x32 tile into shared memory
// (cp.async.bulk.tensor.2d, completing on an mbarrier), the block transposes it in shared
// memory and thread 0 stores the transposed tile through a second tensor map over `out`.
__global__ void tmaTranspose(const __grid_constant__ CUtensorMap tmOut, const __grid_constant__ CUtensorMap tmIn) {
  __shared__ __align__(128) float tile[32][32];
  __shared__ __align__(128) float tileT[32][32];
  __shared__ __align__(8) uint64_t bar;
  unsigned barAddr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  unsigned tAddr = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  unsigned tTAddr = static_cast<unsigned>(__cvta_generic_to_shared(tileT));
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(barAddr));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barAddr), "r"(4096) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(tAddr), "l"(&tmIn), "r"(x0), "r"(y0), "r"(barAddr) : "memory");
  }
  asm volatile("{\n .reg .pred done;\n wait:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
               " @!done bra wait;\n}\n" ::"r"(barAddr) : "memory");
  for (int r = threadIdx.y; r < 32; r += 8) tileT[threadIdx.x][r] = tile[r][threadIdx.x];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"(&tmOut), "r"(y0), "r"(x0), "r"(tTAddr) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
}

// TMA tensor copies at the tensor's edge: a 2D f32 tensor of 40 x 40 with a 32 x 32 box (grid
// 2 x 2): the right and bottom boxes stick out; the load fills the outside with zeros, the store
// writes only the inside. Thread 0 loads the box into shared memory and stores it back out
// through the output's tensor map (every thread waits on the mbarrier first).
__global__ void tmaCopyEdge(const __grid_constant__ CUtensorMap tmOut, const __grid_constant__ CUtensorMap tmIn) {
  __shared__ __align__(128) float tile[32][32];
  __shared__ __align__(8) uint64_t bar;
  unsigned barAddr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  unsigned tAddr = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(barAddr));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barAddr), "r"(4096) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(tAddr), "l"(&tmIn), "r"(x0), "r"(y0), "r"(barAddr) : "memory");
  }
  __syncthreads();
  asm volatile("{\n .reg .pred done;\n wait:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
               " @!done bra wait;\n}\n" ::"r"(barAddr) : "memory");
  // The box as loaded (zeros outside the tensor) goes back out; the store skips the outside.
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"(&tmOut), "r"(x0), "r"(y0), "r"(tAddr) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
}

} // extern "C"

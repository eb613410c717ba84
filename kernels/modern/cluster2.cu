/// \file
/// Modern corpus, clusters sized at launch (issue 9, session 4): kernels without __cluster_dims__
/// whose cluster shape comes from the launch (cudaLaunchKernelEx's cluster attribute; the launch
/// spec's "cluster" key), and an mbarrier in block rank 0 that the other blocks of the cluster
/// arrive on remotely (mbarrier.arrive.release.cluster.shared::cluster). Launch specs:
/// cluster2.json.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" {

// Every block sums its blockDim.x inputs into one shared float; after a cluster barrier, thread 0
// of block rank 0 adds the cluster's block sums, read through distributed shared memory in rank
// order, and writes out[cluster index]. The second barrier keeps the peers' shared memory alive
// until rank 0 has read it.
__global__ void clusterSegmentSum(float *out, const float *in) {
  __shared__ float warpSums[32];
  __shared__ float blockSum;
  cg::cluster_group cluster = cg::this_cluster();
  int tid = threadIdx.x;
  float v = in[blockIdx.x * blockDim.x + tid];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (tid % 32 == 0) warpSums[tid / 32] = v;
  __syncthreads();
  if (tid == 0) {
    float s = 0.f;
    for (int w = 0; w < (int)blockDim.x / 32; ++w) s += warpSums[w];
    blockSum = s;
  }
  cluster.sync();
  if (cluster.block_rank() == 0 && tid == 0) {
    float s = 0.f;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) s += *cluster.map_shared_rank(&blockSum, r);
    out[blockIdx.x / cluster.num_blocks()] = s;
  }
  cluster.sync();
}

// Block rank 0 owns an mbarrier expecting one arrival per other block of the cluster. Each other
// block writes its sum into rank 0's slot array (distributed shared memory) and arrives on rank
// 0's mbarrier with release semantics at cluster scope; rank 0 waits on the phase with acquire
// semantics, then adds the slots in rank order.
__global__ void clusterRemoteArrive(float *out, const float *in) {
  __shared__ float warpSums[32];
  __shared__ float slots[8];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  int tid = threadIdx.x;
  unsigned barAddr = (unsigned)__cvta_generic_to_shared(&bar);
  if (rank == 0 && tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(barAddr), "r"(size - 1) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster.sync(); // the barrier is initialised before anyone arrives
  float v = in[blockIdx.x * blockDim.x + tid];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (tid % 32 == 0) warpSums[tid / 32] = v;
  __syncthreads();
  if (tid == 0) {
    float s = 0.f;
    for (int w = 0; w < (int)blockDim.x / 32; ++w) s += warpSums[w];
    float *slot0 = cluster.map_shared_rank(slots, 0);
    slot0[rank] = s;
    if (rank != 0) {
      unsigned remote;
      asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"(barAddr));
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(remote) : "memory");
    } else {
      asm volatile("{\n\t.reg .pred done;\n\twait_%=:\n\t"
                   "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], 0;\n\t"
                   "@!done bra wait_%=;\n\t}" :: "r"(barAddr) : "memory");
      float t = 0.f;
      for (unsigned r = 0; r < size; ++r) t += slots[r];
      out[blockIdx.x / size] = t;
    }
  }
}

} // extern "C"

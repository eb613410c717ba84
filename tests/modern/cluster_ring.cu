// Offline check of the SASS engine's cluster scheduling (tests/modern check.sh case hopper): each
// block's values travel three hops around a ring of 4 blocks, a remote store into the next block's
// shared memory per hop, half the warps storing before and half after a cluster barrier; block
// rank r ends with the values of rank (r + 1) % 4 (idx holds the expected source of each element)
// only when every phase orders the stores of the previous one.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(4, 1, 1) clusterRing(float *out, const float *in, const int *idx) {
  __shared__ float buf[2][128];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank(), t = threadIdx.x;
  buf[0][t] = in[blockIdx.x * 128 + t];
  cluster.sync();
  for (int hop = 0; hop < 3; ++hop) {
    float v = buf[hop & 1][t];
    float *next = cluster.map_shared_rank(&buf[(hop + 1) & 1][t], (rank + 1) % 4);
    if ((t / 32 + hop) % 2 == 0) *next = v; // half the warps store this phase ...
    cluster.sync();
    if ((t / 32 + hop) % 2 == 1) *next = v; // ... the others after the barrier
    cluster.sync();
  }
  out[blockIdx.x * 128 + t] = buf[1][t];
  cluster.sync();
}

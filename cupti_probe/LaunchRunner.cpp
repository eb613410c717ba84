/// \file
/// LaunchRunner: device buffers, argument packing and checking, launch, copy-back.
#include "cupti_probe/LaunchRunner.h"

#include "cupti_probe/CudaCheck.h"
#include "cupti_probe/Driver.h"

#include <cmath>
#include <cstring>

namespace warplens::probe {

namespace {

constexpr std::uint64_t kAlign = 512; // cudaMalloc's alignment, which the emulator also uses
constexpr std::uint64_t kSlack = 512; // spare bytes after each buffer (never read by the check)

std::uint16_t floatToHalf(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  std::int32_t exp = static_cast<std::int32_t>((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;
    std::uint32_t shift = static_cast<std::uint32_t>(14 - exp);
    std::uint32_t h = mant >> shift;
    if ((mant >> (shift - 1)) & 1u) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = sign | (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
  if (mant & 0x1000u) ++h; // round half up
  return static_cast<std::uint16_t>(h);
}

/// The bytes of a value argument, little-endian, in an 8-byte slot.
std::uint64_t valueSlot(const launch::ArgSpec &a) {
  std::uint64_t slot = 0;
  auto put = [&](const auto v) { std::memcpy(&slot, &v, sizeof v); };
  switch (a.type) {
  case launch::ScalarType::I8: put(static_cast<std::int8_t>(a.intValue)); break;
  case launch::ScalarType::U8: put(static_cast<std::uint8_t>(a.intValue)); break;
  case launch::ScalarType::I16: put(static_cast<std::int16_t>(a.intValue)); break;
  case launch::ScalarType::U16: put(static_cast<std::uint16_t>(a.intValue)); break;
  case launch::ScalarType::I32: put(static_cast<std::int32_t>(a.intValue)); break;
  case launch::ScalarType::U32: put(static_cast<std::uint32_t>(a.intValue)); break;
  case launch::ScalarType::I64: put(static_cast<std::int64_t>(a.intValue)); break;
  case launch::ScalarType::U64: put(static_cast<std::uint64_t>(a.intValue)); break;
  case launch::ScalarType::F16: put(floatToHalf(static_cast<float>(a.floatValue))); break;
  case launch::ScalarType::F32: put(static_cast<float>(a.floatValue)); break;
  case launch::ScalarType::F64: put(a.floatValue); break;
  }
  return slot;
}

/// cuTensorMapEncodeTiled for a "tensor_map" argument: packed strides, element strides 1, no
/// interleave, no swizzle, no L2 promotion, out-of-bounds elements filled with zeros.
Status encodeTensorMap(const launch::ArgSpec &a, CUdeviceptr base, CUtensorMap &map, const std::string &where) {
  if (!cu().cuTensorMapEncodeTiled)
    return Error{where + ": the driver has no cuTensorMapEncodeTiled (tensor maps need CUDA 12 and sm_90)", 1};
  CUtensorMapDataType dt;
  switch (a.type) {
  case launch::ScalarType::U8: dt = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
  case launch::ScalarType::U16: dt = CU_TENSOR_MAP_DATA_TYPE_UINT16; break;
  case launch::ScalarType::I32: dt = CU_TENSOR_MAP_DATA_TYPE_INT32; break;
  case launch::ScalarType::U32: dt = CU_TENSOR_MAP_DATA_TYPE_UINT32; break;
  case launch::ScalarType::I64: dt = CU_TENSOR_MAP_DATA_TYPE_INT64; break;
  case launch::ScalarType::U64: dt = CU_TENSOR_MAP_DATA_TYPE_UINT64; break;
  case launch::ScalarType::F16: dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
  case launch::ScalarType::F32: dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
  case launch::ScalarType::F64: dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT64; break;
  default: return Error{where + ": no tensor map element type for this buffer type", 1};
  }
  cuuint32_t rank = static_cast<cuuint32_t>(a.tensorDims.size());
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elemStrides[5];
  std::uint64_t stride = launch::sizeOf(a.type);
  for (cuuint32_t d = 0; d < rank; ++d) {
    dims[d] = a.tensorDims[d];
    box[d] = a.tensorBox[d];
    elemStrides[d] = 1;
    stride *= a.tensorDims[d];
    if (d + 1 < rank) strides[d] = stride;
  }
  CUresult r = cu().cuTensorMapEncodeTiled(&map, dt, rank, reinterpret_cast<void *>(base), dims, strides, box,
                                           elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                           CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) return Error{where + ": " + driverMessage("cuTensorMapEncodeTiled", r), 1};
  return {};
}

} // namespace

Expected<std::unique_ptr<LaunchRunner>> LaunchRunner::create(const launch::LaunchSpec &spec,
                                                             const FoundKernel &kernel) {
  std::unique_ptr<LaunchRunner> r(new LaunchRunner());
  r->spec_ = &spec;
  r->kernel_ = kernel;
  auto buffers = launch::makeBuffers(spec);
  if (!buffers) return buffers.error();
  r->inputs_ = std::move(buffers.value());
  for (const auto &b : r->inputs_) {
    std::uint64_t maxOffset = 0;
    for (const auto &a : spec.args)
      if (a.isBuffer && a.buffer == b.name) maxOffset = std::max(maxOffset, a.offsetBytes);
    std::uint64_t bytes = b.bytes.size() + maxOffset + kSlack + kAlign;
    CUdeviceptr raw = 0;
    PROBE_CU(cu().cuMemAlloc(&raw, bytes));
    r->rawAlloc_.push_back(raw);
    CUdeviceptr aligned = (raw + kAlign - 1) / kAlign * kAlign;
    if (aligned % kAlign != 0)
      return Error{spec.name + ": buffer '" + b.name + "' is not 512-byte aligned", 1};
    r->base_.push_back(aligned);
  }
  if (spec.dynamicSharedBytes > 48 * 1024)
    PROBE_CU(cu().cuFuncSetAttribute(kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                static_cast<int>(spec.dynamicSharedBytes)));
  WL_CHECK(r->packArgs());
  return r;
}

LaunchRunner::~LaunchRunner() {
  for (CUdeviceptr p : rawAlloc_) cu().cuMemFree(p);
}

Status LaunchRunner::packArgs() {
  const auto &args = spec_->args;
  const std::string where = spec_->name + ": kernel " + kernel_.mangled;
  argStorage_.assign(args.size(), 0);
  params_.assign(args.size(), nullptr);
  tensorMaps_.assign(args.size(), CUtensorMap{});
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto &a = args[i];
    if (a.isBuffer) {
      std::size_t b = 0;
      while (b < inputs_.size() && inputs_[b].name != a.buffer) ++b;
      if (b == inputs_.size())
        return Error{where + ": args[" + std::to_string(i) + "]: buffer '" + a.buffer +
                         "' has no allocation"};
      argStorage_[i] = base_[b] + a.offsetBytes;
      if (a.isTensorMap()) {
        WL_CHECK(encodeTensorMap(a, argStorage_[i], tensorMaps_[i], where + ": args[" + std::to_string(i) + "]"));
        params_[i] = &tensorMaps_[i];
        continue;
      }
    } else {
      argStorage_[i] = valueSlot(a);
    }
    params_[i] = &argStorage_[i];
  }
  // Check the spec against the kernel's parameter list.
  for (std::size_t i = 0; i <= args.size(); ++i) {
    size_t offset = 0, size = 0;
    if (!cu().cuFuncGetParamInfo) break; // driver without parameter info: launch unchecked
    CUresult r = cu().cuFuncGetParamInfo(kernel_.function, i, &offset, &size);
    if (i == args.size()) {
      if (r == CUDA_SUCCESS)
        return Error{where + " takes more than the " + std::to_string(args.size()) +
                     " arguments the spec gives"};
      break;
    }
    if (r == CUDA_ERROR_INVALID_VALUE)
      return Error{where + " takes " + std::to_string(i) + " arguments, the spec gives " +
                   std::to_string(args.size())};
    if (r != CUDA_SUCCESS) break; // parameter info unavailable: launch unchecked
    unsigned want = args[i].isTensorMap() ? 128u : args[i].isBuffer ? 8u : launch::sizeOf(args[i].type);
    if (size != want)
      return Error{where + ": args[" + std::to_string(i) + "] is " + std::to_string(want) +
                   " bytes in the spec but the kernel parameter is " + std::to_string(size) +
                   " bytes"};
  }
  return {};
}

Status LaunchRunner::upload() {
  for (std::size_t b = 0; b < inputs_.size(); ++b)
    if (!inputs_[b].bytes.empty())
      PROBE_CU(cu().cuMemcpyHtoD(base_[b], inputs_[b].bytes.data(), inputs_[b].bytes.size()));
  return {};
}

Status LaunchRunner::launch() {
  const auto &g = spec_->grid;
  const auto &bl = spec_->block;
  CUresult r;
  const char *fn = "cuLaunchKernel";
  if (spec_->cluster[0]) { // the spec's "cluster": cuLaunchKernelEx with a cluster dimension
    if (!cu().cuLaunchKernelEx)
      return Error{spec_->name + ": the driver has no cuLaunchKernelEx (cluster dims at launch need CUDA 12 and sm_90)", 1};
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = spec_->cluster[0];
    attr.value.clusterDim.y = spec_->cluster[1];
    attr.value.clusterDim.z = spec_->cluster[2];
    CUlaunchConfig cfg{};
    cfg.gridDimX = g[0], cfg.gridDimY = g[1], cfg.gridDimZ = g[2];
    cfg.blockDimX = bl[0], cfg.blockDimY = bl[1], cfg.blockDimZ = bl[2];
    cfg.sharedMemBytes = spec_->dynamicSharedBytes;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    fn = "cuLaunchKernelEx";
    r = cu().cuLaunchKernelEx(&cfg, kernel_.function, params_.data(), nullptr);
  } else {
    r = cu().cuLaunchKernel(kernel_.function, g[0], g[1], g[2], bl[0], bl[1], bl[2], spec_->dynamicSharedBytes,
                            nullptr, params_.data(), nullptr);
  }
  if (r != CUDA_SUCCESS) {
    lastError_ = r;
    return Error{spec_->name + ": " + driverMessage(fn, r), 1};
  }
  r = cu().cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    lastError_ = r;
    return Error{spec_->name + ": " + driverMessage("cuCtxSynchronize after the kernel", r), 1};
  }
  return {};
}

Expected<std::vector<launch::HostBuffer>> LaunchRunner::download() {
  std::vector<launch::HostBuffer> out = inputs_;
  for (std::size_t b = 0; b < out.size(); ++b)
    if (!out[b].bytes.empty())
      PROBE_CU(cu().cuMemcpyDtoH(out[b].bytes.data(), base_[b], out[b].bytes.size()));
  return out;
}

} // namespace warplens::probe

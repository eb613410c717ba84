/// \file
/// ModuleCache: sass::compile → cuModuleLoad → function enumeration and name matching.
#include "cupti_probe/ModuleCache.h"

#include "cupti_probe/CudaCheck.h"
#include "cupti_probe/Driver.h"
#include "cupti_probe/KernelMatch.h"

#include <fstream>
#include <sstream>

namespace warplens::probe {

ModuleCache::~ModuleCache() {
  for (auto &[key, m] : modules_)
    if (m.module) cu().cuModuleUnload(m.module);
}

Expected<LoadedModule *> ModuleCache::load(const std::string &source,
                                          const std::vector<std::string> &flags,
                                          const std::string &where) {
  std::string key = source;
  for (const auto &f : flags) key += "\x1f" + f;
  auto it = modules_.find(key);
  if (it != modules_.end()) return &it->second;

  LoadedModule m;
  sass::ToolchainOptions topt;
  topt.arch = arch_;
  topt.nvccFlags = flags;
  topt.cacheDir = cacheDir_;
  auto compiled = sass::compile(source, topt);
  if (!compiled) return Error{where + ": compiling " + source + ": " + compiled.error().message, 1};
  m.compiled = std::move(compiled.value());
  m.notes = m.compiled.notes;

  if (!m.compiled.cubinPath.empty()) {
    CUresult r = cu().cuModuleLoad(&m.module, m.compiled.cubinPath.c_str());
    if (r != CUDA_SUCCESS)
      return Error{where + ": " + driverMessage(("cuModuleLoad(" + m.compiled.cubinPath + ")").c_str(), r), 1};
  } else if (!m.compiled.ptxPath.empty()) {
    // No cubin (no ptxas): let the driver JIT the PTX. The SASS then has no listing to map to.
    std::ifstream in(m.compiled.ptxPath);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string ptx = ss.str();
    CUresult r = cu().cuModuleLoadData(&m.module, ptx.c_str());
    if (r != CUDA_SUCCESS)
      return Error{where + ": " + driverMessage(("cuModuleLoadData(" + m.compiled.ptxPath + ")").c_str(), r), 1};
    m.notes.push_back("no cubin: the driver JIT-compiled the PTX, so SASS pcs have no listing");
  } else {
    return Error{where + ": compiling " + source + " produced neither cubin nor PTX", 1};
  }

  unsigned count = 0;
  PROBE_CU(cu().cuModuleGetFunctionCount(&count, m.module));
  std::vector<CUfunction> fns(count);
  if (count) PROBE_CU(cu().cuModuleEnumerateFunctions(fns.data(), count, m.module));
  for (CUfunction f : fns) {
    const char *name = nullptr;
    PROBE_CU(cu().cuFuncGetName(&name, f));
    if (name) m.functionNames.push_back(name);
  }

  if (!m.compiled.sassPath.empty() && !m.compiled.cubinPath.empty()) {
    auto listing = sass::readListing(m.compiled.sassPath);
    if (listing) {
      m.listing = std::move(listing.value());
    } else {
      m.notes.push_back("SASS listing unreadable (" + listing.error().message +
                        "): instructions carry pcs only");
    }
  } else if (m.compiled.sassPath.empty()) {
    m.notes.push_back("no SASS listing (" + (m.compiled.sassTool.empty() ? std::string("no disassembler")
                                                                         : m.compiled.sassTool) +
                      "): instructions carry pcs only");
  }
  auto [pos, inserted] = modules_.emplace(key, std::move(m));
  return &pos->second;
}

Expected<FoundKernel> ModuleCache::find(const std::string &source,
                                        const std::vector<std::string> &flags,
                                        const std::string &kernel, const std::string &where) {
  auto loaded = load(source, flags, where);
  if (!loaded) return loaded.error();
  LoadedModule *m = loaded.value();
  auto name = matchKernelName(kernel, m->functionNames, where);
  if (!name) return name.error();
  FoundKernel k;
  k.mangled = name.value();
  k.module = m;
  PROBE_CU(cu().cuModuleGetFunction(&k.function, m->module, k.mangled.c_str()));
  for (const auto &f : m->listing)
    if (f.name == k.mangled) k.listing = &f;
  return k;
}

} // namespace warplens::probe

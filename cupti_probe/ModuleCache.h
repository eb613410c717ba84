/// \file
/// Compiles each distinct (source, nvcc flags) once for the device's architecture (sass::compile:
/// cubin + SASS listing), loads the cubin with cuModuleLoad, and finds kernels in it.
#pragma once

#include "sass/SassListing.h"
#include "sass/Toolchain.h"
#include "util/Expected.h"

#include <cuda.h>

#include <map>
#include <string>
#include <vector>

namespace warplens::probe {

struct LoadedModule {
  CUmodule module = nullptr;
  sass::CompileOutput compiled;
  std::vector<sass::SassFunction> listing; ///< empty when no SASS listing could be made
  std::vector<std::string> functionNames;  ///< mangled, from the loaded module
  std::vector<std::string> notes;
};

struct FoundKernel {
  CUfunction function = nullptr;
  std::string mangled;
  const LoadedModule *module = nullptr;
  const sass::SassFunction *listing = nullptr; ///< null when the listing lacks this function
};

class ModuleCache {
public:
  ModuleCache(std::string arch, std::string cacheDir)
      : arch_(std::move(arch)), cacheDir_(std::move(cacheDir)) {}
  ~ModuleCache();
  ModuleCache(const ModuleCache &) = delete;
  ModuleCache &operator=(const ModuleCache &) = delete;

  /// Compiles/loads `source` (once per flags) and returns the kernel `kernel` names.
  Expected<FoundKernel> find(const std::string &source, const std::vector<std::string> &flags,
                             const std::string &kernel, const std::string &where);

private:
  Expected<LoadedModule *> load(const std::string &source, const std::vector<std::string> &flags,
                                const std::string &where);
  std::string arch_, cacheDir_;
  std::map<std::string, LoadedModule> modules_;
};

} // namespace warplens::probe

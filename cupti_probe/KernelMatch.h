/// \file
/// Finds the kernel a launch spec names among a cubin's functions: exact mangled name, full
/// demangled signature, demangled name without parameters, unqualified name, or a unique prefix.
#pragma once

#include "util/Expected.h"

#include <string>
#include <vector>

namespace warplens::probe {

/// abi::__cxa_demangle, or the input unchanged when it is not a mangled C++ name.
std::string demangle(const std::string &mangled);

/// Returns the mangled name `wanted` designates; errors (naming `where` and the candidates) when
/// nothing or more than one function matches.
Expected<std::string> matchKernelName(const std::string &wanted,
                                      const std::vector<std::string> &mangledNames,
                                      const std::string &where);

} // namespace warplens::probe

/// \file
/// Entry points of the PTX front end: text → Module (functions, registers, instructions, .loc
/// line info). Errors name the file, line and token.
#pragma once

#include "util/Expected.h"

#include <memory>
#include <string>
#include <vector>

namespace warplens::ptx {

struct Module; // defined in ptx/Module.h

Expected<std::shared_ptr<const Module>> parseText(const std::string &text, const std::string &path);
Expected<std::shared_ptr<const Module>> parseFile(const std::string &path);
/// Mangled names of every .entry in the module, in file order.
std::vector<std::string> entryNames(const Module &module);

} // namespace warplens::ptx

/// \file
/// A plain aligned text table (left-aligned text, right-aligned numbers) shared by the result and
/// compare views; output is stable so reports can be diffed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::analysis {

class TextTable {
public:
  /// `rightAligned[i]` says whether column i holds numbers.
  TextTable(std::vector<std::string> header, std::vector<bool> rightAligned);
  void addRow(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }
  /// Each line starts with `indent`; columns are separated by two spaces; no trailing blanks.
  std::string render(const std::string &indent = "  ") const;

private:
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

/// 1234567 → "1234567"; 12.5 → "12.5"; integers print without a decimal point.
std::string formatNumber(double v);
/// "0x0080" (at least four hex digits).
std::string formatPc(std::uint64_t pc);
/// 80.0 → "80.0"; returns "-" when the denominator is 0.
std::string formatPercent(double num, double den);

} // namespace warplens::analysis

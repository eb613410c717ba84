/// \file
/// TextTable and the number formatting the text views share.
#include "analysis/views/ResultTable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warplens::analysis {

TextTable::TextTable(std::vector<std::string> header, std::vector<bool> rightAligned)
    : header_(std::move(header)), right_(std::move(rightAligned)) {
  right_.resize(header_.size(), false);
}

void TextTable::addRow(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render(const std::string &indent) const {
  std::vector<std::size_t> width(header_.size(), 0);
  auto measure = [&](const std::vector<std::string> &row) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(header_);
  for (const auto &r : rows_) measure(r);
  std::string out;
  auto emit = [&](const std::vector<std::string> &row) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) line += "  ";
      const std::string pad(width[i] - row[i].size(), ' ');
      line += right_[i] ? pad + row[i] : row[i] + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  emit(header_);
  for (const auto &r : rows_) emit(r);
  return out;
}

std::string formatNumber(double v) {
  char buf[64];
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string formatPc(std::uint64_t pc) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%04llx", static_cast<unsigned long long>(pc));
  return buf;
}

std::string formatPercent(double num, double den) {
  if (den == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", 100.0 * num / den);
  return buf;
}

} // namespace warplens::analysis

/// \file
/// Views of a `warplens pattern` report: text (bank diagram, per-lane arithmetic, counts), JSON
/// and a self-contained SVG. Pure functions of the report structs.
#pragma once

#include "analysis/pattern/PatternReport.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warplens::analysis {

/// One warp's bank occupancy: per phase, per bank, the distinct words served and their lanes.
struct BankGrid {
  struct Cell {
    std::uint64_t word = 0;
    std::vector<unsigned> lanes; ///< lanes reading/writing this word (several = broadcast)
  };
  struct Phase {
    unsigned phase = 0;
    std::vector<std::vector<Cell>> banks; ///< size = banks; each bank's words in first-touch order
    unsigned rows = 0;                    ///< most words any bank serves in this phase
  };
  std::vector<Phase> phases;
};
/// Built from the model's BankDiagram (or from the lanes' addresses if the diagram is empty).
BankGrid bankGrid(const PatternReport &report, const WarpRecord &warp);

/// Text: for one warp the per-lane arithmetic, the bank diagram (shared) or the sector map
/// (global) and the counts; for --all the totals and a histogram of per-warp cost.
std::string renderPatternText(const PatternReport &report);
/// Just the bank diagram of one warp's record (shared space); used by text and explain.
std::string renderBankDiagram(const PatternReport &report, const WarpRecord &warp);
/// JSON: options, arch, per-warp records (field names as in the result schema), totals.
nlohmann::json patternToJson(const PatternReport &report);
/// SVG: the bank grid (shared), the sector strip (global) or the histogram (--all).
std::string renderPatternSvg(const PatternReport &report);

} // namespace warplens::analysis

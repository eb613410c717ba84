/// \file
/// Reuse times to cache occupancy, by footprint theory (Xiang, Ding et al., "All-window profiling
/// and composable models of cache sharing", PPoPP 2011; "HOTL", ASPLOS 2013): the average number of
/// distinct lines touched in a window of w accesses of a trace of n accesses to m lines is
///   fp(w) = m - [ sum_i (f_i - w)+ + sum_i (l_i - w)+ + sum_{t > w} (t - w) r_t ] / (n - w + 1)
/// where f_i is line i's first access (1-based), l_i = n + 1 - its last access, and r_t the number
/// of reuses t accesses apart. An LRU cache of C lines holds a line re-read t accesses after its
/// previous access when fp(t) <= C: the reuse's distance in distinct lines is fp(t) on average. This
/// turns the launch clock's reuse times (counted in every line access, ReuseClock.h) into
/// distances in distinct lines without a stack simulation: a vector of 16 MiB re-read at random
/// between streams of 128 MiB keeps re-reading lines already in the L2, so its reuse times are long
/// while the distinct lines between stay under the L2's capacity.
#pragma once

#include <cstdint>
#include <vector>

namespace warplens::model {

/// Counts and sums of times in bins: exact below 256, 64 bins per octave above (1.1% wide).
class TimeHistogram {
public:
  void add(std::uint64_t t, std::uint64_t n = 1);
  void merge(const TimeHistogram &o);
  std::uint64_t count() const;
  /// sum over entries t > w of (t - w); entries of w's bin counted at their bin's mean.
  double excessOver(double w) const;
  /// Entries above w; w's bin counted by its share of the bin above w (linear within the bin).
  double countOver(double w) const;
  bool empty() const { return count_.empty(); }

private:
  static std::size_t bin(std::uint64_t t);
  static double binLow(std::size_t b);
  static double binHigh(std::size_t b); ///< exclusive
  std::vector<std::uint64_t> count_;
  std::vector<double> sum_;
};

/// fp(w) of a trace; see the file comment.
struct Footprint {
  TimeHistogram reuse;   ///< r_t
  TimeHistogram first;   ///< f_i
  TimeHistogram reverse; ///< l_i
  double accesses = 0;   ///< n
  double lines = 0;      ///< m
  double at(double w) const;
  /// The least reuse time whose footprint exceeds `capacityLines` (+inf when none does).
  double missThreshold(double capacityLines) const;
};

} // namespace warplens::model

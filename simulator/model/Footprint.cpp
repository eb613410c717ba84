/// \file
/// Footprint of a trace from its reuse times (Footprint.h).
#include "model/Footprint.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace warplens::model {

namespace {
constexpr std::uint64_t kExact = 256;
constexpr unsigned kSub = 64; // bins per octave above kExact (kExact is 2^8 = 4 x 64)
} // namespace

std::size_t TimeHistogram::bin(std::uint64_t t) {
  if (t < kExact) return static_cast<std::size_t>(t);
  const unsigned e = 63u - static_cast<unsigned>(std::countl_zero(t)); // t in [2^e, 2^(e+1))
  const std::uint64_t sub = (t - (std::uint64_t(1) << e)) >> (e - 6);  // 0..63
  return kExact + (e - 8) * kSub + static_cast<std::size_t>(sub);
}

double TimeHistogram::binLow(std::size_t b) {
  if (b < kExact) return double(b);
  const std::size_t k = b - kExact;
  const unsigned e = 8 + static_cast<unsigned>(k / kSub);
  return std::ldexp(1.0, int(e)) * (1.0 + double(k % kSub) / kSub);
}

double TimeHistogram::binHigh(std::size_t b) { return b < kExact ? double(b) + 1 : binLow(b + 1); }

void TimeHistogram::add(std::uint64_t t, std::uint64_t n) {
  const std::size_t b = bin(t);
  if (b >= count_.size()) count_.resize(b + 1, 0), sum_.resize(b + 1, 0);
  count_[b] += n;
  sum_[b] += double(t) * double(n);
}

void TimeHistogram::merge(const TimeHistogram &o) {
  if (o.count_.size() > count_.size()) count_.resize(o.count_.size(), 0), sum_.resize(o.count_.size(), 0);
  for (std::size_t b = 0; b < o.count_.size(); ++b) count_[b] += o.count_[b], sum_[b] += o.sum_[b];
}

std::uint64_t TimeHistogram::count() const {
  std::uint64_t n = 0;
  for (std::uint64_t c : count_) n += c;
  return n;
}

double TimeHistogram::excessOver(double w) const {
  double s = 0;
  for (std::size_t b = count_.size(); b-- > 0;) {
    if (!count_[b]) continue;
    if (binHigh(b) <= w) break;
    const double mean = sum_[b] / double(count_[b]);
    if (mean > w) s += sum_[b] - w * double(count_[b]);
  }
  return s;
}

double TimeHistogram::countOver(double w) const {
  double n = 0;
  for (std::size_t b = count_.size(); b-- > 0;) {
    if (!count_[b]) continue;
    const double lo = binLow(b), hi = binHigh(b);
    if (hi <= w + 1) break; // integer times: t > w means t >= floor(w) + 1
    if (lo > w) n += double(count_[b]);
    else n += double(count_[b]) * (hi - std::floor(w) - 1) / (hi - lo);
  }
  return n;
}

double Footprint::at(double w) const {
  if (w >= accesses) return lines;
  const double over = first.excessOver(w) + reverse.excessOver(w) + reuse.excessOver(w);
  return std::max(0.0, lines - over / (accesses - w + 1));
}

double Footprint::missThreshold(double capacityLines) const {
  if (lines <= capacityLines || accesses < 1) return std::numeric_limits<double>::infinity();
  double lo = 1, hi = accesses; // fp(hi) = lines > capacity; fp is non-decreasing in w
  if (at(lo) > capacityLines) return lo;
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (at(mid) > capacityLines ? hi : lo) = mid;
  }
  return hi;
}

} // namespace warplens::model

/// \file
/// Fits a device's time-model coefficients to measured launches: non-negative least squares
/// (Lawson-Hanson on Eigen) on relative error, alternating with the choice of each launch's
/// limiter (the max of the model) until the choice is stable. Does not fit the SM clock or the
/// occupancy limits (data), and weighs every launch equally.
#pragma once

#include "perf/TimeModel.h"

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace warplens::perf {

/// min ||A x - b|| subject to x >= 0 (Lawson and Hanson 1974, "Solving Least Squares Problems",
/// ch. 23). Columns are scaled to unit norm inside.
Eigen::VectorXd nnls(const Eigen::MatrixXd &A, const Eigen::VectorXd &b);

struct FitSample {
  std::string name;
  Features x;
  double measuredNs = 0;
};

struct FitRow {
  std::string name;
  double measuredNs = 0, predictedNs = 0;
  std::string limiter;
  double relError() const { return measuredNs > 0 ? (predictedNs - measuredNs) / measuredNs : 0; }
};

struct FitOutcome {
  Coefficients coef;
  std::vector<FitRow> rows;
  unsigned iterations = 0;
  bool converged = false;
};

/// `start`'s coefficients seed the first limiter choice; a coefficient whose limiter no launch
/// selects (or whose weighted column is negligible for every launch) keeps its start value (the
/// outcome says so through the rows' limiters). A sample whose DRAM utilisation is not set gets it
/// from its measured duration (the loaded-latency term).
FitOutcome fitCoefficients(const std::vector<FitSample> &samples, const DeviceSpec &start);
/// Rows of `samples` predicted with `device` (no fitting).
std::vector<FitRow> evaluate(const std::vector<FitSample> &samples, const DeviceSpec &device);

} // namespace warplens::perf

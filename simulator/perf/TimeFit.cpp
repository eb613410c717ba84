/// \file
/// NNLS and the alternating limiter/coefficient fit.
#include "perf/TimeFit.h"

#include <algorithm>
#include <cmath>

namespace warplens::perf {

Eigen::VectorXd nnls(const Eigen::MatrixXd &A0, const Eigen::VectorXd &b) {
  const Eigen::Index n = A0.cols();
  Eigen::VectorXd scale = Eigen::VectorXd::Ones(n);
  Eigen::MatrixXd A = A0;
  for (Eigen::Index j = 0; j < n; ++j) {
    double norm = A.col(j).norm();
    if (norm > 0) {
      scale(j) = norm;
      A.col(j) /= norm;
    }
  }
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  std::vector<bool> passive(n, false);
  const double tol = 1e-12 * std::max(1.0, b.norm());
  auto solveOn = [&](const std::vector<bool> &set) {
    std::vector<Eigen::Index> idx;
    for (Eigen::Index j = 0; j < n; ++j)
      if (set[j]) idx.push_back(j);
    Eigen::MatrixXd Ap(A.rows(), static_cast<Eigen::Index>(idx.size()));
    for (std::size_t k = 0; k < idx.size(); ++k) Ap.col(static_cast<Eigen::Index>(k)) = A.col(idx[k]);
    Eigen::VectorXd sp = Ap.colPivHouseholderQr().solve(b);
    Eigen::VectorXd s = Eigen::VectorXd::Zero(n);
    for (std::size_t k = 0; k < idx.size(); ++k) s(idx[k]) = sp(static_cast<Eigen::Index>(k));
    return s;
  };
  for (int outer = 0; outer < 3 * n + 10; ++outer) {
    Eigen::VectorXd w = A.transpose() * (b - A * x);
    Eigen::Index t = -1;
    double best = tol;
    for (Eigen::Index j = 0; j < n; ++j)
      if (!passive[j] && w(j) > best) {
        best = w(j);
        t = j;
      }
    if (t < 0) break;
    passive[t] = true;
    for (int inner = 0; inner < 3 * n + 10; ++inner) {
      Eigen::VectorXd s = solveOn(passive);
      bool feasible = true;
      for (Eigen::Index j = 0; j < n; ++j)
        if (passive[j] && s(j) <= 0) feasible = false;
      if (feasible) {
        x = s;
        break;
      }
      double alpha = 1.0;
      for (Eigen::Index j = 0; j < n; ++j)
        if (passive[j] && s(j) <= 0) alpha = std::min(alpha, x(j) / (x(j) - s(j)));
      x += alpha * (s - x);
      for (Eigen::Index j = 0; j < n; ++j)
        if (passive[j] && x(j) <= 1e-15) {
          passive[j] = false;
          x(j) = 0;
        }
    }
  }
  for (Eigen::Index j = 0; j < n; ++j) x(j) /= scale(j);
  return x;
}

namespace {

constexpr int kCols = 2 + static_cast<int>(kColumnCount); // launch, fill, then kColumns order

std::array<double, kCols> toArray(const Coefficients &c) {
  std::array<double, kCols> a{};
  a[0] = c.launchNs;
  a[1] = c.fillNs;
  for (std::size_t k = 0; k < kColumnCount; ++k) a[2 + k] = c.*(kColumns[k].coef);
  return a;
}

Coefficients fromArray(const std::array<double, kCols> &a) {
  Coefficients c;
  c.launchNs = a[0];
  c.fillNs = a[1];
  for (std::size_t k = 0; k < kColumnCount; ++k) c.*(kColumns[k].coef) = a[2 + k];
  return c;
}

std::size_t argmax(const std::array<double, kLimiterCount> &t) {
  return static_cast<std::size_t>(std::max_element(t.begin(), t.end()) - t.begin());
}

} // namespace

std::vector<FitRow> evaluate(const std::vector<FitSample> &samples, const DeviceSpec &device) {
  std::vector<FitRow> rows;
  for (const auto &s : samples) {
    TimePrediction p = predict(s.x, device);
    rows.push_back({s.name, s.measuredNs, p.durationNs, p.limiter});
  }
  return rows;
}

FitOutcome fitCoefficients(const std::vector<FitSample> &given, const DeviceSpec &start) {
  // A fitted launch's DRAM utilisation (loaded-latency term) comes from its measured duration.
  std::vector<FitSample> samples = given;
  for (FitSample &s : samples)
    if (s.x.dramUtilization < 0) setDramUtilization(s.x, dramUtilizationOf(s.x, s.measuredNs, start));
  FitOutcome out;
  std::array<double, kCols> coef = toArray(start.coef);
  std::vector<std::size_t> choice(samples.size(), kLimiterCount);
  const double p = start.overlapP;
  // With a p-norm, T = sum_k t_k (t_k / T)^(p-1) (Euler, degree 1): each limiter's columns enter
  // with that weight, taken from the previous coefficients; iterate until they settle.
  std::array<double, kCols> prev = coef;
  for (out.iterations = 1; out.iterations <= (p > 0 ? 2000u : 50u); ++out.iterations) {
    std::vector<std::size_t> next(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i)
      next[i] = argmax(limiterTerms(samples[i].x, fromArray(coef)));
    if (p <= 0 && next == choice) {
      out.converged = true;
      break;
    }
    if (p > 0 && out.iterations > 1) {
      double change = 0;
      for (int j = 0; j < kCols; ++j)
        change = std::max(change, std::fabs(coef[j] - prev[j]) / std::max(1e-12, std::fabs(coef[j]) + std::fabs(prev[j])));
      if (change < 1e-7) {
        out.converged = true;
        break;
      }
    }
    prev = coef;
    choice = next;
    const Eigen::Index m = static_cast<Eigen::Index>(samples.size());
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(m, kCols), raw = Eigen::MatrixXd::Zero(m, kCols);
    Eigen::VectorXd b = Eigen::VectorXd::Ones(m);
    for (Eigen::Index i = 0; i < m; ++i) {
      const auto &s = samples[static_cast<std::size_t>(i)];
      const double w = 1.0 / std::max(1.0, s.measuredNs); // relative error
      A(i, 0) = w;
      A(i, 1) = w * s.x.loads;
      const auto terms = limiterTerms(s.x, fromArray(coef));
      const double total = combineTerms(terms, p, start.overlapLatencyP);
      const auto weights = combineWeights(terms, p, start.overlapLatencyP);
      for (std::size_t k = 0; k < kColumnCount; ++k) {
        const std::size_t lim = limiterOf(kColumns[k], s.x);
        double weight = lim == choice[static_cast<std::size_t>(i)] ? 1.0 : 0.0;
        if (p > 0) weight = total > 0 ? weights[lim] : (weight > 0 ? 1.0 : 0.0);
        if (weight > 0) A(i, 2 + static_cast<Eigen::Index>(k)) = w * weight * s.x.*(kColumns[k].feature);
        raw(i, 2 + static_cast<Eigen::Index>(k)) = w * s.x.*(kColumns[k].feature);
      }
    }
    // Columns no launch selects keep their value (NNLS would zero them), and so do columns whose
    // p-norm weights are all negligible (their limiter under ~0.1% of every launch's total: the
    // column, rescaled to unit norm inside nnls, would get an arbitrary, huge coefficient).
    std::vector<Eigen::Index> used;
    for (Eigen::Index j = 0; j < kCols; ++j)
      if (A.col(j).norm() > 0 && (j < 2 || A.col(j).norm() > 1e-9 * raw.col(j).norm())) used.push_back(j);
    Eigen::MatrixXd Au(m, static_cast<Eigen::Index>(used.size()));
    for (std::size_t k = 0; k < used.size(); ++k) Au.col(static_cast<Eigen::Index>(k)) = A.col(used[k]);
    Eigen::VectorXd x = nnls(Au, b);
    for (std::size_t k = 0; k < used.size(); ++k) {
      double &c = coef[static_cast<std::size_t>(used[k])];
      c = p > 0 ? 0.5 * c + 0.5 * x(static_cast<Eigen::Index>(k)) : x(static_cast<Eigen::Index>(k)); // damped
    }
  }
  out.coef = fromArray(coef);
  DeviceSpec fitted = start;
  fitted.coef = out.coef;
  out.rows = evaluate(samples, fitted);
  return out;
}

} // namespace warplens::perf

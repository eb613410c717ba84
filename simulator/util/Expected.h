/// \file
/// Error values that cross library boundaries: an Error carries a message that already names the
/// file, line, key or token at fault; Expected<T> holds either a value or such an Error.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace warplens {

/// A user-facing error. `message` is complete ("spec.json: key 'grid': expected 3 integers").
/// The driver turns it into exit status 2 (bad input) unless `status` says otherwise.
struct Error {
  std::string message;
  int status = 2;

  static Error at(const std::string &where, const std::string &what) {
    return Error{where.empty() ? what : where + ": " + what};
  }
};

/// Minimal expected<T, Error> (std::expected is C++23; we build as C++20).
template <class T> class [[nodiscard]] Expected {
public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T &value() & { assert(ok()); return std::get<0>(v_); }
  const T &value() const & { assert(ok()); return std::get<0>(v_); }
  T &&value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  const Error &error() const { assert(!ok()); return std::get<1>(v_); }

private:
  std::variant<T, Error> v_;
};

/// Expected<void>: success or an Error.
template <> class [[nodiscard]] Expected<void> {
public:
  Expected() = default;
  Expected(Error error) : err_(std::move(error)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error &error() const { assert(!ok_); return err_; }

private:
  Error err_;
  bool ok_ = true;
};

using Status = Expected<void>;

} // namespace warplens

/// Propagate an error from an Expected-returning expression: WL_TRY(x, parse(...));
#define WL_TRY(var, expr)                                                                        \
  auto var##_expected_ = (expr);                                                                 \
  if (!var##_expected_.ok()) return var##_expected_.error();                                     \
  auto var = std::move(var##_expected_).value()

#define WL_CHECK(expr)                                                                           \
  do {                                                                                           \
    auto wl_status_ = (expr);                                                                    \
    if (!wl_status_.ok()) return wl_status_.error();                                             \
  } while (0)

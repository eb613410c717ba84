/// \file
/// Helpers for the emulator tests: an event-recording listener, buffer construction and a
/// one-call runner for a PTX file or text.
#pragma once

#include "emu/Emulator.h"
#include "launch/LaunchSpec.h"
#include "ptx/Module.h"
#include "ptx/Parser.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace warplens::testing {

/// Records every event of one worker (the factory makes one per worker).
struct Recorder : model::AccessListener {
  std::vector<model::AccessEvent> events;
  void onAccess(const model::AccessEvent &e) override { events.push_back(e); }
};

inline std::string fixture(const std::string &name) {
  return std::string(WARPLENS_TEST_DATA) + "/fixtures/" + name;
}

template <class T> launch::HostBuffer buffer(const std::string &name, const std::vector<T> &v) {
  launch::HostBuffer b;
  b.name = name;
  b.type = sizeof(T) == 8 ? launch::ScalarType::F64 : launch::ScalarType::F32;
  b.count = v.size();
  b.bytes.resize(v.size() * sizeof(T));
  std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
  return b;
}

template <class T> std::vector<T> contents(const launch::HostBuffer &b) {
  std::vector<T> v(b.bytes.size() / sizeof(T));
  std::memcpy(v.data(), b.bytes.data(), v.size() * sizeof(T));
  return v;
}

inline launch::ArgSpec bufArg(const std::string &name, std::uint64_t offset = 0) {
  launch::ArgSpec a;
  a.isBuffer = true;
  a.buffer = name;
  a.offsetBytes = offset;
  a.type = launch::ScalarType::F32;
  return a;
}

inline launch::ArgSpec intArg(std::int64_t v, launch::ScalarType t = launch::ScalarType::I32) {
  launch::ArgSpec a;
  a.type = t;
  a.intValue = v;
  return a;
}

inline launch::ArgSpec floatArg(double v) {
  launch::ArgSpec a;
  a.type = launch::ScalarType::F32;
  a.floatValue = v;
  return a;
}

inline launch::LaunchSpec makeSpec(const std::string &kernel, launch::Dim3 grid, launch::Dim3 block,
                                   std::vector<launch::ArgSpec> args, std::uint32_t dynShared = 0) {
  launch::LaunchSpec s;
  s.name = kernel;
  s.kernel = kernel;
  s.grid = grid;
  s.block = block;
  s.args = std::move(args);
  s.dynamicSharedBytes = dynShared;
  s.specFile = "test";
  return s;
}

struct RunResult {
  Expected<emu::LaunchRun> run = Error{"not run"};
  std::vector<model::AccessEvent> events; ///< all workers' events (one worker: program order)
};

inline RunResult runModule(const ptx::Module &m, const launch::LaunchSpec &spec,
                           std::vector<launch::HostBuffer> &buffers, unsigned threads = 1,
                           std::uint64_t budget = 20'000'000'000ull) {
  RunResult r;
  emu::EmuOptions opt;
  opt.threads = threads;
  opt.instructionBudget = budget;
  r.run = emu::runLaunch(m, spec, buffers, [] { return std::make_unique<Recorder>(); }, opt);
  if (r.run.ok())
    for (auto &l : r.run->listeners) {
      auto *rec = static_cast<Recorder *>(l.get());
      r.events.insert(r.events.end(), rec->events.begin(), rec->events.end());
    }
  return r;
}

} // namespace warplens::testing

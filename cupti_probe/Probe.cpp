/// \file
/// probe::runSuite: per launch, a checked plain launch, the Range Profiler pass and the SASS
/// Metrics pass, each failing on its own (a note on the result) without losing the others.
#include "cupti_probe/Probe.h"

#include "cupti_probe/CudaCheck.h"
#include "cupti_probe/Driver.h"
#include "cupti_probe/GpuSession.h"
#include "cupti_probe/KernelMatch.h"
#include "cupti_probe/KernelTimer.h"
#include "cupti_probe/LaunchRunner.h"
#include "cupti_probe/ModuleCache.h"
#include "cupti_probe/RangeProfiler.h"
#include "cupti_probe/SassMetricsPass.h"
#include "cupti_probe/SassRecords.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <fstream>
#include <ostream>

namespace warplens::probe {

const std::vector<std::string> &defaultRangeMetrics() {
  static const std::vector<std::string> m = {
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "smsp__inst_executed_op_shared_ld.sum",
      "smsp__inst_executed_op_shared_st.sum",
      "smsp__inst_executed_op_global_ld.sum",
      "smsp__inst_executed_op_global_st.sum",
      "lts__t_sectors_srcunit_tex_op_read.sum",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "smsp__inst_executed.sum",
      "smsp__inst_executed_pipe_fma.sum",
      "sm__cycles_elapsed.avg.per_second",
      "sm__warps_active.avg.per_cycle_active",
  };
  return m;
}

const std::vector<std::string> &defaultSassMetrics() {
  static const std::vector<std::string> m = {
      "smsp__sass_inst_executed",
      "smsp__sass_thread_inst_executed",
      "smsp__sass_thread_inst_executed_pred_on",
      "smsp__sass_sectors_mem_global",
      "smsp__sass_sectors_mem_global_ideal",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
  };
  return m;
}

namespace {

bool envSwitch(const char *name) {
  const char *e = std::getenv(name);
  return e && std::string(e) == "1";
}

/// How the duration is measured. Default: auto range + user replay, the inputs uploaded before
/// the profiler starts and the L2 flushed after it has started, right before the kernel (as Nsight
/// Compute with --cache-control all). Environment switches reproduce the issue-12 item-0
/// experiments (scripts/probe-duration-experiment); any non-default one is noted on every result:
/// WARPLENS_PROBE_DURATION_REPLAY=kernel|user, WARPLENS_PROBE_FLUSH_INSIDE=0 (flush before the
/// profiler's set-up, as before 2026-11-23), WARPLENS_PROBE_UPLOAD_ONCE=1 (inputs uploaded once,
/// only for kernels that leave their inputs unchanged), WARPLENS_PROBE_DURATION_ACTIVITY=1 (the
/// kernel's activity records during the range runs, time.activity_in_range_ns) and
/// WARPLENS_PROBE_DURATION_METRICS=a,b (more metrics in the duration range,
/// time.range_other_metrics; more than one pass changes what is measured).
struct DurationSettings {
  RangeProfiler::Mode mode = RangeProfiler::Mode::AutoRangeUserReplay;
  bool flushInside = true;
  bool uploadOnce = false;
  bool activityInRange = false;
  std::vector<std::string> extraMetrics;

  static DurationSettings fromEnvironment(std::vector<std::string> &notes) {
    DurationSettings d;
    if (const char *e = std::getenv("WARPLENS_PROBE_DURATION_REPLAY")) {
      std::string v = e;
      if (v == "kernel") d.mode = RangeProfiler::Mode::KernelReplay;
      else if (v == "user") d.mode = RangeProfiler::Mode::AutoRangeUserReplay;
      else notes.push_back("WARPLENS_PROBE_DURATION_REPLAY=" + v + " ignored (kernel or user)");
      if (d.mode == RangeProfiler::Mode::KernelReplay)
        notes.push_back("timing: duration range in kernel replay (WARPLENS_PROBE_DURATION_REPLAY)");
    }
    if (const char *e = std::getenv("WARPLENS_PROBE_FLUSH_INSIDE"); e && std::string(e) == "0") {
      d.flushInside = false;
      notes.push_back("timing: L2 flushed before the profiler's set-up (WARPLENS_PROBE_FLUSH_INSIDE=0)");
    }
    if (envSwitch("WARPLENS_PROBE_UPLOAD_ONCE")) {
      d.uploadOnce = true;
      notes.push_back("timing: inputs uploaded once per launch spec (WARPLENS_PROBE_UPLOAD_ONCE=1)");
    }
    d.activityInRange = envSwitch("WARPLENS_PROBE_DURATION_ACTIVITY");
    if (const char *e = std::getenv("WARPLENS_PROBE_DURATION_METRICS")) {
      std::string v = e;
      for (std::size_t a = 0; a < v.size();) {
        std::size_t b = v.find(',', a);
        if (b == std::string::npos) b = v.size();
        if (b > a) d.extraMetrics.push_back(v.substr(a, b - a));
        a = b + 1;
      }
    }
    return d;
  }
  std::string modeName() const {
    return mode == RangeProfiler::Mode::KernelReplay ? "auto range, kernel replay"
                                                     : "auto range, user replay";
  }
  std::string flushName() const {
    return flushInside ? "inputs uploaded, then L2 flushed (clean) after the profiler's start, right "
                         "before each launch (as ncu --cache-control all)"
                       : "inputs uploaded and L2 flushed (clean) before the profiler's set-up";
  }
};

class SuiteRunner {
public:
  SuiteRunner(GpuSession &session, const ProbeOptions &opt)
      : session_(session), opt_(opt), modules_(session.arch(), opt.cacheDir),
        userReplay_(opt.userReplay) {}

  void setup() {
    std::vector<std::string> warnings;
    if (opt_.rangeProfiler) {
      auto rp = RangeProfiler::create(session_, opt_.rangeMetrics.empty() ? defaultRangeMetrics()
                                                                          : opt_.rangeMetrics,
                                      warnings);
      if (rp) {
        range_ = std::move(rp.value());
        log("range profiler: " + std::to_string(range_->metrics().size()) + " metrics, " +
            std::to_string(range_->passesNeeded()) + " pass(es) per launch");
      } else {
        rangeOff_ = rp.error().message;
      }
    } else {
      rangeOff_ = "range profiler off (--no-range)";
    }
    if (opt_.sassMetrics) {
      auto sp = SassMetricsPass::create(session_, opt_.sassMetricNames.empty() ? defaultSassMetrics()
                                                                               : opt_.sassMetricNames,
                                        warnings);
      if (sp) sass_ = std::move(sp.value());
      else sassOff_ = sp.error().message;
    } else {
      sassOff_ = "SASS metrics off (--no-sass-metrics)";
    }
    for (const auto &w : warnings) {
      log("warning: " + w);
      suiteNotes_.push_back(w);
    }
    for (const auto &n : session_.notes()) {
      log("warning: " + n);
      suiteNotes_.push_back(n);
    }
    if (opt_.timingRepeats > 0) {
      auto t = KernelTimer::create();
      if (t) timer_ = std::move(t.value());
      else timingOff_ = t.error().message;
      // gpu__time_duration.sum of one kernel (auto range): what ncu reports.
      std::vector<std::string> w;
      duration_ = DurationSettings::fromEnvironment(w);
      std::vector<std::string> durationMetrics = {"gpu__time_duration.sum"};
      for (const auto &m : duration_.extraMetrics) durationMetrics.push_back(m);
      auto d = RangeProfiler::create(session_, durationMetrics, w);
      for (const auto &x : w) {
        log("warning: " + x);
        suiteNotes_.push_back(x);
      }
      if (d) {
        durationRange_ = std::move(d.value());
        log("duration range profiler: " + std::to_string(durationRange_->passesNeeded()) +
            " pass(es), " + duration_.modeName());
      } else {
        suiteNotes_.push_back("duration range profiler unavailable: " + d.error().message);
      }
    }
    if (!rangeOff_.empty()) log("range profiler disabled: " + rangeOff_);
    if (!sassOff_.empty()) log("SASS metrics disabled: " + sassOff_);
  }

  launch::LaunchResult run(const launch::LaunchSpec &spec, std::size_t index, std::size_t total) {
    auto t0 = std::chrono::steady_clock::now();
    launch::LaunchResult r;
    r.name = spec.name;
    r.kernel = spec.kernel;
    r.grid = spec.grid;
    r.block = spec.block;
    r.arch = session_.arch();
    r.device = session_.description();
    r.notes = suiteNotes_;
    std::string status;
    if (!lostAt_.empty()) {
      r.notes.push_back("not run: the CUDA context was lost at launch '" + lostAt_ + "'");
      log(progress(index, total, spec.name) + "not run (context lost)");
      return r;
    }
    runOne(spec, r, status);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.2f s)", secs);
    log(progress(index, total, spec.name) + status + buf);
    return r;
  }

private:
  static std::string progress(std::size_t i, std::size_t n, const std::string &name) {
    return "[" + std::to_string(i + 1) + "/" + std::to_string(n) + "] " + name + ": ";
  }
  void log(const std::string &line) {
    if (opt_.log) *opt_.log << "warplens probe: " << line << "\n" << std::flush;
  }
  /// After a failure: is the context still usable?
  void checkContext(const std::string &name, LaunchRunner *runner) {
    CUresult r = cu().cuCtxSynchronize();
    bool sticky = isStickyDriverError(r) ||
                  (runner && isStickyDriverError(runner->lastDriverError()));
    if (sticky) lostAt_ = name;
  }

  void runOne(const launch::LaunchSpec &spec, launch::LaunchResult &r, std::string &status) {
    const std::string where = spec.specFile.empty() ? spec.name : spec.specFile + ": " + spec.name;
    auto found = modules_.find(spec.source, spec.nvccFlags, spec.kernel, where);
    if (!found) {
      r.notes.push_back("probe error: " + found.error().message);
      status = "FAILED (" + found.error().message + ")";
      checkContext(spec.name, nullptr);
      return;
    }
    const FoundKernel &k = found.value();
    r.kernel = k.mangled;
    r.sassSource = k.module->compiled.sassTool;
    for (const auto &n : k.module->notes) r.notes.push_back(n);
    if (!k.listing && !k.module->listing.empty())
      r.notes.push_back("SASS listing has no function " + k.mangled);
    auto runner = LaunchRunner::create(spec, k);
    if (!runner) {
      r.notes.push_back("probe error: " + runner.error().message);
      status = "FAILED (" + runner.error().message + ")";
      checkContext(spec.name, nullptr);
      return;
    }
    LaunchRunner &run = *runner.value();
    auto upload = [&]() -> Status { return run.upload(); };
    auto uploadAndFlush = [&]() -> Status {
      WL_CHECK(run.upload());
      return session_.flushL2();
    };
    auto launchOnce = [&]() -> Status { return run.launch(); };

    // (c) plain launch first: a faulting kernel shows up here, outside any profiler.
    if (opt_.check) {
      Status s = plainCheck(spec, run, r);
      if (!s) {
        r.notes.push_back("plain launch failed: " + s.error().message);
        status += "launch FAILED; ";
        checkContext(spec.name, &run);
        if (!lostAt_.empty()) {
          r.notes.push_back("the CUDA context is lost; remaining launches are skipped");
          status += "context lost";
          return;
        }
      } else if (r.checkPassed.has_value()) {
        status += *r.checkPassed ? "check ok; " : "check MISMATCH; ";
      }
    }

    // (d) duration: kernel start/end from CUPTI activity records, median of the repeats.
    if (timer_ && timingOff_.empty()) {
      KernelTimer::Resources res;
      auto flushOnly = [&]() -> Status { return session_.flushL2(); };
      auto uploadOnly = [&]() -> Status { return duration_.uploadOnce ? Status{} : run.upload(); };
      if (duration_.uploadOnce) {
        Status u = run.upload();
        if (!u) r.notes.push_back("timing: upload failed: " + u.error().message);
      }
      auto t = timer_->measure(k.mangled, duration_.uploadOnce ? RangeProfiler::Step(flushOnly)
                                                               : RangeProfiler::Step(uploadAndFlush),
                               launchOnce, opt_.timingRepeats, &res);
      if (t) {
        // Primary: the Range Profiler's gpu__time_duration.sum of an auto range around the
        // kernel alone, as Nsight Compute measures it; the activity records' end - start (a
        // little shorter: the range adds ~1.7 us) is kept beside it.
        // The L2 flush runs after cuptiRangeProfilerStart, right before the kernel (as ncu flushes
        // after its own set-up): flushed before the profiler's enable/set-config/start, the L2
        // held 1-4 MB of dirty lines at the kernel's start (dram__bytes_write.sum of
        // matvec_warp_per_row_4096 3.2-3.7 MB instead of ncu's 0.02-0.2 MB) whose write-back made
        // memory-bound kernels 2-9% slower than under ncu (H100, 2026-11-23,
        // validation/h100/time/probe0-item0-*.log).
        std::vector<double> range;
        std::map<std::string, std::vector<double>> extra; // other metrics of the duration ranges
        std::string rangeError;
        auto rangeOnce = [&]() -> Status {
          auto m = duration_.flushInside
                       ? durationRange_->measure(session_.context(), spec.name, uploadOnly,
                                                 launchOnce, duration_.mode, flushOnly)
                       : durationRange_->measure(session_.context(), spec.name,
                                                 duration_.uploadOnce ? RangeProfiler::Step(flushOnly)
                                                                      : RangeProfiler::Step(uploadAndFlush),
                                                 launchOnce, duration_.mode);
          if (!m) return m.error();
          for (const auto &[name, v] : m->values)
            if (name == "gpu__time_duration.sum") range.push_back(v);
            else extra[name].push_back(v);
          return {};
        };
        std::vector<double> activityInRange;
        if (durationRange_ && duration_.activityInRange) {
          // The kernel's activity records while the Range Profiler measures it.
          auto a = timer_->measure(k.mangled, [] { return Status{}; }, rangeOnce, opt_.timingRepeats);
          if (a) activityInRange = a.value();
          else rangeError = a.error().message;
        } else {
          for (unsigned i = 0; durationRange_ && i < opt_.timingRepeats; ++i) {
            Status s = rangeOnce();
            if (!s) {
              rangeError = s.error().message;
              break;
            }
          }
        }
        // Seen on an H100 for kernels of 0.4-0.6 ms: some samples read ~1.1e9 ns (a wrapped
        // timestamp). A sample more than 10x away from the activity records' median is dropped.
        // (2x dropped every sample of 1.4 us kernels, whose range duration (2.7-3.1 us, as ncu)
        // is about twice their activity duration: the probe then reported the activity median.)
        const double activity = KernelTimer::median(t.value());
        std::size_t dropped = 0;
        for (std::size_t i = range.size(); i-- > 0;)
          if (range[i] > 10 * activity || range[i] < 0.1 * activity) {
            range.erase(range.begin() + static_cast<std::ptrdiff_t>(i));
            ++dropped;
          }
        if (dropped)
          r.notes.push_back("timing: " + std::to_string(dropped) +
                            " Range Profiler duration sample(s) dropped (more than 10x away from "
                            "the kernel's activity records)");
        if (!rangeError.empty()) r.notes.push_back("duration range profiler failed: " + rangeError);
        double median = range.empty() ? KernelTimer::median(t.value()) : KernelTimer::median(range);
        r.metrics["gpu__time_duration.sum"] = median;
        r.time = nlohmann::json{
            {"measured_ns", range.empty() ? t.value() : range},
            {"activity_ns", t.value()},
            {"method", range.empty()
                           ? "CUPTI activity CONCURRENT_KERNEL end - start, median of " +
                                 std::to_string(opt_.timingRepeats) +
                                 " launches, L2 flushed (clean) before each, clocks not locked"
                           : "CUPTI Range Profiler gpu__time_duration.sum, " + duration_.modeName() +
                                 ", median of " + std::to_string(opt_.timingRepeats) + " launches, " +
                                 duration_.flushName() + ", clocks not locked (as ncu --clock-control none)"},
            {"registers_per_thread", res.registersPerThread},
            {"static_shared_bytes", res.staticSharedBytes},
            {"dynamic_shared_bytes", res.dynamicSharedBytes}};
        if (!extra.empty()) r.time["range_other_metrics"] = extra;
        if (!activityInRange.empty()) r.time["activity_in_range_ns"] = activityInRange;
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f us; ", median / 1000.0);
        status += std::string("time ") + buf;
      } else {
        r.notes.push_back("timing failed: " + t.error().message);
        status += "timing FAILED; ";
        checkContext(spec.name, &run);
        if (!lostAt_.empty()) return;
      }
    } else if (!timingOff_.empty()) {
      r.notes.push_back("no timing: " + timingOff_);
    }

    // (a) hardware counters.
    if (range_ && rangeOff_.empty()) {
      auto m = range_->measure(session_.context(), spec.name, uploadAndFlush, launchOnce,
                               userReplay_ ? RangeProfiler::Mode::UserRange
                                           : RangeProfiler::Mode::KernelReplay);
      if (!m && userReplay_ && !userReplayWorked_) {
        std::string why = m.error().message;
        m = range_->measure(session_.context(), spec.name, uploadAndFlush, launchOnce,
                            RangeProfiler::Mode::KernelReplay);
        if (m) {
          userReplay_ = false;
          suiteNotes_.push_back("range profiler: user replay failed (" + why +
                                "); kernel replay used (L2 flushed before the first pass only)");
          r.notes.push_back(suiteNotes_.back());
          log("warning: " + suiteNotes_.back());
        }
      }
      if (m) {
        if (userReplay_) userReplayWorked_ = true;
        for (const auto &[name, v] : m->values) r.metrics[name] = v;
        for (const auto &n : m->notes) r.notes.push_back(n);
        status += "range " + std::to_string(m->passes) + " pass(es); ";
      } else {
        r.notes.push_back("range profiler failed: " + m.error().message);
        status += "range FAILED; ";
        if (m.error().message.find("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES") != std::string::npos ||
            m.error().message.find("insufficient") != std::string::npos) {
          rangeOff_ = m.error().message;
          suiteNotes_.push_back("range profiler disabled: " + rangeOff_);
        }
        checkContext(spec.name, &run);
        if (!lostAt_.empty()) return;
      }
    } else if (!rangeOff_.empty()) {
      r.notes.push_back("no hardware counters: " + rangeOff_);
    }

    // (b) per-instruction SASS metrics.
    if (sass_ && sassOff_.empty()) {
      std::vector<std::string> notes;
      auto pcs = sass_->measure(session_.context(), k.mangled, upload, launchOnce, notes);
      for (const auto &n : notes) r.notes.push_back(n);
      if (pcs) {
        addSassRecords(pcs.value(), k.listing, r);
        status += "sass " + std::to_string(r.instructions.size()) + " mem instr; ";
      } else {
        r.notes.push_back("SASS metrics failed: " + pcs.error().message);
        status += "sass FAILED; ";
        checkContext(spec.name, &run);
      }
    } else if (!sassOff_.empty()) {
      r.notes.push_back("no SASS metrics: " + sassOff_);
    }
    if (status.empty()) status = "nothing measured";
  }

  Status plainCheck(const launch::LaunchSpec &spec, LaunchRunner &run, launch::LaunchResult &r) {
    WL_CHECK(run.upload());
    // WARPLENS_PROBE_CHECK_FLUSH=1: the probe's L2 flush before the plain launch (an experiment
    // with ncu --cache-control none on that launch; scripts/probe-duration-experiment).
    if (envSwitch("WARPLENS_PROBE_CHECK_FLUSH")) WL_CHECK(session_.flushL2());
    WL_CHECK(run.launch());
    auto outputs = run.download();
    if (!outputs) return outputs.error();
    if (!opt_.saveOutputsDir.empty())
      for (const launch::HostBuffer &b : outputs.value()) {
        const std::string path = opt_.saveOutputsDir + "/" + spec.name + "." + b.name + ".bin";
        std::ofstream f(path, std::ios::binary);
        if (!f.write(reinterpret_cast<const char *>(b.bytes.data()), static_cast<std::streamsize>(b.bytes.size())))
          return Error{"cannot write " + path};
      }
    auto check = launch::runCheck(spec, run.inputs(), outputs.value());
    if (!check) {
      r.notes.push_back("check could not run: " + check.error().message);
      return {};
    }
    if (check->ran) {
      r.checkPassed = check->passed;
      r.checkDetail = check->detail;
    }
    return {};
  }

  GpuSession &session_;
  const ProbeOptions &opt_;
  ModuleCache modules_;
  std::unique_ptr<RangeProfiler> range_;
  std::unique_ptr<SassMetricsPass> sass_;
  std::unique_ptr<KernelTimer> timer_;
  std::unique_ptr<RangeProfiler> durationRange_;
  DurationSettings duration_;
  std::string rangeOff_, sassOff_, timingOff_, lostAt_;
  bool userReplay_ = true;
  bool userReplayWorked_ = false;
  std::vector<std::string> suiteNotes_;
};

} // namespace

Expected<std::vector<launch::LaunchResult>> runSuite(const std::vector<launch::LaunchSpec> &specs,
                                                     const ProbeOptions &options) {
  // Timing uses the Range Profiler too (gpu__time_duration.sum per kernel).
  auto session = GpuSession::open(options.device, options.rangeProfiler || options.sassMetrics ||
                                                      options.timingRepeats > 0);
  if (!session) return session.error();
  if (options.log)
    *options.log << "warplens probe: " << session.value()->description() << " ("
                 << session.value()->arch() << ", chip " << session.value()->chip() << ")\n";
  std::vector<launch::LaunchResult> results;
  {
    SuiteRunner runner(*session.value(), options);
    runner.setup();
    for (std::size_t i = 0; i < specs.size(); ++i) {
      results.push_back(runner.run(specs[i], i, specs.size()));
      if (options.onProgress) options.onProgress(results);
    }
  } // modules and profiler objects go before the session
  return results;
}

Expected<std::vector<std::string>> listSassMetrics(int device) {
  auto session = GpuSession::open(device);
  if (!session) return session.error();
  auto list = SassMetricsPass::list(session.value()->chip());
  if (!list) return list.error();
  list->insert(list->begin(), "chip " + session.value()->chip() + ": " +
                                  std::to_string(list->size()) + " SASS metrics");
  return list;
}

} // namespace warplens::probe

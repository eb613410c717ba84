/// \file
/// The offline analysis pipeline (see Pipeline.h): wires the toolchain, PTX parser, emulator,
/// SASS grouping and models together. Listeners are per worker thread and merged at the end.
#include "analysis/Pipeline.h"

#include "analysis/Metrics.h"
#include "analysis/TimePrediction.h"
#include "arch/ArchSpec.h"
#include "emu/Emulator.h"
#include "emu/Loader.h"
#include "model/DramSectorModel.h"
#include "perf/DeviceSpec.h"
#include "analysis/L1Reuse.h"
#include "model/InstructionStats.h"
#include "ptx/Module.h"
#include "ptx/Parser.h"
#include "sass/Grouping.h"
#include "sass/SassListing.h"
#include "sass/Toolchain.h"
#include "sassemu/Cubin.h"
#include "sassemu/Engine.h"
#include "analysis/views/ResultViews.h"
#include "trace/TraceWriter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>

namespace warplens::analysis {

namespace fs = std::filesystem;

struct Pipeline::Compiled {
  std::shared_ptr<const ptx::Module> module;
  std::vector<sass::SassFunction> sass; ///< empty when no listing
  std::string sassSource;               ///< "cuobjdump 13.0", "listing FILE", ""
  std::string sassPath;                 ///< the listing file, for messages
  std::optional<sassemu::Cubin> cubin;  ///< kernel facts for the SASS engine, when compiled here
  std::string ptxError;                 ///< why `module` is null (only the SASS engine can run)
  std::string cubinError;               ///< why there is no cubin
  std::vector<std::string> notes;
};

namespace {

/// What sees the SASS-level events of one worker: the statistics, and on request the costliest
/// warp per site and the trace writer (shared by the one worker a traced run has).
class ModelListeners : public model::AccessListener {
public:
  ModelListeners(const arch::ArchSpec &arch, bool wantWorst, model::AccessListener *trace)
      : stats(arch), trace_(trace) {
    if (wantWorst) worst = std::make_unique<model::WorstEventListener>(arch);
  }
  void onAccess(const model::AccessEvent &e) override {
    stats.onAccess(e);
    if (worst) worst->onAccess(e);
    if (trace_ && !e.skipped) trace_->onAccess(e); // the format has no skipped flag
  }
  void onReplicas(const model::BlockReplicas &r) override {
    stats.onReplicas(r);
    if (worst) worst->onReplicas(r);
    if (trace_) trace_->onReplicas(r); // replays the moved events (the engine does not replicate traced runs)
  }
  void onEnd() override { stats.onEnd(); } // the trace is finished by the pipeline

  model::StatsCollector stats;
  std::unique_ptr<model::WorstEventListener> worst;

private:
  model::AccessListener *trace_;
};

/// Per worker: the DRAM model sees PTX-level events; the statistics see SASS-level events when a
/// grouping is available (through the GroupingListener), PTX-level ones otherwise.
class WorkerListener : public model::AccessListener {
public:
  WorkerListener(const arch::ArchSpec &arch, const sass::Grouping *grouping, bool wantWorst,
                 model::AccessListener *trace, bool sampling = false)
      : models(arch, wantWorst, trace), dram(arch),
        reuse(arch.dramReadFetchBytes > 32 ? arch.dramReadFetchBytes / 32 : 1), arch_(arch), sampling_(sampling) {
    if (grouping) grouper = std::make_unique<sass::GroupingListener>(*grouping, models);
  }
  void onAccess(const model::AccessEvent &e) override {
    if (sampling_) { // per block, for the confidence intervals (SASS engine: no grouping)
      auto &c = perBlock[e.block];
      if (!c) c = std::make_unique<model::StatsCollector>(arch_);
      c->onAccess(e);
    }
    dram.onAccess(e);
    reuse.onAccess(e);
    if (grouper) grouper->onAccess(e);
    else models.onAccess(e);
  }
  void onReplicas(const model::BlockReplicas &r) override {
    dram.onReplicas(r);
    reuse.onReplicas(r);
    if (grouper) grouper->onReplicas(r);
    else models.onReplicas(r);
  }
  void onEnd() override {
    if (grouper) grouper->onEnd();
    else models.onEnd();
  }

  ModelListeners models;
  model::DramSectorModel dram;
  L1ReuseListener reuse; // time model inputs (analysis/L1Reuse.h)
  std::unique_ptr<sass::GroupingListener> grouper;
  std::map<std::uint32_t, std::unique_ptr<model::StatsCollector>> perBlock; ///< sampling only

private:
  const arch::ArchSpec &arch_;
  bool sampling_ = false;
};

/// Trace label of a site: "0x01c0 LDS R9, [R6] ; | ld.shared.f32 %f1, [%r9]; | transpose.cu:143".
std::string traceLabel(const model::SiteInfo &site) {
  std::string s;
  if (site.sassPc) {
    char pc[32];
    std::snprintf(pc, sizeof pc, "0x%04llx ", static_cast<unsigned long long>(*site.sassPc));
    s = pc + site.sassText + " | ";
  }
  s += site.ptxText;
  if (!site.sourceFile.empty())
    s += " | " + fs::path(site.sourceFile).filename().string() + ":" + std::to_string(site.sourceLine);
  return s;
}

launch::InstructionRecord record(const model::SiteInfo &site, const model::InstructionStats *st) {
  launch::InstructionRecord r;
  r.sassPc = site.sassPc;
  r.sass = site.sassText;
  r.ptxLine = site.ptxLine;
  r.ptx = site.ptxText;
  r.sourceFile = site.sourceFile;
  r.sourceLine = site.sourceLine;
  model::Space space = site.space;
  if (st && st->executed && space == model::Space::Generic) space = st->space; // resolved
  r.space = std::string(model::toString(space));
  r.op = std::string(model::toString(site.op));
  r.widthBytes = site.widthBytes;
  if (st) {
    r.executed = st->executed;
    r.threads = st->threads;
    r.idle = st->idle;
    r.requests = st->requests;
    r.sectors = st->sectors;
    r.sectorsIdeal = st->sectorsIdeal;
    r.wavefronts = st->wavefronts;
    r.wavefrontsIdeal = st->wavefrontsIdeal;
    r.wavefrontsConflictFree = st->wavefrontsConflictFree;
    r.wavefrontsHw = st->wavefrontsHw; // hardware counter's rule (SharedModel.h: two truths)
    r.conflictWaysMax = st->conflictWaysMax;
  }
  return r;
}

/// SASS site id → copy group (1, 2, ... in pc order of each group's first copy) for every SASS
/// instruction that is one of several ptxas copies of the same PTX access(es).
std::map<std::uint32_t, std::uint32_t> copyGroupsOf(const sass::Grouping &grouping) {
  std::set<std::vector<std::uint32_t>> lists; // copies lists are disjoint between groups
  for (const auto &[ptxSite, m] : grouping.byPtxSite)
    if (m.copies.size() > 1) lists.insert(m.copies);
  std::vector<std::vector<std::uint32_t>> ordered(lists.begin(), lists.end());
  auto first = [&](const std::vector<std::uint32_t> &c) {
    std::uint64_t best = UINT64_MAX;
    for (std::uint32_t id : c)
      if (id < grouping.sassSites.size() && grouping.sassSites[id].sassPc)
        best = std::min<std::uint64_t>(best, *grouping.sassSites[id].sassPc);
    return std::make_pair(best, *std::min_element(c.begin(), c.end()));
  };
  std::sort(ordered.begin(), ordered.end(),
            [&](const auto &a, const auto &b) { return first(a) < first(b); });
  std::map<std::uint32_t, std::uint32_t> out;
  for (std::size_t g = 0; g < ordered.size(); ++g)
    for (std::uint32_t id : ordered[g]) out[id] = static_cast<std::uint32_t>(g + 1);
  return out;
}

/// Sampling: every count times (grid blocks / blocks run), rounded; per instruction a 95%
/// confidence interval of the extrapolated total from the spread of the per-block counts
/// (normal approximation with the finite-population correction, as for a simple random sample
/// of blocks; the stratified choice makes it conservative). DRAM and L1 estimates scale alike,
/// as if every block touched data of its own.
void extrapolate(const emu::LaunchRun &run, std::uint64_t gridBlocks, model::StatsCollector &stats,
                 model::DramSectorModel &dram, L1ReuseListener &reuse, launch::LaunchResult &result) {
  const auto &st = run.stats;
  const double n = double(st.sampledBlocks.size()), big = double(gridBlocks);
  // Strata (Engine.cpp): the grid's edge blocks and the interior, each sampled evenly.
  double size[2] = {double(st.strataSize[0]), double(st.strataSize[1])}, taken[2] = {0, 0};
  std::map<std::uint64_t, std::uint32_t> stratumOf;
  for (std::size_t i = 0; i < st.sampledBlocks.size(); ++i) {
    stratumOf[st.sampledBlocks[i]] = st.sampledStratum[i];
    taken[st.sampledStratum[i]] += 1;
  }
  std::vector<std::pair<const model::StatsCollector *, std::uint32_t>> blocks; // per block run
  for (const auto &l : run.listeners)
    if (const auto *w = dynamic_cast<const WorkerListener *>(l.get()))
      for (const auto &[b, c] : w->perBlock) blocks.push_back({c.get(), stratumOf[b]});
  nlohmann::json ci = nlohmann::json::array();
  std::map<std::uint32_t, model::InstructionStats> est;
  for (const auto &[site, total] : stats.sites()) {
    // Per stratum h: estimate N_h * mean_h, variance N_h^2 (1 - n_h / N_h) s_h^2 / n_h (a block
    // that did not execute the instruction counts 0).
    auto estimate = [&, site = site](std::uint64_t model::InstructionStats::*field, double &half) {
      double sum[2] = {0, 0}, sq[2] = {0, 0}, value = 0, var = 0;
      for (const auto &[c, h] : blocks) {
        auto it = c->sites().find(site);
        double y = it == c->sites().end() ? 0.0 : double(it->second.*field);
        sum[h] += y, sq[h] += y * y;
      }
      for (int h = 0; h < 2; ++h) {
        if (taken[h] == 0) continue;
        double mean = sum[h] / taken[h];
        value += size[h] * mean;
        if (taken[h] >= 2) {
          double s2 = std::max(0.0, (sq[h] - taken[h] * mean * mean) / (taken[h] - 1));
          var += size[h] * size[h] * std::max(0.0, 1 - taken[h] / size[h]) * s2 / taken[h];
        }
      }
      half = 1.96 * std::sqrt(var);
      return std::uint64_t(value + 0.5);
    };
    model::InstructionStats e = total;
    double h = 0, hExec = 0, hReq = 0, hSec = 0, hWave = 0;
    e.executed = estimate(&model::InstructionStats::executed, hExec);
    e.threads = estimate(&model::InstructionStats::threads, h);
    e.idle = estimate(&model::InstructionStats::idle, h);
    e.requests = estimate(&model::InstructionStats::requests, hReq);
    e.sectors = estimate(&model::InstructionStats::sectors, hSec);
    e.sectorsIdeal = estimate(&model::InstructionStats::sectorsIdeal, h);
    e.lines = estimate(&model::InstructionStats::lines, h);
    e.bytes = estimate(&model::InstructionStats::bytes, h);
    e.wavefronts = estimate(&model::InstructionStats::wavefronts, hWave);
    e.wavefrontsIdeal = estimate(&model::InstructionStats::wavefrontsIdeal, h);
    e.wavefrontsConflictFree = estimate(&model::InstructionStats::wavefrontsConflictFree, h);
    e.wavefrontsHw = estimate(&model::InstructionStats::wavefrontsHw, h);
    est[site] = e;
    nlohmann::json row;
    row["sass_pc"] = std::uint64_t(site) * 16; // SASS engine sites are pc / 16
    row["executed"] = hExec;
    row["requests"] = hReq;
    row["sectors"] = hSec;
    row["wavefronts"] = hWave;
    ci.push_back(row);
  }
  stats.replaceSites(est);
  dram.setScale(big / n); // as if every block touched data of its own
  reuse.setScale(big / n);
  result.sampling = nlohmann::json::object();
  result.sampling["blocks"] = st.sampledBlocks.size();
  result.sampling["of"] = gridBlocks;
  result.sampling["edge_blocks"] = {{"run", taken[0]}, {"of", st.strataSize[0]}};
  result.sampling["confidence"] = 0.95;
  result.sampling["ci95"] = ci;
  result.notes.push_back("sampled " + std::to_string(st.sampledBlocks.size()) + " of " + std::to_string(gridBlocks) +
                         " blocks (--sample-blocks; grid edge and interior sampled apart): every count is an "
                         "estimate, 95% half-widths per instruction in the JSON \"sampling\"; DRAM and L1 "
                         "figures scale as if every block touched data of its own");
}

} // namespace

Pipeline::Pipeline(AnalyzeOptions options) : options_(std::move(options)) {}
Pipeline::~Pipeline() = default;

Expected<const Pipeline::Compiled *> Pipeline::compiled(const launch::LaunchSpec &spec) {
  std::string key = spec.source;
  for (const auto &f : spec.nvccFlags) key += '\x1f' + f;
  if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();

  auto c = std::make_unique<Compiled>();
  bool isPtx = fs::path(spec.source).extension() == ".ptx";
  std::string ptxPath = spec.source;
  std::string sassPath;
  bool wantToolchainSass = options_.sass == "auto";
  if (!isPtx || wantToolchainSass) {
    sass::ToolchainOptions to;
    to.arch = options_.arch;
    to.nvccFlags = spec.nvccFlags;
    to.cacheDir = options_.cacheDir;
    auto out = sass::compile(spec.source, to);
    if (!out.ok()) {
      if (!isPtx) return out.error();
      c->notes.push_back("ptxas/disassembler failed on the PTX (" + out.error().message + ")");
    } else {
      ptxPath = out->ptxPath;
      if (wantToolchainSass) {
        sassPath = out->sassPath;
        c->sassSource = out->sassTool;
      }
      if (!out->cubinPath.empty()) {
        auto cub = sassemu::readCubin(out->cubinPath);
        if (cub.ok()) c->cubin = std::move(*cub);
        else c->cubinError = cub.error().message;
      } else {
        c->cubinError = "the toolchain produced no cubin";
      }
      for (const auto &n : out->notes) c->notes.push_back(n);
    }
  }
  c->sassPath = sassPath;
  if (options_.sass != "auto" && options_.sass != "none") {
    sassPath = options_.sass;
    c->sassPath = sassPath;
    c->sassSource = "listing " + options_.sass;
  }
  auto module = ptx::parseFile(ptxPath);
  // PTX the front end cannot read (cp.async, mbarrier, redux, wmma, inline asm ...) is no obstacle
  // for the SASS engine, which executes the cubin: keep going without a module where it can run.
  const bool sassCanRun = options_.engine != "ptx" && c->cubin && !sassPath.empty() && options_.sass == "auto";
  if (!module.ok() && !sassCanRun) return module.error();
  if (module.ok()) c->module = *module;
  else c->ptxError = module.error().message;
  if (!sassPath.empty()) {
    auto listing = sass::readListing(sassPath);
    if (!listing.ok()) {
      if (options_.sass != "auto") return listing.error(); // the user's file: bad input
      c->notes.push_back("SASS listing unreadable: " + listing.error().message);
    } else {
      c->sass = std::move(*listing);
    }
  }
  const Compiled *raw = c.get();
  cache_[key] = std::move(c);
  return raw;
}

Expected<launch::LaunchResult> Pipeline::analyze(const launch::LaunchSpec &spec, RunDetail *detail) {
  WL_TRY(arch, arch::loadArch(options_.arch));
  WL_TRY(comp, compiled(spec));
  const ptx::Module *modulePtr = comp->module.get();

  launch::LaunchResult result;
  result.name = spec.name;
  result.grid = spec.grid;
  result.block = spec.block;
  result.arch = options_.arch;
  result.notes = comp->notes;

  WL_TRY(buffers, launch::makeBuffers(spec));
  std::vector<launch::HostBuffer> inputs;
  if (options_.mode != "auto" && options_.mode != "full" && options_.mode != "address")
    return Error{"--mode: unknown mode '" + options_.mode + "' (expected auto, full or address)"};
  bool checking = !spec.check.is_null() && !spec.check.empty();
  if (checking && options_.mode == "address") {
    checking = false;
    result.notes.push_back("functional check not run: --mode address computes addresses, not values");
  }
  if (checking) inputs = buffers;

  // Load once up front for the kernel's memory sites and mangled name: the grouping must exist
  // before the listeners are created.
  const ptx::Function *kernel = nullptr;
  std::string mangled;
  if (modulePtr) {
    WL_TRY(k, emu::findKernel(*modulePtr, spec.kernel));
    kernel = k;
    mangled = kernel->name;
  } else { // no PTX module: the SASS listing names the kernels (SASS engine only)
    const sass::SassFunction *f = sass::findFunction(comp->sass, spec.kernel);
    if (!f || options_.engine == "ptx")
      return Error{spec.specFile + ": " + comp->ptxError + (f ? "" : " (and the SASS listing has no kernel '" + spec.kernel + "')")};
    mangled = f->name;
  }
  result.kernel = mangled;

  if (options_.engine != "ptx" && options_.engine != "sass" && options_.engine != "auto")
    return Error{"--engine: unknown engine '" + options_.engine + "' (expected auto, sass or ptx)"};
  const sass::SassFunction *sassFn = options_.sass != "none" ? sass::findFunction(comp->sass, mangled) : nullptr;
  bool useSass = options_.engine == "sass" || (options_.engine == "auto" && sassFn && comp->cubin);
  if (useSass) {
    if (!sassFn)
      return Error{spec.specFile + ": --engine sass needs the SASS listing of '" + mangled + "' (" +
                   (comp->sass.empty() ? "no listing: nvdisasm/cuobjdump missing?" : "not in the listing") + ")"};
    if (!comp->cubin) return Error{spec.specFile + ": --engine sass needs the cubin: " + comp->cubinError};
  }
  result.engine = useSass ? "sass" : "ptx";
  std::vector<model::SiteInfo> sassSites;
  if (useSass) {
    WL_TRY(ss, sassemu::memorySites(*sassFn, comp->sassPath));
    sassSites = std::move(ss);
    result.sassSource = comp->sassSource;
  }

  std::vector<model::SiteInfo> ptxSites;
  if (!useSass) {
    if (!modulePtr || !kernel) return Error{spec.specFile + ": " + comp->ptxError};
    WL_TRY(program, emu::loadProgram(*modulePtr, *kernel, spec, buffers));
    ptxSites = program->sites;
  }

  std::optional<sass::Grouping> grouping;
  if (options_.sass != "none" && !useSass) {
    if (const sass::SassFunction *fn = sass::findFunction(comp->sass, mangled)) {
      auto g = sass::groupAccesses(ptxSites, *fn);
      if (g.ok()) {
        grouping = std::move(*g);
        for (const auto &n : grouping->notes) result.notes.push_back(n);
        result.sassSource = comp->sassSource;
      } else {
        result.notes.push_back("SASS grouping failed: " + g.error().message);
      }
    } else if (!comp->sass.empty()) {
      result.notes.push_back("SASS listing has no function '" + mangled + "'");
    }
  }
  if (!grouping && !useSass) {
    result.notes.push_back(kNoSassNote);
    result.sassSource = "none (PTX-level)";
  }

  const std::vector<model::SiteInfo> &modelSites = useSass ? sassSites : grouping ? grouping->sassSites : ptxSites;
  std::unique_ptr<trace::TraceWriter> traceWriter;
  if (!options_.tracePath.empty()) {
    trace::TraceHeader header{options_.arch, mangled, {}};
    for (const model::SiteInfo &site : modelSites) header.sites.emplace_back(site.site, traceLabel(site));
    WL_TRY(w, trace::TraceWriter::create(options_.tracePath, header));
    traceWriter = std::move(w);
  }

  emu::EmuOptions eo;
  eo.threads = traceWriter ? 1 : options_.threads;
  eo.addressOnly = useSass && !traceWriter && (options_.mode == "address" || (options_.mode == "auto" && !checking));
  const sass::Grouping *gp = grouping ? &*grouping : nullptr;
  const bool wantWorst = detail && detail->wantWorst;
  const std::uint64_t gridBlocks = std::uint64_t(spec.grid[0]) * spec.grid[1] * spec.grid[2];
  const bool sampling = useSass && options_.sampleBlocks && options_.sampleBlocks < gridBlocks && !checking && !traceWriter;
  if (sampling) eo.sampleBlocks = options_.sampleBlocks;
  // L2 reuse distances (model/DramSectorModel.h): one read clock for every worker; a sampled run
  // reads 1 / factor of the launch's data between two reads of a unit.
  model::ReuseClock clock;
  // Sectors some block read already, for the L1 hits across blocks of one SM (analysis/L1Reuse.h).
  std::uint64_t bufferBytes = 0;
  for (const auto &b : buffers) bufferBytes += b.bytes.size();
  L1ReuseListener::SeenSectors seen(bufferBytes);
  const double distanceScale = sampling ? double(gridBlocks) / double(options_.sampleBlocks) : 1.0;
  auto makeListener = [&] {
    auto l = std::make_unique<WorkerListener>(arch, gp, wantWorst, traceWriter.get(), sampling);
    l->dram.setReuseClock(&clock, distanceScale);
    l->reuse.setSeen(&seen);
    return l;
  };
  WL_TRY(run, useSass ? sassemu::runLaunch(*sassFn, *comp->cubin, spec, buffers, makeListener, eo, comp->sassPath)
                      : emu::runLaunch(*modulePtr, spec, buffers, makeListener, eo));
  if (useSass) result.mode = run.stats.addressOnly ? "address-only" : "full";
  if (detail) detail->stats = run.stats;
  if (traceWriter) {
    traceWriter->onEnd();
    WL_CHECK(traceWriter->status());
    if (detail) detail->traceRecords = traceWriter->records();
  }

  model::StatsCollector stats(arch);
  model::DramSectorModel dram(arch);
  L1ReuseListener reuse;
  if (wantWorst) detail->worst = std::make_unique<model::WorstEventListener>(arch);
  for (const auto &l : run.listeners) {
    const auto *w = dynamic_cast<const WorkerListener *>(l.get());
    if (!w) continue;
    stats.merge(w->models.stats);
    dram.merge(w->dram);
    reuse.merge(w->reuse);
    if (wantWorst && w->models.worst) detail->worst->merge(*w->models.worst);
  }

  if (sampling && !run.stats.sampledBlocks.empty()) extrapolate(run, gridBlocks, stats, dram, reuse, result);

  const std::vector<model::SiteInfo> &sites = grouping ? grouping->sassSites : run.sites;
  if (detail) detail->sites = sites;
  const std::map<std::uint32_t, std::uint32_t> copyGroups =
      grouping ? copyGroupsOf(*grouping) : std::map<std::uint32_t, std::uint32_t>{};
  for (const model::SiteInfo &site : sites) {
    auto it = stats.sites().find(site.site);
    result.instructions.push_back(record(site, it == stats.sites().end() ? nullptr : &it->second));
    if (auto g = copyGroups.find(site.site); g != copyGroups.end())
      result.instructions.back().copyGroup = g->second;
  }
  result.metrics = totalsFromInstructions(result.instructions);
  // The L2 capacity rule's reuse capacity: the device's measured one (perf/DeviceSpec.h).
  if (auto dev = perf::loadDevice(options_.device.empty() ? perf::defaultDeviceFor(options_.arch) : options_.device);
      dev && dev->l2ReuseBytes > 0)
    dram.setReuseCapacity(dev->l2ReuseBytes);
  result.metrics["dram__bytes_read.sum"] = static_cast<double>(dram.bytesRead());
  std::uint64_t warpInstr = run.stats.warpInstructions;
  if (sampling && !run.stats.sampledBlocks.empty())
    warpInstr = std::uint64_t(double(warpInstr) * double(gridBlocks) / double(run.stats.sampledBlocks.size()) + 0.5);
  // Per SASS pc, the share of a load's requests that miss L1 (SASS engine: sites are SASS
  // instructions; the PTX engine's sites are PTX accesses, left to the sector estimate).
  // Also the share that waits for DRAM (L1Reuse.h SiteMisses::dram).
  std::map<std::uint64_t, double> missShareByPc, dramShareByPc;
  if (!grouping)
    for (const model::SiteInfo &site : sites)
      if (site.sassPc && site.site < reuse.loadMissesBySite().size()) {
        const auto &sm = reuse.loadMissesBySite()[site.site];
        if (sm.requests) {
          missShareByPc[*site.sassPc] = double(sm.missing) / double(sm.requests);
          dramShareByPc[*site.sassPc] = double(sm.dram) / double(sm.requests);
        }
      }
  addTimePrediction(spec, options_, warpInstr, dram, reuse, result, &run.stats, missShareByPc, dramShareByPc); // perf/TimeModel.h

  if (checking) {
    WL_TRY(check, launch::runCheck(spec, inputs, buffers));
    if (check.ran) {
      result.checkPassed = check.passed;
      result.checkDetail = check.detail;
    }
  }
  return result;
}

Expected<std::string> renderResults(const std::vector<launch::LaunchResult> &results,
                                    const std::string &format) {
  if (format == "json") return launch::toJson(results).dump(2) + "\n";
  if (format == "html") return renderResultsHtml(results);
  if (format == "text") return renderResultsText(results);
  return Error{"--format: unknown format '" + format + "' (expected text, json or html)"};
}

Status writeOutput(const std::string &text, const std::string &path, std::ostream &out) {
  if (path.empty() || path == "-") {
    out << text;
    return {};
  }
  std::ofstream f(path, std::ios::binary);
  if (!f) return Error{path + ": cannot write output file"};
  f << text;
  if (!f) return Error{path + ": write failed"};
  return {};
}

Expected<launch::LaunchResult> analyzeLaunch(const launch::LaunchSpec &spec,
                                             const AnalyzeOptions &options) {
  Pipeline p(options);
  return p.analyze(spec);
}

} // namespace warplens::analysis

/// \file
/// Program loading (see Loader.h): call closure, layouts, buffers, kernel parameters and the
/// per-instruction decoding into DInstr with handlers chosen once.
#include "emu/Loader.h"

#include "emu/Exec.h"
#include "emu/Lanes.h"
#include "launch/JsonText.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <set>

namespace warplens::emu {

Handler movPackHandler();
Handler movUnpackHandler();
Handler predFromSlotHandler();

using ptx::Opcode;
using ptx::OperandKind;
using ptx::StateSpace;
using ptx::Type;

namespace {

std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return a ? (v + a - 1) / a * a : v; }

// Limits of what one launch may ask of the emulator (SPEC "Limits"); the parser bounds each
// variable, these bound the sums and the per-block state the workers allocate.
constexpr std::uint64_t kMaxStaticShared = 256u << 10; ///< every sm_XX has at most 228 KiB
constexpr std::uint64_t kMaxConstBank = 64u << 10;     ///< CUDA's constant bank
constexpr std::uint64_t kMaxLocalPerThread = 512u << 10; ///< CUDA's local-memory limit
constexpr std::uint64_t kMaxParamArea = 1u << 20;      ///< call parameters per thread
constexpr std::uint64_t kMaxModuleGlobals = 1ull << 30; ///< module-scope .global variables
constexpr std::uint64_t kMaxBlockState = 512ull << 20; ///< registers + local + params + shared
constexpr std::uint64_t kMaxCode = 1u << 24;           ///< decoded instructions

unsigned alignOf(const ptx::Variable &v) {
  return v.align ? v.align : std::max(1u, ptx::typeBytes(v.type));
}

/// "_Z9transposePfPKfii" → "transpose"; other names unchanged.
std::string demangledBase(const std::string &m) {
  if (m.rfind("_Z", 0) != 0) return m;
  size_t i = 2;
  if (i < m.size() && m[i] == 'N') return m; // nested names: leave as is
  size_t len = 0;
  while (i < m.size() && std::isdigit(static_cast<unsigned char>(m[i]))) len = len * 10 + (m[i++] - '0');
  if (len == 0 || i + len > m.size()) return m;
  return m.substr(i, len);
}

struct SymAddr {
  StateSpace space = StateSpace::None;
  std::uint64_t addr = 0;
  bool kernelParam = false;
};

class Loader {
public:
  Loader(const ptx::Module &m, const ptx::Function &k, const launch::LaunchSpec &s,
         std::vector<launch::HostBuffer> &b)
      : mod_(m), kernel_(k), spec_(s), buffers_(b), prog_(std::make_unique<Program>()) {}

  Expected<std::unique_ptr<Program>> run() {
    prog_->path = mod_.path;
    prog_->kernel = kernel_.name;
    WL_CHECK(closure());
    WL_CHECK(layout());
    WL_CHECK(globals());
    WL_CHECK(kernelParams());
    for (const auto *f : funcs_) WL_CHECK(decodeFunction(*f));
    WL_CHECK(blockState());
    for (auto &in : prog_->code)
      if (in.op == Opcode::Call) in.target = funcBase_[calleeOf(*prog_->srcs[in.src].ins)];
    WL_CHECK(findSkippedSites(*prog_));
    return std::move(prog_);
  }

private:
  const ptx::Module &mod_;
  const ptx::Function &kernel_;
  const launch::LaunchSpec &spec_;
  std::vector<launch::HostBuffer> &buffers_;
  std::unique_ptr<Program> prog_;
  std::vector<const ptx::Function *> funcs_;
  std::map<const ptx::Function *, std::vector<std::uint32_t>> slotOf_;
  std::map<std::string, std::uint32_t> funcBase_;
  std::map<const ptx::Function *, std::map<std::string, SymAddr>> syms_;
  std::map<std::string, SymAddr> globalSyms_;
  std::map<std::uint64_t, std::uint32_t> constSlots_;
  std::uint32_t nextSlot_ = 0;

  Error errAt(const ptx::Instruction &ins, const std::string &what) const {
    return Error{mod_.path + ":" + std::to_string(ins.ptxLine) + ": " + what};
  }

  static std::string calleeOf(const ptx::Instruction &ins) {
    for (const auto &o : ins.operands)
      if (o.kind == OperandKind::Symbol) return o.symbol;
    return {};
  }

  Status closure() {
    std::set<const ptx::Function *> done;
    std::vector<const ptx::Function *> stack;
    std::function<Status(const ptx::Function *)> visit = [&](const ptx::Function *f) -> Status {
      if (std::find(stack.begin(), stack.end(), f) != stack.end())
        return Error{mod_.path + ":" + std::to_string(f->line) + ": recursive call of '" + f->name + "' is not supported"};
      if (done.count(f)) return {};
      done.insert(f);
      funcs_.push_back(f);
      stack.push_back(f);
      for (const auto &ins : f->instructions) {
        if (ins.op != Opcode::Call) continue;
        const ptx::Function *g = mod_.findFunction(calleeOf(ins));
        if (!g) return errAt(ins, "call of unknown function '" + calleeOf(ins) + "'");
        if (!g->hasBody) return errAt(ins, "call of external function '" + g->name + "' (no body in the module)");
        WL_CHECK(visit(g));
      }
      stack.pop_back();
      return {};
    };
    return visit(&kernel_);
  }

  Error tooLarge(const std::string &what, std::uint64_t bytes, std::uint64_t limit) const {
    return Error{mod_.path + ": kernel '" + kernel_.name + "': " + what + " of " +
                 std::to_string(bytes) + " bytes exceeds the limit of " + std::to_string(limit)};
  }

  /// The state each emulated block allocates (Emulator.cpp): per warp 32 lanes of register
  /// slots, local and param bytes, plus predicates and the block's shared memory.
  Status blockState() const {
    if (prog_->code.size() > kMaxCode)
      return Error{mod_.path + ": kernel '" + kernel_.name + "': more than " +
                   std::to_string(kMaxCode) + " instructions"};
    const std::uint64_t threads = std::uint64_t(spec_.block[0]) * spec_.block[1] * spec_.block[2];
    const std::uint64_t warps = (threads + 31) / 32;
    const std::uint64_t perWarp = 32 * (std::uint64_t(prog_->numSlots) * 8 + prog_->localBytes +
                                        prog_->paramBytes) +
                                  std::uint64_t(prog_->numPreds) * 4;
    const std::uint64_t bytes = warps * perWarp + prog_->sharedBytes;
    if (bytes > kMaxBlockState)
      return tooLarge("emulator state per block of " + std::to_string(threads) +
                          " threads (registers, local, parameters, shared)",
                      bytes, kMaxBlockState);
    return {};
  }

  Status layout() {
    // registers
    std::uint32_t preds = 0;
    for (const auto *f : funcs_) {
      auto &slots = slotOf_[f];
      for (const auto &r : f->regs) slots.push_back(r.type == Type::Pred ? preds++ : nextSlot_++);
    }
    prog_->numPreds = preds;
    prog_->specialBase = nextSlot_;
    nextSlot_ += static_cast<std::uint32_t>(ptx::Special::Count);
    // shared: module statics, then each function's (demoted) statics, then extern dynamic
    std::uint64_t sh = 0;
    std::vector<const ptx::Variable *> externs;
    auto addShared = [&](const ptx::Variable &v, std::map<std::string, SymAddr> &into) {
      if (v.isExtern || (v.isArray && v.sizeBytes == 0)) { externs.push_back(&v); return; }
      sh = alignUp(sh, alignOf(v));
      into[v.name] = {StateSpace::Shared, sh};
      sh += v.sizeBytes;
    };
    for (const auto &v : mod_.globals)
      if (v.space == StateSpace::Shared) addShared(v, globalSyms_);
    for (const auto *f : funcs_)
      for (const auto &v : f->locals)
        if (v.space == StateSpace::Shared) addShared(v, syms_[f]);
    std::uint64_t dyn = sh;
    for (const auto *v : externs) dyn = alignUp(dyn, std::max(16u, alignOf(*v)));
    for (const auto *v : externs) {
      bool isModule = false;
      for (const auto &g : mod_.globals) isModule |= &g == v;
      if (isModule) globalSyms_[v->name] = {StateSpace::Shared, dyn};
      else for (const auto *f : funcs_) for (const auto &l : f->locals) if (&l == v) syms_[f][v->name] = {StateSpace::Shared, dyn};
    }
    if (sh > kMaxStaticShared) return tooLarge("static shared memory", sh, kMaxStaticShared);
    prog_->staticShared = static_cast<std::uint32_t>(sh);
    prog_->sharedBytes = static_cast<std::uint32_t>((externs.empty() ? sh : dyn) + spec_.dynamicSharedBytes);
    // local and per-lane param areas
    std::uint64_t loc = 0, par = 0;
    for (const auto *f : funcs_) {
      auto &s = syms_[f];
      for (const auto &v : f->locals) {
        if (v.space == StateSpace::Local) {
          loc = alignUp(loc, alignOf(v));
          s[v.name] = {StateSpace::Local, loc};
          loc += v.sizeBytes;
        } else if (v.space == StateSpace::Param) {
          par = alignUp(par, std::max(8u, alignOf(v)));
          s[v.name] = {StateSpace::Param, par};
          par += std::max<std::uint64_t>(v.sizeBytes, 1);
        }
      }
      if (f == &kernel_) continue;
      for (const auto *list : {&f->params, &f->returns})
        for (const auto &v : *list) {
          par = alignUp(par, std::max(8u, alignOf(v)));
          s[v.name] = {StateSpace::Param, par};
          par += std::max<std::uint64_t>(v.sizeBytes, 1);
        }
    }
    if (loc > kMaxLocalPerThread) return tooLarge("local memory per thread", loc, kMaxLocalPerThread);
    if (par > kMaxParamArea) return tooLarge("call parameters per thread", par, kMaxParamArea);
    prog_->localBytes = static_cast<std::uint32_t>(alignUp(loc, 16));
    prog_->paramBytes = static_cast<std::uint32_t>(alignUp(par, 16));
    return {};
  }

  Status globals() {
    auto bases = bufferBases(buffers_);
    std::uint64_t end = kGlobalBase;
    for (size_t i = 0; i < buffers_.size(); ++i) {
      auto &b = buffers_[i];
      prog_->globals.push_back({b.name, bases[i], b.bytes.size(), b.bytes.data()});
      end = bases[i] + alignUp(b.bytes.size(), 512) + 512;
    }
    std::uint64_t cb = 0, moduleBytes = 0;
    for (const auto &v : mod_.globals) {
      if (v.space == StateSpace::Global) moduleBytes += v.sizeBytes;
      else if (v.space == StateSpace::Const) cb = alignUp(cb, alignOf(v)) + v.sizeBytes;
    }
    if (moduleBytes > kMaxModuleGlobals)
      return tooLarge("module .global variables", moduleBytes, kMaxModuleGlobals);
    if (cb > kMaxConstBank) return tooLarge(".const variables", cb, kMaxConstBank);
    cb = 0;
    for (const auto &v : mod_.globals) {
      if (v.space == StateSpace::Global) {
        std::vector<std::uint8_t> bytes(std::max<std::uint64_t>(v.sizeBytes, 1), 0);
        std::copy(v.init.begin(), v.init.end(), bytes.begin());
        prog_->moduleGlobals.push_back(std::move(bytes));
        globalSyms_[v.name] = {StateSpace::Global, end};
        prog_->globals.push_back({v.name, end, v.sizeBytes, nullptr});
        end += alignUp(std::max<std::uint64_t>(v.sizeBytes, 1), 512) + 512;
      } else if (v.space == StateSpace::Const) {
        cb = alignUp(cb, alignOf(v));
        globalSyms_[v.name] = {StateSpace::Const, cb};
        if (prog_->constBank.size() < cb + v.sizeBytes) prog_->constBank.resize(cb + v.sizeBytes, 0);
        std::copy(v.init.begin(), v.init.end(), prog_->constBank.begin() + static_cast<std::ptrdiff_t>(cb));
        cb += v.sizeBytes;
      }
    }
    size_t mg = 0;
    for (auto &g : prog_->globals)
      if (!g.data) g.data = prog_->moduleGlobals[mg++].data();
    std::sort(prog_->globals.begin(), prog_->globals.end(), [](const GlobalBuffer &a, const GlobalBuffer &b) { return a.base < b.base; });
    return {};
  }

  Status kernelParams() {
    const auto &ps = kernel_.params;
    std::string where = spec_.specFile.empty() ? spec_.name : spec_.specFile;
    if (spec_.args.size() != ps.size())
      return Error{where + ": kernel '" + kernel_.name + "' takes " + std::to_string(ps.size()) +
                   " parameters but the launch gives " + std::to_string(spec_.args.size()) + " args"};
    std::uint64_t off = 0;
    auto &syms = syms_[&kernel_];
    std::vector<std::uint8_t> &bytes = prog_->kernelParams;
    for (size_t i = 0; i < ps.size(); ++i) {
      const auto &p = ps[i];
      const auto &a = spec_.args[i];
      off = alignUp(off, alignOf(p));
      syms[p.name] = {StateSpace::Param, off, true};
      bytes.resize(off + p.sizeBytes, 0);
      std::string argWhere = where + ": args[" + std::to_string(i) + "]";
      if (a.isBuffer) {
        if (p.sizeBytes != 8) return Error{argWhere + ": buffer '" + a.buffer + "' passed to " + std::to_string(p.sizeBytes) + "-byte parameter '" + p.name + "'"};
        const GlobalBuffer *found = nullptr;
        for (const auto &g : prog_->globals)
          if (g.name == a.buffer) found = &g;
        if (!found) return Error{argWhere + ": unknown buffer '" + a.buffer + "'"};
        std::uint64_t v = found->base + a.offsetBytes;
        std::memcpy(&bytes[off], &v, 8);
      } else {
        unsigned n = launch::sizeOf(a.type);
        if (n != p.sizeBytes)
          return Error{argWhere + ": value of " + std::to_string(n) + " bytes for " + std::to_string(p.sizeBytes) + "-byte parameter '" + p.name + "'"};
        if (a.type == launch::ScalarType::F32) { float f = static_cast<float>(a.floatValue); std::memcpy(&bytes[off], &f, 4); }
        else if (a.type == launch::ScalarType::F64) std::memcpy(&bytes[off], &a.floatValue, 8);
        else std::memcpy(&bytes[off], &a.intValue, n);
      }
      off += p.sizeBytes;
    }
    return {};
  }

  // ---- operands -----------------------------------------------------------------------------
  std::uint32_t constSlot(std::uint64_t v) {
    auto it = constSlots_.find(v);
    if (it != constSlots_.end()) return it->second;
    std::uint32_t s = nextSlot_++;
    constSlots_[v] = s;
    prog_->constants.push_back({s, v});
    prog_->numSlots = nextSlot_;
    return s;
  }

  static std::uint64_t immAs(const ptx::Operand &o, Type t) {
    if (t == Type::F32) {
      if (o.immType == Type::F32) return o.imm;
      if (o.immType == Type::F64) return put<float>(static_cast<float>(get<double>(o.imm)));
      return put<float>(static_cast<float>(static_cast<std::int64_t>(o.imm)));
    }
    if (t == Type::F64) {
      if (o.immType == Type::F64) return o.imm;
      if (o.immType == Type::F32) return put<double>(get<float>(o.imm));
      return put<double>(static_cast<double>(static_cast<std::int64_t>(o.imm)));
    }
    return o.imm;
  }

  const SymAddr *symbol(const ptx::Function &f, const std::string &name) {
    auto &s = syms_[&f];
    auto it = s.find(name);
    if (it != s.end()) return &it->second;
    auto g = globalSyms_.find(name);
    return g == globalSyms_.end() ? nullptr : &g->second;
  }

  bool isPredReg(const ptx::Function &f, int reg) const { return reg >= 0 && f.regs[reg].type == Type::Pred; }

  std::uint32_t regSlot(const ptx::Function &f, int reg) {
    if (reg < 0) return kNone;
    return slotOf_[&f][static_cast<size_t>(reg)];
  }

  std::string sourceOf(const ptx::Instruction &ins) const {
    int file = ins.locFile, line = ins.locLine;
    if (ins.outerFile >= 0 && ins.outerFile != ins.locFile) { file = ins.outerFile; line = ins.outerLine; }
    if (file < 0) return {};
    std::string name = mod_.fileName(file);
    return launch::validUtf8((name.empty() ? "file " + std::to_string(file) : name) + ":" + std::to_string(line));
  }

  /// A source operand as a slot (registers, immediates, specials, symbol addresses).
  Expected<std::uint32_t> source(const ptx::Function &f, const ptx::Instruction &ins, const ptx::Operand &o, Type t) {
    switch (o.kind) {
    case OperandKind::Reg: return regSlot(f, o.reg);
    case OperandKind::Imm: return constSlot(immAs(o, t));
    case OperandKind::Special: return prog_->specialBase + static_cast<std::uint32_t>(o.special);
    case OperandKind::Symbol: {
      const SymAddr *s = symbol(f, o.symbol);
      if (!s || s->kernelParam) return errAt(ins, "cannot take the address of '" + o.symbol + "' in '" + ins.text + "'");
      return constSlot(s->addr);
    }
    default: return errAt(ins, "unexpected operand form in '" + ins.text + "'");
    }
  }

  Expected<std::uint32_t> predSource(const ptx::Function &f, const ptx::Instruction &ins, const ptx::Operand &o) {
    if (o.kind != OperandKind::Reg || !isPredReg(f, o.reg)) return errAt(ins, "expected a predicate register in '" + ins.text + "'");
    return regSlot(f, o.reg);
  }

  Expected<std::uint32_t> dest(const ptx::Function &f, const ptx::Instruction &ins, const ptx::Operand &o) {
    if (o.kind != OperandKind::Reg) return errAt(ins, "destination must be a register in '" + ins.text + "'");
    return regSlot(f, o.reg);
  }

  /// A destination the handler writes as a predicate: predicate slots index another array than
  /// register slots ("setp.gt.s32 %r1, ..." wrote predicate slot <register slot>: fuzz_ptx_loader
  /// ASan heap-buffer-overflow in writePred).
  Expected<std::uint32_t> predDest(const ptx::Function &f, const ptx::Instruction &ins, const ptx::Operand &o) {
    if (o.kind != OperandKind::Reg || !isPredReg(f, o.reg))
      return errAt(ins, "destination must be a predicate register in '" + ins.text + "'");
    return regSlot(f, o.reg);
  }

  Status decodeFunction(const ptx::Function &f);
  Status decodeMemory(const ptx::Function &f, const ptx::Instruction &ins, DInstr &d);
  Status decodeAlu(const ptx::Function &f, const ptx::Instruction &ins, DInstr &d);
  void addSite(const ptx::Instruction &ins, DInstr &d);
};

void Loader::addSite(const ptx::Instruction &ins, DInstr &d) {
  model::SiteInfo s;
  s.site = ins.moduleIndex;
  s.ptxLine = ins.ptxLine;
  s.ptxText = launch::validUtf8(ins.text); // PTX strings may hold any bytes; results are JSON
  int file = ins.locFile, line = ins.locLine;
  if (ins.outerFile >= 0 && ins.outerFile != ins.locFile) { file = ins.outerFile; line = ins.outerLine; }
  if (file >= 0) { s.sourceFile = launch::validUtf8(mod_.fileName(file)); s.sourceLine = line; }
  switch (ins.space) {
  case StateSpace::Global: s.space = model::Space::Global; break;
  case StateSpace::Shared: s.space = model::Space::Shared; break;
  case StateSpace::Local: s.space = model::Space::Local; break;
  default: s.space = model::Space::Generic; break;
  }
  s.op = d.memOp;
  s.widthBytes = d.width * d.vec;
  d.site = s.site;
  d.emit = true;
  prog_->sites.push_back(std::move(s));
}

Status Loader::decodeMemory(const ptx::Function &f, const ptx::Instruction &ins, DInstr &d) {
  const bool isLd = ins.op == Opcode::Ld, isSt = ins.op == Opcode::St, isRed = ins.op == Opcode::Red;
  d.memOp = isLd ? model::Op::Load : isSt ? model::Op::Store : isRed ? model::Op::Reduce : model::Op::Atomic;
  if (!isLd && !isSt) { // ptxas makes atom/red.shared.add of the constant 1 ATOMS.POPC.INC: one add per word
    const std::size_t v = isRed ? 1 : 2;
    const bool addOne = ins.atomOp == ptx::AtomOp::Add && ins.operands.size() > v &&
                        ins.operands[v].kind == ptx::OperandKind::Imm && ins.operands[v].imm == 1;
    d.laneSerial = !addOne;
  }
  d.flow = Flow::MayStop;
  d.width = static_cast<std::uint8_t>(ptx::typeBytes(ins.type));
  d.vec = ins.vec;
  d.signExt = ins.type == Type::S8 || ins.type == Type::S16;
  size_t addrIdx = isLd ? 1 : (isSt || isRed) ? 0 : 1;
  if (ins.operands.size() <= addrIdx || ins.operands[addrIdx].kind != OperandKind::Address)
    return errAt(ins, "expected an address operand in '" + ins.text + "'");
  const ptx::Operand &a = ins.operands[addrIdx];
  d.offset = a.offset;
  if (a.reg >= 0) {
    d.base = regSlot(f, a.reg);
    d.base32 = ptx::typeBytes(f.regs[a.reg].type) == 4;
    if (ins.space == StateSpace::Param) return errAt(ins, "register-addressed .param access is not supported in '" + ins.text + "'");
  } else if (!a.symbol.empty()) {
    const SymAddr *s = symbol(f, a.symbol);
    if (!s) return errAt(ins, "unknown symbol '" + a.symbol + "'");
    std::uint64_t addr = s->addr;
    if (ins.space == StateSpace::Generic) {
      if (s->space == StateSpace::Shared) addr += kSharedWindow;
      else if (s->space == StateSpace::Local) addr += kLocalWindow;
      else if (s->space == StateSpace::Const) addr += kConstWindow;
      else if (s->space == StateSpace::Param) return errAt(ins, "generic access to parameter '" + a.symbol + "' is not supported");
    } else if (s->space != ins.space) {
      return errAt(ins, "symbol '" + a.symbol + "' is in ." + ptx::toString(s->space) + ", not ." + ptx::toString(ins.space));
    }
    d.offset += static_cast<std::int64_t>(addr);
    d.k = s->kernelParam ? 1 : 0;
  }
  if (ins.space == StateSpace::Param && ins.op != Opcode::Ld && ins.op != Opcode::St)
    return errAt(ins, "atomics on .param are not supported");
  if (ins.space == StateSpace::Param && d.k && !isLd) return errAt(ins, "store to a kernel parameter in '" + ins.text + "'");
  Type t = ins.type;
  if (isLd || isSt) {
    // "st.global.f32 [%rd10], ;" has no value operand (fuzz_ptx_loader ASan heap-buffer-overflow)
    if (ins.operands.size() < 2) return errAt(ins, "missing operand in '" + ins.text + "'");
    const ptx::Operand &v = ins.operands[isLd ? 0 : 1];
    std::vector<const ptx::Operand *> elems;
    if (v.kind == OperandKind::Vector) for (const auto &e : v.elems) elems.push_back(&e);
    else elems.push_back(&v);
    if (elems.size() != ins.vec) return errAt(ins, "vector operand size does not match ." + std::string(ins.vec == 1 ? "scalar" : "vN") + " in '" + ins.text + "'");
    for (size_t i = 0; i < elems.size(); ++i) {
      if (isLd) {
        WL_TRY(s, dest(f, ins, *elems[i]));
        d.d[i] = s;
      } else {
        WL_TRY(s, source(f, ins, *elems[i], t));
        d.a[i] = s;
      }
    }
  } else {
    size_t first = isRed ? 1 : 2;
    if (!isRed) { WL_TRY(s, dest(f, ins, ins.operands[0])); d.d[0] = s; }
    if (ins.operands.size() < first + 1) return errAt(ins, "missing operand in '" + ins.text + "'");
    WL_TRY(b, source(f, ins, ins.operands[first], t));
    d.a[0] = b;
    if (ins.atomOp == ptx::AtomOp::Cas) {
      if (ins.operands.size() < first + 2) return errAt(ins, "atom.cas needs a compare and a new value");
      WL_TRY(c, source(f, ins, ins.operands[first + 1], t));
      d.a[1] = c;
    }
  }
  std::string err;
  d.fn = selectMemory(ins, err);
  if (!d.fn) return errAt(ins, err);
  if (ins.space == StateSpace::Global || ins.space == StateSpace::Shared || ins.space == StateSpace::Local ||
      ins.space == StateSpace::Generic)
    addSite(ins, d);
  return {};
}

Status Loader::decodeAlu(const ptx::Function &f, const ptx::Instruction &ins, DInstr &d) {
  const auto &ops = ins.operands;
  Type t = ins.type;
  std::string err;
  if (ops.empty()) return errAt(ins, "missing operands in '" + ins.text + "'");
  // mov forms with vectors (pack/unpack) and predicates
  if (ins.op == Opcode::Mov) {
    if (ops.size() != 2) return errAt(ins, "mov needs two operands");
    if (t == Type::Pred) {
      WL_TRY(dp, predDest(f, ins, ops[0]));
      d.d[0] = dp;
      if (ops[1].kind == OperandKind::Imm) { d.k = constSlot(ops[1].imm ? 1 : 0); d.fn = predFromSlotHandler(); return {}; }
      WL_TRY(sp, predSource(f, ins, ops[1]));
      d.a[0] = sp;
      d.negMask = ops[1].negate ? 1 : 0;
      d.fn = selectAlu(ins, err);
      return {};
    }
    unsigned bits = ptx::typeBytes(t) * 8;
    if (ops[1].kind == OperandKind::Vector || ops[0].kind == OperandKind::Vector) {
      const auto &vec = ops[1].kind == OperandKind::Vector ? ops[1] : ops[0];
      d.vec = static_cast<std::uint8_t>(vec.elems.size());
      if (d.vec < 2 || d.vec > 4) return errAt(ins, "unsupported vector in '" + ins.text + "'");
      d.k = bits / d.vec;
      Type et = d.k == 8 ? Type::B8 : d.k == 16 ? Type::B16 : d.k == 32 ? Type::B32 : Type::B64;
      if (ops[1].kind == OperandKind::Vector) {
        WL_TRY(ds, dest(f, ins, ops[0]));
        d.d[0] = ds;
        for (size_t i = 0; i < vec.elems.size(); ++i) { WL_TRY(s, source(f, ins, vec.elems[i], et)); d.a[i] = s; }
        d.fn = movPackHandler();
      } else {
        WL_TRY(s, source(f, ins, ops[1], t));
        d.a[0] = s;
        for (size_t i = 0; i < vec.elems.size(); ++i) d.d[i] = vec.elems[i].reg < 0 ? kNone : regSlot(f, vec.elems[i].reg);
        d.fn = movUnpackHandler();
      }
      return {};
    }
  }
  // Operands each handler reads (destination included); fewer would leave a source slot kNone
  // for the handler to index (fuzz_ptx_loader: "add.s32 %r4, %rd10;").
  std::size_t arity = 2;
  switch (ins.op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mul24: case Opcode::Div:
  case Opcode::Rem: case Opcode::Min: case Opcode::Max: case Opcode::And: case Opcode::Or:
  case Opcode::Xor: case Opcode::Shl: case Opcode::Shr: case Opcode::Copysign: case Opcode::Set:
  case Opcode::Setp: arity = 3; break;
  case Opcode::Mad: case Opcode::Mad24: case Opcode::Fma: case Opcode::Selp: case Opcode::Slct:
  case Opcode::Bfe: case Opcode::Prmt: arity = 4; break;
  case Opcode::Bfi: arity = 5; break;
  default: break;
  }
  if (ops.size() < arity)
    return errAt(ins, std::string(ptx::toString(ins.op)) + " needs " + std::to_string(arity) +
                          " operands in '" + ins.text + "'");
  const bool writesPred = ins.op == Opcode::Setp || t == Type::Pred;
  if (!writesPred && ops[0].kind == OperandKind::Reg && isPredReg(f, ops[0].reg))
    return errAt(ins, "destination must not be a predicate register in '" + ins.text + "'");
  WL_TRY(d0, writesPred ? predDest(f, ins, ops[0]) : dest(f, ins, ops[0]));
  d.d[0] = d0;
  if (!ops[0].elems.empty()) {
    if (ins.op == Opcode::Setp) { WL_TRY(q, predDest(f, ins, ops[0].elems[0])); d.d2 = q; }
    else d.d2 = regSlot(f, ops[0].elems[0].reg);
  }
  // operand types per position
  auto typeAt = [&](size_t i) -> Type {
    switch (ins.op) {
    case Opcode::Shl: case Opcode::Shr: return i == 2 ? Type::U32 : t;
    case Opcode::Bfe: return i >= 2 ? Type::U32 : t;
    case Opcode::Bfi: return i >= 3 ? Type::U32 : t;
    case Opcode::Cvt: case Opcode::Set: return ins.srcType;
    case Opcode::Slct: return i == 3 ? ins.srcType : t;
    case Opcode::Mad:
      if (ins.mulMode == ptx::MulMode::Wide && i == 3) return ptx::isSigned(t) ? (ptx::typeBytes(t) == 2 ? Type::S32 : Type::S64) : (ptx::typeBytes(t) == 2 ? Type::U32 : Type::U64);
      return t;
    default: return t;
    }
  };
  for (size_t i = 1; i < ops.size() && i <= 4; ++i) {
    bool pred = (ins.op == Opcode::Selp && i == 3) || ((ins.op == Opcode::Setp || ins.op == Opcode::Set) && i == 3) ||
                (t == Type::Pred);
    if (pred) {
      WL_TRY(p, predSource(f, ins, ops[i]));
      d.a[i - 1] = p;
      if (ops[i].negate) d.negMask |= static_cast<std::uint8_t>(1u << (i - 1));
    } else {
      WL_TRY(s, source(f, ins, ops[i], typeAt(i)));
      d.a[i - 1] = s;
    }
  }
  if (ins.op == Opcode::Setp || ins.op == Opcode::Set) {
    if (ins.boolOp != ptx::BoolOp::None && ops.size() != 4) return errAt(ins, "setp with a boolean op needs a predicate operand");
  }
  if (ins.op == Opcode::Mul24 || ins.op == Opcode::Mad24) d.k = ins.mulMode == ptx::MulMode::Hi ? 1 : 0;
  d.fn = selectAlu(ins, err);
  if (!d.fn) return errAt(ins, err);
  return {};
}

Status Loader::decodeFunction(const ptx::Function &f) {
  std::uint32_t base = static_cast<std::uint32_t>(prog_->code.size());
  funcBase_[f.name] = base;
  for (const auto &ins : f.instructions) {
    DInstr d;
    d.op = ins.op;
    d.type = ins.type;
    d.srcType = ins.srcType;
    d.round = ins.round;
    d.cmp = ins.cmp;
    d.boolOp = ins.boolOp;
    d.atomOp = ins.atomOp;
    d.shfl = ins.shfl;
    d.vote = ins.vote;
    d.sat = ins.sat;
    d.space = ins.space;
    d.width = static_cast<std::uint8_t>(std::max(1u, ptx::typeBytes(ins.type)));
    d.src = static_cast<std::uint32_t>(prog_->srcs.size());
    prog_->srcs.push_back({&ins, f.name, sourceOf(ins)});
    if (ins.guard >= 0) {
      if (!isPredReg(f, ins.guard)) return errAt(ins, "the guard of '" + ins.text + "' is not a predicate register");
      d.guard = regSlot(f, ins.guard);
      d.guardNeg = ins.guardNeg;
    }
    std::string err;
    switch (ins.op) {
    case Opcode::Ld: case Opcode::St: case Opcode::Atom: case Opcode::Red:
      WL_CHECK(decodeMemory(f, ins, d));
      break;
    case Opcode::Cvta: {
      if (ins.operands.size() != 2) return errAt(ins, "cvta needs two operands");
      WL_TRY(ds, dest(f, ins, ins.operands[0]));
      WL_TRY(s, source(f, ins, ins.operands[1], ins.type));
      d.d[0] = ds;
      d.a[0] = s;
      if (ins.operands[1].kind == OperandKind::Reg) d.base32 = ptx::typeBytes(f.regs[ins.operands[1].reg].type) == 4;
      std::uint64_t win = ins.space == StateSpace::Shared ? kSharedWindow : ins.space == StateSpace::Local ? kLocalWindow
                        : ins.space == StateSpace::Const ? kConstWindow : 0;
      if (ins.space == StateSpace::Param) return errAt(ins, "cvta.param is not supported");
      d.k = ins.toSpace ? (0 - win) : win;
      d.fn = selectMemory(ins, err);
      break;
    }
    case Opcode::Bra:
      d.target = base + static_cast<std::uint32_t>(ins.target);
      d.flow = Flow::Control;
      d.fn = selectControl(ins, err);
      break;
    case Opcode::Call: {
      // call (rets), callee, (args)
      const ptx::Operand *rets = nullptr, *args = nullptr;
      bool seenCallee = false;
      for (const auto &o : ins.operands) {
        if (o.kind == OperandKind::Symbol) seenCallee = true;
        else if (o.kind == OperandKind::List) (seenCallee ? args : rets) = &o;
      }
      const ptx::Function *g = mod_.findFunction(calleeOf(ins));
      CallInfo ci;
      auto copies = [&](const ptx::Operand *list, const std::vector<ptx::Variable> &formals, bool isArgs) -> Status {
        size_t n = list ? list->elems.size() : 0;
        if (n != formals.size()) return errAt(ins, "call of '" + g->name + "' with " + std::to_string(n) + (isArgs ? " arguments" : " return values") + ", expected " + std::to_string(formals.size()));
        for (size_t i = 0; i < n; ++i) {
          const SymAddr *mine = symbol(f, list->elems[i].symbol);
          const SymAddr *theirs = symbol(*g, formals[i].name);
          if (!mine || !theirs || mine->space != StateSpace::Param) return errAt(ins, "call argument '" + list->elems[i].symbol + "' must be a .param variable");
          std::uint32_t bytes = static_cast<std::uint32_t>(formals[i].sizeBytes);
          if (isArgs) ci.args.push_back({static_cast<std::uint32_t>(mine->addr), static_cast<std::uint32_t>(theirs->addr), bytes});
          else ci.rets.push_back({static_cast<std::uint32_t>(theirs->addr), static_cast<std::uint32_t>(mine->addr), bytes});
        }
        return {};
      };
      WL_CHECK(copies(args, g->params, true));
      WL_CHECK(copies(rets, g->returns, false));
      d.aux = static_cast<std::uint32_t>(prog_->calls.size());
      prog_->calls.push_back(std::move(ci));
      d.flow = Flow::Control;
      d.fn = selectControl(ins, err);
      break;
    }
    case Opcode::Ret: case Opcode::Exit:
      d.flow = Flow::Control;
      d.fn = selectControl(ins, err);
      break;
    case Opcode::Bar:
      d.k = ins.bar == ptx::BarKind::Arrive ? 1 : 0;
      d.flow = Flow::Control;
      d.fn = selectControl(ins, err);
      break;
    case Opcode::BarWarp: case Opcode::Membar: case Opcode::Prefetch: case Opcode::Nop:
      d.fn = selectControl(ins, err);
      break;
    case Opcode::Shfl: {
      if (ins.operands.size() < 4) return errAt(ins, "shfl needs d, a, b, c, membermask");
      WL_TRY(ds, dest(f, ins, ins.operands[0]));
      d.d[0] = ds;
      if (!ins.operands[0].elems.empty()) { WL_TRY(q, predDest(f, ins, ins.operands[0].elems[0])); d.d2 = q; }
      for (size_t i = 1; i <= 3; ++i) { WL_TRY(s, source(f, ins, ins.operands[i], Type::U32)); d.a[i - 1] = s; }
      d.fn = selectControl(ins, err);
      break;
    }
    case Opcode::Vote: {
      if (ins.operands.size() < 2) return errAt(ins, "vote needs d, a, membermask");
      WL_TRY(ds, ins.vote == ptx::VoteMode::Ballot ? dest(f, ins, ins.operands[0]) : predDest(f, ins, ins.operands[0]));
      WL_TRY(p, predSource(f, ins, ins.operands[1]));
      d.d[0] = ds;
      d.a[0] = p;
      d.negMask = ins.operands[1].negate ? 1 : 0;
      d.fn = selectControl(ins, err);
      break;
    }
    case Opcode::Activemask: {
      if (ins.operands.size() != 1) return errAt(ins, "activemask needs one destination in '" + ins.text + "'");
      WL_TRY(ds, dest(f, ins, ins.operands[0]));
      d.d[0] = ds;
      d.fn = selectControl(ins, err);
      break;
    }
    default:
      WL_CHECK(decodeAlu(f, ins, d));
    }
    if (!d.fn) return errAt(ins, err.empty() ? "unsupported instruction '" + ins.text + "'" : err);
    prog_->code.push_back(d);
  }
  // implicit ret at the end of the body
  DInstr r;
  r.op = Opcode::Ret;
  r.flow = Flow::Control;
  std::string err;
  ptx::Instruction fake;
  fake.op = Opcode::Ret;
  r.fn = selectControl(fake, err);
  r.src = prog_->srcs.empty() ? 0 : static_cast<std::uint32_t>(prog_->srcs.size() - 1);
  prog_->code.push_back(r);
  prog_->numSlots = std::max(prog_->numSlots, nextSlot_);
  return {};
}

} // namespace

std::vector<std::uint64_t> bufferBases(const std::vector<launch::HostBuffer> &buffers) {
  std::vector<std::uint64_t> bases;
  // Each buffer starts on a 4 KiB boundary (cudaMalloc guarantees 512 bytes; the allocations the
  // probe makes start on page boundaries in practice, and the time model's 1 KiB regions and
  // atomic units depend on it: a 256-bin table straddling two KiB regions would spread over four
  // atomic units instead of two, heldout3_hist256 against atomic_bins, session 7).
  std::uint64_t cur = kGlobalBase;
  for (const auto &b : buffers) {
    cur = alignUp(cur, 4096);
    bases.push_back(cur);
    cur += alignUp(std::max<std::uint64_t>(b.bytes.size(), 1), 512) + 512;
  }
  return bases;
}

Expected<const ptx::Function *> findKernel(const ptx::Module &module, const std::string &name) {
  std::vector<const ptx::Function *> entries;
  for (const auto &f : module.functions)
    if (f.isEntry) entries.push_back(&f);
  for (const auto *f : entries)
    if (f->name == name) return f;
  std::vector<const ptx::Function *> hits;
  for (const auto *f : entries)
    if (demangledBase(f->name) == name) hits.push_back(f);
  if (hits.empty())
    for (const auto *f : entries)
      if (f->name.rfind(name, 0) == 0 || demangledBase(f->name).rfind(name, 0) == 0) hits.push_back(f);
  if (hits.size() == 1) return hits[0];
  std::string list;
  for (const auto *f : entries) list += (list.empty() ? "" : ", ") + f->name;
  return Error{module.path + ": kernel '" + name + "' " + (hits.empty() ? "not found" : "is ambiguous") +
               "; entries: " + (list.empty() ? "(none)" : list)};
}

Expected<std::unique_ptr<Program>> loadProgram(const ptx::Module &module, const ptx::Function &kernel,
                                               const launch::LaunchSpec &spec,
                                               std::vector<launch::HostBuffer> &buffers) {
  Loader l(module, kernel, spec, buffers);
  return l.run();
}

std::string Program::where(const DInstr &in) const {
  if (in.src >= srcs.size() || !srcs[in.src].ins) return path;
  const ptx::Instruction &ins = *srcs[in.src].ins;
  std::string s = "PTX " + path + ":" + std::to_string(ins.ptxLine) + " '" + ins.text + "'";
  if (!srcs[in.src].source.empty()) s += ", source " + srcs[in.src].source;
  return s;
}

} // namespace warplens::emu

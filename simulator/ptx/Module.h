/// \file
/// The parsed PTX module: variables, functions, registers and decoded instructions (opcode,
/// type, modifiers, operands with resolved register indices, .loc line info). No execution here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warplens::ptx {

enum class StateSpace : std::uint8_t { None, Global, Shared, Local, Const, Param, Generic };

/// Scalar PTX types. Pred is the 1-bit predicate type.
enum class Type : std::uint8_t {
  None, Pred, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2, BF16, F32, F64
};
unsigned typeBytes(Type t);
bool isFloat(Type t);
bool isSigned(Type t);
const char *toString(Type t);
const char *toString(StateSpace s);

enum class Opcode : std::uint8_t {
  Mov, Ld, St, Cvta, Add, Sub, Mul, Mad, Mul24, Mad24, Div, Rem, Min, Max, Abs, Neg, And, Or, Xor,
  Not, Shl, Shr, Cnot, Popc, Clz, Brev, Bfe, Bfi, Prmt, Setp, Selp, Set, Slct, Cvt, Fma, Sqrt,
  Rsqrt, Rcp, Ex2, Lg2, Sin, Cos, Copysign, Bra, Call, Ret, Exit, Bar, BarWarp, Membar, Shfl, Vote,
  Activemask, Atom, Red, Prefetch, Nop
};
const char *toString(Opcode op);

enum class Cmp : std::uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan
};
enum class BoolOp : std::uint8_t { None, And, Or, Xor };
enum class Round : std::uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
enum class MulMode : std::uint8_t { None, Lo, Hi, Wide };
enum class AtomOp : std::uint8_t { None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class ShflMode : std::uint8_t { None, Up, Down, Bfly, Idx };
enum class VoteMode : std::uint8_t { None, All, Any, Uni, Ballot };
enum class BarKind : std::uint8_t { Sync, Arrive };

/// Special registers (%tid.x, ...).
enum class Special : std::uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, NWarpId, SmId, NSmId, GridId, Clock, Clock64, LanemaskEq, LanemaskLt,
  LanemaskLe, LanemaskGt, LanemaskGe, GlobalTimer, Count
};

enum class OperandKind : std::uint8_t {
  Reg,      ///< reg = register index in the function
  Imm,      ///< imm = integer bits (two's complement) or float bits per immType
  Special,  ///< special
  Symbol,   ///< a variable's address or a function name (symbol)
  Address,  ///< [reg + offset] or [symbol + offset] or [offset]
  Vector,   ///< {a, b, ...}: elems
  Label,    ///< branch target: symbol, resolved to target index in the instruction
  List      ///< call argument lists (a, b): elems (symbols)
};

struct Operand {
  OperandKind kind = OperandKind::Reg;
  int reg = -1;                 ///< Reg, or Address base register (-1 when none)
  bool negate = false;          ///< !%p
  Type immType = Type::None;    ///< Imm: S64 for integers, F32 for 0f, F64 for 0d / decimals
  std::uint64_t imm = 0;
  Special special = Special::TidX;
  std::string symbol;           ///< Symbol / Address base symbol / Label
  std::int64_t offset = 0;      ///< Address offset
  std::vector<Operand> elems;   ///< Vector / List
};

struct Instruction {
  Opcode op = Opcode::Nop;
  std::string opcodeText;       ///< "ld.global.v4.f32"
  Type type = Type::None;       ///< the instruction type (destination type for cvt/set)
  Type srcType = Type::None;    ///< cvt source, set/slct comparison type
  StateSpace space = StateSpace::None;
  bool toSpace = false;         ///< cvta.to.*
  std::uint8_t vec = 1;
  Cmp cmp = Cmp::None;
  BoolOp boolOp = BoolOp::None;
  Round round = Round::None;
  MulMode mulMode = MulMode::None;
  AtomOp atomOp = AtomOp::None;
  ShflMode shfl = ShflMode::None;
  VoteMode vote = VoteMode::None;
  BarKind bar = BarKind::Sync;
  bool sat = false, ftz = false, approx = false, uni = false, clampBfe = false;
  bool cc = false;              ///< .cc / addc carry forms are rejected at parse time
  int guard = -1;               ///< predicate register guarding the instruction, -1 none
  bool guardNeg = false;
  std::vector<Operand> operands;
  int target = -1;              ///< bra: instruction index of the label
  int ptxLine = 0;              ///< 1-based line of the instruction in the .ptx
  std::string text;             ///< the instruction as written, whitespace collapsed
  int locFile = -1, locLine = -1; ///< innermost .loc (file index, line)
  int outerFile = -1, outerLine = -1; ///< for inlined_at .loc forms: the call site in the caller
  std::uint32_t moduleIndex = 0; ///< stable index of this instruction in the module
};

struct Variable {
  std::string name;
  StateSpace space = StateSpace::None;
  Type type = Type::B8;
  unsigned align = 0;           ///< 0 = natural alignment of type
  std::uint64_t sizeBytes = 0;  ///< total bytes (element size × count); 0 for extern []
  bool isExtern = false;        ///< extern .shared dynamic array (size 0) or declaration
  bool isArray = false;
  std::vector<std::uint8_t> init; ///< initial bytes, empty = zero
  bool isPtr = false;
  int line = 0;
};

struct Register {
  std::string name;
  Type type = Type::B32;
};

struct Function {
  std::string name;
  bool isEntry = false;
  bool hasBody = false;
  std::vector<Variable> params;     ///< .param inputs (kernel params or .func params)
  std::vector<Variable> returns;    ///< .func return params
  std::vector<Register> regs;
  std::map<std::string, int> regIndex;
  std::vector<Variable> locals;     ///< .local/.shared/.param declared in the body
  std::vector<Instruction> instructions;
  std::map<std::string, int> labels; ///< label → instruction index
  int line = 0;
};

struct Module {
  std::string path;
  std::string version, target;
  int addressSize = 64;
  std::vector<Variable> globals;      ///< module-scope .global/.const/.shared (incl. extern)
  std::vector<Function> functions;    ///< in file order
  std::map<int, std::string> files;   ///< .file index → path

  const Function *findFunction(const std::string &name) const;
  const Variable *findGlobal(const std::string &name) const;
  std::string fileName(int index) const; ///< "" when unknown
};

} // namespace warplens::ptx

/// \file
/// Unit tests of the pattern expression language: precedence, C semantics of / % >> on negative
/// numbers, short-circuit, functions, variables, and error messages with token and column.
#include "analysis/pattern/Expression.h"

#include <gtest/gtest.h>

using namespace warplens::analysis;

namespace {

struct Eval {
  Scope scope;
  std::vector<std::int64_t> vars = std::vector<std::int64_t>(kBuiltinCount + 4, 0);

  std::int64_t operator()(const std::string &text) {
    auto e = Expression::compile(text, scope, "--index");
    EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
    if (!e) return -999999;
    std::int64_t r = 0;
    std::size_t col = 0;
    EXPECT_TRUE(e->eval(vars.data(), r, col)) << text;
    return r;
  }
  std::string error(const std::string &text) {
    auto e = Expression::compile(text, scope, "--index");
    EXPECT_FALSE(e.ok()) << text;
    return e.ok() ? "" : e.error().message;
  }
  void set(Var v, std::int64_t value) { vars[unsigned(v)] = value; }
};

} // namespace

TEST(Expression, PrecedenceFollowsC) {
  Eval ev;
  EXPECT_EQ(ev("1 + 2*3"), 7);
  EXPECT_EQ(ev("(1 + 2)*3"), 9);
  EXPECT_EQ(ev("2 << 3 + 1"), 32);     // + binds tighter than <<: 2 << 4
  EXPECT_EQ(ev("1 | 2 ^ 3 & 4"), 3);   // & then ^ then |: 3&4 = 0, 2^0 = 2, 1|2 = 3
  EXPECT_EQ(ev("1 + 2 == 3"), 1);      // == below +
  EXPECT_EQ(ev("6 & 3 == 3"), 0);      // == above &: 6 & (3==3) = 6 & 1 = 0
  EXPECT_EQ(ev("10 - 4 - 3"), 3);      // left associative
  EXPECT_EQ(ev("64 / 4 / 2"), 8);
  EXPECT_EQ(ev("1 < 2 && 3 > 4 || 5 >= 5"), 1);
  EXPECT_EQ(ev("-2*-3"), 6);
  EXPECT_EQ(ev("!0 + !7 + ~0"), 0);    // 1 + 0 + (-1)
}

TEST(Expression, CSemanticsOfDivisionAndShift) {
  Eval ev;
  EXPECT_EQ(ev("-7 / 2"), -3);  // truncation toward zero
  EXPECT_EQ(ev("-7 % 2"), -1);
  EXPECT_EQ(ev("7 % -2"), 1);
  EXPECT_EQ(ev("-16 >> 2"), -4); // arithmetic shift
  EXPECT_EQ(ev("1 << 40"), 1099511627776);
  EXPECT_EQ(ev("0x10 + 0XfF"), 16 + 255);
  EXPECT_EQ(ev("min(3, max(1, 2)) * 10"), 20);
  EXPECT_EQ(ev("min(-1, 0)"), -1);
}

TEST(Expression, ShortCircuitSkipsDivisionByZero) {
  Eval ev;
  EXPECT_EQ(ev("0 && 1/0"), 0);
  EXPECT_EQ(ev("1 || 1/0"), 1);
  EXPECT_EQ(ev("7 && 9"), 1);
  EXPECT_EQ(ev("0 || 0"), 0);
}

TEST(Expression, VariablesAndLets) {
  Eval ev;
  ASSERT_TRUE(ev.scope.add("row").ok());
  ASSERT_TRUE(ev.scope.add("W").ok());
  ev.set(Var::Tx, 5);
  ev.set(Var::Ty, 3);
  ev.set(Var::Ntx, 32);
  ev.vars[kBuiltinCount] = 3;      // row
  ev.vars[kBuiltinCount + 1] = 33; // W
  EXPECT_EQ(ev("tx*33 + ty"), 168);
  EXPECT_EQ(ev("row*W + (tx ^ row)"), 3 * 33 + (5 ^ 3));
  EXPECT_EQ(ev("ty*ntx + tx"), 101);
}

TEST(Expression, DivisionByZeroReportsTheColumn) {
  Scope scope;
  auto e = Expression::compile("tx + 32/(tx-3)", scope);
  ASSERT_TRUE(e.ok());
  std::vector<std::int64_t> vars(kBuiltinCount, 0);
  vars[unsigned(Var::Tx)] = 3;
  std::int64_t r = 0;
  std::size_t col = 99;
  EXPECT_FALSE(e->eval(vars.data(), r, col));
  EXPECT_EQ(col, 7u); // the '/' is the 8th character
  vars[unsigned(Var::Tx)] = 4;
  EXPECT_TRUE(e->eval(vars.data(), r, col));
  EXPECT_EQ(r, 4 + 32);
}

TEST(Expression, ErrorsNameTokenAndColumn) {
  Eval ev;
  std::string m = ev.error("tx*33 + foo");
  EXPECT_NE(m.find("unknown variable 'foo' at column 9"), std::string::npos) << m;
  EXPECT_NE(m.find("tx*33 + foo\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\n          ^"), std::string::npos) << m; // 2 spaces indent + 8 + caret
  m = ev.error("tx */ 2");
  EXPECT_NE(m.find("unexpected token '/'"), std::string::npos) << m;
  EXPECT_NE(m.find("column 5"), std::string::npos) << m;
  m = ev.error("(tx + 1");
  EXPECT_NE(m.find("missing ')'"), std::string::npos) << m;
  m = ev.error("tx 4");
  EXPECT_NE(m.find("unexpected token '4' at column 4"), std::string::npos) << m;
  m = ev.error("tx @ 2");
  EXPECT_NE(m.find("unexpected character '@' at column 4"), std::string::npos) << m;
  m = ev.error("tx +");
  EXPECT_NE(m.find("end of expression"), std::string::npos) << m;
  m = ev.error("min(tx)");
  EXPECT_NE(m.find("expected ','"), std::string::npos) << m;
  m = ev.error("99999999999999999999");
  EXPECT_NE(m.find("bad number '99999999999999999999'"), std::string::npos) << m;
  m = ev.error("0x");
  EXPECT_NE(m.find("bad number '0x'"), std::string::npos) << m;
  m = ev.error("   ");
  EXPECT_NE(m.find("empty expression"), std::string::npos) << m;
  EXPECT_EQ(m.rfind("--index", 0), 0u) << m;
}

TEST(Expression, LetNamesAreChecked) {
  Scope s;
  auto st = s.add("tx");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("'tx' redefines a built-in"), std::string::npos);
  EXPECT_FALSE(s.add("2row").ok());
  EXPECT_FALSE(s.add("min").ok());
  EXPECT_TRUE(s.add("row").ok());
  EXPECT_FALSE(s.add("row").ok());
  EXPECT_EQ(s.find("row"), int(kBuiltinCount));
}

TEST(Expression, SubstituteSwapsVariables) {
  Scope s;
  auto e = Expression::compile("ty*2048 + tx", s);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->substitute({{int(Var::Tx), "ty"}, {int(Var::Ty), "tx"}}), "(tx)*2048 + (ty)");
  EXPECT_TRUE(e->uses(int(Var::Tx)));
  EXPECT_FALSE(e->uses(int(Var::Gx)));
}

TEST(Expression, FastEnoughForBigGrids) {
  // 4M evaluations of a transpose index must take well under a second.
  Scope s;
  auto e = Expression::compile("(by*32 + ty)*2048 + bx*32 + (tx ^ ty)", s);
  ASSERT_TRUE(e.ok());
  EXPECT_LE(e->program().size(), 16u);
  std::vector<std::int64_t> vars(kBuiltinCount, 1);
  std::int64_t sum = 0, r = 0;
  std::size_t col = 0;
  for (int i = 0; i < 4 * 1024 * 1024; ++i) {
    vars[0] = i & 31;
    ASSERT_TRUE(e->eval(vars.data(), r, col));
    sum += r;
  }
  EXPECT_NE(sum, 0);
}

/// \file
/// Fuzz target pattern_expr: Expression::compile() over the built-ins and two --let names, then
/// eval() on a few thread values and the helpers explain uses (spanText, substitute).
#include "FuzzTargets.h"

#include "analysis/pattern/Expression.h"

#include <string>
#include <vector>

namespace warplens::fuzz {

int patternExpr(const std::uint8_t *data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  analysis::Scope scope;
  if (!scope.add("row") || !scope.add("col")) violated("pattern_expr", "scope");
  auto e = analysis::Expression::compile(text, scope, "--index");
  if (!e) {
    if (e.error().message.rfind("--index", 0) != 0) violated("pattern_expr", e.error().message);
    return 0;
  }
  std::vector<std::int64_t> vars(scope.size(), 0);
  for (std::uint64_t t : {0ull, 1ull, 31ull, 0ull - 7, 1ull << 63, (1ull << 63) - 1}) {
    for (std::size_t i = 0; i < vars.size(); ++i) vars[i] = static_cast<std::int64_t>(t + i);
    std::int64_t result = 0;
    std::size_t column = 0;
    if (!e->eval(vars.data(), result, column) && column > text.size())
      violated("pattern_expr", "error column outside the text");
  }
  for (std::size_t i = 0; i < e->nodes().size(); ++i) (void)e->spanText(int(i));
  (void)e->substitute({{scope.find("row"), "ty"}, {0, "col + 1"}});
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(patternExpr)

/// \file
/// Fuzz target ptx_lexer: tokenize() and splitLines() on any bytes.
#include "FuzzTargets.h"

#include "ptx/Lexer.h"

#include <string>

namespace warplens::fuzz {

int ptxLexer(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  const auto toks = ptx::tokenize(text);
  if (toks.empty() || toks.back().kind != ptx::TokKind::End) violated("ptx_lexer", "no End token");
  if (toks.size() > size + 1) violated("ptx_lexer", "more tokens than bytes");
  int line = 1;
  for (const auto &t : toks) {
    if (t.line < line) violated("ptx_lexer", "line numbers go backwards");
    line = t.line;
    if (t.kind != ptx::TokKind::End && t.kind != ptx::TokKind::String && t.text.empty())
      violated("ptx_lexer", "empty token");
  }
  const auto lines = ptx::splitLines(text);
  if (static_cast<std::size_t>(toks.back().line) > lines.size())
    violated("ptx_lexer", "token line past the last line");
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(ptxLexer)

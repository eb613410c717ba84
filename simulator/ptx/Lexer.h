/// \file
/// Tokenizer for PTX text: words (opcodes, directives, identifiers, %registers, with dots),
/// numbers (decimal, hex, 0f/0d float bits), strings and punctuation, each with its line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warplens::ptx {

enum class TokKind : std::uint8_t { Word, Number, String, Punct, End };

struct Token {
  TokKind kind = TokKind::End;
  std::string text;
  int line = 0;
};

/// Splits `text` into tokens; comments (// and /* */) are dropped. Never fails: unknown
/// characters become one-character Punct tokens that the parser reports.
std::vector<Token> tokenize(const std::string &text);

/// The raw source line `line` (1-based) of `text`, whitespace collapsed, for instruction text.
std::vector<std::string> splitLines(const std::string &text);

} // namespace warplens::ptx

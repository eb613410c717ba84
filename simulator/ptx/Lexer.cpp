/// \file
/// PTX tokenizer (see Lexer.h).
#include "ptx/Lexer.h"

#include <cctype>

namespace warplens::ptx {

namespace {
bool wordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }
} // namespace

std::vector<Token> tokenize(const std::string &s) {
  std::vector<Token> out;
  out.reserve(s.size() / 4);
  int line = 1;
  size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '\n') { ++line; ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) { if (s[i] == '\n') ++line; ++i; }
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    if (c == '"') {
      size_t j = i + 1;
      while (j < n && s[j] != '"' && s[j] != '\n') ++j;
      t.kind = TokKind::String;
      t.text = s.substr(i + 1, j - i - 1);
      i = j < n ? j + 1 : j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      if (c == '0' && i + 1 < n && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D' || s[i + 1] == 'x' || s[i + 1] == 'X')) {
        j = i + 2;
        while (j < n && std::isxdigit(static_cast<unsigned char>(s[j]))) ++j;
        if (j < n && (s[j] == 'U' || s[j] == 'u')) ++j;
      } else {
        while (j < n && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.' ||
                         s[j] == 'e' || s[j] == 'E' ||
                         ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
          ++j;
        if (j < n && (s[j] == 'U' || s[j] == 'u')) ++j;
      }
      t.kind = TokKind::Number;
      t.text = s.substr(i, j - i);
      i = j;
    } else if (wordStart(c)) {
      size_t j = i + 1;
      while (j < n) {
        if (wordChar(s[j])) { ++j; continue; }
        // "::" inside a word: ld.shared::cta, L2::cache_hint
        if (s[j] == ':' && j + 2 < n && s[j + 1] == ':' && wordChar(s[j + 2])) { j += 2; continue; }
        break;
      }
      t.kind = TokKind::Word;
      t.text = s.substr(i, j - i);
      i = j;
    } else {
      t.kind = TokKind::Punct;
      t.text = std::string(1, c);
      ++i;
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = TokKind::End;
  end.line = line;
  out.push_back(end);
  return out;
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') { lines.push_back(cur); cur.clear(); }
    else cur.push_back(c);
  }
  lines.push_back(cur);
  return lines;
}

} // namespace warplens::ptx

/// \file
/// Depth- and size-checked JSON parsing (see JsonText.h).
#include "launch/JsonText.h"

namespace warplens::launch {

Expected<nlohmann::json> parseJsonText(const std::string &text, const std::string &path) {
  if (text.size() > kMaxJsonBytes)
    return Error{path + ": " + std::to_string(text.size()) + " bytes of JSON exceed the limit of " +
                 std::to_string(kMaxJsonBytes)};
  unsigned depth = 0;
  int line = 1;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return Error{path + ":" + std::to_string(line) + ": JSON nested deeper than " +
                     std::to_string(kMaxJsonDepth) + " levels"};
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception &e) {
    std::string msg = e.what();
    auto pos = msg.find("parse error");
    return Error{path + ": not valid JSON: " + (pos == std::string::npos ? msg : msg.substr(pos))};
  }
}

std::string shortDump(const nlohmann::json &v, std::size_t max) {
  // Depth is bounded by parseJsonText, so dump() cannot recurse far; the text may still be long.
  std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > max) s = s.substr(0, max) + "...";
  return s;
}

std::string validUtf8(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  const auto cont = [&](std::size_t i, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return i < s.size() && static_cast<unsigned char>(s[i]) >= lo && static_cast<unsigned char>(s[i]) <= hi;
  };
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    if (c < 0x80) n = 1;
    else if (c >= 0xC2 && c <= 0xDF) n = cont(i + 1) ? 2 : 0;
    else if (c == 0xE0) n = cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) n = cont(i + 1) && cont(i + 2) ? 3 : 0;
    else if (c == 0xED) n = cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
    else if (c == 0xF0) n = cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    else if (c >= 0xF1 && c <= 0xF3) n = cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    else if (c == 0xF4) n = cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (n == 0) {
      out += '?';
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}


} // namespace warplens::launch

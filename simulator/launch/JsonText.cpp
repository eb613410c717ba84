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

} // namespace warplens::launch

/// \file
/// The fuzz targets of tests/fuzz: one function per input format, each feeding arbitrary bytes to
/// a reader and checking that it either succeeds or returns an Error that names the input (never
/// crashes, hangs or reports to a sanitizer). Built twice: as libFuzzer executables (fuzz_NAME,
/// WARPLENS_LIBFUZZER defined; see tests.cmake) and into test_fuzz, which replays the committed
/// corpora tests/fuzz/NAME/ on every ctest run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace warplens::fuzz {

using Target = int (*)(const std::uint8_t *data, std::size_t size);

int ptxLexer(const std::uint8_t *data, std::size_t size);
int ptxParser(const std::uint8_t *data, std::size_t size);
int ptxLoader(const std::uint8_t *data, std::size_t size);
int sassListing(const std::uint8_t *data, std::size_t size);
int launchSpec(const std::uint8_t *data, std::size_t size);
int resultJson(const std::uint8_t *data, std::size_t size);
int ncuCsv(const std::uint8_t *data, std::size_t size);
int traceReader(const std::uint8_t *data, std::size_t size);
int patternExpr(const std::uint8_t *data, std::size_t size);
int sassDecoder(const std::uint8_t *data, std::size_t size);

struct NamedTarget {
  std::string_view name; ///< folder of its corpus under tests/fuzz/ and suffix of fuzz_NAME
  Target fn;
};
inline constexpr NamedTarget kTargets[] = {
    {"ptx_lexer", ptxLexer},       {"ptx_parser", ptxParser},   {"ptx_loader", ptxLoader},
    {"sass_listing", sassListing}, {"launch_spec", launchSpec}, {"result_json", resultJson},
    {"ncu_csv", ncuCsv},           {"trace_reader", traceReader}, {"pattern_expr", patternExpr},
    {"sass_decoder", sassDecoder},
};

/// A broken invariant: prints `what` and aborts, which libFuzzer and ctest both report.
[[noreturn]] void violated(const char *target, const std::string_view what);

} // namespace warplens::fuzz

/// Defines the libFuzzer entry point for one target when building fuzz_NAME.
#ifdef WARPLENS_LIBFUZZER
#define WARPLENS_FUZZ_ENTRY(fn)                                                                    \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {             \
    return warplens::fuzz::fn(data, size);                                                         \
  }
#else
#define WARPLENS_FUZZ_ENTRY(fn)
#endif

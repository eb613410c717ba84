# Sanitizer and fuzzing builds (issue 14). Included from the root CMakeLists.txt before any target.
#   -DWARPLENS_SANITIZE=ON  every target with AddressSanitizer + UndefinedBehaviorSanitizer; the
#                           first report aborts (-fno-sanitize-recover), so a finding fails ctest.
#   -DWARPLENS_FUZZ=ON      also the libFuzzer targets of tests/fuzz (clang only; implies SANITIZE;
#                           code is built with -fsanitize=fuzzer-no-link so the same libraries
#                           serve the unit tests and the fuzzers).
# scripts/sanitize and scripts/fuzz configure build-asan/ with both (CC=clang-14 CXX=clang++-14).
option(WARPLENS_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(WARPLENS_FUZZ "Build the libFuzzer targets in tests/fuzz (clang; implies WARPLENS_SANITIZE)" OFF)

if(WARPLENS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "WARPLENS_FUZZ=ON needs clang (libFuzzer): configure with CXX=clang++-14")
  endif()
  set(WARPLENS_SANITIZE ON CACHE BOOL "" FORCE)
endif()

if(WARPLENS_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang's -fsanitize=undefined leaves these out; they catch the casts and shifts that
    # hand-written parsers get wrong.
    add_compile_options(-fsanitize=float-cast-overflow,integer-divide-by-zero)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # The sanitizer build takes the models' portable (non-AVX-512) paths, so that its reports
    # reproduce on any x86-64 machine. (This define also once hid WarpSimd.h's
    # __builtin_cpu_supports("lzcnt"), which clang 14 rejects; WarpSimd.h now leaves it out
    # under clang.)
    add_compile_options("-D__builtin_cpu_supports(x)=0")
  endif()
  # The CUPTI probe is not part of what the sanitizer build checks.
  set(WARPLENS_PROBE OFF CACHE BOOL "" FORCE)
endif()

if(WARPLENS_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

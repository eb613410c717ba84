# tests/fuzz: fuzz targets (src/*.cpp) and their corpora (one folder per target, named as in
# src/FuzzTargets.h). test_fuzz (made by tests/CMakeLists.txt from FuzzReplayTest.cpp) replays
# the corpora in every build; with -DWARPLENS_FUZZ=ON (cmake/Sanitizers.cmake) each target is
# also a libFuzzer executable fuzz_<name>. Run them with scripts/fuzz [TARGET] [SECONDS].
file(GLOB fuzz_srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/src/*.cpp)
target_sources(test_fuzz PRIVATE ${fuzz_srcs})
target_include_directories(test_fuzz PRIVATE ${CMAKE_CURRENT_LIST_DIR})

if(WARPLENS_FUZZ)
  # NAME:SOURCE:LIBRARY; each target links only the library it fuzzes, so it builds early.
  set(fuzz_targets ptx_lexer:PtxLexer:warplens_ptx ptx_parser:PtxParser:warplens_ptx
      ptx_loader:PtxLoader:warplens_emu sass_listing:SassListing:warplens_sass
      launch_spec:LaunchSpec:warplens_launch result_json:ResultJson:warplens_analysis
      ncu_csv:NcuCsv:warplens_analysis trace_reader:TraceReader:warplens_trace
      pattern_expr:PatternExpr:warplens_util sass_decoder:SassDecoder:warplens_sassemu)
  foreach(triple ${fuzz_targets})
    string(REPLACE ":" ";" parts ${triple})
    list(GET parts 0 name)
    list(GET parts 1 file)
    list(GET parts 2 lib)
    add_executable(fuzz_${name} ${CMAKE_CURRENT_LIST_DIR}/src/${file}.cpp
                                ${CMAKE_CURRENT_LIST_DIR}/src/Violated.cpp)
    target_compile_definitions(fuzz_${name} PRIVATE WARPLENS_LIBFUZZER=1)
    target_include_directories(fuzz_${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR})
    target_link_libraries(fuzz_${name} PRIVATE ${lib})
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  endforeach()
  # The expression language lives in warplens_analysis; compile just its file into the target.
  target_sources(fuzz_pattern_expr PRIVATE ${PROJECT_SOURCE_DIR}/analysis/pattern/Expression.cpp)
endif()

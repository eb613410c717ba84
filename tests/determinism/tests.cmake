# tests/determinism: `warplens suite` gives byte-identical text and JSON across runs and across
# --threads 1, 2 and 8 (issue 14). No GPU, no nvcc: the suite's sources are PTX fixtures.
if(TARGET warplens)
  add_test(NAME determinism_threads
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check.sh $<TARGET_FILE:warplens>
                   ${CMAKE_CURRENT_BINARY_DIR}/determinism)
  set_tests_properties(determinism_threads PROPERTIES LABELS "cpu;determinism" TIMEOUT 300)
endif()

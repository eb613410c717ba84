# tests/modern: CLI checks of issue 9 (suite isolation, assert, printf, Hopper cluster / tensor-map
# errors) on kernels/modern/diag.cu and hopper.cu;
# they need nvcc (the kernels are .cu). The modern corpus itself is checked against the GPU by
# the validation_*_modern tests (tests/validation).
if(WARPLENS_NVCC)
  foreach(_case isolation assert hopper)
    add_test(NAME modern_${_case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check.sh $<TARGET_FILE:warplens> ${CMAKE_CURRENT_LIST_DIR} ${_case})
    set_tests_properties(modern_${_case} PROPERTIES LABELS "cpu;modern" TIMEOUT 300)
  endforeach()
endif()

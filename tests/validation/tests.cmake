# One ctest per measured file in validation/<device>/measured_<suite>.json: predict the suite with
# `warplens suite` and check it with `warplens compare` (no GPU needed), so a model regression
# fails CI. The suite is the file's top-level "suite" key, else kernels[/micro]/<suite>.json.
# Nothing is added while validation/ holds no measurements.
file(GLOB _wl_measured ${PROJECT_SOURCE_DIR}/validation/*/measured_*.json)
foreach(_m ${_wl_measured})
  get_filename_component(_dev ${_m} DIRECTORY)
  get_filename_component(_dev ${_dev} NAME)
  get_filename_component(_stem ${_m} NAME_WE)
  string(REGEX REPLACE "^measured_" "" _stem ${_stem})
  file(READ ${_m} _json)
  string(JSON _suite ERROR_VARIABLE _err GET "${_json}" suite)
  if(_err OR NOT _suite)
    set(_suite "")
    foreach(_cand kernels/${_stem}.json kernels/micro/${_stem}.json)
      if(EXISTS ${PROJECT_SOURCE_DIR}/${_cand})
        set(_suite ${_cand})
        break()
      endif()
    endforeach()
  endif()
  if(NOT _suite)
    message(WARNING "tests/validation: no suite for ${_m}; add a top-level \"suite\" key")
    continue()
  endif()
  if(NOT WARPLENS_NVCC)
    # .cu sources need nvcc to become PTX; without it the prediction cannot run.
    message(STATUS "tests/validation: ${_dev}/${_stem} skipped (no nvcc)")
    continue()
  endif()
  set(_pred ${CMAKE_CURRENT_BINARY_DIR}/validation_${_dev}_${_stem}_predicted.json)
  # A sidecar measured_<suite>.expected-mismatches lists documented exceptions (CALIBRATION.md):
  # the test then passes only when exactly those launches mismatch.
  string(REGEX REPLACE "\\.json$" ".expected-mismatches" _expected ${_m})
  set(_cmp "")
  if(EXISTS ${_expected})
    set(_cmp "--expect-mismatches ${_expected}")
  endif()
  add_test(NAME validation_${_dev}_${_stem}
           COMMAND sh -c "\"$1\" suite \"$2\" --format json -o \"$3\" && \"$1\" compare \"$3\" \"$4\" $5"
                   sh $<TARGET_FILE:warplens> ${PROJECT_SOURCE_DIR}/${_suite} ${_pred} ${_m} "${_cmp}")
  set_tests_properties(validation_${_dev}_${_stem} PROPERTIES LABELS "cpu;validation" TIMEOUT 600)
endforeach()

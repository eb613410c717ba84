# tests/report: the seed-suite HTML report (kernels/seeds_small.json with the recorded H200
# measurements) rendered in headless Chromium; the DOM is checked and screenshots are kept in
# <build>/tests/report/. Skips (77) without the CUDA toolchain; fails without Chromium.
add_test(NAME report_browser
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/browser-test.sh $<TARGET_FILE:warplens>
          ${CMAKE_CURRENT_BINARY_DIR}/report)
set_tests_properties(report_browser PROPERTIES LABELS "cpu;report" SKIP_RETURN_CODE 77 TIMEOUT 240)

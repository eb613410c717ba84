# Time model against the recorded measurements (no GPU needed):
#  - fit_time_<dev>: `warplens fit` on validation/<dev>/time/measured_timing.json reproduces the
#    committed coefficients of simulator/arch/data/devices/<device>.json (--check);
#  - time_<dev>_seeds: the seed suite's predicted gpu__time_duration.sum (the prediction the
#    validation_<dev>_seeds test writes, default device of sm_90 = h100_sxm) against the measured
#    one (counters are that test's business, so they are compared leniently here). Issue 12 asks
#    for 90% within 15%; the model reaches 12 of 28 on the H100 (simulator/perf/CALIBRATION.md),
#    so this is a regression guard at 40% until the latency and store terms improve.
foreach(_pair "h100;h100_sxm" "h200;h200")
  list(GET _pair 0 _dir)
  list(GET _pair 1 _dev)
  set(_timing ${PROJECT_SOURCE_DIR}/validation/${_dir}/time/measured_timing.json)
  if(NOT EXISTS ${_timing})
    continue()
  endif()
  set(_held ${PROJECT_SOURCE_DIR}/validation/${_dir}/time/measured_heldout.json)
  set(_holdargs "")
  if(EXISTS ${_held})
    set(_holdargs --hold-out ${_held})
  endif()
  add_test(NAME fit_time_${_dir}
           COMMAND warplens fit ${_timing} ${_holdargs} --device ${_dev} --check)
  set_tests_properties(fit_time_${_dir} PROPERTIES LABELS "cpu;perf" TIMEOUT 120)
endforeach()
# Only the H100 seeds have kernel-timer durations so far (validation/h200: Range Profiler user
# ranges, which include launch and synchronisation; compare leaves those out).
if(WARPLENS_NVCC AND EXISTS ${PROJECT_SOURCE_DIR}/validation/h100/measured_seeds.json)
  set(_pred ${PROJECT_BINARY_DIR}/tests/validation_h100_seeds_predicted.json)
  add_test(NAME time_h100_seeds
           COMMAND warplens compare ${_pred} ${PROJECT_SOURCE_DIR}/validation/h100/measured_seeds.json
                   --time-share 0.4 --tolerance "*=1000")
  set_tests_properties(time_h100_seeds PROPERTIES LABELS "cpu;perf" TIMEOUT 120
                       DEPENDS validation_h100_seeds)
endif()

# Time model against the recorded measurements (no GPU needed):
#  - fit_time_<dev>: `warplens fit` on validation/<dev>/time/measured_timing.json reproduces the
#    committed coefficients of simulator/arch/data/devices/<device>.json (--check), with the
#    structural inputs (lines and load rounds per request) of validation/time/predicted_*.json;
#  - time_heldout_predict: warplens' own counts of the held-out timing kernels (kernels/timing/
#    heldout.json, never fitted), re-derived here; time_<dev>_heldout checks them against
#    validation/<dev>/time/measured_heldout.json;
#  - time_<dev>_seeds: the seed suite's time inputs (the prediction the validation_<dev>_seeds
#    test writes) predicted with <device>'s coefficients against the measured durations.
# Issue 12 asks for 90% within 15%; the shares reached are in simulator/perf/CALIBRATION.md.
# Session 5 (2026-11-23): seeds 28/28 (H100) and 27/28 (H200), held-out 12/13 on both GPUs (the
# goal); guards: held-out 0.9 (12/13), seeds 0.95 (27/28) on both.
set(_wl_time_held_pred ${PROJECT_BINARY_DIR}/tests/time_heldout_predicted.json)
if(WARPLENS_NVCC)
  add_test(NAME time_heldout_predict
           COMMAND warplens suite ${PROJECT_SOURCE_DIR}/kernels/timing/heldout.json --json ${_wl_time_held_pred})
  set_tests_properties(time_heldout_predict PROPERTIES LABELS "cpu;perf" TIMEOUT 300
                       FIXTURES_SETUP time_heldout)
endif()
# Second held-out set (kernels/timing/heldout2.json, written after the session-5 model landed and
# never looked at before its measurement, 2026-11-23): H100 7/8, H200 5/8 within 15%, below the
# goal; guarded at what it reached so a change that loses ground shows.
set(_wl_time_held2_pred ${PROJECT_BINARY_DIR}/tests/time_heldout2_predicted.json)
if(WARPLENS_NVCC)
  add_test(NAME time_heldout2_predict
           COMMAND warplens suite ${PROJECT_SOURCE_DIR}/kernels/timing/heldout2.json --json ${_wl_time_held2_pred})
  set_tests_properties(time_heldout2_predict PROPERTIES LABELS "cpu;perf" TIMEOUT 300
                       FIXTURES_SETUP time_heldout2)
  foreach(_cfg2 "h100;h100_sxm;0.85" "h200;h200;0.6")
    list(GET _cfg2 0 _dir)
    list(GET _cfg2 1 _dev)
    list(GET _cfg2 2 _share)
    set(_held2 ${PROJECT_SOURCE_DIR}/validation/${_dir}/time/measured_heldout2.json)
    if(EXISTS ${_held2})
      add_test(NAME time_${_dir}_heldout2
               COMMAND warplens fit --device ${_dev} --own ${_wl_time_held2_pred}:${_held2} --own-share ${_share})
      set_tests_properties(time_${_dir}_heldout2 PROPERTIES LABELS "cpu;perf" TIMEOUT 60
                           FIXTURES_REQUIRED time_heldout2)
    endif()
  endforeach()
endif()
foreach(_cfg "h100;h100_sxm;0.9;0.95" "h200;h200;0.9;0.95")
  list(GET _cfg 0 _dir)
  list(GET _cfg 1 _dev)
  list(GET _cfg 2 _heldShare)
  list(GET _cfg 3 _seedShare)
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
           COMMAND warplens fit ${_timing} ${_holdargs} --device ${_dev} --check
                   --structure ${PROJECT_SOURCE_DIR}/validation/time/predicted_timing.json
                   --structure ${PROJECT_SOURCE_DIR}/validation/time/predicted_heldout.json)
  set_tests_properties(fit_time_${_dir} PROPERTIES LABELS "cpu;perf" TIMEOUT 120)
  if(WARPLENS_NVCC AND EXISTS ${_held})
    add_test(NAME time_${_dir}_heldout
             COMMAND warplens fit --device ${_dev} --own ${_wl_time_held_pred}:${_held} --own-share ${_heldShare})
    set_tests_properties(time_${_dir}_heldout PROPERTIES LABELS "cpu;perf" TIMEOUT 60
                         FIXTURES_REQUIRED time_heldout)
  endif()
  set(_seeds ${PROJECT_SOURCE_DIR}/validation/${_dir}/measured_seeds.json)
  if(WARPLENS_NVCC AND EXISTS ${_seeds})
    set(_pred ${PROJECT_BINARY_DIR}/tests/validation_${_dir}_seeds_predicted.json)
    add_test(NAME time_${_dir}_seeds
             COMMAND warplens fit --device ${_dev} --own ${_pred}:${_seeds} --own-share ${_seedShare})
    set_tests_properties(time_${_dir}_seeds PROPERTIES LABELS "cpu;perf" TIMEOUT 60
                         DEPENDS validation_${_dir}_seeds)
  endif()
endforeach()

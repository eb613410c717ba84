# Address-only mode (issue 11): every suite's counts with `--mode address` equal those of
# `--mode full` (tests/sassemu/address_only.sh). The speed suite runs at small sizes here
# (kernels/bench/make_bench.py --sgemm 128 --transpose 256); needs nvcc like the validation tests.
if(TARGET warplens AND WARPLENS_NVCC)
  set(_ao ${CMAKE_CURRENT_BINARY_DIR}/address_only)
  add_test(NAME sassemu_address_only
           COMMAND bash -c "python3 kernels/bench/make_bench.py --sgemm 128 --transpose 256 --out ${_ao}/bench_small && \
bash tests/sassemu/address_only.sh $<TARGET_FILE:warplens> ${_ao} kernels/micro/micro.json \
kernels/micro/micro_pairs.json kernels/seeds_small.json kernels/corpus/corpus.json kernels/corpus/heldout.json \
kernels/modern/modern.json kernels/modern/hopper.json kernels/modern/modern2.json kernels/modern/cluster2.json \
kernels/modern/mma16.json kernels/diff/diff.json tests/sassemu/address_only_cases.json ${_ao}/bench_small.json"
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(sassemu_address_only PROPERTIES LABELS "cpu;sassemu" TIMEOUT 900)
  # Sampling mode (issue 11): 16 sampled blocks per launch of the corpus and the held-out corpus
  # against exact runs. Measured 2026-11-23: 3767 of 3808 counts (98.9%) inside their 95%
  # interval, worst error 4.0% (bitonic sort wavefronts); bars 98% and 5% (tests/sassemu/sampling.sh).
  add_test(NAME sassemu_sampling
           COMMAND bash tests/sassemu/sampling.sh $<TARGET_FILE:warplens> ${CMAKE_CURRENT_BINARY_DIR}/sampling 16 0.98 0.05
                   kernels/corpus/corpus.json kernels/corpus/heldout.json
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(sassemu_sampling PROPERTIES LABELS "cpu;sassemu" TIMEOUT 900)
endif()
# Issue 12 (session 17): the SIMT order of divergent paths (CtrlOps.cpp) against the H100's
# per-instruction executions of seven divergent held-out launches (tests/sassemu/simt_order.sh);
# bar 0.5% of each launch's instructions (0.01-0.05% measured; the former order 2-3%).
if(TARGET warplens AND WARPLENS_NVCC)
  add_test(NAME sassemu_simt_order
           COMMAND bash tests/sassemu/simt_order.sh $<TARGET_FILE:warplens> ${CMAKE_CURRENT_BINARY_DIR}/simt_order 0.005
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(sassemu_simt_order PROPERTIES LABELS "cpu;sassemu" TIMEOUT 600)
endif()

# tests/golden: test_golden runs the CLI, so building it builds the CLI too. Cases are found when
# test_golden runs; ctest lists the cases of the last build (re-build after adding a folder).
if(TARGET test_golden AND TARGET warplens)
  add_dependencies(test_golden warplens)
endif()

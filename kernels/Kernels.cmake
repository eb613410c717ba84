# Seed kernels: `seed_kernels_ptx` compiles every kernels/*.cu to PTX with nvcc (sm_90, -lineinfo)
# to check they build; warplens itself compiles sources on demand through sass::compile (cached).
# Not part of ALL: nvcc is slow and optional (without it, only .ptx inputs work).
if(WARPLENS_NVCC)
  file(GLOB seed_cu CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cu)
  set(seed_ptx "")
  foreach(cu ${seed_cu})
    get_filename_component(stem ${cu} NAME_WE)
    set(ptx ${CMAKE_CURRENT_BINARY_DIR}/${stem}.ptx)
    add_custom_command(OUTPUT ${ptx}
      COMMAND ${WARPLENS_NVCC} -arch=sm_90 -lineinfo -ptx ${cu} -o ${ptx}
      DEPENDS ${cu} COMMENT "nvcc -ptx ${stem}.cu" VERBATIM)
    list(APPEND seed_ptx ${ptx})
  endforeach()
  add_custom_target(seed_kernels_ptx DEPENDS ${seed_ptx})
endif()

# Installation: headers, libraries, CMake package, pkg-config file, tools, compiler wrappers.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cuh")
install(FILES ${PROJECT_BINARY_DIR}/include/symmem/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/symmem)
install(TARGETS symmem symmem_static symmem_shmem symmem_shmem_static EXPORT symmemTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT symmemTargets NAMESPACE symmem:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/symmem)
configure_package_config_file(cmake/symmemConfig.cmake.in ${PROJECT_BINARY_DIR}/symmemConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/symmem)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/symmemConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/symmemConfig.cmake ${PROJECT_BINARY_DIR}/symmemConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/symmem)

set(SYMMEM_PC_LIBS_PRIVATE "-lpthread -ldl")
if(SYMMEM_HAVE_CUDA)
  set(SYMMEM_PC_LIBS_PRIVATE "${SYMMEM_PC_LIBS_PRIVATE} -L${CUDAToolkit_LIBRARY_DIR} -lcudart")
endif()
configure_file(cmake/symmem.pc.in ${PROJECT_BINARY_DIR}/symmem.pc @ONLY)
# symmem-shmem: programs written to <shmem.h> (the shmem_ functions live in libsymmem-shmem).
configure_file(cmake/symmem-shmem.pc.in ${PROJECT_BINARY_DIR}/symmem-shmem.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/symmem.pc ${PROJECT_BINARY_DIR}/symmem-shmem.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Compiler wrappers: symmemcc / symmemc++ (and symmem-nvcc with CUDA) find the prefix from their own
# location, so an installed tree can be moved.
set(SYMMEM_WRAPPER_EXTRA_LIBS "")
if(SYMMEM_HAVE_CUDA)
  set(SYMMEM_WRAPPER_EXTRA_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR} -lcudart")
endif()
foreach(w symmemcc symmemc++)
  configure_file(tools/wrapper.in ${PROJECT_BINARY_DIR}/wrappers/${w} @ONLY)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/wrappers/${w} DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
# Drop-in names, in their own directory so that they never shadow an installed Open MPI or Sandia
# OpenSHMEM: with <prefix>/libexec/symmem/compat first in PATH, a Makefile or script that says
# oshcc, oshc++, oshCC, oshcxx, oshrun or nvshmrun builds and runs with symmem unchanged. They are
# links to the wrappers and the launcher (the wrappers pick C or C++ from the name they are called by).
set(SYMMEM_COMPAT_DIR ${CMAKE_INSTALL_LIBEXECDIR}/symmem/compat)
file(RELATIVE_PATH SYMMEM_COMPAT_TO_BIN ${CMAKE_INSTALL_PREFIX}/${SYMMEM_COMPAT_DIR} ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR})
install(DIRECTORY DESTINATION ${SYMMEM_COMPAT_DIR})
foreach(pair oshcc:symmemcc oshc++:symmemc++ oshCC:symmemc++ oshcxx:symmemc++ oshrun:symmem-run nvshmrun:symmem-run)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 target)
  install(CODE "file(CREATE_LINK \"${SYMMEM_COMPAT_TO_BIN}/${target}\"
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${SYMMEM_COMPAT_DIR}/${name}\" SYMBOLIC)
  message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${SYMMEM_COMPAT_DIR}/${name} -> ${target}\")")
endforeach()
if(SYMMEM_HAVE_CUDA)
  # symmem-nvcc: CUDA programs (symmem device API or NVSHMEM names); default -arch from the build.
  list(GET CMAKE_CUDA_ARCHITECTURES 0 SYMMEM_NVCC_ARCH)
  string(REGEX REPLACE "^([0-9]+a?).*" "\\1" SYMMEM_NVCC_ARCH "${SYMMEM_NVCC_ARCH}")
  configure_file(tools/symmem-nvcc.in ${PROJECT_BINARY_DIR}/wrappers/symmem-nvcc @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/wrappers/symmem-nvcc DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

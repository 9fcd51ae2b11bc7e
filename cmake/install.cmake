# Installation: headers, libraries, CMake package, pkg-config file, tools, compiler wrappers.
include(CMakePackageConfigHelpers)

# Installs links <prefix>/<dir>/<name> -> <target> for each "name:target" pair (target relative
# to the link's directory, so the installed tree can be moved).
function(symmem_install_links dir)
  foreach(pair ${ARGN})
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 name)
    list(GET pair 1 target)
    install(CODE "file(CREATE_LINK \"${target}\"
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${dir}/${name}\" SYMBOLIC)
    message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${dir}/${name} -> ${target}\")")
  endforeach()
endfunction()

install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cuh")
install(FILES ${PROJECT_BINARY_DIR}/include/symmem/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/symmem)
set(_symmem_installed symmem symmem_static symmem_shmem symmem_shmem_static)
if(SYMMEM_HAVE_CUDA)
  list(APPEND _symmem_installed symmem_device symmem_device_coll)  # -rdc programs link them
endif()
install(TARGETS ${_symmem_installed} EXPORT symmemTargets
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
set(_b ${SYMMEM_COMPAT_TO_BIN})
symmem_install_links(${SYMMEM_COMPAT_DIR} oshcc:${_b}/symmemcc oshc++:${_b}/symmemc++ oshCC:${_b}/symmemc++
                     oshcxx:${_b}/symmemc++ oshrun:${_b}/symmem-run nvshmrun:${_b}/symmem-run)
if(SYMMEM_HAVE_CUDA)
  # symmem-nvcc: CUDA programs (symmem device API or NVSHMEM names); default -arch from the build.
  list(GET CMAKE_CUDA_ARCHITECTURES 0 SYMMEM_NVCC_ARCH)
  string(REGEX REPLACE "^([0-9]+a?).*" "\\1" SYMMEM_NVCC_ARCH "${SYMMEM_NVCC_ARCH}")
  configure_file(tools/symmem-nvcc.in ${PROJECT_BINARY_DIR}/wrappers/symmem-nvcc @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/wrappers/symmem-nvcc DESTINATION ${CMAKE_INSTALL_BINDIR})
  # An NVSHMEM install's shape, for build systems written for NVSHMEM: a Makefile that says
  # -I$(NVSHMEM_HOME)/include ... -L$(NVSHMEM_HOME)/lib -lnvshmem_host -lnvshmem_device (or the
  # older -lnvshmem), a CMake project that calls find_package(NVSHMEM) with NVSHMEM_PREFIX.
  #   include/                symmem's headers
  #   lib/libnvshmem_host.so  a linker script: libsymmem and the shared CUDA runtime. nvcc links the
  #                           static runtime by default; naming the shared one first leaves the
  #                           program and libsymmem one copy of it, as symmem-nvcc's -cudart shared
  #   lib/libnvshmem_device.a libsymmem_device.a: the device API's cold paths with a register limit
  #                           (include/symmem/detail/cold.h)
  #   lib/libnvshmem.a        for the older single -lnvshmem (NVSHMEM's own is a static library): an
  #                           archive of the same cold paths and of libsymmem.so itself. nvlink takes
  #                           the first of libX.so and libX.a it finds and reads device code from
  #                           archives only, so a linker script named libnvshmem.so would hide the
  #                           cold paths from it (kernels then keep the registers of paths compiled
  #                           without the limit: jacobi at 48 instead of 32). GNU ld links a shared
  #                           object found in an archive as if named on the line (DT_NEEDED
  #                           libsymmem.so.N). The CUDA runtime cannot go in too (its symbols are not
  #                           in an archive index): such a line names -lcudart, as NVSHMEM's does
  #   lib/libsymmem.so.N      libsymmem's soname, so LD_LIBRARY_PATH=$NVSHMEM_HOME/lib finds it
  #   lib/cmake/nvshmem/      nvshmem::nvshmem_host, nvshmem::nvshmem_device, nvshmem::nvshmem
  #   bin/nvshmrun            symmem-run
  set(SYMMEM_NVSHMEM_DIR ${CMAKE_INSTALL_LIBEXECDIR}/symmem/nvshmem)
  file(STRINGS include/nvshmem.h _v REGEX "^#define NVSHMEM_(MAJOR|MINOR|PATCH)_VERSION [0-9]+")
  string(REGEX REPLACE ".*MAJOR_VERSION ([0-9]+).*MINOR_VERSION ([0-9]+).*PATCH_VERSION ([0-9]+).*" "\\1.\\2.\\3"
         SYMMEM_NVSHMEM_API_VERSION "${_v}")
  configure_file(cmake/NVSHMEMConfig.cmake.in ${PROJECT_BINARY_DIR}/nvshmem/NVSHMEMConfig.cmake @ONLY)
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/nvshmem/NVSHMEMConfigVersion.cmake
    VERSION ${SYMMEM_NVSHMEM_API_VERSION} COMPATIBILITY SameMajorVersion)
  # The runtime's folder in the toolkit symmem was built with, under each name a toolkit gives it
  # (lib, lib64, targets/<arch>/lib), so that a g++ link with no CUDA -L finds it, and a copy of the
  # install on a machine whose toolkit has another shape finds it there.
  set(_rt_dirs ${CUDAToolkit_LIBRARY_DIR})
  if(CUDAToolkit_LIBRARY_ROOT)
    list(APPEND _rt_dirs ${CUDAToolkit_LIBRARY_ROOT}/lib64)
  endif()
  if(CUDAToolkit_TARGET_DIR)
    list(APPEND _rt_dirs ${CUDAToolkit_TARGET_DIR}/lib)
  endif()
  list(REMOVE_DUPLICATES _rt_dirs)
  set(_search "")
  foreach(d IN LISTS _rt_dirs)
    string(APPEND _search "SEARCH_DIR(\"${d}\")\n")
  endforeach()
  file(WRITE ${PROJECT_BINARY_DIR}/nvshmem/libnvshmem_host.so
    "/* symmem as NVSHMEM's host library: libsymmem (found on the -L path) and the shared CUDA runtime,\n"
    "   from the toolkit symmem was built with, else from the -L path (nvcc names its own toolkit's) */\n"
    "${_search}INPUT(libsymmem.so.${PROJECT_VERSION_MAJOR} -lcudart)\n")
  install(FILES ${PROJECT_BINARY_DIR}/nvshmem/NVSHMEMConfig.cmake ${PROJECT_BINARY_DIR}/nvshmem/NVSHMEMConfigVersion.cmake
    DESTINATION ${SYMMEM_NVSHMEM_DIR}/lib/cmake/nvshmem)
  install(FILES ${PROJECT_BINARY_DIR}/nvshmem/libnvshmem_host.so DESTINATION ${SYMMEM_NVSHMEM_DIR}/lib)
  install(FILES $<TARGET_FILE:symmem_device> DESTINATION ${SYMMEM_NVSHMEM_DIR}/lib RENAME libnvshmem_device.a)
  install(FILES $<TARGET_FILE:symmem_device_coll> DESTINATION ${SYMMEM_NVSHMEM_DIR}/lib)
  set(_a ${PROJECT_BINARY_DIR}/nvshmem/libnvshmem.a)
  add_custom_command(OUTPUT ${_a}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${PROJECT_BINARY_DIR}/nvshmem/a ${_a}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/nvshmem/a
    COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:symmem> ${PROJECT_BINARY_DIR}/nvshmem/a/$<TARGET_SONAME_FILE_NAME:symmem>
    COMMAND ${CMAKE_COMMAND} -E chdir ${PROJECT_BINARY_DIR}/nvshmem/a ${CMAKE_AR} x $<TARGET_FILE:symmem_device>
    COMMAND ${CMAKE_COMMAND} -E chdir ${PROJECT_BINARY_DIR}/nvshmem/a sh -c "${CMAKE_AR} rcs ${_a} *.o $<TARGET_SONAME_FILE_NAME:symmem>"
    DEPENDS symmem symmem_device VERBATIM)
  add_custom_target(symmem_nvshmem_archive ALL DEPENDS ${_a})
  install(FILES ${_a} DESTINATION ${SYMMEM_NVSHMEM_DIR}/lib)
  install(DIRECTORY DESTINATION ${SYMMEM_NVSHMEM_DIR}/bin)
  set(_nv ${CMAKE_INSTALL_PREFIX}/${SYMMEM_NVSHMEM_DIR})
  file(RELATIVE_PATH _to_inc ${_nv} ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_INCLUDEDIR})
  file(RELATIVE_PATH _to_lib ${_nv}/lib ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR})
  file(RELATIVE_PATH _to_bin ${_nv}/bin ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR})
  symmem_install_links(${SYMMEM_NVSHMEM_DIR} include:${_to_inc}
    lib/libsymmem.so.${PROJECT_VERSION_MAJOR}:${_to_lib}/libsymmem.so.${PROJECT_VERSION_MAJOR} bin/nvshmrun:${_to_bin}/symmem-run)
endif()

# How programs use libfftgen: from this build folder or installed (cmake --install), through
# pkg-config (fftgen.pc) or CMake (find_package(fftgen), target fftgen::fftgen). libfftgen.a holds the
# API, the kernel store and the generator; a program links it beside the static Lua and CUDA
# runtimes and the system libraries those need (tests/library_links.sh checks every way).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The link line, the same in every form. cudart_static needs pthread, dl and rt.
get_filename_component(FFTGEN_CUDART_DIR "${CUDA_cudart_static_LIBRARY}" DIRECTORY)
set(FFTGEN_PC_LIBS "-L\${libdir} -lfftgen ${LUA_STATIC_LIBRARY} -L${FFTGEN_CUDART_DIR} -lcudart_static -lpthread -ldl -lrt -lm")
string(REPLACE ";" " -I" FFTGEN_PC_CUDA_CFLAGS "-I${CUDAToolkit_INCLUDE_DIRS}")

# pkg-config for this build folder: PKG_CONFIG_PATH=build pkg-config --cflags --libs fftgen
set(FFTGEN_PC_PREFIX ${CMAKE_BINARY_DIR})
set(FFTGEN_PC_INCLUDEDIR ${CMAKE_SOURCE_DIR}/runtime/include)
set(FFTGEN_PC_LIBDIR ${CMAKE_BINARY_DIR})
configure_file(${CMAKE_SOURCE_DIR}/cmake/fftgen.pc.in ${CMAKE_BINARY_DIR}/fftgen.pc @ONLY)

# pkg-config once installed, relative to where the file lands, so that cmake --install --prefix
# may move it
set(FFTGEN_PC_PREFIX "\${pcfiledir}")
file(RELATIVE_PATH pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
string(APPEND FFTGEN_PC_PREFIX "/${pc_to_prefix}")
set(FFTGEN_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
set(FFTGEN_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/fftgen.pc.in ${CMAKE_BINARY_DIR}/install/fftgen.pc @ONLY)

# CMake: find_package(fftgen) gives fftgen::fftgen
set(FFTGEN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/fftgen)
set(FFTGEN_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
set(FFTGEN_INSTALL_LIBRARY ${CMAKE_INSTALL_LIBDIR}/libfftgen.a)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/fftgenConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install/fftgenConfig.cmake INSTALL_DESTINATION ${FFTGEN_INSTALL_CMAKEDIR}
  PATH_VARS FFTGEN_INSTALL_INCLUDEDIR FFTGEN_INSTALL_LIBRARY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/install/fftgenConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)

install(TARGETS fftgen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS fftgen_runtime ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/runtime/include/fftgen.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/install/fftgen.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${CMAKE_BINARY_DIR}/install/fftgenConfig.cmake ${CMAKE_BINARY_DIR}/install/fftgenConfigVersion.cmake
        DESTINATION ${FFTGEN_INSTALL_CMAKEDIR})

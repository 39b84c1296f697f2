# The LibTorch that the example, the runtime's unit tests and the
# real-header tests use (DEVPLACE_LIBTORCH; empty: the system's). Sets
#   Torch_FOUND, TORCH_LIBRARIES     CMake's find_package(Torch), as users have it
#   DEVPLACE_HAVE_TORCH              its headers are there
#   DEVPLACE_LIBTORCH_VERSION        "1.13", "2.13", ... (from its version header)
#   DEVPLACE_TORCH_CXX_STANDARD      the C++ standard its headers need
#   DEVPLACE_TORCH_FLAGS             the flags that parse its headers
# and writes those flags to libtorch.flags in the build directory, for the
# scripts that run devplace on the example.

# find_package(Torch) caches what it found (Torch_DIR, TORCH_LIBRARY,
# C10_LIBRARY, ...): a build switched to another LibTorch forgets all of it.
if(DEFINED DEVPLACE_LIBTORCH_CONFIGURED AND
   NOT "${DEVPLACE_LIBTORCH_CONFIGURED}" STREQUAL "${DEVPLACE_LIBTORCH}")
  get_cmake_property(devplace_cache_vars CACHE_VARIABLES)
  foreach(var ${devplace_cache_vars})
    if(var MATCHES "^(Torch|TORCH|Caffe2|CAFFE2|C10|c10|ATen|kineto|Tensorpipe|XNNPACK)")
      unset(${var} CACHE)
    endif()
  endforeach()
endif()
set(DEVPLACE_LIBTORCH_CONFIGURED "${DEVPLACE_LIBTORCH}" CACHE INTERNAL "")

if(DEVPLACE_LIBTORCH)
  if(NOT EXISTS "${DEVPLACE_LIBTORCH}/share/cmake/Torch/TorchConfig.cmake")
    message(FATAL_ERROR "devplace: DEVPLACE_LIBTORCH=${DEVPLACE_LIBTORCH} is not a LibTorch "
                        "directory (no share/cmake/Torch/TorchConfig.cmake)")
  endif()
  set(devplace_torch_include "${DEVPLACE_LIBTORCH}/include")
  # As a prefix, searched before the system's paths: TorchConfig.cmake finds
  # Caffe2's config and the libraries with default paths first, which would
  # mix in a system LibTorch (Debian's) with the headers of this one.
  list(PREPEND CMAKE_PREFIX_PATH "${DEVPLACE_LIBTORCH}")
  find_package(Torch QUIET PATHS "${DEVPLACE_LIBTORCH}/share/cmake/Torch" NO_DEFAULT_PATH)
else()
  set(devplace_torch_include /usr/include)
  find_package(Torch QUIET)
endif()

set(DEVPLACE_HAVE_TORCH OFF)
set(DEVPLACE_LIBTORCH_VERSION "")
set(DEVPLACE_TORCH_CXX_STANDARD 17)
if(EXISTS "${devplace_torch_include}/torch/csrc/api/include/torch/torch.h")
  set(DEVPLACE_HAVE_TORCH ON)
  # 2.x keeps the numbers in torch/headeronly/version.h, 1.x in the C++
  # API's own version.h.
  foreach(header torch/headeronly/version.h torch/csrc/api/include/torch/version.h)
    if(NOT DEVPLACE_LIBTORCH_VERSION AND EXISTS "${devplace_torch_include}/${header}")
      file(STRINGS "${devplace_torch_include}/${header}" devplace_version_lines
           REGEX "#define TORCH_VERSION_(MAJOR|MINOR) [0-9]+")
      string(REGEX MATCH "MAJOR ([0-9]+)" _ "${devplace_version_lines}")
      set(devplace_major "${CMAKE_MATCH_1}")
      string(REGEX MATCH "MINOR ([0-9]+)" _ "${devplace_version_lines}")
      if(devplace_major AND NOT CMAKE_MATCH_1 STREQUAL "")
        set(DEVPLACE_LIBTORCH_VERSION "${devplace_major}.${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()
  # LibTorch says on its own target the least standard its headers need
  # (14 in 1.13, 20 in later 2.x releases); devplace's code needs 17. The
  # example, built on its own, reads the same property.
  if(TARGET torch)
    get_target_property(devplace_standard torch CXX_STANDARD)
    if(devplace_standard AND devplace_standard GREATER 17)
      set(DEVPLACE_TORCH_CXX_STANDARD ${devplace_standard})
    endif()
  endif()
endif()

set(DEVPLACE_TORCH_FLAGS "-std=c++${DEVPLACE_TORCH_CXX_STANDARD}")
if(DEVPLACE_LIBTORCH)
  string(APPEND DEVPLACE_TORCH_FLAGS " -I${devplace_torch_include}")
endif()
string(APPEND DEVPLACE_TORCH_FLAGS " -I${devplace_torch_include}/torch/csrc/api/include")
if(DEVPLACE_HAVE_TORCH)
  message(STATUS "devplace: LibTorch ${DEVPLACE_LIBTORCH_VERSION} from ${devplace_torch_include} (C++${DEVPLACE_TORCH_CXX_STANDARD})")
else()
  message(STATUS "devplace: no LibTorch headers under ${devplace_torch_include}; the real-header tests are skipped")
endif()
file(WRITE "${CMAKE_BINARY_DIR}/libtorch.flags" "${DEVPLACE_TORCH_FLAGS}\n")

# A CUDA build of LibTorch and the CUDA toolkit's headers, for the tests of
# code that includes CUDA headers (<c10/cuda/CUDAGuard.h>, <cuda_runtime.h>):
# DEVPLACE_CUDA_LIBTORCH (a LibTorch directory) and DEVPLACE_CUDA_INCLUDE
# (a list of include directories). scripts/setup.sh --cuda-headers fills
# both from PyPI's CUDA wheel. Nothing is linked against them.
set(DEVPLACE_CUDA_LIBTORCH "" CACHE PATH "a CUDA build of LibTorch, for parsing CUDA code in tests")
set(DEVPLACE_CUDA_INCLUDE "" CACHE STRING "the CUDA toolkit's include directories (;-separated)")
set(DEVPLACE_CUDA_TORCH_FLAGS "")
if(DEVPLACE_CUDA_LIBTORCH)
  if(NOT EXISTS "${DEVPLACE_CUDA_LIBTORCH}/include/c10/cuda/CUDAGuard.h")
    message(FATAL_ERROR "devplace: DEVPLACE_CUDA_LIBTORCH=${DEVPLACE_CUDA_LIBTORCH} is not a CUDA "
                        "build of LibTorch (no include/c10/cuda/CUDAGuard.h)")
  endif()
  set(DEVPLACE_CUDA_TORCH_FLAGS "-std=c++20 -I${DEVPLACE_CUDA_LIBTORCH}/include -I${DEVPLACE_CUDA_LIBTORCH}/include/torch/csrc/api/include")
  foreach(dir ${DEVPLACE_CUDA_INCLUDE})
    string(APPEND DEVPLACE_CUDA_TORCH_FLAGS " -I${dir}")
  endforeach()
  message(STATUS "devplace: CUDA headers for the tests from ${DEVPLACE_CUDA_LIBTORCH}")
endif()

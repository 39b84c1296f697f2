// Mock of c10/cuda/CUDAGuard.h (LibTorch 2.x): signatures as in the real
// header, bodies omitted.
#pragma once
#include <c10/cuda/CUDAStream.h>

namespace c10::cuda {
struct CUDAGuard {
  explicit CUDAGuard() = delete;
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  void set_device(Device device);
};
struct CUDAStreamGuard {
  explicit CUDAStreamGuard() = delete;
  explicit CUDAStreamGuard(CUDAStream stream);
  CUDAStream current_stream() const;
};
} // namespace c10::cuda

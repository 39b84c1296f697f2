// Mock of c10/cuda/CUDAStream.h (LibTorch 2.x): signatures as in the real
// header, bodies omitted.
#pragma once
#include <torch/torch.h>

namespace c10::cuda {
class CUDAStream {
public:
  DeviceIndex device_index() const;
  Device device() const;
  bool query() const;
  void synchronize() const;
};
CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex device = -1);
CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
void setCurrentCUDAStream(CUDAStream stream);
} // namespace c10::cuda

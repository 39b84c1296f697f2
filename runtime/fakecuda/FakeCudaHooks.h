// The CUDA hooks LibTorch asks whether CUDA is there (is_available,
// device_count, synchronize, pinned memory, a pointer's device). LibTorch's
// registry creates the class registered under the name "CUDAHooks"; a CPU
// build registers none, and the runtime registers this one.
#pragma once

#include "TorchCompat.h"

#include <ATen/detail/CUDAHooksInterface.h>

namespace devplace::fakecuda {

class FakeCudaHooks final : public at::CUDAHooksInterface {
public:
  explicit FakeCudaHooks(at::CUDAHooksArgs) {}

  bool hasCUDA() const override { return true; }
  int getNumGPUs() const override;
  bool hasCuDNN() const override { return false; }
  c10::Allocator *getPinnedMemoryAllocator() const override;
  c10::Allocator *getCUDADeviceAllocator() const override;
  c10::Device getDeviceFromPtr(void *data) const override;
  std::string showConfig() const override;
#if TORCH_VERSION_MAJOR >= 2
  void init() const override {}
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return true; }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
  c10::DeviceIndex deviceCount() const override;
  c10::DeviceIndex current_device() const override;
  c10::DeviceIndex getCurrentDevice() const override;
  void setCurrentDevice(c10::DeviceIndex device) const override;
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex device) const override;
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex device) const override;
  bool isPinnedPtr(const void *data) const override;
  const at::Generator &
  getDefaultGenerator(c10::DeviceIndex device_index = -1) const override;
  void deviceSynchronize(c10::DeviceIndex device_index) const override;
#else
  void initCUDA() const override {}
  bool hasPrimaryContext(int64_t) const override { return true; }
  int64_t current_device() const override;
  bool isPinnedPtr(void *data) const override;
  const at::Generator &
  getDefaultCUDAGenerator(c10::DeviceIndex device_index = -1) const override;
  void deviceSynchronize(int64_t device_index) const override;
#endif
};

} // namespace devplace::fakecuda

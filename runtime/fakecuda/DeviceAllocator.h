// c10's allocator for the fake CUDA device: blocks of DeviceMemory, handed
// out at their device address on the current fake device.
#pragma once

#include "TorchCompat.h"

#include <c10/core/Allocator.h>

namespace devplace::fakecuda {

class DeviceAllocator final : public c10::Allocator {
public:
  static DeviceAllocator &instance();

  c10::DataPtr allocate(size_t bytes) DEVPLACE_ALLOCATE_CONST override;
  // A block on a named device rather than the current one.
  c10::DataPtr allocateOn(size_t bytes, c10::DeviceIndex index) const;
  c10::DeleterFnPtr raw_deleter() const override;
#if TORCH_VERSION_MAJOR >= 2
  void copy_data(void *dest, const void *src, std::size_t count) const override;
#endif
};

} // namespace devplace::fakecuda

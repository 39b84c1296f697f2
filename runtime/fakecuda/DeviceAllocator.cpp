#include "DeviceAllocator.h"

#include "DeviceMemory.h"
#include "FakeCudaGuard.h"

#include <cstring>

namespace devplace::fakecuda {

namespace {
void releaseDevice(void *device) { DeviceMemory::instance().release(device); }
} // namespace

DeviceAllocator &DeviceAllocator::instance() {
  static DeviceAllocator *allocator = new DeviceAllocator();
  return *allocator;
}

c10::DataPtr DeviceAllocator::allocate(size_t bytes) DEVPLACE_ALLOCATE_CONST {
  return allocateOn(bytes, FakeCudaGuard::currentIndex());
}

c10::DataPtr DeviceAllocator::allocateOn(size_t bytes,
                                         c10::DeviceIndex index) const {
  void *device = DeviceMemory::instance().allocate(bytes, index);
  return {device, device, &releaseDevice,
          c10::Device(c10::DeviceType::CUDA, index)};
}

c10::DeleterFnPtr DeviceAllocator::raw_deleter() const {
  return &releaseDevice;
}

#if TORCH_VERSION_MAJOR >= 2
void DeviceAllocator::copy_data(void *dest, const void *src,
                                std::size_t count) const {
  auto &memory = DeviceMemory::instance();
  std::memcpy(memory.computeView(dest), memory.computeView(src), count);
}
#endif

} // namespace devplace::fakecuda

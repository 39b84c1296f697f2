#include "FakeCudaHooks.h"

#include "DeviceAllocator.h"
#include "DeviceMemory.h"
#include "FakeCudaGuard.h"
#include "PendingCopies.h"
#include "PinnedMemory.h"

#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <sstream>

namespace devplace::fakecuda {

int FakeCudaHooks::getNumGPUs() const { return FakeCudaGuard::devices(); }

c10::Allocator *FakeCudaHooks::getPinnedMemoryAllocator() const {
  return &PinnedMemory::instance();
}

c10::Allocator *FakeCudaHooks::getCUDADeviceAllocator() const {
  return &DeviceAllocator::instance();
}

// torch::from_blob(p, sizes, kCUDA) asks which device p is on: host memory
// is on none, and a GPU refuses it.
c10::Device FakeCudaHooks::getDeviceFromPtr(void *data) const {
  DeviceMemory::Block block;
  TORCH_CHECK(DeviceMemory::instance().blockAt(data, &block),
              "CUDA error: invalid argument (", data,
              " is host memory, not memory of a CUDA device: a tensor on CUDA "
              "cannot be made over it; "
              "make it on the CPU and copy it with .to(device))");
  return {c10::DeviceType::CUDA, block.index};
}

std::string FakeCudaHooks::showConfig() const {
  std::ostringstream out;
  out << "  - devplace fakecuda: " << int(FakeCudaGuard::devices())
      << " fake CUDA device(s) of host memory that host code cannot read\n";
  return out.str();
}

#if TORCH_VERSION_MAJOR >= 2
c10::DeviceIndex FakeCudaHooks::deviceCount() const {
  return FakeCudaGuard::devices();
}
c10::DeviceIndex FakeCudaHooks::current_device() const {
  return FakeCudaGuard::currentIndex();
}
c10::DeviceIndex FakeCudaHooks::getCurrentDevice() const {
  return FakeCudaGuard::currentIndex();
}
void FakeCudaHooks::setCurrentDevice(c10::DeviceIndex device) const {
  FakeCudaGuard().setDevice({c10::DeviceType::CUDA, device});
}
c10::DeviceIndex FakeCudaHooks::exchangeDevice(c10::DeviceIndex device) const {
  return FakeCudaGuard()
      .exchangeDevice({c10::DeviceType::CUDA, device})
      .index();
}
c10::DeviceIndex
FakeCudaHooks::maybeExchangeDevice(c10::DeviceIndex device) const {
  return exchangeDevice(device);
}
bool FakeCudaHooks::isPinnedPtr(const void *data) const {
  return PinnedMemory::instance().contains(data);
}
// The fake devices compute with the CPU's kernels, which draw from the CPU's
// generator: seeding CUDA seeds it.
const at::Generator &
FakeCudaHooks::getDefaultGenerator(c10::DeviceIndex) const {
  return at::detail::getDefaultCPUGenerator();
}
void FakeCudaHooks::deviceSynchronize(c10::DeviceIndex) const {
  PendingCopies::instance().synchronise();
}
#else
int64_t FakeCudaHooks::current_device() const {
  return FakeCudaGuard::currentIndex();
}
bool FakeCudaHooks::isPinnedPtr(void *data) const {
  return PinnedMemory::instance().contains(data);
}
const at::Generator &
FakeCudaHooks::getDefaultCUDAGenerator(c10::DeviceIndex) const {
  return at::detail::getDefaultCPUGenerator();
}
void FakeCudaHooks::deviceSynchronize(int64_t) const {
  PendingCopies::instance().synchronise();
}
#endif

} // namespace devplace::fakecuda

#include "ComputeAllocator.h"

#include "DeviceMemory.h"
#include "FakeCudaGuard.h"

#include <c10/core/CPUAllocator.h>

#include <cstring>

namespace devplace::fakecuda {

namespace {

thread_local bool in_device_kernel = false;

void releaseCompute(void *compute) {
  auto &memory = DeviceMemory::instance();
  memory.release(memory.deviceView(compute));
}

c10::DeleterFnPtr host_raw_deleter = nullptr;

// raw_allocate/raw_deallocate (oneDNN's scratch memory) free a bare pointer
// through one deleter, whichever allocator gave it.
void releaseEither(void *p) {
  if (DeviceMemory::instance().inComputeRange(p))
    releaseCompute(p);
  else if (host_raw_deleter)
    host_raw_deleter(p);
}

} // namespace

ComputeAllocator &ComputeAllocator::instance() {
  static ComputeAllocator *allocator = new ComputeAllocator();
  return *allocator;
}

void ComputeAllocator::install() {
  host_ = c10::GetCPUAllocator();
  host_raw_deleter = host_->raw_deleter();
  // Above the default allocator's priority, so that a later registration of
  // the default does not replace it.
  c10::SetCPUAllocator(this, /*priority=*/100);
}

ComputeAllocator::Scope::Scope() : previous_(in_device_kernel) {
  in_device_kernel = true;
}
ComputeAllocator::Scope::~Scope() { in_device_kernel = previous_; }

c10::DataPtr ComputeAllocator::allocate(size_t bytes) DEVPLACE_ALLOCATE_CONST {
  if (!in_device_kernel)
    return host_->allocate(bytes);
  return allocateCompute(bytes);
}

c10::DataPtr ComputeAllocator::allocateCompute(size_t bytes) const {
  auto &memory = DeviceMemory::instance();
  char *compute =
      memory.computeView(memory.allocate(bytes, FakeCudaGuard::currentIndex()));
  return {compute, compute, &releaseCompute, c10::Device(c10::DeviceType::CPU)};
}

c10::DeleterFnPtr ComputeAllocator::raw_deleter() const {
  return host_raw_deleter ? &releaseEither : nullptr;
}

#if TORCH_VERSION_MAJOR >= 2
void ComputeAllocator::copy_data(void *dest, const void *src,
                                 std::size_t count) const {
  std::memcpy(dest, src, count);
}
#endif

} // namespace devplace::fakecuda

#include "PinnedMemory.h"

#include <c10/util/Exception.h>

#include <cstdlib>
#include <cstring>

namespace devplace::fakecuda {

PinnedMemory &PinnedMemory::instance() {
  static PinnedMemory *memory = new PinnedMemory();
  return *memory;
}

c10::DataPtr PinnedMemory::allocate(size_t bytes) DEVPLACE_ALLOCATE_CONST {
  void *p = nullptr;
  if (bytes > 0) {
    TORCH_CHECK(posix_memalign(&p, 64, bytes) == 0,
                "devplace fakecuda: cannot allocate ", bytes,
                " bytes of pinned memory");
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_[static_cast<const char *>(p)] = bytes;
  }
  return {p, p, &PinnedMemory::release, c10::Device(c10::DeviceType::CPU)};
}

void PinnedMemory::release(void *p) {
  if (!p)
    return;
  {
    std::lock_guard<std::mutex> lock(instance().mutex_);
    instance().blocks_.erase(static_cast<const char *>(p));
  }
  std::free(p);
}

bool PinnedMemory::contains(const void *p) const {
  auto *c = static_cast<const char *>(p);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = blocks_.upper_bound(c);
  if (it == blocks_.begin())
    return false;
  --it;
  return c < it->first + it->second;
}

c10::DeleterFnPtr PinnedMemory::raw_deleter() const {
  return &PinnedMemory::release;
}

#if TORCH_VERSION_MAJOR >= 2
void PinnedMemory::copy_data(void *dest, const void *src,
                             std::size_t count) const {
  std::memcpy(dest, src, count);
}
#endif

} // namespace devplace::fakecuda

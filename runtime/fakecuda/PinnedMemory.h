// Pinned host memory, as CUDA's host allocator gives it: ordinary host
// memory that the runtime remembers, so that is_pinned() answers and a
// non_blocking copy into it is asynchronous, as it is on a GPU.
#pragma once

#include "TorchCompat.h"

#include <c10/core/Allocator.h>

#include <map>
#include <mutex>

namespace devplace::fakecuda {

class PinnedMemory final : public c10::Allocator {
public:
  static PinnedMemory &instance();

  c10::DataPtr allocate(size_t bytes) DEVPLACE_ALLOCATE_CONST override;
  bool contains(const void *p) const;
  c10::DeleterFnPtr raw_deleter() const override;
#if TORCH_VERSION_MAJOR >= 2
  void copy_data(void *dest, const void *src, std::size_t count) const override;
#endif

private:
  static void release(void *p);
  mutable std::mutex mutex_;
  mutable std::map<const char *, std::size_t>
      blocks_; // allocate() is const in 1.13
};

} // namespace devplace::fakecuda

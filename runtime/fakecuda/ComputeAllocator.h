// Host allocations in the compute range of the fake device's memory.
//
// The runtime runs CPU kernels on host views of device tensors; while it
// does, the process's CPU allocator hands out compute-range memory (this
// class, installed over the CPU allocator), so a kernel's fresh outputs
// already sit where a device tensor can take them without a copy. Everywhere
// else the CPU allocator is the one LibTorch had.
#pragma once

#include "TorchCompat.h"

#include <c10/core/Allocator.h>

namespace devplace::fakecuda {

class ComputeAllocator final : public c10::Allocator {
public:
  static ComputeAllocator &instance();

  // Puts this allocator in front of LibTorch's CPU allocator.
  void install();

  // While one lives on a thread, that thread's CPU allocations come from the
  // compute range.
  class Scope {
  public:
    Scope();
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    bool previous_;
  };

  c10::DataPtr allocate(size_t bytes) DEVPLACE_ALLOCATE_CONST override;
  // Compute-range memory whatever the thread does.
  c10::DataPtr allocateCompute(size_t bytes) const;
  c10::DeleterFnPtr raw_deleter() const override;
#if TORCH_VERSION_MAJOR >= 2
  void copy_data(void *dest, const void *src, std::size_t count) const override;
#endif

private:
  c10::Allocator *host_ = nullptr; // LibTorch's own CPU allocator
};

} // namespace devplace::fakecuda

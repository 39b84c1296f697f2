// The fake CUDA device's memory: host memory that host code cannot read.
//
// Two address ranges of the same size are reserved once. The device range
// has no access at all: it is where a CUDA tensor's data_ptr() points, so a
// host read or write through it faults, as it does on a GPU. The compute
// range is readable and writable: the runtime computes there, at the same
// offset. A block is one allocation; blocks are carved out of the ranges
// best-fit, split, and merged again when freed, as CUDA's caching allocator
// keeps freed memory for reuse.
#pragma once

#include <c10/core/Device.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace devplace::fakecuda {

class DeviceMemory {
public:
  struct Block {
    const char *device = nullptr; // its first byte in the device range
    std::size_t size = 0;         // as asked for
    c10::DeviceIndex index = 0;   // the fake device it belongs to
  };

  static DeviceMemory &instance();

  // A block of at least `bytes` on device `index`, as its device address;
  // throws CUDA's out-of-memory error when the ranges are full.
  void *allocate(std::size_t bytes, c10::DeviceIndex index);
  void release(void *device);

  // The compute address of a device address, and back.
  char *computeView(const void *device) const;
  void *deviceView(const void *compute) const;
  bool inDeviceRange(const void *p) const;
  bool inComputeRange(const void *p) const;

  // The live block that holds device address `p`. Reads without the lock:
  // the host-read trap calls it from a signal handler.
  bool blockAt(const void *p, Block *out) const;

  // Bytes held by live blocks, and their highest value so far.
  std::size_t liveBytes() const { return live_bytes_; }
  std::size_t peakBytes() const { return peak_bytes_; }

private:
  DeviceMemory();
  std::size_t carve(std::size_t size);

  char *device_base_ = nullptr;
  char *compute_base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t top_ = 0; // bytes ever handed out from the start

  mutable std::mutex mutex_;
  std::map<std::size_t, Block> live_;                          // by offset
  std::map<std::size_t, std::size_t> free_by_offset_;          // offset -> size
  std::set<std::pair<std::size_t, std::size_t>> free_by_size_; // (size, offset)
  std::map<std::size_t, std::size_t> carved_; // offset -> rounded size
  std::size_t live_bytes_ = 0;
  std::size_t peak_bytes_ = 0;
};

} // namespace devplace::fakecuda

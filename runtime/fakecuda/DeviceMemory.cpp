#include "DeviceMemory.h"

#include "Refusal.h"

#include <c10/util/Exception.h>

#include <sys/mman.h>

#include <cstdlib>
#include <string>

namespace devplace::fakecuda {

namespace {

// CUDA's caching allocator rounds every block to 512 bytes.
constexpr std::size_t kGranule = 512;

std::size_t roundUp(std::size_t n) {
  return n == 0 ? kGranule : (n + kGranule - 1) / kGranule * kGranule;
}

// DEVPLACE_FAKE_CUDA_MEMORY: the size of the device, in bytes or with a K,
// M or G suffix (default 64G). Only the pages written take memory.
std::size_t capacityFromEnvironment() {
  const char *text = std::getenv("DEVPLACE_FAKE_CUDA_MEMORY");
  if (!text)
    return std::size_t(64) << 30;
  char *end = nullptr;
  unsigned long long n = std::strtoull(text, &end, 10);
  std::size_t shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10;
  else if (*end == 'M' || *end == 'm')
    shift = 20;
  else if (*end == 'G' || *end == 'g')
    shift = 30;
  if (shift)
    ++end;
  if (end == text || *end != '\0' || n == 0 || n > (1ull << 46) >> shift)
    refuse(std::string("DEVPLACE_FAKE_CUDA_MEMORY must be a size such as 16G, "
                       "512M or 1048576, not '") +
           text + "'");
  return roundUp(std::size_t(n) << shift);
}

char *reserve(std::size_t bytes, int protection) {
  void *p = mmap(nullptr, bytes, protection,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  TORCH_CHECK(p != MAP_FAILED, "devplace fakecuda: cannot reserve ", bytes,
              " bytes of address space for the fake CUDA device "
              "(DEVPLACE_FAKE_CUDA_MEMORY)");
  return static_cast<char *>(p);
}

} // namespace

DeviceMemory &DeviceMemory::instance() {
  // Never destroyed: tensors freed by static destructors after main still
  // return their blocks here.
  static DeviceMemory *memory = new DeviceMemory();
  return *memory;
}

DeviceMemory::DeviceMemory() : capacity_(capacityFromEnvironment()) {
  device_base_ = reserve(capacity_, PROT_NONE);
  compute_base_ = reserve(capacity_, PROT_READ | PROT_WRITE);
}

std::size_t DeviceMemory::carve(std::size_t size) {
  auto fit = free_by_size_.lower_bound({size, 0});
  if (fit != free_by_size_.end()) {
    auto [free_size, offset] = *fit;
    free_by_size_.erase(fit);
    free_by_offset_.erase(offset);
    if (free_size > size) {
      free_by_offset_[offset + size] = free_size - size;
      free_by_size_.insert({free_size - size, offset + size});
    }
    return offset;
  }
  if (capacity_ - top_ < size) {
    TORCH_CHECK(false, "CUDA out of memory. Tried to allocate ", size,
                " bytes (the fake CUDA device has ", capacity_, " bytes, ",
                live_bytes_,
                " in use; DEVPLACE_FAKE_CUDA_MEMORY sets its size)");
  }
  std::size_t offset = top_;
  top_ += size;
  return offset;
}

void *DeviceMemory::allocate(std::size_t bytes, c10::DeviceIndex index) {
  std::size_t size = roundUp(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t offset = carve(size);
  carved_[offset] = size;
  live_[offset] = Block{device_base_ + offset, bytes, index};
  live_bytes_ += size;
  if (live_bytes_ > peak_bytes_)
    peak_bytes_ = live_bytes_;
  return device_base_ + offset;
}

void DeviceMemory::release(void *device) {
  if (!device)
    return;
  std::size_t offset = static_cast<char *>(device) - device_base_;
  std::lock_guard<std::mutex> lock(mutex_);
  auto carved = carved_.find(offset);
  if (carved == carved_.end())
    return;
  std::size_t size = carved->second;
  carved_.erase(carved);
  live_.erase(offset);
  live_bytes_ -= size;
  // Merge with the free neighbours on both sides.
  auto next = free_by_offset_.find(offset + size);
  if (next != free_by_offset_.end()) {
    free_by_size_.erase({next->second, next->first});
    size += next->second;
    free_by_offset_.erase(next);
  }
  auto prev = free_by_offset_.lower_bound(offset);
  if (prev != free_by_offset_.begin()) {
    --prev;
    if (prev->first + prev->second == offset) {
      free_by_size_.erase({prev->second, prev->first});
      offset = prev->first;
      size += prev->second;
      free_by_offset_.erase(prev);
    }
  }
  free_by_offset_[offset] = size;
  free_by_size_.insert({size, offset});
}

char *DeviceMemory::computeView(const void *device) const {
  if (!device)
    return nullptr;
  return compute_base_ + (static_cast<const char *>(device) - device_base_);
}

void *DeviceMemory::deviceView(const void *compute) const {
  if (!compute)
    return nullptr;
  return device_base_ + (static_cast<const char *>(compute) - compute_base_);
}

bool DeviceMemory::inDeviceRange(const void *p) const {
  auto *c = static_cast<const char *>(p);
  return c >= device_base_ && c < device_base_ + capacity_;
}

bool DeviceMemory::inComputeRange(const void *p) const {
  auto *c = static_cast<const char *>(p);
  return c >= compute_base_ && c < compute_base_ + capacity_;
}

bool DeviceMemory::blockAt(const void *p, Block *out) const {
  if (!inDeviceRange(p) || live_.empty())
    return false;
  std::size_t offset = static_cast<const char *>(p) - device_base_;
  auto it = live_.upper_bound(offset);
  if (it == live_.begin())
    return false;
  --it;
  auto carved = carved_.find(it->first);
  if (carved == carved_.end() || offset >= it->first + carved->second)
    return false;
  *out = it->second;
  return true;
}

} // namespace devplace::fakecuda

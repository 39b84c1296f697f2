#include "HostView.h"

#include "ComputeAllocator.h"
#include "DeviceAllocator.h"
#include "DeviceMemory.h"

#include <ATen/Utils.h>
#include <c10/core/TensorImpl.h>

#include <cstring>

namespace devplace::fakecuda {

namespace {

void dropStorage(void *storage) { delete static_cast<c10::Storage *>(storage); }

c10::DataPtr keepingAlive(void *data, const c10::Storage &owner,
                          c10::Device device) {
  return {data, new c10::Storage(owner), &dropStorage, device};
}

at::Tensor tensorOn(c10::Storage storage, c10::DispatchKey key,
                    const at::Tensor &like) {
  at::Tensor t = at::detail::make_tensor<c10::TensorImpl>(
      std::move(storage), c10::DispatchKeySet(key), like.dtype());
  t.unsafeGetTensorImpl()->set_sizes_and_strides(like.sizes(), like.strides());
  t.unsafeGetTensorImpl()->set_storage_offset(like.storage_offset());
  return t;
}

} // namespace

at::Tensor HostViews::viewOf(const at::Tensor &device) {
  TORCH_CHECK(
      device.layout() == c10::kStrided,
      "devplace fakecuda: only strided CUDA tensors are supported, not ",
      device.layout());
  return tensorOn(hostStorageOf(device.storage()), c10::DispatchKey::CPU,
                  device);
}

c10::Storage HostViews::hostStorageOf(const c10::Storage &storage) {
  auto found = by_device_.find(storage.unsafeGetStorageImpl());
  if (found == by_device_.end()) {
    void *data = storage.data_ptr().get();
    char *compute = DeviceMemory::instance().computeView(data);
    // Resizable through the compute allocator: a kernel that resizes an
    // output gets compute-range memory, which moveResizedStorages hands back.
    c10::Storage host(
        c10::Storage::use_byte_size_t(), storage.nbytes(),
        keepingAlive(compute, storage, c10::Device(c10::DeviceType::CPU)),
        &ComputeAllocator::instance(), /*resizable=*/true);
    pairs_.push_back({storage, host, compute});
    found =
        by_device_.emplace(storage.unsafeGetStorageImpl(), pairs_.size() - 1)
            .first;
    by_host_.emplace(host.unsafeGetStorageImpl(), pairs_.size() - 1);
  }
  return pairs_[found->second].host;
}

void HostViews::moveResizedStorages() {
  for (Pair &pair : pairs_) {
    const c10::DataPtr &now = pair.host.data_ptr();
    if (now.get() == pair.host_data &&
        pair.host.nbytes() == pair.device.nbytes())
      continue;
    // The kernel gave the view new memory (ComputeAllocator, under its
    // scope): the device storage takes it over.
    c10::Storage moved =
        deviceStorageFor(pair.host, pair.device.device().index());
    c10::StorageImpl *device = pair.device.unsafeGetStorageImpl();
    device->set_data_ptr(
        moved.unsafeGetStorageImpl()->set_data_ptr(c10::DataPtr()));
    device->set_nbytes(moved.nbytes());
  }
}

const c10::Storage *
HostViews::deviceStorageOf(const c10::StorageImpl *host) const {
  auto found = by_host_.find(host);
  return found == by_host_.end() ? nullptr : &pairs_[found->second].device;
}

at::Tensor deviceTensorOn(c10::Storage storage, const at::Tensor &like) {
  return tensorOn(std::move(storage), c10::DispatchKey::CUDA, like);
}

c10::Storage deviceStorageFor(const c10::Storage &host,
                              c10::DeviceIndex index) {
  auto &memory = DeviceMemory::instance();
  void *data = host.data_ptr().get();
  c10::Device device(c10::DeviceType::CUDA, index);
  if (!data || memory.inComputeRange(data))
    return c10::Storage(c10::Storage::use_byte_size_t(), host.nbytes(),
                        keepingAlive(memory.deviceView(data), host, device),
                        &DeviceAllocator::instance(),
                        /*resizable=*/true);
  c10::DataPtr copy =
      DeviceAllocator::instance().allocateOn(host.nbytes(), index);
  std::memcpy(memory.computeView(copy.get()), data, host.nbytes());
  return c10::Storage(c10::Storage::use_byte_size_t(), host.nbytes(),
                      std::move(copy), &DeviceAllocator::instance(),
                      /*resizable=*/true);
}

at::Tensor hostViewOf(const at::Tensor &device) {
  HostViews views;
  return views.viewOf(device);
}

} // namespace devplace::fakecuda

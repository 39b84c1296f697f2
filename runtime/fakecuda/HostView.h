// The two directions between a fake CUDA tensor and the host memory the
// runtime computes in.
//
// A host view is a CPU tensor over the compute range of a device tensor's
// storage: same sizes, strides and offset, same bytes. CPU kernels read and
// write device tensors through host views without copying. Within one
// operator call, every device tensor of one storage gets its view over one
// host storage, so aliasing inside the call is what it is on the device.
#pragma once

#include <ATen/core/Tensor.h>

#include <unordered_map>
#include <vector>

namespace devplace::fakecuda {

class HostViews {
public:
  // The host view of device tensor `device`.
  at::Tensor viewOf(const at::Tensor &device);

  // The host storage of device storage `device`.
  c10::Storage hostStorageOf(const c10::Storage &device);

  // After the kernel: storages that a kernel resized through a view move to
  // the device storage they came from.
  void moveResizedStorages();

  // The device storage behind host storage `host`, if it is a view's.
  const c10::Storage *deviceStorageOf(const c10::StorageImpl *host) const;

private:
  struct Pair {
    c10::Storage device;
    c10::Storage host;
    const void *host_data; // where the view's storage started
  };
  std::vector<Pair> pairs_;
  std::unordered_map<const c10::StorageImpl *, std::size_t> by_device_;
  std::unordered_map<const c10::StorageImpl *, std::size_t> by_host_;
};

// A CUDA tensor on `storage` with the sizes, strides and offset of `like`.
at::Tensor deviceTensorOn(c10::Storage storage, const at::Tensor &like);

// Device storage for host storage `host` on device `index`: the same bytes
// when they are in the compute range (kept alive by the device storage),
// else a copy.
c10::Storage deviceStorageFor(const c10::Storage &host, c10::DeviceIndex index);

// The CPU tensor over the compute range of a device tensor, for the
// runtime's own kernels (a one-tensor HostViews).
at::Tensor hostViewOf(const at::Tensor &device);

} // namespace devplace::fakecuda

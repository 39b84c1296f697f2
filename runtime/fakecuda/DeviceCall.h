// One operator call on fake CUDA tensors, computed by LibTorch's CPU kernel.
//
// The boxed fallback of the CUDA dispatch key: it checks CUDA's device rule
// (every tensor of the call on one device, a 0-dim CPU tensor accepted as a
// scalar, CPU index tensors accepted by indexing), replaces each device
// tensor by its host view and each CUDA device argument by the CPU, runs the
// operator's CPU kernel with compute-range allocation, then gives back
// device tensors: the caller's own tensor where the kernel returned its
// argument (in-place and out= operators), a device view where it returned a
// view, and a device tensor over the kernel's fresh output otherwise.
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>

namespace devplace::fakecuda {

class HostViews;

class DeviceCall {
public:
  DeviceCall(const c10::OperatorHandle &op, torch::jit::Stack *stack);
  void run();

  // The fallback, as the dispatcher calls it.
  static void fallback(const c10::OperatorHandle &op, torch::jit::Stack *stack);

private:
  void checkDevices() const;
  // Whether the CPU key has a kernel for the operator (its own or a
  // composite one).
  bool hasHostKernel() const;
  void toHost(HostViews &views);
  void writeBack(HostViews &views);
  void toDevice(HostViews &views);
  at::Tensor resultOnDevice(const at::Tensor &result, HostViews &views);

  const c10::OperatorHandle &op_;
  torch::jit::Stack *stack_;
  std::size_t first_argument_;
  std::size_t argument_count_;
  // Arguments that were device tensors: their position (or -1 for list
  // elements) and the tensor, with its host view.
  struct Argument {
    at::Tensor device;
    at::Tensor host;
    bool written;
  };
  std::vector<Argument> arguments_;
  c10::optional<c10::Device> result_device_;
  std::unordered_map<const c10::StorageImpl *, c10::Storage> adopted_;
};

} // namespace devplace::fakecuda

// Kernels registered for CUDA: the dispatcher calls a function registered
// with TORCH_LIBRARY_IMPL(ns, CUDA, m) or AutogradCUDA, or with
// torch::dispatch(DispatchKey::CUDA, ...), with its tensors on the device,
// so per-element .item() of its intermediate results in a launch loop is a
// sync per iteration. The same body registered for the CPU, and a direct
// call of a kernel with host tensors, are silent.
// RUN: %tidy_load --checks='-*,devplace-sync-in-loop,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-sync-in-loop,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/library.h>
#include <vector>

std::vector<float> norms;

torch::Tensor row_norms(const torch::Tensor &x) {
  for (int64_t i = 0; i < x.size(0); ++i) {
    auto sq = x[i] * x[i];
    norms.push_back(sq.sum().item<float>());
    // CHECK: :[[@LINE-1]]:30: warning: 'sq.sum()' is on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE+6]]:40: note: 'x' is on a CUDA device: 'row_norms' is registered as its kernel for CUDA here
    // CHECK: :[[@LINE-4]]:10: note: 'sq' is assigned here
    // CHECK: :[[@LINE-4]]:30: note: keep the running value on the device (a tensor sum such as 'total += sq.sum().detach()') and read it once after the loop
  }
  return x;
}
TORCH_LIBRARY_IMPL(myops, CUDA, m) { m.impl("row_norms", &row_norms); }

// Silent: the same body, registered for the CPU.
torch::Tensor row_norms_cpu(const torch::Tensor &x) {
  for (int64_t i = 0; i < x.size(0); ++i) {
    auto sq = x[i] * x[i];
    norms.push_back(sq.sum().item<float>());
  }
  return x;
}
TORCH_LIBRARY_IMPL(myops, CPU, m) { m.impl("row_norms", TORCH_FN(row_norms_cpu)); }

torch::Tensor scaled(const torch::Tensor &x, double s) {
  float total = 0;
  for (int64_t k = 0; k < x.size(0); ++k) {
    auto y = x[k] * s;
    total += y.sum().item<float>();
    // CHECK: :[[@LINE-1]]:22: warning: 'y.sum()' is on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE+6]]:48: note: 'x' is on a CUDA device: 'scaled' is registered as its kernel for AutogradCUDA here
    // CHECK: :[[@LINE-4]]:10: note: 'y' is assigned here
    // CHECK: :[[@LINE-4]]:22: note: keep the running value on the device (a tensor sum such as 'total += y.sum().detach()') and read it once after the loop
  }
  return x / total;
}
TORCH_LIBRARY_IMPL(myops, AutogradCUDA, m) { m.impl("scaled", TORCH_FN(scaled)); }

double first(const torch::Tensor &x) { return x.data_ptr<float>()[0]; }
// CHECK: :[[@LINE-1]]:49: warning: 'x' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
// CHECK: :[[@LINE+3]]:5: note: 'x' is on a CUDA device: 'first' is registered as its kernel for CUDA here

TORCH_LIBRARY(extra, m) {
  m.def("first(Tensor x) -> float", torch::dispatch(c10::DispatchKey::CUDA, TORCH_FN(first)));
}

// Silent: a direct call with host tensors is the caller's, not the
// dispatcher's.
float direct_call() {
  auto x = torch::ones({4});
  auto y = row_norms(x);
  return y.data_ptr<float>()[0];
}

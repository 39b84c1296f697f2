// Code that does not compile is not analysed: a function whose body clang
// could only recover from (an undeclared name, as when a third-party header
// is missing) gives no finding from any check, and its callers see its
// result as unknown. The same function, compiling, is reported.
// RUN: not %tidy_load --checks='-*,devplace-*' %s -- %mock_flags 2>&1 | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace %s -- %mock_flags 2>&1 | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

float plots(bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto m = torch::ones({2}).to(device);
  torch::Tensor h = torch::zeros({2});
  auto figure = matplot::figure(true);
  // CHECK: :[[@LINE-1]]:17: error: use of undeclared identifier 'matplot'
  m.cpu();
  return (m + h).sum().item<float>();
}

float plots_compiling(bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto m = torch::ones({2}).to(device);
  torch::Tensor h = torch::zeros({2});
  m.cpu();
  // CHECK: :[[@LINE-1]]:5: warning: the result of '.cpu()' is discarded, so 'm' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  return (m + h).sum().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'm' may be on a CUDA device and 'h' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-7]]:26: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE-7]]:29: note: 'm' is moved to 'device' here
}

torch::Tensor recovered(torch::Tensor x) {
  return undeclared_helper(x).cuda();
  // CHECK: :[[@LINE-1]]:10: error: use of undeclared identifier 'undeclared_helper'
}

float caller(torch::Tensor x) {
  // The callee does not compile: its result's device is unknown, neither
  // host nor device.
  auto r = recovered(x);
  torch::Tensor h = torch::zeros({2});
  return (r + h).sum().item<float>() + r.data_ptr<float>()[0];
}

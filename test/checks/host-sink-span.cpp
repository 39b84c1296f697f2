// std::span over device memory (C++20), and its host twin.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags -std=c++20 | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags -std=c++20 | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <span>

float span_over_device(torch::Tensor x) {
  auto t = x.to(torch::kCUDA);
  std::span<const float> view(t.data_ptr<float>(), t.numel());
  // CHECK: :[[@LINE-1]]:26: warning: 't' is on a CUDA device when its memory is wrapped by host type 'std::span' here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to 'torch::kCUDA' here
  return view[0];
}

float span_over_host(torch::Tensor x) {
  auto t = x.to(torch::kCPU);
  std::span<const float> view(t.data_ptr<float>(), t.numel());
  return view[0];
}

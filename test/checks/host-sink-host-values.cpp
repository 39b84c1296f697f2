// Values that live on the host: .cpu(), .to(kCPU), from_blob, CPU factories,
// pinned memory. Each host form is silent; its device twin is reported.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

float after_cpu(torch::Tensor x) {
  auto t = x.cuda().cpu();
  return t.data_ptr<float>()[1];
}

float after_to_kcpu() {
  auto t = torch::ones({3}).cuda();
  t = t.to(torch::kCPU);
  return t.data_ptr<float>()[1];
}

float after_to_kcpu_device_twin() {
  auto t = torch::ones({3}).to(torch::kCPU);
  t = t.to(torch::kCUDA);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:9: note: 't' is moved to 'torch::kCUDA' here
}

float from_blob(float *buffer) {
  auto t = torch::from_blob(buffer, {3});
  return t.data_ptr<float>()[1];
}

float from_blob_device_twin(float *buffer) {
  auto t = torch::from_blob(buffer, {3}).to(torch::kCUDA);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:42: note: 't' is moved to 'torch::kCUDA' here
}

float cpu_factories() {
  auto a = torch::zeros({3});
  auto b = torch::randn({3}, torch::TensorOptions().dtype(torch::kFloat));
  auto c = torch::tensor({1.0, 2.0});
  auto d = torch::arange(5);
  return a.data_ptr<float>()[0] + b.data_ptr<float>()[0] + c.data_ptr<float>()[0] +
         d.data_ptr<float>()[0];
}

float pinned() {
  auto t = torch::empty({3}, torch::TensorOptions().pinned_memory(true));
  auto u = torch::ones({3}).cuda().pin_memory();
  return t.data_ptr<float>()[0] + u.data_ptr<float>()[0];
}

float dtype_conversion_keeps_host() {
  auto t = torch::ones({3}).to(torch::kDouble);
  return t.data_ptr<float>()[0];
}

float dtype_conversion_keeps_device() {
  auto t = torch::ones({3}).cuda().to(torch::kDouble);
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:29: note: 't' is moved to a CUDA device here
}

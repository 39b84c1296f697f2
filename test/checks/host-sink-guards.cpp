// Guards: a check of the tensor's own device, of the device variable, or of
// the same condition that chose the device.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <cstring>

torch::Device pick() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

float is_cuda_then_cpu(bool gpu) {
  auto t = torch::ones({3});
  if (gpu)
    t = t.cuda();
  if (t.is_cuda())
    t = t.cpu();
  return t.data_ptr<float>()[0];
}

float is_cpu_guard(bool gpu) {
  auto t = torch::ones({3});
  if (gpu)
    t = t.cuda();
  if (t.is_cpu())
    return t.data_ptr<float>()[0];
  return 0;
}

float is_cpu_guard_wrong_side(bool gpu) {
  auto t = torch::ones({3});
  if (gpu)
    t = t.cuda();
  if (!t.is_cpu())
    return t.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-4]]:11: note: 't' is moved to a CUDA device here, when 'gpu' is true
  return 0;
}

float device_is_cpu_guard(bool gpu) {
  auto t = gpu ? torch::ones({3}).cuda() : torch::ones({3});
  if (t.device().is_cpu())
    return t.data_ptr<float>()[0];
  if (t.device() == torch::kCPU)
    return t.data_ptr<float>()[1];
  if (t.device().type() != torch::kCUDA)
    return t.data_ptr<float>()[2];
  return 0;
}

float device_variable_guard() {
  torch::Device d = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto t = torch::ones({3}).to(d);
  if (d.is_cpu())
    return t.data_ptr<float>()[0];
  return 0;
}

float same_condition() {
  const bool cuda = torch::cuda::is_available();
  torch::Device device = cuda ? torch::kCUDA : torch::kCPU;
  auto w = torch::ones({3}).to(device);
  if (torch::cuda::is_available())
    w = w.cpu();
  return w.data_ptr<float>()[0];
}

float same_condition_wrong_side() {
  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  auto w = torch::ones({3}).to(device);
  if (torch::cuda::is_available())
    return w.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 'w' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-5]]:14: note: 'device' is set to 'torch::kCUDA' here, when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-5]]:29: note: 'w' is moved to 'device' here
  return w.data_ptr<float>()[1];
}

float flag_reassigned_is_not_trusted(bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto w = torch::ones({3}).to(device);
  use_gpu = !use_gpu;
  if (!use_gpu)
    return w.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 'w' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-6]]:26: note: 'device' may be a CUDA device, depending on 'use_gpu'
    // CHECK: :[[@LINE-6]]:29: note: 'w' is moved to 'device' here
  return 0;
}

// Guards in helpers: a helper that copies its argument to the host itself
// when it is on a device reads host memory for every caller.
void copy_out_is_cuda(torch::Tensor t, float *dst) {
  if (t.is_cuda())
    t = t.cpu();
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
void copy_out_device_check(torch::Tensor t, float *dst) {
  if (t.device() != torch::kCPU)
    t = t.to(torch::kCPU);
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
void copy_out_unguarded(torch::Tensor t, float *dst) {
  if (!t.is_cuda())
    t = t.contiguous();
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
void guarded_helpers(float *dst) {
  auto x = torch::ones({4}).cuda();
  copy_out_is_cuda(x, dst);
  copy_out_device_check(x, dst);
  copy_out_unguarded(x, dst);
  // CHECK: :[[@LINE-1]]:3: warning: 'x' is on a CUDA device when it is passed to 'copy_out_unguarded', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:29: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-9]]:3: note: 't' reaches host code here, inside the helper
}

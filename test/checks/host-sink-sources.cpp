// Each way a tensor gets onto a CUDA device, with a host twin that stays silent.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

float to_device(torch::Tensor x, torch::Device device) {
  torch::Device cuda(torch::kCUDA);
  torch::Tensor t = x.to(cuda);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:22: note: 'cuda' is set to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:23: note: 't' is moved to 'cuda' here
}

float to_device_host_twin(torch::Tensor x) {
  torch::Device cpu(torch::kCPU);
  torch::Tensor t = x.to(cpu);
  return t.data_ptr<float>()[1];
}

float dot_cuda(torch::Tensor x) {
  auto t = x.cuda();
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to a CUDA device here
}

float to_other(torch::Tensor x) {
  auto w = torch::ones({3}).cuda();
  auto t = x.to(w);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:29: note: 'w' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:14: note: 't' is moved to 'w' here
}

float to_other_device(torch::Tensor x) {
  auto w = torch::ones({3}).cuda();
  auto t = x.to(w.device());
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:29: note: 'w' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:14: note: 't' is moved to 'w.device()' here
}

float to_other_host_twin(torch::Tensor x) {
  auto w = torch::ones({3});
  auto t = x.to(w.device());
  return t.data_ptr<float>()[1];
}

float factory_kcuda() {
  auto t = torch::zeros({3}, torch::kCUDA);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:12: note: 't' is created on 'torch::kCUDA' here
}

float factory_options() {
  auto opts = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA);
  auto t = torch::randn({3}, opts);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:66: note: 'opts' is set to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:12: note: 't' is created on 'opts' here
}

float factory_options_host_twin() {
  auto opts = torch::TensorOptions().dtype(torch::kFloat);
  auto t = torch::randn({3}, opts);
  return t.data_ptr<float>()[1];
}

float factory_x_options() {
  auto x = torch::ones({3}).cuda();
  auto t = torch::full({3}, 2.0, x.options());
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:29: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:12: note: 't' is created on 'x.options()' here
}

float like() {
  auto x = torch::ones({3}).cuda();
  auto t = torch::zeros_like(x);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:29: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:12: note: 't' is created on the device of 'x' here
}

float like_host_twin() {
  auto x = torch::ones({3}).cuda();
  auto t = torch::zeros_like(x, torch::kCPU);
  return t.data_ptr<float>()[1];
}

float device_string() {
  torch::Device device("cuda:0");
  auto t = torch::ones({3}).to(device);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:17: note: 'device' is set to "cuda:0" here
  // CHECK: :[[@LINE-4]]:29: note: 't' is moved to 'device' here
}

float device_string_host_twin() {
  torch::Device device("cpu");
  auto t = torch::ones({3}).to(device);
  return t.data_ptr<float>()[1];
}

float device_type_index() {
  auto t = torch::ones({3}).to(torch::Device(torch::kCUDA, 0));
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:29: note: 't' is moved to 'torch::Device(torch::kCUDA, 0)' here
}

float conditional_available() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto t = torch::ones({3}).to(device);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-4]]:29: note: 't' is moved to 'device' here
}

float conditional_flag(bool use_gpu) {
  torch::Device device(use_gpu ? torch::kCUDA : torch::kCPU);
  auto t = torch::ones({3}).to(device);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:24: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE-4]]:29: note: 't' is moved to 'device' here
}

float reassigned_under_if(bool use_gpu) {
  torch::Device device = torch::kCPU;
  if (use_gpu)
    device = torch::kCUDA;
  auto t = torch::ones({3}).to(device);
  return t.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:14: note: 'device' is set to 'torch::kCUDA' here, when 'use_gpu' is true
  // CHECK: :[[@LINE-4]]:29: note: 't' is moved to 'device' here
}

float reassigned_host_twin(bool use_gpu) {
  torch::Device device = torch::kCUDA;
  if (!use_gpu || !torch::cuda::is_available())
    device = torch::kCPU;
  auto t = torch::ones({3}).to(device);
  if (device.is_cpu())
    return t.data_ptr<float>()[1];
  return 0;
}

// x.type_as(other) moves x to other's device (and dtype).
float type_as_device() {
  auto weights = torch::ones({3}).cuda();
  auto y = torch::zeros({3}).type_as(weights);
  return y.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:35: note: 'weights' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:30: note: 'y' is moved to 'weights' here
}

float type_as_host_twin() {
  auto weights = torch::ones({3}).cuda();
  auto y = weights.type_as(torch::zeros({3}));
  return y.data_ptr<float>()[0];
}

// LibTorch 2.x code places with options that carry a memory format too.
float options_with_memory_format(torch::Tensor x) {
  auto y = x.to(torch::TensorOptions().device(torch::kCUDA).memory_format(torch::MemoryFormat::ChannelsLast));
  return y.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 'y' is moved to 'torch::TensorOptions().device(torch::kCUDA).m...' here
}

// A memory format alone keeps the device.
float memory_format_keeps_device(torch::Tensor x) {
  auto y = x.to(torch::kCUDA).to(torch::MemoryFormat::ChannelsLast);
  return y.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 'y' is moved to 'torch::kCUDA' here
}

float memory_format_host_twin(torch::Tensor x) {
  auto y = x.to(torch::kCPU).to(torch::MemoryFormat::ChannelsLast);
  auto z = torch::zeros({2}).to(torch::TensorOptions().memory_format(torch::MemoryFormat::Contiguous));
  return y.data_ptr<float>()[0] + z.data_ptr<float>()[0];
}

// The long form: options, non_blocking, copy, memory format.
float options_long_form(torch::Tensor x) {
  auto options = torch::TensorOptions().device(torch::kCUDA);
  auto y = x.to(options, /*non_blocking=*/false, /*copy=*/false, torch::MemoryFormat::Contiguous);
  return y.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:48: note: 'options' is set to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:14: note: 'y' is moved to 'options' here
}

// The legacy spelling: toBackend moves to its backend's device; the host
// backends (CPU, SparseCPU, ...) are the host twin.
float legacy_backend(torch::Tensor x) {
  auto d = x.toBackend(c10::Backend::CUDA);
  auto h = x.to(torch::kCUDA).toBackend(c10::Backend::CPU);
  auto s = x.cuda().toBackend(c10::Backend::SparseCPU);
  return d.data_ptr<float>()[0] + h.data_ptr<float>()[0] + s.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'd' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:14: note: 'd' is moved to 'c10::Backend::CUDA' here
}

// The older spelling still: toType with a legacy type (`at::CUDA(kFloat)`)
// moves to its backend; `at::CPU(kFloat)` and a dtype alone are the twins.
float legacy_type(torch::Tensor x) {
  auto d = x.toType(at::CUDA(at::kFloat));
  auto h = x.cuda().toType(at::CPU(at::kFloat));
  auto k = x.toType(at::kFloat);
  return d.data_ptr<float>()[0] + h.data_ptr<float>()[0] + k.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'd' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:21: note: the tensor comes from 'at::CUDA', which returns a tensor on a CUDA device
  // CHECK: :[[@LINE-6]]:14: note: 'd' is moved to 'at::CUDA(at::kFloat)' here
}

// A choice of device strings: each string under its condition.
float string_choice(torch::Tensor x, bool gpu) {
  torch::Device dev(gpu ? "cuda:0" : "cpu");
  auto t = x.to(dev);
  torch::Device host(gpu ? "cpu" : "cpu");
  auto h = x.to(host);
  return t.data_ptr<float>()[0] + h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:21: note: 'dev' is a CUDA device when 'gpu' is true
  // CHECK: :[[@LINE-6]]:14: note: 't' is moved to 'dev' here
}

// Tensors passed as a list: torch::cat({a, b}) is where its inputs are
// (LibTorch takes them as a list reference).
float concatenated(const torch::Tensor &x) {
  auto y = torch::cat({x.cuda(), x.cuda()}, 1);
  return y.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:26: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:8: note: 'y' is assigned here
}

float concatenated_host(const torch::Tensor &x) {
  auto y = torch::cat({x.cuda().cpu(), x.cpu()}, 1);
  return y.data_ptr<float>()[0];
}

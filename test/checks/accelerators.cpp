// Every accelerator, not only CUDA: MPS, XPU and HIP devices are device
// sources, their availability checks are guards (one condition per device
// type), and messages name the device type the code chose.
// RUN: %tidy_load --checks='-*,devplace-*' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-*' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

float mps_chosen(const torch::Tensor &x) {
  torch::Device device = torch::mps::is_available() ? torch::kMPS : torch::kCPU;
  auto t = x.to(device);
  return t.data_ptr<float>()[0];
}
// CHECK: :[[@LINE-2]]:12: warning: 't' may be on an MPS device when its memory is read on the host here [devplace-host-sink]
// CHECK: :[[@LINE-5]]:26: note: 'device' is an MPS device when 'torch::mps::is_available()' is true
// CHECK: :[[@LINE-5]]:14: note: 't' is moved to 'device' here

float mps_guarded(torch::Tensor t) {
  if (torch::mps::is_available())
    t = t.to(torch::kMPS);
  t = t * 2;
  if (torch::mps::is_available())
    t = t.cpu();
  return t.data_ptr<float>()[0];
}

// CUDA's availability says nothing about MPS.
float other_accelerator_guard(torch::Tensor t) {
  if (torch::mps::is_available())
    t = t.to(torch::kMPS);
  if (torch::cuda::is_available())
    t = t.cpu();
  return t.data_ptr<float>()[0];
}
// CHECK: :[[@LINE-2]]:12: warning: 't' may be on an MPS device when its memory is read on the host here [devplace-host-sink]
// CHECK: :[[@LINE-6]]:14: note: 'torch::kMPS' is chosen here, when 'torch::mps::is_available()' is true
// CHECK: :[[@LINE-7]]:11: note: 't' is moved to 'torch::kMPS' here, when 'torch::mps::is_available()' is true

float is_mps_guard(torch::Tensor t, bool apple) {
  if (apple)
    t = t.to(torch::kMPS);
  if (t.is_mps())
    t = t.cpu();
  return t.data_ptr<float>()[0];
}

float xpu_string(const torch::Tensor &x) {
  auto t = x.to(torch::Device("xpu:0"));
  return *t.data_ptr<float>();
}
// CHECK: :[[@LINE-2]]:10: warning: 't' is on an XPU device when its memory is read on the host here [devplace-host-sink]
// CHECK: :[[@LINE-4]]:14: note: 't' is moved to 'torch::Device("xpu:0")' here

float hip_method(const torch::Tensor &x) {
  auto t = x.hip();
  return t.accessor<float, 1>()[0];
}
// CHECK: :[[@LINE-2]]:12: warning: 't' is on a HIP device when a host accessor to it is made here [devplace-host-sink]
// CHECK: :[[@LINE-4]]:14: note: 't' is moved to a HIP device here

torch::Tensor mps_mismatch(const torch::Tensor &x) {
  auto a = x.to(torch::kMPS);
  return a + torch::ones({3});
}
// CHECK: :[[@LINE-2]]:12: warning: 'a' is on an MPS device and 'torch::ones({3})' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
// CHECK: :[[@LINE-4]]:14: note: 'a' is moved to 'torch::kMPS' here

// Each loop iteration waits for the Apple GPU.
double mps_sync_in_loop(torch::nn::Linear model, const std::vector<torch::Tensor> &batches) {
  torch::Device device(torch::kMPS);
  model->to(device);
  double total = 0;
  for (const auto &b : batches) {
    auto loss = model->forward(b.to(device)).sum();
    total += loss.item<double>();
  }
  return total;
}
// CHECK: :[[@LINE-4]]:19: warning: 'loss' is on an MPS device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
// CHECK: :[[@LINE-10]]:24: note: 'device' is set to 'torch::kMPS' here
// CHECK: :[[@LINE-7]]:34: note: 'b' is moved to 'device' here
// CHECK: :[[@LINE-8]]:10: note: 'loss' is assigned here
// CHECK: :[[@LINE-8]]:19: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop

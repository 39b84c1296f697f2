// Host memory declared as device memory: torch::from_blob over a
// std::vector, a message buffer, an array or a host tensor, with options
// that place the tensor on a CUDA device. LibTorch takes the pointer for
// device memory: it rejects it, or reads a host address as a device one.
// The reverse of host-sink's other findings; each shape has a silent twin.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <cstdint>
#include <string>
#include <vector>

torch::Tensor over_vector(std::vector<float> &features) {
  return torch::from_blob(features.data(), {int64_t(features.size())},
                          torch::TensorOptions().device(torch::kCUDA));
  // CHECK: :[[@LINE-2]]:27: warning: 'features' is host memory, but 'torch::from_blob' is told it is on a CUDA device: make the tensor on the host and copy it with .to() [devplace-host-sink]
  // CHECK: :[[@LINE-2]]:57: note: 'torch::kCUDA' is chosen here
  // CHECK: :[[@LINE-4]]:10: note: the tensor is created on 'torch::TensorOptions().device(torch::kCUDA)' here
}

// Silent: made on the host, then copied to the device.
torch::Tensor over_vector_fixed(std::vector<float> &features) {
  return torch::from_blob(features.data(), {int64_t(features.size())})
      .to(torch::kCUDA);
}

struct Message {
  std::string payload;
};

torch::Tensor over_message(const Message &msg) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto options = torch::TensorOptions().dtype(torch::kInt).device(device);
  return torch::from_blob((void *)msg.payload.data(), {int64_t(msg.payload.size())}, options);
  // CHECK: :[[@LINE-1]]:27: warning: 'msg.payload' is host memory, but 'torch::from_blob' is told it may be on a CUDA device: make the tensor on the host and copy it with .to() [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-4]]:8: note: 'options' is assigned here
  // CHECK: :[[@LINE-4]]:10: note: the tensor is created on 'options' here
}

// Silent: the caller's device, which the function cannot see, and a raw
// pointer the caller gives (device memory, maybe).
torch::Tensor over_message_caller_device(const Message &msg, torch::Device device) {
  return torch::from_blob((void *)msg.payload.data(), {int64_t(msg.payload.size())},
                          torch::TensorOptions().device(device));
}
torch::Tensor over_pointer(float *data) {
  return torch::from_blob(data, {3}, torch::TensorOptions().device(torch::kCUDA));
}

torch::Tensor over_array_and_host_tensor() {
  float window[4] = {0, 1, 2, 3};
  auto a = torch::from_blob(window, {4}, torch::device(torch::kCUDA));
  // CHECK: :[[@LINE-1]]:29: warning: 'window' is host memory, but 'torch::from_blob' is told it is on a CUDA device: make the tensor on the host and copy it with .to() [devplace-host-sink]
  // CHECK: :[[@LINE-2]]:12: note: the tensor is created on 'torch::device(torch::kCUDA)' here
  auto host = torch::zeros({3});
  auto b = torch::from_blob(host.data_ptr<float>(), {3}, torch::device(torch::kCUDA));
  // CHECK: :[[@LINE-1]]:29: warning: 'host' is host memory, but 'torch::from_blob' is told it is on a CUDA device: make the tensor on the host and copy it with .to() [devplace-host-sink]
  // CHECK: :[[@LINE-2]]:12: note: the tensor is created on 'torch::device(torch::kCUDA)' here
  return a + b;
}

// Silent: device memory declared as device memory.
torch::Tensor over_device_tensor() {
  auto dev = torch::zeros({3}).cuda();
  return torch::from_blob(dev.data_ptr<float>(), {3}, torch::device(torch::kCUDA));
}

// devplace-device-mismatch: two devices of one type at different indices in
// one operation (cuda:0 against cuda:1, a buffer made on device 0 against a
// model on the rank's device), each with a silent twin. An index the code
// does not say (kCUDA, .cuda(): the current device) is some CUDA device and
// is never compared; neither are two variables, which may hold one value.
// RUN: %tidy_load --checks='-*,devplace-device-mismatch' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-device-mismatch' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

float two_numbers() {
  auto a = torch::ones({3}).to(torch::Device("cuda:0"));
  auto b = torch::ones({3}).to(torch::Device(torch::kCUDA, 1));
  auto c = a + b;
  // CHECK: :[[@LINE-1]]:14: warning: 'a' is on cuda:0 and 'b' on cuda:1: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:29: note: 'a' is moved to 'torch::Device("cuda:0")' here
  // CHECK: :[[@LINE-4]]:29: note: 'b' is moved to 'torch::Device(torch::kCUDA, 1)' here
  auto fixed = a + b.to(a.device());
  return (c + fixed).sum().item<float>();
}

float buffer_on_device_zero(int rank) {
  torch::Device device(torch::kCUDA, rank);
  auto model = std::make_shared<Net>();
  model->to(device);
  auto mask = torch::ones({8, 4}, torch::TensorOptions().device(torch::kCUDA, 0));
  auto out = model->forward(mask);
  // CHECK: :[[@LINE-1]]:21: warning: module 'model' may be on cuda:rank but its input 'mask' on cuda:0 [devplace-device-mismatch]
  // CHECK: :[[@LINE-6]]:17: note: 'device' is set to cuda:rank here
  // CHECK: :[[@LINE-5]]:10: note: 'model' is moved to 'device' here
  // CHECK: :[[@LINE-5]]:15: note: 'mask' is created on 'torch::TensorOptions().device(torch::kCUDA, 0)' here
  auto fixed = model->forward(torch::ones({8, 4}, torch::TensorOptions().device(device)));
  return (out + fixed).sum().item<float>();
}

float numbers_the_code_fixes() {
  const int gpu = 1;
  int other = 2;
  auto a = torch::zeros({3}, torch::Device(torch::kCUDA, gpu));
  auto b = torch::zeros({3}, torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(other)));
  return (a * b).sum().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'a' is on cuda:1 and 'b' on cuda:2: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:12: note: 'a' is created on 'torch::Device(torch::kCUDA, gpu)' here
  // CHECK: :[[@LINE-4]]:12: note: 'b' is created on 'torch::Device(torch::kCUDA, static_cast<c10::...' here
}

torch::Tensor on_device_one() { return torch::ones({3}).to(torch::Device("cuda:1")); }

float through_a_helper() {
  auto a = torch::ones({3}).to(torch::Device("cuda:0"));
  return torch::matmul(a, on_device_one()).item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: 'a' is on cuda:0 and 'on_device_one()' on cuda:1: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:29: note: 'a' is moved to 'torch::Device("cuda:0")' here
  // CHECK: :[[@LINE-7]]:57: note: the tensor is moved to 'torch::Device("cuda:1")' here
  // CHECK: :[[@LINE-4]]:27: note: the tensor comes from 'on_device_one', which returns a result that may be on a CUDA device
}

struct Worker {
  int rank_;
  torch::Tensor step(torch::Tensor x) {
    auto here = x.to(torch::Device(torch::kCUDA, rank_));
    auto zero = torch::zeros({3}, torch::Device("cuda:0"));
    return here - zero;
    // CHECK: :[[@LINE-1]]:17: warning: 'here' may be on cuda:rank_ and 'zero' on cuda:0: they must be on the same device for this operation [devplace-device-mismatch]
    // CHECK: :[[@LINE-4]]:19: note: 'here' is moved to 'torch::Device(torch::kCUDA, rank_)' here
    // CHECK: :[[@LINE-4]]:17: note: 'zero' is created on 'torch::Device("cuda:0")' here
  }
};

// Silent: what the code does not say, or may say alike.
float current_device_is_unsaid(int rank) {
  auto a = torch::ones({3}).cuda();
  auto b = torch::ones({3}).to(torch::kCUDA);
  auto c = torch::ones({3}).to(torch::Device(torch::kCUDA, rank));
  auto d = torch::ones({3}).to(torch::Device("cuda"));
  return (a + c + b + d).sum().item<float>();
}

float two_variables(int rank, int local_rank) {
  auto a = torch::ones({3}).to(torch::Device(torch::kCUDA, rank));
  auto b = torch::ones({3}).to(torch::Device(torch::kCUDA, local_rank));
  return (a + b).sum().item<float>();
}

float a_variable_that_changes(int n) {
  auto sum = torch::zeros({3}, torch::Device("cuda:0"));
  for (int i = 0; i < n; ++i)
    sum = sum + torch::ones({3}).to(torch::Device(torch::kCUDA, i));
  return sum.sum().item<float>();
}

float indices_chosen_on_two_paths(bool second) {
  torch::Device device("cuda:0");
  if (second)
    device = torch::Device("cuda:1");
  auto a = torch::ones({3}).to(device);
  auto b = torch::ones({3}).to(torch::Device("cuda:0"));
  return (a + b).sum().item<float>();
}

float same_number_twice() {
  auto a = torch::ones({3}).to(torch::Device(torch::kCUDA, 1));
  auto b = torch::ones({3}, torch::TensorOptions().device("cuda:1"));
  return (a + b).sum().item<float>();
}

float a_device_type_names_no_index() {
  torch::Device one("cuda:1");
  auto a = torch::ones({3}).to(one.type());
  auto b = torch::ones({3}).to(torch::Device(one.type()));
  auto c = torch::ones({3}).to(torch::Device(one.type(), 0));
  return (a + b + c).sum().item<float>();
}

// The output of a module whose forward is in another file: where the
// module and its input name different indices, which one is not said (the
// call is the mismatch).
struct NetElsewhere : torch::nn::Module {
  NetElsewhere() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x); // in another file
  torch::nn::Linear fc{nullptr};
};

float output_of_a_module_elsewhere(int rank) {
  auto model = std::make_shared<NetElsewhere>();
  model->to(torch::Device(torch::kCUDA, rank));
  auto out = model->forward(torch::ones({8, 4}).to(torch::Device("cuda:0")));
  // CHECK: :[[@LINE-1]]:21: warning: module 'model' may be on cuda:rank but its input 'torch::ones({8, 4}).to(torch::Device("cuda:0"))' on cuda:0 [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:10: note: 'model' is moved to 'torch::Device(torch::kCUDA, rank)' here
  // CHECK: :[[@LINE-3]]:49: note: the tensor is moved to 'torch::Device("cuda:0")' here
  auto here = torch::ones({8, 2}).to(torch::Device(torch::kCUDA, rank));
  return (out + here).sum().item<float>();
}

// The index is kept whatever the story of the type it is given with.
torch::Device chosen_device() { return torch::Device("cuda:0"); }

float index_over_a_returned_type() {
  auto type = chosen_device().type();
  auto a = torch::ones({3}).to(torch::Device(type, 1));
  auto b = torch::ones({3}).to(torch::Device("cuda:0"));
  return (a + b).sum().item<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'a' is on cuda:1 and 'b' on cuda:0: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-8]]:40: note: "cuda:0" is chosen here
  // CHECK: :[[@LINE-6]]:15: note: 'type' comes from 'chosen_device', which returns a result that may be on a CUDA device
  // CHECK: :[[@LINE-6]]:29: note: 'a' is moved to 'torch::Device(type, 1)' here
  // CHECK: :[[@LINE-6]]:29: note: 'b' is moved to 'torch::Device("cuda:0")' here
}

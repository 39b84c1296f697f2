// TorchScript modules are placed when they are loaded: torch::jit::load(path,
// device), or load(path) and module.to(device). Their inputs come as tensors
// or in a std::vector<IValue>, through forward, run_method or get_method; their
// outputs are where the module is (joined with the inputs': an input on
// another device fails). Each shape has a silent twin.
// RUN: %tidy_load --checks='-*,devplace-device-mismatch,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-device-mismatch,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

torch::Device pick() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

void loaded_to_device(const std::string &path, float *dst) {
  torch::Device device(torch::kCUDA);
  torch::jit::script::Module module = torch::jit::load(path, device);
  torch::Tensor input = torch::zeros({1, 3});
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(input);
  torch::Tensor out = module.forward(inputs).toTensor();
  // CHECK: :[[@LINE-1]]:30: warning: module 'module' is on a CUDA device but its input 'inputs' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-7]]:24: note: 'device' is set to 'torch::kCUDA' here
  // CHECK: :[[@LINE-7]]:39: note: 'module' is created on 'device' here
  std::memcpy(dst, out.data_ptr<float>(), 4);
  // CHECK: :[[@LINE-1]]:3: warning: 'out' may be on a CUDA device when its memory is passed to host code 'memcpy' here [devplace-host-sink]
  // CHECK: :[[@LINE-11]]:24: note: 'device' is set to 'torch::kCUDA' here
  // CHECK: :[[@LINE-11]]:39: note: 'module' is created on 'device' here
  // CHECK: :[[@LINE-8]]:17: note: 'out' is assigned here
}

// Silent: the module is loaded to the CPU.
void loaded_to_cpu(const std::string &path, float *dst) {
  torch::jit::script::Module module = torch::jit::load(path, torch::kCPU);
  std::vector<torch::jit::IValue> inputs{torch::zeros({1, 3})};
  torch::Tensor out = module.forward(inputs).toTensor();
  std::memcpy(dst, out.data_ptr<float>(), 4);
}

// Silent: loaded without a device, the module is on the devices it was saved
// from, which the code does not say.
void loaded_plainly(const std::string &path, float *dst) {
  auto module = torch::jit::load(path);
  auto out = module.forward({torch::zeros({1, 3})}).toTensor();
  std::memcpy(dst, out.data_ptr<float>(), 4);
}

// Silent: for the same reason, a CUDA input meets no host module.
void loaded_plainly_cuda_input(const std::string &path) {
  auto module = torch::jit::load(path);
  auto out = module.forward({torch::zeros({1, 3}).cuda()}).toTensor();
}

void moved_after_load(const std::string &path, torch::Tensor input, float *dst) {
  auto module = torch::jit::load(path);
  module.to(torch::kCUDA);
  auto out = module.forward({input}).toTensor();
  std::memcpy(dst, out.data_ptr<float>(), 4);
  // CHECK: :[[@LINE-1]]:3: warning: 'out' may be on a CUDA device when its memory is passed to host code 'memcpy' here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:10: note: 'module' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:8: note: 'out' is assigned here
}

// Silent: inputs moved to the module's device, the output back to the host.
void moved_inputs(const std::string &path, float *dst) {
  auto module = torch::jit::load(path);
  module.to(torch::kCUDA);
  auto x = torch::zeros({1, 3}).to(torch::kCUDA);
  auto out = module.forward({x}).toTensor().cpu();
  std::memcpy(dst, out.data_ptr<float>(), 4);
}

// Silent: a module whose device is not known says nothing of its output.
void unknown_module(torch::jit::Module &module, float *dst) {
  auto out = module.forward({torch::zeros({3})}).toTensor();
  std::memcpy(dst, out.data_ptr<float>(), 4);
}

void run_method_host(const std::string &path) {
  auto module = torch::jit::load(path, torch::kCUDA);
  auto x = torch::zeros({1, 3});
  auto y = module.run_method("infer", x).toTensor();
  // CHECK: :[[@LINE-1]]:19: warning: module 'module' is on a CUDA device but its input 'x' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:17: note: 'module' is created on 'torch::kCUDA' here
  float v = y.accessor<float, 2>()[0][0];
  // CHECK: :[[@LINE-1]]:15: warning: 'y' may be on a CUDA device when a host accessor to it is made here [devplace-host-sink]
  // CHECK: :[[@LINE-7]]:17: note: 'module' is created on 'torch::kCUDA' here
  // CHECK: :[[@LINE-6]]:8: note: 'y' is assigned here
}

void get_method_tuple(const std::string &path, torch::Tensor x) {
  auto module = torch::jit::load(path, torch::kCUDA);
  auto outputs = module.get_method("detect")({x}).toTuple();
  torch::Tensor boxes = outputs->elements()[0].toTensor();
  float v = boxes.accessor<float, 2>()[0][0];
  // CHECK: :[[@LINE-1]]:19: warning: 'boxes' may be on a CUDA device when a host accessor to it is made here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:17: note: 'module' is created on 'torch::kCUDA' here
  // CHECK: :[[@LINE-5]]:8: note: 'outputs' is assigned here
  // CHECK: :[[@LINE-5]]:17: note: 'boxes' is assigned here
  torch::Tensor scores = module.forward({x}).toTupleRef().elements()[1].toTensor();
  float *s = scores.data_ptr<float>();
  float first = s[0];
  // CHECK: :[[@LINE-1]]:17: warning: 'scores' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-12]]:17: note: 'module' is created on 'torch::kCUDA' here
  // CHECK: :[[@LINE-5]]:17: note: 'scores' is assigned here
  // CHECK: :[[@LINE-5]]:21: note: 's' points into the memory of 'scores'
}

// Silent: the tuple's elements moved to the host before they are read.
void get_method_tuple_fixed(const std::string &path, torch::Tensor x) {
  auto module = torch::jit::load(path, torch::kCUDA);
  auto outputs = module.get_method("detect")({x.to(torch::kCUDA)}).toTuple();
  torch::Tensor boxes = outputs->elements()[0].toTensor().cpu();
  float v = boxes.accessor<float, 2>()[0][0];
}

void shared_pointer(const std::string &path, torch::Tensor x) {
  auto module = std::make_shared<torch::jit::script::Module>(torch::jit::load(path, pick()));
  auto y = module->forward({x}).toTensor();
  float v = y.accessor<float, 1>()[0];
  // CHECK: :[[@LINE-1]]:15: warning: 'y' may be on a CUDA device when a host accessor to it is made here [devplace-host-sink]
  // CHECK: :[[@LINE-110]]:10: note: a CUDA device is chosen here when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-5]]:85: note: the tensor comes from 'pick', which returns a result that may be on a CUDA device
  // CHECK: :[[@LINE-6]]:62: note: the tensor is created on 'pick()' here
  // CHECK: :[[@LINE-7]]:8: note: 'module' is assigned here
  // CHECK: :[[@LINE-7]]:8: note: 'y' is assigned here
}

// A class that keeps its module: loaded, then moved in the constructor.
class Encoder {
public:
  explicit Encoder(const std::string &path) {
    encoder_ = torch::jit::load(path);
    encoder_.to(torch::kCUDA);
  }
  torch::Tensor encode() {
    auto x = torch::zeros({1, 3});
    return encoder_.forward({x}).toTensor();
  // CHECK: :[[@LINE-1]]:21: warning: module 'encoder_' is on a CUDA device but its input '{x}' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-6]]:14: note: 'encoder_' is moved to 'torch::kCUDA' here
  }
  float score(const torch::Tensor &frame) {
    auto out = encoder_.forward({frame}).toTensor();
    return out.accessor<float, 1>()[0];
  // CHECK: :[[@LINE-1]]:16: warning: 'out' may be on a CUDA device when a host accessor to it is made here [devplace-host-sink]
  // CHECK: :[[@LINE-12]]:14: note: 'encoder_' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:10: note: 'out' is assigned here
  }
  // Silent: the input follows the module, the output comes back.
  float score_fixed(const torch::Tensor &frame) {
    auto out = encoder_.forward({frame.to(torch::kCUDA)}).toTensor().cpu();
    return out.accessor<float, 1>()[0];
  }
private:
  torch::jit::Module encoder_;
};

// Silent: a class whose module is loaded without a device (where it was
// saved).
class CpuEncoder {
public:
  explicit CpuEncoder(const std::string &path) : encoder_(torch::jit::load(path)) {}
  float score() {
    auto out = encoder_.forward({torch::zeros({3})}).toTensor();
    return out.accessor<float, 1>()[0];
  }
private:
  torch::jit::Module encoder_;
};

// A constructor that calls a method of its own before the move sees the
// module where it is then (loaded, its device not known), so its members are
// not only what they are at its exit: in warm_up the module is either, and
// on the path where warm_up runs after the constructor (it is public) it is
// on CUDA and meets a host input.
class WarmedUp {
public:
  explicit WarmedUp(const std::string &path) {
    module_ = torch::jit::load(path);
    warm_up();
    module_.to(torch::kCUDA);
  }
  void warm_up() { module_.forward({torch::zeros({3})}); }
  // CHECK: :[[@LINE-1]]:28: warning: module 'module_' may be on a CUDA device but its input '{torch::zeros({3})}' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:13: note: 'module_' is moved to 'torch::kCUDA' here
private:
  torch::jit::Module module_;
};

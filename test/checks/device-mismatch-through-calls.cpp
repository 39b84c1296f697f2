// devplace-device-mismatch: an argument that meets, inside the callee, a
// value on another device. A TorchScript module loaded onto CUDA in a
// constructor, kept in a member, and given the method's parameter; the
// method called on the object, through a pointer to a base class whose
// virtual Run the derived class implements, and through a helper that
// passes its parameter on. Each with a silent twin.
// RUN: %tidy_load --checks='-*,devplace-device-mismatch' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-device-mismatch' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <memory>
#include <string>
#include <vector>

class Engine {
public:
  virtual ~Engine() = default;
  virtual torch::Tensor Run(const torch::Tensor &features) = 0;
};

class TorchEngine : public Engine {
public:
  explicit TorchEngine(const std::string &path)
      : module_(torch::jit::load(path, torch::kCUDA)) {}
  torch::Tensor Run(const torch::Tensor &features) override {
    std::vector<torch::jit::IValue> inputs{features};
    return module_.forward(inputs).toTensor();
  }

private:
  torch::jit::script::Module module_;
};

// The same engine, moving its input to the module's device first.
class MovingEngine : public Engine {
public:
  explicit MovingEngine(const std::string &path)
      : module_(torch::jit::load(path, torch::kCUDA)) {}
  torch::Tensor Run(const torch::Tensor &features) override {
    return module_.forward({features.to(torch::kCUDA)}).toTensor();
  }

private:
  torch::jit::script::Module module_;
};

torch::Tensor cpu_features() { return torch::randn({1, 80}); }

torch::Tensor on_the_object(TorchEngine &engine) {
  auto features = cpu_features();
  return engine.Run(features);
  // CHECK: :[[@LINE-1]]:17: warning: 'features' is on the host but 'Run' gives it to module 'module_', which is on a CUDA device [devplace-device-mismatch]
  // CHECK: :23:17: note: 'module_' is created on 'torch::kCUDA' here
  // CHECK: :26:20: note: 'Run' gives its parameter 'features' to module 'module_' here
}

torch::Tensor through_the_base(Engine *engine) {
  auto features = torch::randn({1, 80});
  return engine->Run(features);
  // CHECK: :[[@LINE-1]]:18: warning: 'features' is on the host but 'TorchEngine::Run' gives it to module 'module_', which may be on a CUDA device [devplace-device-mismatch]
  // CHECK: :23:17: note: 'module_' is created on 'torch::kCUDA' here
  // CHECK: :26:20: note: 'TorchEngine::Run' gives its parameter 'features' to module 'module_' here
}

torch::Tensor passed_on(Engine &engine, const torch::Tensor &x) {
  return engine.Run(x);
}

torch::Tensor through_a_helper(std::unique_ptr<Engine> &engine) {
  return passed_on(*engine, torch::zeros({1, 80}));
  // CHECK: :[[@LINE-1]]:10: warning: 'torch::zeros({1, 80})' is on the host but 'passed_on' gives it to module 'module_', which may be on a CUDA device [devplace-device-mismatch]
  // CHECK: :23:17: note: 'module_' is created on 'torch::kCUDA' here
  // CHECK: :[[@LINE-7]]:17: note: 'passed_on' passes its parameter 'x' to 'TorchEngine::Run' here
  // CHECK: :26:20: note: 'TorchEngine::Run' gives its parameter 'features' to module 'module_' here
}

// Silent: the features on the device; a parameter the caller decides.
torch::Tensor features_on_the_device(Engine *engine) {
  return engine->Run(torch::randn({1, 80}).cuda());
}

torch::Tensor features_of_the_caller(Engine *engine, torch::Tensor features) {
  return engine->Run(features);
}

// Silent: an engine that moves its input, called on the object.
torch::Tensor moving_engine(MovingEngine &engine) {
  return engine.Run(torch::randn({1, 80}));
}

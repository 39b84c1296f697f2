// devplace-unregistered-submodule on members that move, or need not move,
// without a register_* call of their own: a holder registered through the
// constructor argument it was assigned from, a member the class moves in
// its own to() override, a member module whose class holds no parameters,
// buffers or training mode, and tensor members whose every use moves them
// to another tensor's device or reads them as a host number. Each has a
// twin that is reported.
// RUN: %tidy_plugin %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-unregistered-submodule' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

// Registered through the constructor's argument: the holder shares its
// module with the member.
struct StackedImpl : torch::nn::Module {
  StackedImpl(torch::nn::Linear rnn_layer, torch::nn::Linear model,
              torch::nn::Linear other) {
    rnn = rnn_layer;
    register_module("rnn_layer", rnn_layer);
    register_module("model", model);
    this->model = model;
    head = other;
    register_module("rnn_layer2", rnn_layer);
  }
  torch::Tensor forward(torch::Tensor x) { return head(model(rnn(x))); }
  torch::nn::Linear rnn{nullptr}, model{nullptr}, head{nullptr};
  // CHECK: :[[@LINE-1]]:51: warning: submodule 'head' of 'StackedImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-6]]:12: note: 'head' is given its value here
};

// Moved by the class's own to().
struct WrapperImpl : torch::nn::Module {
  WrapperImpl(const std::string &path)
      : backbone(torch::jit::load(path)), neck(torch::jit::load(path)) {
    head = register_module("head", torch::nn::Linear(8, 2));
  }
  void to(torch::Device d, bool non_blocking = false) {
    torch::nn::Module::to(d, non_blocking);
    backbone.to(d, non_blocking);
  }
  torch::Tensor forward(torch::Tensor x) {
    return head(neck.forward({backbone.forward({x})}).toTensor());
  }
  torch::jit::script::Module backbone;
  torch::jit::script::Module neck;
  // CHECK: :[[@LINE-1]]:30: warning: submodule 'neck' of 'WrapperImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-13]]:48: note: 'neck' is given its value here
  torch::nn::Linear head{nullptr};
};

// A module class of this code with nothing to move or to switch to eval().
struct ScaleImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return torch::relu(x) * 2; }
};
class Scale : public torch::nn::ModuleHolder<ScaleImpl> {
public:
  using torch::nn::ModuleHolder<ScaleImpl>::ModuleHolder;
};
// Twins: one holds a parameter, one asks for its training mode.
struct GainImpl : torch::nn::Module {
  GainImpl() { gain = register_parameter("gain", torch::ones({1})); }
  torch::Tensor forward(torch::Tensor x) { return x * gain; }
  torch::Tensor gain;
};
class Gain : public torch::nn::ModuleHolder<GainImpl> {
public:
  using torch::nn::ModuleHolder<GainImpl>::ModuleHolder;
};
struct NoiseImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return is_training() ? x + torch::randn({1}) : x;
  }
};
class Noise : public torch::nn::ModuleHolder<NoiseImpl> {
public:
  using torch::nn::ModuleHolder<NoiseImpl>::ModuleHolder;
};

// Tensor members used wherever the module is.
struct FilterImpl : torch::nn::Module {
  FilterImpl() {
    fc = register_module("fc", torch::nn::Linear(8, 8));
    scale = Scale();
    gain = Gain();
    noise = Noise();
    window = torch::hann_window(8);
    factor = torch::ones({1});
    bias = torch::zeros({8});
  }
  torch::Tensor forward(torch::Tensor x) {
    auto y = noise(gain(scale(fc(x)))) * window.to(x.device());
    return y * factor.item<float>() + bias;
  }
  torch::nn::Linear fc{nullptr};
  Gain gain{nullptr};
  Scale scale{nullptr};
  Noise noise{nullptr};
  torch::Tensor window, factor, bias;
};
// CHECK: :[[@LINE-5]]:8: warning: submodule 'gain' of 'FilterImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-17]]:12: note: 'gain' is given its value here
// CHECK: :[[@LINE-5]]:9: warning: submodule 'noise' of 'FilterImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-18]]:13: note: 'noise' is given its value here
// CHECK: :[[@LINE-6]]:33: warning: tensor member 'bias' of 'FilterImpl' is never registered: it will not move with ->to(device), will not be trained as a parameter and will not be saved; register it with register_parameter or register_buffer [devplace-unregistered-submodule]
// CHECK: :[[@LINE-17]]:12: note: 'bias' is given its value here

// A member module whose class holds nothing (no member, no registration in
// the constructors seen) while its forward is in another file: nothing of
// it can be left behind on a device.
struct ClampImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};

struct HeadImpl : torch::nn::Module {
  HeadImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return clamp->forward(fc(x)); }
  torch::nn::Linear fc{nullptr};
  std::shared_ptr<ClampImpl> clamp = std::make_shared<ClampImpl>();
};

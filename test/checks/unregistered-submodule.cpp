// devplace-unregistered-submodule: module members, parameters and buffers
// that are never registered; registered twins stay silent.
// RUN: %check_fixes devplace-unregistered-submodule
// RUN: not %devplace --checks='-*,devplace-unregistered-submodule' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

struct SqueezeExciteImpl : torch::nn::Module {
  SqueezeExciteImpl(); // registers its layers, in another file
  torch::Tensor forward(torch::Tensor x);
};

struct BlockImpl : torch::nn::Module {
  BlockImpl()
      : conv(register_module("conv", torch::nn::Linear(8, 8))),
        se(torch::nn::Linear(8, 8)) {
    // FIXES: {{^ *}}se(register_module("se", torch::nn::Linear(8, 8))) {{{$}}
    gate = std::make_shared<SqueezeExciteImpl>();
    // FIXES: {{^ *}}gate = register_module("gate", std::make_shared<SqueezeExciteImpl>());{{$}}
    head = torch::nn::Linear(8, 2);
    register_module("head", head);
    scale = torch::ones({8});
    weight = register_parameter("weight", torch::randn({8}));
    running_mean = torch::zeros({8});
    register_buffer("running_mean", running_mean);
  }
  torch::Tensor forward(torch::Tensor x) {
    last_input = x;
    return conv(x) * scale + weight;
  }
  torch::nn::Linear conv{nullptr}, se{nullptr}, head{nullptr}, unused{nullptr};
  // CHECK: :[[@LINE-1]]:36: warning: submodule 'se' of 'BlockImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
  // CHECK: :[[@LINE-17]]:12: note: 'se' is given its value here
  std::shared_ptr<SqueezeExciteImpl> gate;
  // CHECK: :[[@LINE-1]]:38: warning: submodule 'gate' of 'BlockImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
  // CHECK: :[[@LINE-18]]:12: note: 'gate' is given its value here
  torch::Tensor scale, weight, running_mean, last_input;
  // CHECK: :[[@LINE-1]]:17: warning: tensor member 'scale' of 'BlockImpl' is never registered: it will not move with ->to(device), will not be trained as a parameter and will not be saved; register it with register_parameter or register_buffer [devplace-unregistered-submodule]
  // CHECK: :[[@LINE-17]]:13: note: 'scale' is given its value here
};

struct NotAModule {
  NotAModule() : fc(torch::nn::Linear(2, 2)) { t = torch::ones({2}); }
  torch::nn::Linear fc;
  torch::Tensor t;
};

// Which harm applies: none for modules without parameters or buffers
// (activations, Flatten: silent); training mode for dropout; all of them for
// batch norm. A container whose children are registered on this module one by
// one is registered in effect; one whose children are not is reported.
struct HeadImpl : torch::nn::Module {
  HeadImpl() {
    act = torch::nn::ReLU();
    flat = torch::nn::Flatten();
    drop = torch::nn::Dropout(0.2);
    // FIXES: {{^ *}}drop = register_module("drop", torch::nn::Dropout(0.2));{{$}}
    norm = torch::nn::BatchNorm2d(8);
    // FIXES: {{^ *}}norm = register_module("norm", torch::nn::BatchNorm2d(8));{{$}}
    layers = torch::nn::Sequential();
    layers->push_back(register_module("fc1", torch::nn::Linear(8, 8)));
    layers->push_back(register_module("fc2", torch::nn::Linear(8, 2)));
    other = torch::nn::Sequential();
    // FIXES: {{^ *}}other = register_module("other", torch::nn::Sequential());{{$}}
    other->push_back(torch::nn::Linear(8, 8));
  }
  torch::nn::ReLU act{nullptr};
  torch::nn::Flatten flat{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::nn::BatchNorm2d norm{nullptr};
  torch::nn::Sequential layers{nullptr}, other{nullptr};
};
// (The CHECK lines come after the class: the CLI prints the lines from each
// fix-it to its warning, and they must not hold "warning:" text.)
// CHECK: :[[@LINE-6]]:22: warning: submodule 'drop' of 'HeadImpl' is never registered: it stays in training mode when 'HeadImpl' is put in eval() mode; register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-20]]:12: note: 'drop' is given its value here
// CHECK: :[[@LINE-7]]:26: warning: submodule 'norm' of 'HeadImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved, and it stays in training mode under eval(); register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-20]]:12: note: 'norm' is given its value here
// CHECK: :[[@LINE-8]]:42: warning: submodule 'other' of 'HeadImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-17]]:13: note: 'other' is given its value here

// A constructor defined outside its class: its initialisers count too.
struct OutOfLineImpl : torch::nn::Module {
  OutOfLineImpl();
  torch::nn::Linear body;
  torch::nn::Linear head{nullptr};
};
OutOfLineImpl::OutOfLineImpl() : body(torch::nn::Linear(2, 2)) {
  // FIXES: {{^}}OutOfLineImpl::OutOfLineImpl() : body(register_module("body", torch::nn::Linear(2, 2))) {{{$}}
  head = register_module("head", torch::nn::Linear(2, 2));
}

// CHECK: :[[@LINE-8]]:21: warning: submodule 'body' of 'OutOfLineImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
// CHECK: :[[@LINE-6]]:39: note: 'body' is given its value here

// A tensor member the constructor sets and forward() replaces with a value
// not computed from it is a cache of the last output: not reported. One
// that forward() updates from itself (a running mean) is module state that
// must move with the module: reported.
struct PolicyImpl : torch::nn::Module {
  PolicyImpl() : mu(torch::zeros({4})), running(torch::zeros({4})) {
    fc = register_module("fc", torch::nn::Linear(4, 4));
  }
  torch::Tensor forward(torch::Tensor x) {
    mu = fc->forward(x).relu();
    running = running * 0.9 + mu * 0.1;
    return mu;
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor mu, running;
};
// CHECK: :[[@LINE-2]]:21: warning: tensor member 'running' of 'PolicyImpl' is never registered: it will not move with ->to(device), will not be trained as a parameter and will not be saved; register it with register_parameter or register_buffer [devplace-unregistered-submodule]
// CHECK: :[[@LINE-12]]:49: note: 'running' is given its value here

// Silent twin: a method defined in another file may register the member
// (or replace it as a cache), so nothing is said of the class.
struct SplitImpl : torch::nn::Module {
  SplitImpl() : running(torch::zeros({4})) {}
  torch::Tensor forward(torch::Tensor x);
  torch::Tensor running;
};

// Silent: registered through a cast to the module base, which shares the
// same module.
struct EncoderImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
struct CastRegisteredImpl : torch::nn::Module {
  explicit CastRegisteredImpl(std::shared_ptr<EncoderImpl> e) {
    encoder_ = e;
    register_module("encoder",
                    std::dynamic_pointer_cast<torch::nn::Module>(encoder_));
  }
  std::shared_ptr<EncoderImpl> encoder_;
};

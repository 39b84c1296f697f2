// devplace-device-mismatch: tensors on different devices in one operation,
// and modules fed inputs on another device; each with a silent twin.
// RUN: %tidy_load --checks='-*,devplace-device-mismatch' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-device-mismatch' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <string>
#include <tuple>
#include <vector>

struct Net : torch::nn::Module {
  Net(); // registers its layer, in another file
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};

torch::Tensor binary_operators() {
  auto a = torch::ones({3}).cuda();
  auto b = torch::ones({3});
  auto c = a + b;
  // CHECK: :[[@LINE-1]]:14: warning: 'a' is on a CUDA device and 'b' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:29: note: 'a' is moved to a CUDA device here
  a += b;
  // CHECK: :[[@LINE-1]]:5: warning: 'a' is on a CUDA device and 'b' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-7]]:29: note: 'a' is moved to a CUDA device here
  auto same = a * a.clone();
  return c;
}

torch::Tensor methods_and_functions(torch::Tensor idx) {
  auto w = torch::randn({3, 3}).to(torch::kCUDA);
  auto x = torch::randn({3, 3});
  auto y = w.matmul(x);
  // CHECK: :[[@LINE-1]]:14: warning: 'w' is on a CUDA device and 'x' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:33: note: 'w' is moved to 'torch::kCUDA' here
  auto z = torch::matmul(x, w);
  // CHECK: :[[@LINE-1]]:12: warning: 'w' is on a CUDA device and 'x' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-7]]:33: note: 'w' is moved to 'torch::kCUDA' here
  auto s = torch::cat({w, x});
  // CHECK: :[[@LINE-1]]:12: warning: 'w' is on a CUDA device and 'x' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-10]]:33: note: 'w' is moved to 'torch::kCUDA' here
  auto ok = torch::cat({w, x.to(w.device())});
  return y + z + s + ok;
}

torch::Tensor scalars_and_copies() {
  auto w = torch::randn({3}).cuda();
  auto scale = torch::tensor(2.0);
  auto total = torch::ones({3}).sum();
  auto host = torch::zeros({3});
  host.copy_(w);
  auto moved = torch::ones({3}).to(w.device()) + w;
  auto opts = torch::zeros({3}, w.options()) - w;
  return w * scale + w * total + moved + opts;
}

float model_on_device_fed_cpu_batch() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto model = std::make_shared<Net>();
  model->to(device);
  auto batch = torch::randn({8, 4});
  auto out = model->forward(batch);
  // CHECK: :[[@LINE-1]]:21: warning: module 'model' may be on a CUDA device but its input 'batch' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-6]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-5]]:10: note: 'model' is moved to 'device' here
  auto out2 = model->forward(batch.to(device));
  return out.sum().item<float>() + out2.sum().item<float>();
}

float prediction_vs_cpu_target(torch::nn::Linear &head) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto x = torch::randn({8, 4}).to(device);
  auto y = torch::randint(2, {8});
  auto pred = torch::sigmoid(x.sum(1));
  auto correct = (pred >= 0.5) == y;
  // CHECK: :[[@LINE-1]]:32: warning: '(pred >= 0.5)' may be on a CUDA device and 'y' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-6]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-6]]:33: note: 'x' is moved to 'device' here
  // CHECK: :[[@LINE-5]]:8: note: 'pred' is assigned here
  auto correct_ok = (pred >= 0.5) == y.to(device);
  auto loss = torch::nn::functional::binary_cross_entropy(pred, y);
  // CHECK: :[[@LINE-1]]:15: warning: 'pred' may be on a CUDA device and 'y' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-12]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-12]]:33: note: 'x' is moved to 'device' here
  // CHECK: :[[@LINE-11]]:8: note: 'pred' is assigned here
  return correct.sum().item<float>() + correct_ok.sum().item<float>() + loss.item<float>();
}

float module_never_moved(bool gpu) {
  torch::nn::Linear fc(4, 1);
  auto x = torch::randn({2, 4});
  if (gpu)
    x = x.cuda();
  return fc(x).sum().item<float>();
  // CHECK: :[[@LINE-1]]:10: warning: input 'x' may be on a CUDA device but module 'fc' is on the host; move the module with ->to() [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:11: note: 'x' is moved to a CUDA device here, when 'gpu' is true
}

float parameterless_modules_take_any_device() {
  torch::nn::ReLU relu;
  auto x = torch::randn({2, 4}).cuda();
  return relu(x).sum().item<float>();
}

float same_condition_same_device(bool use_gpu) {
  torch::Device device(use_gpu ? torch::kCUDA : torch::kCPU);
  auto a = torch::ones({2}).to(device);
  auto b = torch::zeros({2}).to(device);
  return (a + b).sum().item<float>();
}

// Outputs assigned through a tuple of references (an LSTM's forward): their
// device is whatever the callee returned, unknown here, not the host of the
// default-constructed tensor.
std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>>
lstm_step(const torch::Tensor &x, std::tuple<torch::Tensor, torch::Tensor> hc);

float outputs_through_forward_as_tuple() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto data = torch::ones({2}).to(device);
  auto target = torch::ones({2}).to(device);
  auto h = torch::zeros({2}).to(device), c = torch::zeros({2}).to(device);
  torch::Tensor output;
  std::forward_as_tuple(output, std::tie(h, c)) = lstm_step(data, std::make_tuple(h, c));
  return (output - target).sum().item<float>();
}

// Members of plain structs keep each object's device: a struct returned by a
// module's forward (an auxiliary output) follows the input, and the model and
// data on one device stay silent; a struct built from tensors on two devices
// mixes them.
struct Outputs {
  torch::Tensor main;
  torch::Tensor aux;
};

struct TwoHeadsImpl : torch::nn::Module {
  TwoHeadsImpl()
      : fc(register_module("fc", torch::nn::Linear(4, 2))),
        head(register_module("head", torch::nn::Linear(4, 2))) {}
  Outputs forward(torch::Tensor x, bool training) {
    Outputs out;
    out.main = fc(x);
    if (training)
      out.aux = head(x);
    return out;
  }
  torch::nn::Linear fc, head;
};

float struct_outputs_follow_the_input(bool use_gpu) {
  torch::Device device(use_gpu ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<TwoHeadsImpl>();
  model->to(device);
  auto x = torch::randn({8, 4}).to(device);
  auto label = torch::ones({8, 2}).to(device);
  Outputs o = model->forward(x, true);
  auto loss = torch::nn::functional::binary_cross_entropy(o.main, label) +
              torch::nn::functional::binary_cross_entropy(o.aux, label);
  return loss.item<float>();
}

float struct_members_on_two_devices() {
  Outputs o{torch::ones({2}).cuda(), torch::ones({2})};
  auto same = o.main + torch::ones({2}).cuda();
  auto mixed = o.main + o.aux;
  // CHECK: :[[@LINE-1]]:23: warning: 'o.main' is on a CUDA device and 'o.aux' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:30: note: the tensor is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:11: note: 'o.main' is assigned here
  return (same + mixed).sum().item<float>();
}

// A module's registered parameter moves with it; a tensor member it never
// registers stays on the host. A member set from forward's input is where
// the caller's input was: unknown, so nothing is said of it.
struct Normaliser : torch::nn::Module {
  Normaliser() {
    scale = register_parameter("scale", torch::ones({2}));
    offset = torch::zeros({2});
    last = torch::zeros({2});
  }
  torch::Tensor forward(const torch::Tensor &x) {
    last = x;
    return x * scale;
  }
  // Inside its methods a parameter is wherever the module was moved: not
  // known. The unregistered member is on the host.
  torch::Tensor on_the_gpu() {
    auto g = torch::ones({2}).cuda();
    return g * scale + g * offset;
    // CHECK: :[[@LINE-1]]:26: warning: 'g' is on a CUDA device and 'offset' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
    // CHECK: :[[@LINE-3]]:31: note: 'g' is moved to a CUDA device here
  }
  torch::Tensor scale, offset, last;
};
torch::Tensor unregistered_member_stays_behind(const torch::Tensor &x) {
  auto net = std::make_shared<Normaliser>();
  net->to(torch::kCUDA);
  auto y = net->forward(x.cuda());
  auto z = net->last + y;
  return net->scale + net->offset;
  // CHECK: :[[@LINE-1]]:21: warning: 'net->scale' is on a CUDA device and 'net->offset' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-5]]:8: note: 'net' is moved to 'torch::kCUDA' here
}

// A member declared in a base module and registered by the derived one
// moves with the module: no mismatch with another parameter.
struct BaseBlock : torch::nn::Module {
  torch::Tensor weight;
};
struct DerivedBlock : BaseBlock {
  DerivedBlock() {
    weight = register_parameter("weight", torch::ones({2}));
    bias = register_parameter("bias", torch::zeros({2}));
  }
  torch::Tensor bias;
};
torch::Tensor registered_in_the_derived_class() {
  auto net = std::make_shared<DerivedBlock>();
  net->to(torch::kCUDA);
  return net->weight + net->bias;
}

// A constructor that hands its object to a method of its own: the members
// it leaves are not known from the constructor alone.
struct Placed {
  explicit Placed(torch::Device d) { place(d); }
  void place(torch::Device d) { value = value.to(d); }
  torch::Tensor value = torch::zeros({2});
};
torch::Tensor placed_by_a_method() {
  Placed p(torch::kCUDA);
  return p.value + torch::ones({2}).cuda();
}

// A lambda reads a value its enclosing function chose under a flag: the
// lambda's own conditions say nothing of that flag.
torch::Tensor captured_under_a_flag(bool use_gpu) {
  auto x = torch::ones({3});
  if (use_gpu)
    x = x.cuda();
  auto twice = [&] { return x * 2; };
  auto y = twice();
  if (use_gpu)
    return y + torch::ones({3}, torch::kCUDA);
  return y;
}

// torch::load fills a module with the parameters as they were saved, on the
// device they were saved from: after it, the module's device is not known.
struct Tiny : torch::nn::Module {
  Tiny() { fc = register_module("fc", torch::nn::Linear(3, 3)); }
  torch::Tensor forward(const torch::Tensor &x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
torch::Tensor loaded_module(bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto x = torch::ones({2, 3}).to(device);
  auto fresh = std::make_shared<Tiny>();
  torch::save(fresh, "tiny.pt");
  auto loaded = std::make_shared<Tiny>();
  torch::load(loaded, "tiny.pt");
  auto a = loaded->forward(x);
  return fresh->forward(x) + a;
  // CHECK: :[[@LINE-1]]:17: warning: input 'x' may be on a CUDA device but module 'fresh' is on the host; move the module with ->to() [devplace-device-mismatch]
  // CHECK: :[[@LINE-9]]:26: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE-9]]:32: note: 'x' is moved to 'device' here
}

// Unknown is one path among others, not a verdict on all of them: a module
// moved to CUDA and, on one path, refilled by torch::load (whose device is
// not known) is still on CUDA on the path without the checkpoint, where it
// meets a host input.
torch::Tensor resumed_module(const std::string &ckpt) {
  auto model = std::make_shared<Tiny>();
  model->to(torch::kCUDA);
  if (!ckpt.empty())
    torch::load(model, ckpt);
  auto x = torch::ones({2, 3});
  return model->forward(x);
  // CHECK: :[[@LINE-1]]:17: warning: module 'model' may be on a CUDA device but its input 'x' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-6]]:10: note: 'model' is moved to 'torch::kCUDA' here
}

// Silent twin: the host side must be known on every path. Here the input
// is refilled from a file on one path, so the host is not proven for it.
torch::Tensor resumed_input(const std::string &ckpt) {
  auto model = std::make_shared<Tiny>();
  model->to(torch::kCUDA);
  auto x = torch::ones({2, 3});
  if (!ckpt.empty())
    torch::load(x, ckpt);
  return model->forward(x);
}

// Silent twin: each side unknown on the path where the other is known, so
// no path is proven to mismatch.
torch::Tensor resumed_either(const std::string &ckpt) {
  auto model = std::make_shared<Tiny>();
  model->to(torch::kCUDA);
  auto x = torch::ones({2, 3});
  if (!ckpt.empty())
    torch::load(model, ckpt);
  else
    torch::load(x, "x.pt");
  return model->forward(x);
}

// The same input refilled under a flag: the flag is a condition of its own,
// and where it is false the input is surely on the host.
torch::Tensor resumed_under_flag(bool resume) {
  auto model = std::make_shared<Tiny>();
  model->to(torch::kCUDA);
  auto x = torch::ones({2, 3});
  if (resume)
    torch::load(x, "x.pt");
  return model->forward(x);
  // CHECK: :[[@LINE-1]]:17: warning: module 'model' may be on a CUDA device but its input 'x' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-6]]:10: note: 'model' is moved to 'torch::kCUDA' here
}

// A device on one path and the host on another is as much "may be" as a
// device and an unknown: the unknown path might be the host, and knowing
// less must not report more.
torch::Tensor moved_on_one_path(int64_t n) {
  auto w = torch::ones({3});
  if (n > 2)
    w = w.cuda();
  return w + torch::ones({3});
  // CHECK: :[[@LINE-1]]:12: warning: 'w' may be on a CUDA device and 'torch::ones({3})' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:11: note: 'w' is moved to a CUDA device here
}

// A module that holds nothing (no member, no registration, constructors
// seen; its forward is in another file) has no device of its own: it runs
// on inputs of any device, moved or not.
struct Activation : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};

torch::Tensor stateless_module_fed_any_device(bool gpu) {
  auto act = std::make_shared<Activation>();
  auto x = torch::ones({3}).to(gpu ? torch::kCUDA : torch::kCPU);
  auto y = act->forward(x);
  act->to(torch::kCUDA);
  return act->forward(torch::ones({3})) + y.cpu();
}

// Silent: a module without members whose constructor another file defines
// may register parameters by name or hold none (an activation): whether it
// needs its input on its device is not known. With a compilation database,
// the other file's registrations say (tool/project-summaries-registrations.test).
struct Wrapped : torch::nn::Module {
  Wrapped();
  torch::Tensor forward(torch::Tensor x);
};
torch::Tensor unseen_registrations() {
  auto m = std::make_shared<Wrapped>();
  m->to(torch::kCUDA);
  return m->forward(torch::zeros({3}));
}

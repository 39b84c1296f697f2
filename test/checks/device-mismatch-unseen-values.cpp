// devplace-device-mismatch on values the model cannot see into: a struct
// returned by a function with no body here (its members, its structured
// bindings), the members of an object whose class has no bodies here, and
// a member container filled in one method and read in another, each passed
// through a tensor function before it meets a CUDA tensor. They are
// unknown, never on the host: silent. Their twins, whose values the model
// sees on the host, are reported.
// RUN: %tidy_plugin %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-device-mismatch' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

struct Output {
  torch::Tensor logits;
  torch::Tensor boxes;
};

// A module's forward defined in another file.
struct DetectorImpl : torch::nn::Module {
  Output forward(torch::Tensor x);
};
class Detector : public torch::nn::ModuleHolder<DetectorImpl> {
public:
  using torch::nn::ModuleHolder<DetectorImpl>::ModuleHolder;
};

Output run_elsewhere(torch::Tensor x);

void train_step(Detector &model, torch::Tensor images, torch::Tensor target) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  target = target.to(device);
  Output out = model->forward(images);
  auto loss = torch::nll_loss(torch::log_softmax(out.logits, 1), target);
  auto boxes = torch::relu(out.boxes) + target;
  Output again = run_elsewhere(images);
  auto loss2 = torch::log_softmax(again.logits, 1) + target;
  auto [logits, unused] = run_elsewhere(images);
  auto loss3 = torch::relu(logits) + target;
  torch::Tensor named = again.boxes;
  auto loss4 = torch::relu(named) + target;
}

// An object whose class has no bodies here.
struct Tracker {
  void update(const torch::Tensor &detections);
  torch::Tensor state;
};

void track(Tracker &tracker, const Output &out, torch::Tensor x) {
  auto y = x.to(torch::kCUDA);
  tracker.update(y);
  auto a = torch::relu(tracker.state) + y;
  auto b = torch::log_softmax(out.logits, 1) + y;
  auto c = torch::cat({tracker.state, torch::ones({2})}) + y;
}

// A member container filled in one method and read in another.
class Batcher {
public:
  torch::Device device() const { return device_; }
  void Push(size_t i, torch::Tensor x) { inputs_[i] = x.to(device()); }
  torch::Tensor Forward(torch::nn::Linear &head) {
    return head(torch::cat(inputs_)) + torch::ones({1}).to(device());
  }

private:
  torch::Device device_{torch::cuda::is_available() ? torch::kCUDA : torch::kCPU};
  std::vector<torch::Tensor> inputs_;
};

// Twins: the values are on the host where the model sees them.
Output host_output(torch::Tensor x) { return {torch::zeros({2}), torch::zeros({2})}; }

void twins(torch::Tensor images, torch::Tensor target) {
  target = target.to(torch::kCUDA);
  Output out = host_output(images);
  auto loss = torch::nll_loss(torch::log_softmax(out.logits, 1), target);
  // CHECK: :[[@LINE-1]]:15: warning: 'target' is on a CUDA device and 'torch::log_softmax(out.logits, 1)' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:19: note: 'target' is moved to 'torch::kCUDA' here
  Output moved = run_elsewhere(images);
  auto loss2 = torch::relu(moved.logits.cpu()) + target;
  // CHECK: :[[@LINE-1]]:48: warning: 'target' is on a CUDA device and 'torch::relu(moved.logits.cpu())' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-8]]:19: note: 'target' is moved to 'torch::kCUDA' here
}

// A module moved to a device the analysis does not know: its registered
// members went there too, so they are unknown, not where the constructor
// made them. Its twin is moved to a device the code chose.
struct Scaled : torch::nn::Module {
  Scaled() { w = register_parameter("w", torch::ones({4})); }
  torch::Tensor w;
};
torch::Device configured_device();

torch::Tensor moved_to_an_unseen_device() {
  auto net = std::make_shared<Scaled>();
  net->to(configured_device());
  return net->w * torch::ones({4});
}

torch::Tensor moved_to_cuda() {
  auto net = std::make_shared<Scaled>();
  net->to(torch::kCUDA);
  return net->w * torch::ones({4});
  // CHECK: :[[@LINE-1]]:17: warning: 'net->w' is on a CUDA device and 'torch::ones({4})' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:8: note: 'net' is moved to 'torch::kCUDA' here
}

// A lambda without conditions of its own returns its capture's device in
// the valuations of the function that made it: the module and the tensor
// follow one availability, so they never differ. Its twin moves the module
// to CUDA whatever is available.
torch::Tensor lambda_follows_the_same_choice() {
  torch::Device dev = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto move = [&](torch::Tensor x) { return x.to(dev); };
  auto t = move(torch::ones({4}));
  auto net = std::make_shared<Scaled>();
  net->to(dev);
  return net->w * t;
}

torch::Tensor lambda_against_cuda() {
  torch::Device dev = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto move = [&](torch::Tensor x) { return x.to(dev); };
  auto t = move(torch::ones({4}));
  auto net = std::make_shared<Scaled>();
  net->to(torch::kCUDA);
  return net->w * t;
  // CHECK: :[[@LINE-1]]:17: warning: 'net->w' may be on a CUDA device and 't' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:8: note: 'net' is moved to 'torch::kCUDA' here
}

// A list of tensors in a type the table does not know: the result is
// unknown, not a factory's host tensor. Its twin is a factory's.
torch::Tensor bundled(const torch::Tensor &x, const torch::Tensor &w) {
  auto y = at::concat_bundle({x.cuda(), x.cuda()});
  return y + w.cuda();
}

torch::Tensor factory_made(const torch::Tensor &w) {
  auto y = torch::ones({2});
  return y + w.cuda();
  // CHECK: :[[@LINE-1]]:12: warning: 'w.cuda()' is on a CUDA device and 'y' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-2]]:16: note: 'w' is moved to a CUDA device here
}

// Silent: the results of another object's method whose body is elsewhere
// may be on any device (autograd's Scatter returns each chunk on its own).
struct Spreader {
  std::vector<torch::Tensor> apply(std::vector<torch::Tensor> inputs);
  torch::Tensor one(torch::Tensor input);
};

float chunks_of_an_opaque_method(Spreader &s) {
  auto input = torch::ones({10});
  auto output = s.apply({input});
  auto first = output[0].to(torch::Device(torch::kCUDA, 1)) + output[1];
  auto second = s.one(input) + torch::ones({10}).cuda();
  return (first.sum() + second.sum()).item<float>();
}

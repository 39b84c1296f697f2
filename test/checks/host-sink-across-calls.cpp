// Provenance across calls, members, lambdas and modules (devplace-host-sink).
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <vector>

// Helpers: the sink is inside; the call that passes a device tensor is reported.
float first(const torch::Tensor &acc) { return acc.data_ptr<float>()[0]; }
float through(const torch::Tensor &t) { return first(t); }
float moves_first(const torch::Tensor &t) {
  auto host = t.to(torch::kCPU);
  return host.data_ptr<float>()[0];
}

float helpers() {
  auto d = torch::ones({2}).cuda();
  auto h = torch::ones({2});
  float a = first(d);
  // CHECK: :[[@LINE-1]]:13: warning: 'd' is on a CUDA device when it is passed to 'first', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:29: note: 'd' is moved to a CUDA device here
  // CHECK: :[[@LINE-13]]:52: note: 'acc' reaches host code here, inside the helper
  float b = through(d);
  // CHECK: :[[@LINE-1]]:13: warning: 'd' is on a CUDA device when it is passed to 'through', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:29: note: 'd' is moved to a CUDA device here
  // CHECK: :[[@LINE-16]]:48: note: 't' is passed on to 'first' here
  // CHECK: :[[@LINE-18]]:52: note: 'acc' reaches host code here, inside the helper
  float c = first(h);
  float e = moves_first(d);
  return a + b + c + e;
}

// A newcomer's trainer: the history is written in one method, read in another.
struct Trainer {
  Trainer()
      : device_(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU),
        model_(torch::nn::Linear(4, 1)) {
    model_->to(device_);
  }
  void run_epoch(int batches) {
    torch::Tensor correct = torch::zeros({}, device_);
    for (int b = 0; b < batches; ++b) {
      auto x = torch::randn({8, 4}).to(device_);
      correct += (model_(x) > 0.5).sum();
    }
    acc_history_.push_back(correct / (8.0 * batches));
  }
  std::vector<float> plot() const {
    std::vector<float> points;
    for (const auto &acc : acc_history_)
      points.push_back(acc.data_ptr<float>()[0]);
      // CHECK: :[[@LINE-1]]:28: warning: 'acc' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
      // CHECK: :[[@LINE-17]]:17: note: 'device_' is a CUDA device when 'torch::cuda::is_available()' is true
      // CHECK: :[[@LINE-13]]:29: note: 'correct' is created on 'device_' here
      // CHECK: :[[@LINE-9]]:18: note: an element is added to 'acc_history_' here
      // CHECK: :[[@LINE-6]]:22: note: 'acc' is assigned here
    return points;
  }
  torch::Device device_;
  torch::nn::Linear model_;
  std::vector<torch::Tensor> acc_history_;
};

struct FixedTrainer {
  FixedTrainer() : device_(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU) {}
  void run_epoch() {
    torch::Tensor correct = torch::zeros({}, device_);
    acc_history_.push_back(correct.item<double>());
    host_only_.push_back(torch::zeros({1}));
  }
  double plot() const {
    return acc_history_.back() + host_only_.back().data_ptr<float>()[0];
  }
  torch::Device device_;
  std::vector<double> acc_history_;
  std::vector<torch::Tensor> host_only_;
};

// A struct member filled on the device, read on the host elsewhere.
struct Stats {
  torch::Tensor correct;
  torch::Tensor seen;
};
void fill(Stats &s, const torch::Tensor &pred) {
  s.correct = (pred > 0.5).sum().cuda();
  s.seen = torch::ones({1});
}
float report(const Stats &s) {
  return s.correct.data_ptr<float>()[0] + s.seen.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:20: warning: 's.correct' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:34: note: 's.correct' is moved to a CUDA device here
}

// Lambdas: a capture on the device read inside; one that moves to the host.
float lambdas() {
  auto w = torch::ones({3}).cuda();
  auto read = [&w] { return w.data_ptr<float>()[0]; };
  // CHECK: :[[@LINE-1]]:31: warning: 'w' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:29: note: 'w' is moved to a CUDA device here
  auto safe = [w] { return w.cpu().data_ptr<float>()[0]; };
  return read() + safe();
}

// std::for_each and std::transform call a lambda on each element.
void for_each_element(const std::vector<torch::Tensor> &ins, float *dst) {
  std::vector<torch::Tensor> dev, host;
  for (const auto &t : ins) {
    dev.push_back(t.cuda());
    host.push_back(t.cpu());
  }
  auto copy = [dst](const torch::Tensor &t) { std::memcpy(dst, t.data_ptr<float>(), 4); };
  std::for_each(dev.begin(), dev.end(), copy);
  // CHECK: :[[@LINE-1]]:3: warning: 'dev' is on a CUDA device when it is passed to 'copy', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:21: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-7]]:9: note: an element is added to 'dev' here
  // CHECK: :[[@LINE-5]]:47: note: 't' reaches host code here, inside the helper
  std::for_each(host.begin(), host.end(), copy);
  std::vector<float> firsts;
  std::transform(host.begin(), host.end(), std::back_inserter(firsts),
                 [](const torch::Tensor &t) { return t.data_ptr<float>()[0]; });
}

// Module parameters: written on the host before the move, read after it.
void init_then_move(torch::nn::Linear &fc) {
  for (auto &p : fc->parameters())
    p.data_ptr<float>()[0] = 0.0f;
  fc->to(torch::kCUDA);
  for (auto &p : fc->parameters())
    p.data_ptr<float>()[0] = 1.0f;
    // CHECK: :[[@LINE-1]]:7: warning: 'p' is on a CUDA device when its memory is written on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-4]]:7: note: 'fc' is moved to 'torch::kCUDA' here
    // CHECK: :[[@LINE-4]]:14: note: 'p' is assigned here
}

// Helpers that move their argument in place, and lambdas given device tensors.
void to_device(torch::Tensor &t) { t = t.cuda(); }
void to_host(torch::Tensor &t) { t = t.cpu(); }
void keep(torch::Tensor &t) { t.fill_(1); }
float in_place_helpers() {
  auto a = torch::ones({2});
  to_device(a);
  float x = a.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:15: warning: 'a' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:42: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:3: note: 'a' is moved by 'to_device' here
  auto b = torch::ones({2}).cuda();
  to_host(b);
  float y = b.data_ptr<float>()[0];
  auto c = torch::ones({2});
  keep(c);
  float z = c.data_ptr<float>()[0];
  return x + y + z;
}

float lambda_parameters() {
  auto read = [](const torch::Tensor &t) { return t.data_ptr<float>()[0]; };
  float x = read(torch::ones({2}).cuda());
  // CHECK: :[[@LINE-1]]:13: warning: 'torch::ones({2}).cuda()' is on a CUDA device when it is passed to 'read', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-2]]:35: note: the tensor is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:53: note: 't' reaches host code here, inside the helper
  float y = read(torch::ones({2}));
  return x + y;
}

// Lambdas' results are summarised like functions': one that copies to the
// host returns a host tensor; one that keeps its argument's device, or
// moves to a captured device, returns a device tensor.
float lambda_results(const torch::Tensor &x) {
  auto dev = x.to(torch::kCUDA);
  auto to_host = [](const torch::Tensor &t) { return t.to(torch::kCPU); };
  auto twice = [](const torch::Tensor &t) { return t * 2; };
  torch::Device device(torch::kCUDA);
  auto put = [&](const torch::Tensor &t) { return t.to(device); };
  float a = to_host(dev).data_ptr<float>()[0];
  float b = twice(dev).data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:24: warning: 'twice(dev)' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:16: note: 'dev' is moved to 'torch::kCUDA' here
  float c = put(x).data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:20: warning: 'put(x)' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:24: note: 'device' is set to 'torch::kCUDA' here
  // CHECK: :[[@LINE-8]]:53: note: 't' is moved to 'device' here
  // CHECK: :[[@LINE-4]]:13: note: the tensor comes from 'put', which returns a result that may be on a CUDA device
  return a + b + c;
}

// A std::function that holds one lambda all its life is that lambda; one
// given another lambda later could be either (the call's arguments decide).
float stored_lambdas(const torch::Tensor &x, bool late) {
  std::function<torch::Tensor(const torch::Tensor &)> to_host =
      [](const torch::Tensor &t) { return t.cpu(); };
  std::function<torch::Tensor(torch::Tensor)> up = [](torch::Tensor t) {
    return t.cuda();
  };
  float a = to_host(x.cuda()).data_ptr<float>()[0];
  float b = up(x).data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:19: warning: 'up(x)' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:14: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-3]]:13: note: the tensor comes from 'up', which returns a result that may be on a CUDA device
  std::function<torch::Tensor(torch::Tensor)> either = [](torch::Tensor t) {
    return t.cpu();
  };
  if (late)
    either = [](torch::Tensor t) { return t.cuda(); };
  float c = either(x).data_ptr<float>()[0];
  return a + b + c;
}

// Silent: a std::function whose target is not known here may return
// anything, not its argument's device.
float passed_callable(const std::function<torch::Tensor(const torch::Tensor &)> &to_host,
                      const torch::Tensor &x) {
  return to_host(x.cuda()).data_ptr<float>()[0];
}

// A std::function declared empty and given one lambda later is that lambda.
float assigned_lambdas(const torch::Tensor &x) {
  std::function<torch::Tensor(torch::Tensor)> up;
  up = [](torch::Tensor t) { return t.cuda(); };
  float a = up(x).data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:19: warning: 'up(x)' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:39: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-3]]:13: note: the tensor comes from 'up', which returns a result that may be on a CUDA device
  std::function<torch::Tensor(torch::Tensor)> back;
  back = [](torch::Tensor t) { return t.cpu(); };
  return a + back(x.cuda()).data_ptr<float>()[0];
}

// std::transform writes its lambda's results into the output range: moved
// to the device, copied back, or keeping the input's device.
float transformed(const std::vector<torch::Tensor> &in) {
  std::vector<torch::Tensor> dev, host, same;
  std::transform(in.begin(), in.end(), std::back_inserter(dev),
                 [](const torch::Tensor &t) { return t.cuda(); });
  std::transform(dev.begin(), dev.end(), std::back_inserter(host),
                 [](const torch::Tensor &t) { return t.cpu(); });
  std::transform(dev.begin(), dev.end(), std::back_inserter(same),
                 [](const torch::Tensor &t) { return t * 2; });
  float a = dev[0].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:20: warning: 'dev[0]' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-7]]:56: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-9]]:3: note: the tensor comes from 'std::transform', which returns a result that may be on a CUDA device
  // CHECK: :[[@LINE-10]]:3: note: an element is added to 'dev' here
  float b = host[0].data_ptr<float>()[0];
  float c = same[0].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:21: warning: 'same[0]' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-13]]:56: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-15]]:3: note: the tensor comes from 'std::transform', which returns a result that may be on a CUDA device
  // CHECK: :[[@LINE-16]]:3: note: an element is added to 'dev' here
  // CHECK: :[[@LINE-13]]:3: note: an element is added to 'same' here
  return a + b + c;
}

// named_parameters(), and registered members reached through a moved module.
void named(torch::nn::Linear &fc) {
  for (auto &p : fc->named_parameters())
    p.value().data_ptr<float>()[0] = 0.0f;
  fc->to(torch::kCUDA);
  for (auto &p : fc->named_parameters())
    p.value().data_ptr<float>()[0] = 1.0f;
    // CHECK: :[[@LINE-1]]:15: warning: 'p.value()' is on a CUDA device when its memory is written on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-4]]:7: note: 'fc' is moved to 'torch::kCUDA' here
    // CHECK: :[[@LINE-4]]:14: note: 'p' is assigned here
}

struct Head : torch::nn::Module {
  Head() : fc(register_module("fc", torch::nn::Linear(2, 2))) {}
  torch::nn::Linear fc;
};
float registered_member() {
  auto net = std::make_shared<Head>();
  float before = net->fc->weight.data_ptr<float>()[0];
  net->to(torch::kCUDA);
  float after = net->fc->weight.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:33: warning: 'net->fc->weight' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:8: note: 'net' is moved to 'torch::kCUDA' here
  return before + after;
}

// Parameters and buffers move with their module; a tensor member the class
// never registers stays where it was made.
struct Scaler : torch::nn::Module {
  Scaler() {
    scale = register_parameter("scale", torch::ones({2}));
    register_buffer("shift", shift);
    count = torch::zeros({1});
  }
  torch::Tensor scale, shift = torch::zeros({2}), count;
};
float registered_tensors() {
  auto net = std::make_shared<Scaler>();
  net->to(torch::kCUDA);
  float a = net->scale.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:24: warning: 'net->scale' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:8: note: 'net' is moved to 'torch::kCUDA' here
  float b = net->shift.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:24: warning: 'net->shift' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:8: note: 'net' is moved to 'torch::kCUDA' here
  float c = net->count.data_ptr<float>()[0];
  return a + b + c;
}

// A device value passed from member to member, across methods.
struct Relay {
  void latest() { b_ = a_; }
  void produce(const torch::Tensor &x) { a_ = x.cuda(); }
  float show() const { return b_.data_ptr<float>()[0]; }
  // CHECK: :[[@LINE-1]]:34: warning: 'b_' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:49: note: 'a_' is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:22: note: 'b_' is assigned here
  torch::Tensor a_, b_;
};

// Silent twin of registered_tensors: a module whose constructor is in
// another file may or may not register its tensor member, so whether the
// member moves with the module is not known, and nothing is reported.
struct Remote : torch::nn::Module {
  Remote();
  torch::Tensor weight;
};
float remote_registration() {
  auto net = std::make_shared<Remote>();
  net->to(torch::kCUDA);
  return net->weight.data_ptr<float>()[0];
}

// An out-parameter given another parameter's device.
static void fill_on(torch::Tensor &out, torch::Device d) { out = torch::ones({4}).to(d); }
float filled_on_device(bool gpu) {
  torch::Tensor t, h;
  fill_on(t, torch::Device(torch::kCUDA));
  fill_on(h, torch::Device(torch::kCPU));
  return t.data_ptr<float>()[0] + h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:3: note: 't' is moved by 'fill_on' here
}

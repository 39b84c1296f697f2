// Devices named at run time: a string parameter, a configuration's field,
// a member set in the constructor from such a name. The program chose a
// device that may be an accelerator, as `is_available()` leaves it to the
// environment: host reads, per-batch syncs and CPU inputs to a module moved
// there are reported as "may be". Their twins copy back to the host first,
// or move the inputs to the same device, and are silent. A device index
// (`Device(kCUDA, rank)`) names a CUDA device.
// RUN: %tidy_plugin %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-*' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <string>
#include <vector>

struct Config {
  std::string device;
  int rank = 0;
};

float read_named(const torch::Tensor &x, const std::string &name) {
  torch::Device device(name);
  auto t = x.to(device);
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:17: note: 'device' may be a device, depending on the device name 'name'
  // CHECK: :[[@LINE-4]]:14: note: 't' is moved to 'device' here
}

float read_named_copied(const torch::Tensor &x, const std::string &name) {
  torch::Device device(name);
  auto t = x.to(device).cpu();
  return t.data_ptr<float>()[0];
}

// A local string that keeps its literal is that device: the host here, a
// CUDA device in the next.
float read_named_host(const torch::Tensor &x) {
  std::string name = "cpu";
  auto t = x.to(torch::Device(name));
  return t.data_ptr<float>()[0];
}

float read_named_gpu(const torch::Tensor &x) {
  const std::string name = "cuda:0";
  auto t = x.to(torch::Device(name));
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to 'torch::Device(name)' here
}

float read_configured(const torch::Tensor &x, const Config &cfg) {
  auto t = x.to(torch::Device(cfg.device));
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to 'torch::Device(cfg.device)' here
}

float read_ranked(const torch::Tensor &x, const Config &cfg) {
  auto t = x.to(torch::Device(torch::kCUDA, cfg.rank));
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to 'torch::Device(torch::kCUDA, cfg.rank)' here
}

// A class that keeps the device its constructor was given by name.
class Evaluator {
public:
  explicit Evaluator(const std::string &name) : device_(name) {}
  double mean_loss(const std::vector<torch::Tensor> &batches) {
    double total = 0;
    for (const auto &b : batches) {
      auto loss = (b.to(device_) * 2).sum();
      total += loss.item<double>();
      // CHECK: :[[@LINE-1]]:21: warning: 'loss' may be on a device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
      // CHECK: :[[@LINE-7]]:49: note: 'device_' may be a device, depending on the device name 'name'
      // CHECK: :[[@LINE-4]]:22: note: 'b' is moved to 'device_' here
      // CHECK: :[[@LINE-5]]:12: note: 'loss' is assigned here
      // CHECK: :[[@LINE-5]]:21: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop
    }
    return total;
  }
  double mean_loss_once(const std::vector<torch::Tensor> &batches) {
    auto total = torch::zeros({}, torch::TensorOptions().device(device_));
    for (const auto &b : batches)
      total += (b.to(device_) * 2).sum();
    return total.item<double>();
  }

private:
  torch::Device device_;
};

// A module placed on a device named at run time, fed an input built on the
// CPU; its twin moves the input to the same device.
struct Head : torch::nn::Module {
  Head() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Tensor infer(Head &head, const std::string &name) {
  head.to(torch::Device(name));
  auto input = torch::ones({1, 4});
  return head.forward(input);
  // CHECK: :[[@LINE-1]]:15: warning: module 'head' may be on a device but its input 'input' is on the host [devplace-device-mismatch]
  // CHECK: :[[@LINE-4]]:8: note: 'head' is moved to 'torch::Device(name)' here
}

torch::Tensor infer_moved(Head &head, const std::string &name) {
  torch::Device device(name);
  head.to(device);
  auto input = torch::ones({1, 4}).to(device);
  return head.forward(input);
}

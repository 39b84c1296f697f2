// devplace-sync-in-loop: tensors moved to a torch::Device or TensorOptions
// parameter are on the device the caller chooses, which may be a GPU; an
// evaluation function that syncs per batch is the common case. Silent when the
// synced tensor does not come from that device, and for a tensor parameter of
// unknown device.
// RUN: %tidy_load --checks='-*,devplace-sync-in-loop' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-sync-in-loop' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <vector>

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};

using Batch = torch::data::Example<>;

double test(std::shared_ptr<NetImpl> &model, torch::Device device, std::vector<Batch> &loader) {
  model->eval();
  double correct = 0;
  for (auto &batch : loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    auto output = model->forward(data);
    auto pred = output.argmax(1);
    correct += pred.eq(targets).sum().item<double>();
    // CHECK: :[[@LINE-1]]:39: warning: 'pred.eq(targets).sum()' is on the device the caller passes as 'device' and '.item()' copies it to the host on every iteration: on a GPU the loop waits for it each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE-9]]:60: note: 'device' comes from outside this function; its device is unknown
    // CHECK: :[[@LINE-3]]:39: note: keep the running value on the device (a tensor sum such as 'total += pred.eq(targets).sum().detach()') and read it once after the loop
  }
  return correct / loader.size();
}

double with_options(std::vector<torch::Tensor> &xs, const torch::TensorOptions &options) {
  double total = 0;
  for (auto &x : xs)
    total += x.to(options).sum().item<double>();
  // CHECK: :[[@LINE-1]]:34: warning: 'x.to(options).sum()' is on the device the caller passes as 'options' and '.item()' copies it to the host on every iteration: on a GPU the loop waits for it each time [devplace-sync-in-loop]
  // CHECK: :[[@LINE-5]]:81: note: 'options' comes from outside this function; its device is unknown
  // CHECK: :[[@LINE-3]]:34: note: keep the running value on the device (a tensor sum such as 'total += x.to(options).sum().detach()') and read it once after the loop
  return total;
}

// Silent: the synced values are built on the host, whatever the device is.
double counted_on_host(std::vector<Batch> &loader, torch::Device device) {
  double seen = 0;
  for (auto &batch : loader) {
    auto data = batch.data.to(device);
    seen += torch::tensor(static_cast<double>(data.size(0))).item<double>();
  }
  return seen;
}

// Silent: a tensor parameter's device is unknown, not chosen here.
double of_inputs(std::vector<torch::Tensor> &xs) {
  double total = 0;
  for (auto &x : xs)
    total += x.sum().item<double>();
  return total;
}

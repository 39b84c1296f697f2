// devplace-sync-in-loop: a host sync on a device tensor on every iteration,
// feeding an accumulator or a log line; silent for syncs that steer the loop,
// occasional logging, syncs outside loops or per outer iteration, host tensors.
// RUN: %tidy_load --checks='-*,devplace-sync-in-loop' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-sync-in-loop' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <cstdio>
#include <iostream>
#include <vector>

// A training step that keeps its input's device.
torch::Tensor step(const torch::Tensor &x) { return x * 2; }

double per_batch_syncs(int batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  double loss_sum = 0;
  std::vector<float> history;
  for (int b = 0; b < batches; ++b) {
    auto x = torch::randn({32, 4}).to(device);
    auto loss = step(x).mean();
    loss_sum += loss.item<double>() * 32;
    // CHECK: :[[@LINE-1]]:22: warning: 'loss' may be on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE-8]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-5]]:36: note: 'x' is moved to 'device' here
    // CHECK: :[[@LINE-5]]:10: note: 'loss' is assigned here
    // CHECK: :[[@LINE-5]]:22: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop
    history.push_back(loss.cpu().item<float>());
    // CHECK: :[[@LINE-1]]:28: warning: 'loss' may be on a CUDA device and '.cpu()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE-14]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-11]]:36: note: 'x' is moved to 'device' here
    // CHECK: :[[@LINE-11]]:10: note: 'loss' is assigned here
    // CHECK: :[[@LINE-5]]:28: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop
    std::cout << "loss " << loss << "\n";
    // CHECK: :[[@LINE-1]]:26: warning: 'loss' may be on a CUDA device and 'operator<<' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE-20]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-17]]:36: note: 'x' is moved to 'device' here
    // CHECK: :[[@LINE-17]]:10: note: 'loss' is assigned here
    // CHECK: :[[@LINE-5]]:26: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop
    float l = loss.item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: 'loss' may be on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE-26]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-23]]:36: note: 'x' is moved to 'device' here
    // CHECK: :[[@LINE-23]]:10: note: 'loss' is assigned here
    // CHECK: :[[@LINE-5]]:20: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop
    std::printf("%f\n", l);
  }
  return loss_sum;
}

double kept_on_device(int batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::Tensor loss_sum = torch::zeros({}, device);
  for (int b = 0; b < batches; ++b) {
    auto loss = step(torch::randn({32, 4}).to(device)).mean();
    loss_sum += loss.detach() * 32;
    if (b % 100 == 0)
      std::cout << "loss " << loss.item<double>() << "\n";
    if (loss.item<double>() < 1e-3)
      break;
    float l = loss.item<float>();
    if (l > 1e6)
      return -1;
  }
  return loss_sum.item<double>();
}

double per_epoch_sync(int epochs, int batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::vector<double> history;
  for (int e = 0; e < epochs; ++e) {
    torch::Tensor total = torch::zeros({}, device);
    for (int b = 0; b < batches; ++b)
      total += step(torch::randn({8}).to(device)).sum();
    history.push_back(total.item<double>() / batches);
  }
  return history.back();
}

double host_tensors(int batches) {
  double sum = 0;
  for (int b = 0; b < batches; ++b)
    sum += step(torch::randn({8})).sum().item<double>();
  return sum;
}

// A product of tensors is work queued in the loop (a binary `*`, not the
// unary one that reads through an iterator): each `.item()` waits for it.
double weighted_sum(bool gpu, int batches) {
  torch::Device device = gpu ? torch::kCUDA : torch::kCPU;
  auto w = torch::ones({8}).to(device);
  double total = 0;
  for (int b = 0; b < batches; ++b) {
    auto y = w * (b + 1);
    total += y.sum().item<double>();
    // CHECK: :[[@LINE-1]]:22: warning: 'y.sum()' may be on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE-7]]:26: note: 'device' is a CUDA device when 'gpu' is true
    // CHECK: :[[@LINE-7]]:29: note: 'w' is moved to 'device' here
    // CHECK: :[[@LINE-5]]:10: note: 'y' is assigned here
    // CHECK: :[[@LINE-5]]:22: note: keep the running value on the device (a tensor sum such as 'total += y.sum().detach()') and read it once after the loop
  }
  return total;
}

// Its twin reads a history back through iterators (unary `*`): no work.
double read_back(const std::vector<torch::Tensor> &history) {
  double total = 0;
  for (auto it = history.begin(); it != history.end(); ++it)
    total += (*it).item<double>();
  return total;
}

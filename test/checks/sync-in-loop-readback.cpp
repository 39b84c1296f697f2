// devplace-sync-in-loop reports a sync only where the same iteration queues
// tensor work for it to wait for: loops that read back values computed
// earlier (a history being plotted, metric sums being printed) and syncs
// that can run once per loop (a flag reset in the branch, a branch that
// leaves the loop) do not stall a pipeline.
// RUN: %tidy_load --checks='-*,devplace-sync-in-loop' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-sync-in-loop' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <iostream>
#include <map>
#include <string>
#include <vector>

// A training step that keeps its input's device.
torch::Tensor step(const torch::Tensor &x) { return x * 2; }

// The story's fix: the history holds tensors and the plot reads each once.
std::vector<double> history_plotted(int epochs) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::vector<torch::Tensor> history;
  for (int e = 0; e < epochs; ++e)
    history.push_back(step(torch::randn({8}).to(device)).sum());
  std::vector<double> points;
  for (const auto &h : history)
    points.push_back(h.item<double>());
  for (size_t i = 0; i < history.size(); ++i)
    std::cout << i << ": " << history[i] << "\n";
  return points;
}

void sums_printed(const std::vector<torch::Tensor> &batches, int64_t n) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::map<std::string, torch::Tensor> sums;
  for (const auto &b : batches) {
    auto out = step(b.to(device));
    sums["loss"] += out.mean().detach();
  }
  for (const auto &[name, sum] : sums)
    std::cout << name << " " << (sum / n).item<double>() << "\n";
}

double first_batch_only(const std::vector<torch::Tensor> &batches, bool verbose) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  bool first = true;
  double shown = 0;
  for (const auto &b : batches) {
    auto loss = step(b.to(device)).mean();
    if (first && verbose) {
      shown += loss.item<double>();
      first = false;
    }
  }
  return shown;
}

double until_found(const std::vector<torch::Tensor> &batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  double found = 0;
  for (const auto &b : batches) {
    auto loss = step(b.to(device)).mean();
    if (b.numel() > 4) {
      found += loss.item<double>();
      break;
    }
  }
  return found;
}

// Positive: the forward pass runs inside the sync's own operand.
int64_t forward_inside_sync(torch::nn::Linear model, const std::vector<torch::Tensor> &batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  model->to(device);
  int64_t correct = 0;
  for (const auto &b : batches)
    correct += model->forward(b.to(device)).argmax(1).sum().item<int64_t>();
  return correct;
}
// CHECK: :[[@LINE-3]]:61: warning: 'model->forward(b.to(device)).argmax(1).sum()' may be on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
// CHECK: :[[@LINE-8]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
// CHECK: :[[@LINE-5]]:33: note: 'b' is moved to 'device' here
// CHECK: :[[@LINE-6]]:61: note: keep the running value on the device (a tensor sum such as 'total += model->forward(b.to(device)).argmax(1).sum().detach()') and read it once after the loop

// Positive: a flag that the branch does not reset holds on every iteration.
double flag_kept(const std::vector<torch::Tensor> &batches, bool verbose) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  double shown = 0;
  for (const auto &b : batches) {
    auto loss = step(b.to(device)).mean();
    if (verbose)
      shown += loss.item<double>();
  }
  return shown;
}
// CHECK: :[[@LINE-4]]:21: warning: 'loss' may be on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
// CHECK: :[[@LINE-10]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
// CHECK: :[[@LINE-8]]:24: note: 'b' is moved to 'device' here
// CHECK: :[[@LINE-9]]:10: note: 'loss' is assigned here
// CHECK: :[[@LINE-8]]:21: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop

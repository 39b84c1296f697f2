// The story that started devplace, on the real LibTorch headers: accuracy
// accumulated as a CUDA tensor, read through data_ptr for plotting.
// REQUIRES: libtorch
// RUN: not %devplace %s -- %torch_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: %tidy_plugin %s -- %torch_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <vector>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::sigmoid(fc->forward(x)); }
  torch::nn::Linear fc;
};

std::vector<float> train(int epochs) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto net = std::make_shared<Net>();
  net->to(device);
  std::vector<float> history;
  for (int e = 0; e < epochs; ++e) {
    torch::Tensor correct = torch::zeros({1}, device);
    for (int b = 0; b < 8; ++b) {
      auto x = torch::randn({16, 4}).to(device);
      auto y = torch::randint(0, 2, {16}).to(device);
      auto pred = net->forward(x).squeeze(1);
      correct += ((pred >= 0.5) == y).sum();
    }
    float *acc = correct.data_ptr<float>();
    history.push_back(acc[0] / 128.0f);
    // CHECK: :[[@LINE-1]]:23: warning: 'correct' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-15]]:24: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-11]]:29: note: 'correct' is created on 'device' here
    // CHECK: :[[@LINE-5]]:26: note: 'acc' points into the memory of 'correct'
  }
  return history;
}

std::vector<float> train_fixed(int epochs) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto net = std::make_shared<Net>();
  net->to(device);
  std::vector<float> history;
  for (int e = 0; e < epochs; ++e) {
    torch::Tensor correct = torch::zeros({1}, device);
    for (int b = 0; b < 8; ++b) {
      auto x = torch::randn({16, 4}).to(device);
      auto y = torch::randint(0, 2, {16}).to(device);
      auto pred = net->forward(x).squeeze(1);
      correct += ((pred >= 0.5) == y).sum();
    }
    history.push_back(correct.item<float>() / 128.0f);
  }
  return history;
}

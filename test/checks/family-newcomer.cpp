// Code a newcomer writes, with every devplace check on: each bug is
// reported once, by the right check; the fixed versions are silent.
// RUN: %tidy_plugin %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <opencv2/core.hpp>
#include <cstring>
#include <iostream>
#include <vector>

// A model moved with ->to(device), evaluated on labels that stayed on the CPU.
double evaluate(torch::nn::Sequential &model,
                const std::vector<torch::data::Example<>> &batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  model->to(device);
  torch::Tensor correct = torch::zeros({}, device);
  for (const auto &batch : batches) {
    auto pred = model->forward(batch.data.to(device)).argmax(1);
    correct += (pred == batch.target).sum();
    // CHECK: :[[@LINE-1]]:22: warning: 'pred' may be on a CUDA device and 'batch.target' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
    // CHECK: :[[@LINE-7]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-4]]:43: note: the tensor is moved to 'device' here
    // CHECK: :[[@LINE-5]]:10: note: 'pred' is assigned here
  }
  return correct.item<double>() / batches.size();
}
double evaluate_fixed(torch::nn::Sequential &model,
                      const std::vector<torch::data::Example<>> &batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  model->to(device);
  torch::Tensor correct = torch::zeros({}, device);
  for (const auto &batch : batches) {
    auto pred = model->forward(batch.data.to(device)).argmax(1);
    correct += (pred == batch.target.to(device)).sum();
  }
  return correct.item<double>() / batches.size();
}

// An inference filter whose transfers are thrown away.
void filter(torch::jit::script::Module &model, torch::Tensor input, float *dst) {
  input.to(at::kCUDA);
  // CHECK: :[[@LINE-1]]:9: warning: the result of '.to()' is discarded, so 'input' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  auto output = model.forward({input}).toTensor();
  output.to(at::kCPU);
  // CHECK: :[[@LINE-1]]:10: warning: the result of '.to()' is discarded, so 'output' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  std::memcpy(dst, output.data_ptr<float>(), output.numel() * sizeof(float));
}
void filter_fixed(torch::jit::script::Module &model, torch::Tensor input, float *dst) {
  input = input.to(at::kCUDA);
  auto output = model.forward({input}).toTensor();
  output = output.to(at::kCPU);
  std::memcpy(dst, output.data_ptr<float>(), output.numel() * sizeof(float));
}

// A mask shown through a view of a temporary host copy.
cv::Mat show_mask(const torch::Tensor &mask) {
  cv::Mat view(mask.size(0), mask.size(1), CV_8UC1, mask.cpu().data_ptr<uint8_t>());
  // CHECK: :[[@LINE-1]]:64: warning: 'view' keeps a pointer into the temporary tensor 'mask.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  return view;
}
cv::Mat show_mask_fixed(const torch::Tensor &mask) {
  return cv::Mat(mask.size(0), mask.size(1), CV_8UC1, mask.cpu().data_ptr<uint8_t>()).clone();
}

// A block whose squeeze-excite submodule was never registered.
struct BlockImpl : torch::nn::Module {
  BlockImpl() : fc(register_module("fc", torch::nn::Linear(8, 8))), se(torch::nn::Linear(8, 8)) {}
  torch::nn::Linear fc, se;
  // CHECK: :[[@LINE-1]]:25: warning: submodule 'se' of 'BlockImpl' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
  // CHECK: :[[@LINE-3]]:72: note: 'se' is given its value here
};
struct BlockFixedImpl : torch::nn::Module {
  BlockFixedImpl()
      : fc(register_module("fc", torch::nn::Linear(8, 8))),
        se(register_module("se", torch::nn::Linear(8, 8))) {}
  torch::nn::Linear fc, se;
};

// The original training loop, with .item() on each batch.
double train_epoch(torch::nn::Sequential &model, int batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  double loss_sum = 0;
  for (int b = 0; b < batches; ++b) {
    auto x = torch::randn({32, 3}).to(device);
    auto loss = model->forward(x).mean();
    loss_sum += loss.item<double>();
    // CHECK: :[[@LINE-1]]:22: warning: 'loss' may be on a CUDA device and '.item()' copies it to the host on every iteration, so the loop waits for the GPU each time [devplace-sync-in-loop]
    // CHECK: :[[@LINE-7]]:26: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-5]]:36: note: 'x' is moved to 'device' here
    // CHECK: :[[@LINE-5]]:10: note: 'loss' is assigned here
    // CHECK: :[[@LINE-5]]:22: note: keep the running value on the device (a tensor sum such as 'total += loss.detach()') and read it once after the loop
  }
  return loss_sum / batches;
}
double train_epoch_fixed(torch::nn::Sequential &model, int batches) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::Tensor loss_sum = torch::zeros({}, device);
  for (int b = 0; b < batches; ++b) {
    auto x = torch::randn({32, 3}).to(device);
    auto loss = model->forward(x).mean();
    loss_sum += loss.detach();
  }
  return loss_sum.item<double>() / batches;
}

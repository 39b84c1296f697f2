// Detections read through data_ptr after a TorchScript model on a maybe-CUDA
// device, on the real headers; the fixed version reads a host copy.
// REQUIRES: libtorch
// RUN: not %devplace %s -- %torch_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: %tidy_plugin %s -- %torch_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/script.h>
#include <torch/torch.h>
#include <vector>

struct Box { float x0, y0, x1, y1, score; };

std::vector<Box> detect(torch::jit::script::Module &model, const torch::Tensor &image, bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  model.to(device);
  std::vector<torch::jit::IValue> inputs{image.to(device).unsqueeze(0)};
  torch::Tensor dets = model.forward(inputs).toTensor();
  const float *d = dets.data_ptr<float>();
  std::vector<Box> boxes;
  for (int64_t i = 0; i < dets.size(0); ++i)
    boxes.push_back({d[i * 5], d[i * 5 + 1], d[i * 5 + 2], d[i * 5 + 3], d[i * 5 + 4]});
  // CHECK: :[[@LINE-1]]:22: warning: 'dets' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-9]]:26: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE-9]]:9: note: 'model' is moved to 'device' here
  // CHECK: :[[@LINE-8]]:17: note: 'dets' is assigned here
  // CHECK: :[[@LINE-8]]:25: note: 'd' points into the memory of 'dets'
  return boxes;
}

std::vector<Box> detect_fixed(torch::jit::script::Module &model, const torch::Tensor &image, bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  model.to(device);
  std::vector<torch::jit::IValue> inputs{image.to(device).unsqueeze(0)};
  torch::Tensor dets = model.forward(inputs).toTensor().to(torch::kCPU).contiguous();
  const float *d = dets.data_ptr<float>();
  std::vector<Box> boxes;
  for (int64_t i = 0; i < dets.size(0); ++i)
    boxes.push_back({d[i * 5], d[i * 5 + 1], d[i * 5 + 2], d[i * 5 + 3], d[i * 5 + 4]});
  return boxes;
}

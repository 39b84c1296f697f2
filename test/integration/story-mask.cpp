// A cv::Mat wrapping a segmentation mask that lives on the device, with the
// real LibTorch and OpenCV headers; the fixed version wraps a host copy.
// REQUIRES: libtorch, opencv
// RUN: not %devplace %s -- %torch_flags -I/usr/include/opencv4 | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: %tidy_plugin %s -- %torch_flags -I/usr/include/opencv4 | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <torch/torch.h>

void save_mask(torch::nn::Sequential &net, const torch::Tensor &image, const std::string &path) {
  auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  net->to(device);
  torch::Tensor logits = net->forward(image.to(device));
  torch::Tensor mask = (logits.argmax(1).squeeze(0) * 255).to(torch::kU8);
  cv::Mat view(mask.size(0), mask.size(1), CV_8UC1, mask.data_ptr<uint8_t>());
  // CHECK: :[[@LINE-1]]:11: warning: 'mask' may be on a CUDA device when its memory is wrapped by host type 'cv::Mat' here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:17: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-5]]:45: note: 'image' is moved to 'device' here
  // CHECK: :[[@LINE-6]]:17: note: 'logits' is assigned here
  // CHECK: :[[@LINE-6]]:17: note: 'mask' is assigned here
  cv::imwrite(path, view);
}

void save_mask_fixed(torch::nn::Sequential &net, const torch::Tensor &image, const std::string &path) {
  auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  net->to(device);
  torch::Tensor logits = net->forward(image.to(device));
  torch::Tensor mask = (logits.argmax(1).squeeze(0) * 255).to(torch::kU8).cpu().contiguous();
  cv::Mat view(mask.size(0), mask.size(1), CV_8UC1, mask.data_ptr<uint8_t>());
  cv::imwrite(path, view);
}

#include "helpers.h"

// A helper's return.
float read_moved(const torch::Tensor &x) {
  auto t = on_gpu(x);
  return t.data_ptr<float>()[0];
}

float read_copied(const torch::Tensor &x) {
  auto t = host_copy(on_gpu(x));
  return t.data_ptr<float>()[0];
}

// A helper's return that follows its arguments.
float read_to_device(const torch::Tensor &x) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto t = to_device(x, device);
  return t.data_ptr<float>()[0];
}

float read_to_host(const torch::Tensor &x) {
  auto t = to_device(x, torch::kCPU);
  return t.data_ptr<float>()[0];
}

// An out-parameter.
float read_filled() {
  torch::Tensor t;
  fill_on_gpu(t);
  return t.data_ptr<float>()[0];
}

// A parameter that reaches host code in the other file.
float pass_moved(const torch::Tensor &x) { return first_value(x.cuda()); }

float pass_host(const torch::Tensor &x) { return first_value(x.cpu()); }

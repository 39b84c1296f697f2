// Helpers whose bodies are in helpers.cpp: main.cpp sees declarations only.
#pragma once
#include <torch/torch.h>

torch::Tensor on_gpu(const torch::Tensor &x);
torch::Tensor host_copy(const torch::Tensor &x);
torch::Tensor to_device(const torch::Tensor &x, torch::Device device);
void fill_on_gpu(torch::Tensor &out);
float first_value(const torch::Tensor &t);

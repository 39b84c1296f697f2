// A module whose methods are defined in model.cpp.
#pragma once
#include <torch/torch.h>

struct Output {
  torch::Tensor logits;
  torch::Tensor boxes;
};

struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x);
  Output detect(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};

struct Net : torch::nn::ModuleHolder<NetImpl> {
  using torch::nn::ModuleHolder<NetImpl>::ModuleHolder;
};

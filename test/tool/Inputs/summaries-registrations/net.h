// Modules whose constructors are defined in net.cpp.
#pragma once
#include <torch/torch.h>

struct TowerImpl : torch::nn::Module {
  TowerImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
  torch::nn::Linear head{nullptr};
  torch::Tensor mean;
  torch::Tensor scale;
};
struct Tower : torch::nn::ModuleHolder<TowerImpl> {
  using torch::nn::ModuleHolder<TowerImpl>::ModuleHolder;
};

// Holds nothing: runs on inputs of any device.
struct ActivationImpl : torch::nn::Module {
  ActivationImpl();
  torch::Tensor forward(torch::Tensor x);
};
struct Activation : torch::nn::ModuleHolder<ActivationImpl> {
  using torch::nn::ModuleHolder<ActivationImpl>::ModuleHolder;
};

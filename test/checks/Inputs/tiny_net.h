// Modules declared in a project header whose constructors are defined in
// unregistered-submodule-header.cpp, as most projects lay them out.
#pragma once
#include <torch/torch.h>

class TinyNet : public torch::nn::Module {
public:
  explicit TinyNet(int classes);
  torch::Tensor forward(torch::Tensor x);

private:
  torch::nn::Linear body{nullptr};
  torch::nn::BatchNorm2d norm{nullptr};
  torch::nn::Linear head{nullptr};
};

// The registered twin.
class RegisteredNet : public torch::nn::Module {
public:
  explicit RegisteredNet(int classes);

private:
  torch::nn::Linear head{nullptr};
};

// Its constructor is in another file: that file's analysis checks it.
class ElsewhereNet : public torch::nn::Module {
public:
  ElsewhereNet();

private:
  torch::nn::Linear head{nullptr};
};

// devplace-discarded-transfer: tensor-returning calls used as statements.
// RUN: %check_fixes devplace-discarded-transfer
// RUN: not %devplace --checks='-*,devplace-discarded-transfer' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

struct Net : torch::nn::Module {};

void discarded(torch::Tensor input, const torch::Tensor &frozen, bool flag) {
  input.to(at::kCUDA);
  // CHECK: :[[@LINE-1]]:9: warning: the result of '.to()' is discarded, so 'input' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  // FIXES: {{^ *}}input = input.to(at::kCUDA);{{$}}
  input.cuda();
  // CHECK: :[[@LINE-1]]:9: warning: the result of '.cuda()' is discarded, so 'input' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  input.cpu();
  // CHECK: :[[@LINE-1]]:9: warning: the result of '.cpu()' is discarded, so 'input' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  input.contiguous();
  // CHECK: :[[@LINE-1]]:9: warning: the result of '.contiguous()' is discarded, so 'input' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  if (flag)
    input.to(torch::kFloat);
    // CHECK: :[[@LINE-1]]:11: warning: the result of '.to()' is discarded, so 'input' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  frozen.cuda();
  // CHECK: :[[@LINE-1]]:10: warning: the result of '.cuda()' is discarded, so 'frozen' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  // FIXES: {{^ *}}frozen.cuda();{{$}}
  torch::sigmoid(input);
  // CHECK: :[[@LINE-1]]:3: warning: the result of 'at::sigmoid' is discarded: tensor operations return a new tensor [devplace-discarded-transfer]
  (input * frozen);
  // CHECK: :[[@LINE-1]]:10: warning: the result of 'operator*' is discarded: tensor operations return a new tensor [devplace-discarded-transfer]
  input + frozen;
  // CHECK: :[[@LINE-1]]:9: warning: the result of 'operator+' is discarded: tensor operations return a new tensor [devplace-discarded-transfer]
}

// A comma expression discards both of its sides.
void discarded_pair(torch::Tensor x, torch::Tensor y, torch::Device device) {
  x.to(device), y.to(device);
  // CHECK: :[[@LINE-1]]:5: warning: the result of '.to()' is discarded, so 'x' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  // CHECK: :[[@LINE-2]]:19: warning: the result of '.to()' is discarded, so 'y' is left as it was: tensor operations return a new tensor [devplace-discarded-transfer]
  // FIXES: {{^ *}}x = x.to(device), y = y.to(device);{{$}}
}

void kept(torch::Tensor input, std::shared_ptr<Net> net, torch::nn::Linear fc) {
  input = input.to(at::kCUDA);
  auto output = input.cpu();
  net->to(torch::kCUDA);
  fc->to(torch::kCUDA);
  input.copy_(output);
  input.fill_(0);
  input.add_(output);
  input.zero_();
  (void)input.cuda();
  // Operators that write their left side, and results that are kept.
  input += output;
  input = input * output;
  auto product = (input * output);
  // Out variants write their first argument and return it.
  auto result = torch::empty({2});
  torch::add_out(result, input, output);
}

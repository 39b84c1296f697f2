// Propagation: assignments, copies, references, loops, joins, ternaries and
// the tensor operations that keep the device.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <vector>

float copies_and_references() {
  torch::Tensor a = torch::ones({3}).cuda();
  torch::Tensor b = a;
  torch::Tensor &r = b;
  const torch::Tensor &cr = r;
  return cr.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:13: warning: 'cr' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:38: note: 'a' is moved to a CUDA device here
  // CHECK: :[[@LINE-6]]:17: note: 'b' is assigned here
}

float reference_write_through() {
  torch::Tensor a = torch::ones({3});
  torch::Tensor &r = a;
  r = r.cuda();
  return a.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 'a' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:9: note: 'a' is moved to a CUDA device here
}

float reference_write_through_host_twin() {
  torch::Tensor a = torch::ones({3}).cuda();
  torch::Tensor &r = a;
  r = r.cpu();
  return a.data_ptr<float>()[1];
}

float ops_keep_device() {
  auto x = torch::randn({4, 4}).cuda();
  auto y = (x + x).relu().sum().view({1}).detach().clone().contiguous().select(0, 0);
  return y.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:33: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:8: note: 'y' is assigned here
}

float ops_keep_host() {
  auto x = torch::randn({4, 4});
  auto y = (x + x).relu().sum().view({1}).detach().clone().contiguous();
  return y.data_ptr<float>()[0];
}

float loop_accumulates(int n) {
  torch::Tensor acc = torch::zeros({1});
  for (int i = 0; i < n; ++i) {
    auto batch = torch::randn({8}).cuda();
    acc = acc + batch.sum();
  }
  return acc.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:14: warning: 'acc' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:36: note: 'batch' is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:9: note: 'acc' is assigned here
}

float loop_accumulates_host_twin(int n) {
  torch::Tensor acc = torch::zeros({1});
  for (int i = 0; i < n; ++i) {
    auto batch = torch::randn({8}).cuda();
    acc = acc + batch.sum().cpu();
  }
  return acc.data_ptr<float>()[0];
}

float branch_join(bool flag) {
  torch::Tensor t = torch::zeros({3});
  if (flag)
    t = t.cuda();
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:11: note: 't' is moved to a CUDA device here, when 'flag' is true
}

float branch_join_both_host(bool flag) {
  torch::Tensor t = torch::zeros({3}).cuda();
  if (flag)
    t = t.cpu();
  else
    t = t.to(torch::kCPU);
  return t.data_ptr<float>()[0];
}

float ternary(bool flag, torch::Tensor x) {
  auto h = x.cpu();
  auto t = flag ? h : h.cuda();
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:25: note: 'h' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:12: note: 't' is on a CUDA device when 'flag' is false
}

float pointer_arithmetic_and_copies() {
  auto t = torch::ones({8}).cuda();
  float *p = t.data_ptr<float>();
  float *q = p + 2;
  const float *r = q;
  return *r;
  // CHECK: :[[@LINE-1]]:10: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:29: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-6]]:16: note: 'p' points into the memory of 't'
  // CHECK: :[[@LINE-6]]:10: note: 'q' is assigned here
  // CHECK: :[[@LINE-6]]:16: note: 'r' is assigned here
}

torch::Tensor load_from_disk();
float unknown_functions_stay_silent() {
  torch::Tensor t = load_from_disk();
  return t.data_ptr<float>()[0];
}

float parameters_stay_silent(torch::Tensor t) { return t.data_ptr<float>()[0]; }

float vector_of_tensors() {
  std::vector<torch::Tensor> history;
  auto acc = torch::zeros({1}).cuda();
  history.push_back(acc / 10);
  float total = 0;
  for (const auto &h : history)
    total += h.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:16: warning: 'h' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-6]]:32: note: 'acc' is moved to a CUDA device here
    // CHECK: :[[@LINE-6]]:11: note: an element is added to 'history' here
    // CHECK: :[[@LINE-5]]:20: note: 'h' is assigned here
  return total + history[0].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:29: warning: 'history[0]' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-11]]:32: note: 'acc' is moved to a CUDA device here
  // CHECK: :[[@LINE-11]]:11: note: an element is added to 'history' here
}

float vector_of_tensors_host_twin() {
  std::vector<torch::Tensor> history;
  auto acc = torch::zeros({1}).cuda();
  history.push_back((acc / 10).cpu());
  float total = 0;
  for (const auto &h : history)
    total += h.data_ptr<float>()[0];
  return total;
}

// Templates (per instantiation), lambdas and macros are analysed without
// crashing; dependent code waits for its instantiation.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

template <typename T> T first_element(const torch::Tensor &x) {
  auto t = x.cuda();
  return t.template data_ptr<T>()[0];
  // CHECK: :[[@LINE-1]]:21: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to a CUDA device here
}
template <typename T> T first_element_host(const torch::Tensor &x) {
  auto t = x.cpu();
  return t.template data_ptr<T>()[0];
}
float use_templates(torch::Tensor x) {
  return first_element<float>(x) + first_element_host<float>(x);
}

template <typename T> struct Holder {
  T value;
  float read() { return value.cuda().template data_ptr<float>()[0]; }
  // CHECK: :[[@LINE-1]]:47: warning: 'value.cuda()' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-2]]:31: note: the tensor is moved to a CUDA device here
};
float use_holder(Holder<torch::Tensor> h) { return h.read(); }

float lambdas() {
  auto read = [](torch::Tensor t) {
    auto d = t.cuda();
    return d.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 'd' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-3]]:16: note: 'd' is moved to a CUDA device here
  };
  auto safe = [](torch::Tensor t) { return t.cpu().data_ptr<float>()[0]; };
  return read(torch::ones({1})) + safe(torch::ones({1}));
}

#define FIRST(t) (t).data_ptr<float>()[0]
float macros() {
  auto t = torch::ones({3}).cuda();
  return FIRST(t);
  // CHECK: :[[@LINE-1]]:10: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:22: note: expanded from macro 'FIRST'
  // CHECK: :[[@LINE-4]]:29: note: 't' is moved to a CUDA device here
}

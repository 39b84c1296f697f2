// Fix-its: item<T>() for one scalar, a named host copy that outlives the
// pointer for reads, and no fix where the memory is written or escapes.
// RUN: %check_fixes devplace-host-sink --also-cli
#include <torch/torch.h>
#include <vector>

float scalar_reads() {
  auto loss = torch::ones({1}).cuda();
  // FIXES: {{^ *}}float a = loss.item<float>();{{$}}
  // FIXES: {{^ *}}float b = loss.item<float>();{{$}}
  float a = *loss.data_ptr<float>();
  // CHECK: :[[@LINE-1]]:13: warning: 'loss' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:32: note: 'loss' is moved to a CUDA device here
  float b = loss.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:18: warning: 'loss' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:32: note: 'loss' is moved to a CUDA device here
  return a + b;
}

std::vector<float> copy_out(torch::Tensor x) {
  auto t = x.cuda();
  // FIXES: {{^ *}}auto t_host = t.cpu();{{$}}
  // FIXES: {{^ *}}const float *p = t_host.data_ptr<float>();{{$}}
  const float *p = t.data_ptr<float>();
  std::vector<float> out(p, p + t.numel());
  // CHECK: :[[@LINE-1]]:22: warning: 't' is on a CUDA device when its memory is wrapped by host type 'std::vector' here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:14: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:22: note: 'p' points into the memory of 't'
  out.push_back(p[0]);
  // CHECK: :[[@LINE-1]]:17: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-10]]:14: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-8]]:22: note: 'p' points into the memory of 't'
  return out;
}

std::vector<float> copy_out_direct(torch::Tensor x) {
  auto t = x.cuda();
  // FIXES: {{^ *}}auto t_host = t.cpu();{{$}}
  // FIXES: {{^ *}}std::vector<float> out(t_host.data_ptr<float>(), t_host.data_ptr<float>() + t.numel());{{$}}
  std::vector<float> out(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
  // CHECK: :[[@LINE-1]]:22: warning: 't' is on a CUDA device when its memory is wrapped by host type 'std::vector' here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:14: note: 't' is moved to a CUDA device here
  return out;
}

float accessor_read(torch::Tensor x) {
  auto t = x.cuda();
  auto a = t.accessor<float, 2>();
  // CHECK: :[[@LINE-1]]:14: warning: 't' is on a CUDA device when a host accessor to it is made here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to a CUDA device here
  return a[0][1] + a[1][0];
}

void writes_get_no_fix(torch::Tensor x) {
  // FIXES: {{^ *}}void writes_get_no_fix(torch::Tensor x) {{{$}}
  // FIXES: {{^ *}}auto t = x.cuda();{{$}}
  // FIXES: {{^ *}}float *p = t.data_ptr<float>();{{$}}
  // FIXES: {{^ *}}p{{\[}}0{{\]}} = 1.0f;{{$}}
  // FIXES: {{^ *}}auto a = t.accessor<float, 2>();{{$}}
  auto t = x.cuda();
  float *p = t.data_ptr<float>();
  p[0] = 1.0f;
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is written on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:14: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:16: note: 'p' points into the memory of 't'
  auto a = t.accessor<float, 2>();
  // CHECK: :[[@LINE-1]]:14: warning: 't' is on a CUDA device when a host accessor to it is made here [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:14: note: 't' is moved to a CUDA device here
  a[0][0] = 2.0f;
}

float *escaping_pointer_gets_no_fix(torch::Tensor x) {
  // FIXES: {{^ *}}float *escaping_pointer_gets_no_fix(torch::Tensor x) {{{$}}
  // FIXES: {{^ *}}auto t = x.cuda();{{$}}
  // FIXES: {{^ *}}float *p = t.data_ptr<float>();{{$}}
  auto t = x.cuda();
  float *p = t.data_ptr<float>();
  float first = p[1];
  // CHECK: :[[@LINE-1]]:17: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:14: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:16: note: 'p' points into the memory of 't'
  return p;
}

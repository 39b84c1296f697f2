// devplace knows the runtime shim: its host transfers are sanitizers and its
// checked views are not sinks; the same reads without the shim are reported.
// REQUIRES: libtorch
// RUN: not %devplace %s -- %torch_flags -I%S/../../runtime/include | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <devplace/host.h>

float with_the_shim(const torch::Tensor &x) {
  auto t = x.cuda();
  auto copy = devplace::host_copy(t);
  float a = copy.data_ptr<float>()[0];
  devplace::HostTensor host = devplace::to_host(t);
  float b = host.data<float>()[0];
  auto view = devplace::checked_span<float>(t, "summing");
  float c = view[0];
  return a + b + c + devplace::to_scalar<float>(t.sum()) + devplace::to_vector<float>(t)[0];
}

float without_the_shim(const torch::Tensor &x) {
  auto t = x.cuda();
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:14: note: 't' is moved to a CUDA device here
}

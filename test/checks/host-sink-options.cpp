// Check options: extra sinks, sources and sanitizers, and StrictMode.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -config="{CheckOptions: {devplace-host-sink.HostSinkFunctions: 'mylib::save_raw;plot_raw', devplace-host-sink.SourceFunctions: 'mylib::upload', devplace-host-sink.SanitizerFunctions: 'mylib::download'}}" -- %mock_flags | FileCheck %s --check-prefix=CHECK -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s --config="{CheckOptions: {devplace-host-sink.HostSinkFunctions: 'mylib::save_raw;plot_raw', devplace-host-sink.SourceFunctions: 'mylib::upload', devplace-host-sink.SanitizerFunctions: 'mylib::download'}}" -- %mock_flags | FileCheck %s --check-prefix=CHECK -implicit-check-not='{{warning|note}}:'
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -config="{CheckOptions: {devplace-host-sink.StrictMode: true}}" -- %mock_flags | FileCheck %s --check-prefix=STRICT -implicit-check-not='{{warning|note}}:'
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s --check-prefix=DEFAULT -allow-empty -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

namespace mylib {
void save_raw(const float *data, int64_t n);
torch::Tensor upload(const torch::Tensor &t);
torch::Tensor download(const torch::Tensor &t);
} // namespace mylib
void plot_raw(const float *data, int64_t n);
// DEFAULT-NOT: {{warning|note}}:

void extra_sink_and_source(torch::Tensor x) {
  auto t = mylib::upload(x);
  mylib::save_raw(t.data_ptr<float>(), t.numel());
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a device when its memory is passed to host code 'mylib::save_raw' here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:12: note: 't' comes from 'mylib::upload', which returns a tensor on a device
  auto h = mylib::download(t);
  plot_raw(h.data_ptr<float>(), h.numel());
}

float strict_parameter(torch::Tensor param) {
  return param.data_ptr<float>()[0];
  // STRICT: :[[@LINE-1]]:16: warning: 'param' may be on a device when its memory is read on the host here [devplace-host-sink]
  // STRICT: :[[@LINE-3]]:38: note: 'param' comes from outside this function; its device is unknown
}

// The NOLINT comment family behaves as in clang-tidy.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>

float suppressed() {
  auto t = torch::ones({3}).cuda();
  float a = t.data_ptr<float>()[0]; // NOLINT(devplace-host-sink)
  // NOLINTNEXTLINE(devplace-*)
  float b = t.data_ptr<float>()[1];
  // NOLINTBEGIN(devplace-host-sink)
  float c = t.data_ptr<float>()[2];
  // NOLINTEND(devplace-host-sink)
  float d = t.data_ptr<float>()[1]; // NOLINT(bugprone-*)
  // CHECK: :[[@LINE-1]]:15: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-9]]:29: note: 't' is moved to a CUDA device here
  return a + b + c + d;
}

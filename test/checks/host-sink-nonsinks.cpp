// Device code and device-safe reads are not host sinks.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -allow-empty -implicit-check-not='{{warning|note}}:'
// RUN: %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -allow-empty -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <iostream>

enum cudaMemcpyKind { cudaMemcpyDeviceToHost = 2 };
int cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
int cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind, void *stream = nullptr);
void launch_scale_kernel(float *data, int64_t n, float factor);
template <typename Acc> void launch_with_accessor(Acc a);

float device_side(float *host_out) {
  auto t = torch::ones({4, 4}).cuda();
  float *p = t.data_ptr<float>();
  launch_scale_kernel(p, t.numel(), 2.0f);
  launch_scale_kernel(t.data_ptr<float>(), t.numel(), 2.0f);
  cudaMemcpy(host_out, p, t.numel() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpyAsync(host_out, t.data_ptr(), 4, cudaMemcpyDeviceToHost);
  launch_with_accessor(t.packed_accessor32<float, 2>());
  launch_with_accessor(t.packed_accessor64<float, 2>());
  std::cout << t << "\n";
  float s = t.sum().item<float>();
  double m = t.mean().item().toDouble();
  auto h = t.cpu();
  float *hp = h.data_ptr<float>();
  return s + m + hp[0] + h.accessor<float, 2>()[0][0] + *t.cpu().data_ptr<float>();
}

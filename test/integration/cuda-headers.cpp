// Code that includes CUDA headers, parsed with a CUDA build's headers (PyPI's
// torch 2.14.1 and its nvidia-* packages: scripts/setup.sh --cuda-headers):
// device guards, work on a side stream, record_stream, non_blocking copies
// waited for by a stream, an event or the current stream, and device
// pointers handed to the CUDA runtime.
// REQUIRES: cuda-headers
// RUN: not %devplace %s -- %cuda_torch_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: %tidy_plugin %s -- %cuda_torch_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime.h>
#include <vector>

// A device guard chooses which GPU; the tensor is on CUDA all the same.
float guarded_read(torch::Device device) {
  c10::cuda::CUDAGuard guard(device);
  torch::Tensor t = torch::zeros({3}, torch::kCUDA);
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:21: note: 't' is created on 'torch::kCUDA' here
}

// Moved back before the read: fine.
float guarded_host_read(torch::Device device) {
  c10::cuda::CUDAGuard guard(device);
  torch::Tensor t = torch::zeros({3}, torch::kCUDA).cpu();
  return t.data_ptr<float>()[0];
}

// Work on a side stream, the copy back waited for by the stream.
float side_stream(const torch::Tensor &x) {
  c10::cuda::CUDAStream stream = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard stream_guard(stream);
  torch::Tensor y = x.to(torch::kCUDA, /*non_blocking=*/true) * 2;
  y.record_stream(stream);
  torch::Tensor h = y.to(torch::kCPU, /*non_blocking=*/true);
  stream.synchronize();
  return h.data_ptr<float>()[0];
}

// The same without the wait: the host copy may not have arrived.
float side_stream_no_wait(const torch::Tensor &x) {
  c10::cuda::CUDAStream stream = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard stream_guard(stream);
  torch::Tensor y = x.to(torch::kCUDA) * 2;
  torch::Tensor h = y.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:23: warning: 'y' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-3]]:23: note: 'x' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:17: note: 'y' is assigned here
  return h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

// An event recorded after the copy and waited for.
float event_wait(const torch::Tensor &x) {
  torch::Tensor y = x.cuda();
  torch::Tensor h = y.to(torch::kCPU, /*non_blocking=*/true);
  at::cuda::CUDAEvent done;
  done.record(at::cuda::getCurrentCUDAStream());
  done.synchronize();
  return h.data_ptr<float>()[0];
}

// The current stream waited for.
float current_stream_wait(const torch::Tensor &x) {
  torch::Tensor h = x.cuda().to(torch::kCPU, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  return h.data_ptr<float>()[0];
}

// A device pointer handed to the CUDA runtime is device code: fine.
std::vector<float> runtime_copy(const torch::Tensor &x) {
  torch::Tensor y = x.cuda();
  std::vector<float> out(y.numel());
  cudaMemcpy(out.data(), y.data_ptr<float>(), out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  return out;
}

// 2.x's accessors to a tensor's memory.
float mutable_read(const torch::Tensor &x) {
  torch::Tensor y = x.to(torch::kCUDA);
  return y.mutable_data_ptr<float>()[0] + y.const_data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:23: note: 'y' is moved to 'torch::kCUDA' here
}

// Placed with options, and with a memory format.
float options_read(const torch::Tensor &x) {
  torch::Tensor y = x.to(torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat));
  torch::Tensor z = y.to(torch::MemoryFormat::Contiguous);
  return z.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'z' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:23: note: 'y' is moved to 'torch::TensorOptions().device(torch::kCUDA).d...' here
  // CHECK: :[[@LINE-4]]:17: note: 'z' is assigned here
}

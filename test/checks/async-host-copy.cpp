// devplace-async-host-copy: a device tensor copied to the host with
// non_blocking=true and read before anything waits for the copy.
// RUN: %tidy_load --checks='-*,devplace-async-host-copy' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-async-host-copy' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <iostream>

void consume(const torch::Tensor &t);

float read_at_once(torch::Tensor x) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:14: warning: 'd' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-3]]:14: note: 'd' is moved to a CUDA device here
  return h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

double reduced_on_the_spot(torch::Tensor x, bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto d = x.to(device);
  return d.to(torch::kCPU, true).mean().item<double>();
  // CHECK: :[[@LINE-1]]:12: warning: 'd' may be on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-4]]:26: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE-4]]:14: note: 'd' is moved to 'device' here
  // CHECK: :[[@LINE-4]]:34: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

void printed_after_assignment(torch::Tensor x) {
  torch::Tensor h;
  auto d = x.cuda();
  h = d.to(torch::kCPU, true);
  // CHECK: :[[@LINE-1]]:9: warning: 'd' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-3]]:14: note: 'd' is moved to a CUDA device here
  std::cout << h << "\n";
  // CHECK: :[[@LINE-1]]:16: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

// The advice names the synchronisation of the device type the code chose.
float read_from_mps(torch::Tensor x) {
  auto d = x.to(torch::kMPS);
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:14: warning: 'd' is on an MPS device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-3]]:14: note: 'd' is moved to 'torch::kMPS' here
  return h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; call torch::mps::synchronize() first, or copy without non_blocking
}

// No synchronisation call is known for HIP here: the advice is general.
float read_from_hip(torch::Tensor x) {
  auto d = x.hip();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:14: warning: 'd' is on a HIP device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-3]]:14: note: 'd' is moved to a HIP device here
  return h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; wait for the device first, or copy without non_blocking
}

// The twins: each stays silent.

float mps_synchronised_first(torch::Tensor x) {
  auto d = x.to(torch::kMPS);
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  torch::mps::synchronize();
  return h.data_ptr<float>()[0];
}

float synchronised_first(torch::Tensor x) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  torch::cuda::synchronize();
  return h.data_ptr<float>()[0];
}

float blocking_copy(torch::Tensor x) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU);
  auto g = d.to(torch::kCPU, /*non_blocking=*/false);
  return h.data_ptr<float>()[0] + g.data_ptr<float>()[0];
}

float host_source(torch::Tensor x) {
  auto h = torch::ones({2}).to(torch::kCPU, true);
  return h.data_ptr<float>()[0];
}

void passed_on(torch::Tensor x) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, true);
  consume(h); // what the callee does first is not followed
  std::cout << h.numel() << "\n";
}

float to_the_device(torch::Tensor x) {
  auto d = x.to(torch::kCUDA, /*non_blocking=*/true);
  return d.sum().item<float>();
}

// LibTorch 2.x's device and stream guards choose where work runs; they wait
// for nothing.
float guarded_copy(torch::Tensor x) {
  c10::cuda::CUDAGuard device_guard(x.device());
  c10::cuda::CUDAStreamGuard stream_guard(c10::cuda::getStreamFromPool());
  auto h = x.cuda().to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:21: warning: 'x.cuda()' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-2]]:14: note: 'x' is moved to a CUDA device here
  return h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

// The twin: the current stream (the guard's) waited for.
float guarded_copy_stream_synchronised(torch::Tensor x) {
  c10::cuda::CUDAGuard device_guard(x.device());
  c10::cuda::CUDAStreamGuard stream_guard(c10::cuda::getStreamFromPool());
  auto h = x.cuda().to(torch::kCPU, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  return h.data_ptr<float>()[0];
}

// What waits is followed along the paths, not in the order of the text.

// Waited for on one branch only: the read on the other path is too early.
float synchronised_on_one_path(torch::Tensor x, bool quick) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:14: warning: 'd' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-3]]:14: note: 'd' is moved to a CUDA device here
  if (!quick)
    torch::cuda::synchronize();
  return h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

// The twin: waited for on both.
float synchronised_on_both_paths(torch::Tensor x, bool quick) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  if (quick)
    torch::cuda::synchronize();
  else
    at::cuda::getCurrentCUDAStream().synchronize();
  return h.data_ptr<float>()[0];
}

// The copy of one step is read at the start of the next, before the wait at
// the end of the step: first in the text, after the copy in the run.
float read_in_the_next_step(torch::Tensor x, int steps) {
  torch::Tensor h;
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    if (i > 0)
      total += h.data_ptr<float>()[0];
    auto d = (x * i).cuda();
    h = d.to(torch::kCPU, /*non_blocking=*/true);
    // CHECK: :[[@LINE-1]]:11: warning: 'd' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
    // CHECK: :[[@LINE-3]]:22: note: 'd' is moved to a CUDA device here
    // CHECK: :[[@LINE-5]]:16: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
  }
  return total;
}

// The twin: the step waits before it ends.
float waited_for_in_each_step(torch::Tensor x, int steps) {
  torch::Tensor h;
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    if (i > 0)
      total += h.data_ptr<float>()[0];
    auto d = (x * i).cuda();
    h = d.to(torch::kCPU, /*non_blocking=*/true);
    torch::cuda::synchronize();
  }
  return total;
}

// A blocking copy, item() of a tensor on the device, waits for the device's
// queue: the asynchronous copy before it has arrived.
float item_waits(torch::Tensor x, torch::Tensor loss) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  float l = loss.cuda().item<float>();
  return l + h.data_ptr<float>()[0];
}

// A helper of this file: its body says whether it waits.
void wait_for_gpu() { torch::cuda::synchronize(); }
void log_step(int step) { std::cout << "step " << step << "\n"; }
void elsewhere(); // defined in another file: it may wait

float helper_waits(torch::Tensor x) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  wait_for_gpu();
  return h.data_ptr<float>()[0];
}

float unseen_helper_may_wait(torch::Tensor x) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  elsewhere();
  return h.data_ptr<float>()[0];
}

float helper_does_not_wait(torch::Tensor x) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:14: warning: 'd' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
  // CHECK: :[[@LINE-3]]:14: note: 'd' is moved to a CUDA device here
  log_step(1);
  return h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

// A copy of the host tensor shares its memory: reading it is reading the
// copy. Made on one path only, the copy "may" be read too early.
float copied_on_one_path(torch::Tensor x, torch::Tensor cached, bool fresh) {
  torch::Tensor h = cached;
  if (fresh) {
    auto d = x.cuda();
    h = d.to(torch::kCPU, /*non_blocking=*/true);
    // CHECK: :[[@LINE-1]]:11: warning: 'd' is on a CUDA device and '.to(torch::kCPU)' copies it to the host asynchronously; the copy is read before anything waits for it [devplace-async-host-copy]
    // CHECK: :[[@LINE-3]]:16: note: 'd' is moved to a CUDA device here, when 'fresh' is true
  }
  torch::Tensor view = h;
  return view.sum().item<float>();
  // CHECK: :[[@LINE-1]]:10: note: read here, possibly before the copy has arrived; call torch::cuda::synchronize() first, or copy without non_blocking
}

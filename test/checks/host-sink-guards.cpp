// Guards: a check of the tensor's own device, of the device variable, or of
// the same condition that chose the device.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <cstring>

torch::Device pick() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

float is_cuda_then_cpu(bool gpu) {
  auto t = torch::ones({3});
  if (gpu)
    t = t.cuda();
  if (t.is_cuda())
    t = t.cpu();
  return t.data_ptr<float>()[0];
}

float is_cpu_guard(bool gpu) {
  auto t = torch::ones({3});
  if (gpu)
    t = t.cuda();
  if (t.is_cpu())
    return t.data_ptr<float>()[0];
  return 0;
}

float is_cpu_guard_wrong_side(bool gpu) {
  auto t = torch::ones({3});
  if (gpu)
    t = t.cuda();
  if (!t.is_cpu())
    return t.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-4]]:11: note: 't' is moved to a CUDA device here, when 'gpu' is true
  return 0;
}

float device_is_cpu_guard(bool gpu) {
  auto t = gpu ? torch::ones({3}).cuda() : torch::ones({3});
  if (t.device().is_cpu())
    return t.data_ptr<float>()[0];
  if (t.device() == torch::kCPU)
    return t.data_ptr<float>()[1];
  if (t.device().type() != torch::kCUDA)
    return t.data_ptr<float>()[2];
  return 0;
}

float device_variable_guard() {
  torch::Device d = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto t = torch::ones({3}).to(d);
  if (d.is_cpu())
    return t.data_ptr<float>()[0];
  return 0;
}

float same_condition() {
  const bool cuda = torch::cuda::is_available();
  torch::Device device = cuda ? torch::kCUDA : torch::kCPU;
  auto w = torch::ones({3}).to(device);
  if (torch::cuda::is_available())
    w = w.cpu();
  return w.data_ptr<float>()[0];
}

float same_condition_wrong_side() {
  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  auto w = torch::ones({3}).to(device);
  if (torch::cuda::is_available())
    return w.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 'w' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-5]]:14: note: 'device' is set to 'torch::kCUDA' here, when 'torch::cuda::is_available()' is true
    // CHECK: :[[@LINE-5]]:29: note: 'w' is moved to 'device' here
  return w.data_ptr<float>()[1];
}

float flag_reassigned_is_not_trusted(bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto w = torch::ones({3}).to(device);
  use_gpu = !use_gpu;
  if (!use_gpu)
    return w.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 'w' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-6]]:26: note: 'device' may be a CUDA device, depending on 'use_gpu'
    // CHECK: :[[@LINE-6]]:29: note: 'w' is moved to 'device' here
  return 0;
}

// Guards in helpers: a helper that copies its argument to the host itself
// when it is on a device reads host memory for every caller.
void copy_out_is_cuda(torch::Tensor t, float *dst) {
  if (t.is_cuda())
    t = t.cpu();
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
void copy_out_device_check(torch::Tensor t, float *dst) {
  if (t.device() != torch::kCPU)
    t = t.to(torch::kCPU);
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
void copy_out_unguarded(torch::Tensor t, float *dst) {
  if (!t.is_cuda())
    t = t.contiguous();
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
void guarded_helpers(float *dst) {
  auto x = torch::ones({4}).cuda();
  copy_out_is_cuda(x, dst);
  copy_out_device_check(x, dst);
  copy_out_unguarded(x, dst);
  // CHECK: :[[@LINE-1]]:3: warning: 'x' is on a CUDA device when it is passed to 'copy_out_unguarded', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:29: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-9]]:3: note: 't' reaches host code here, inside the helper
}

// Guards on a flag parameter or on availability: the helper copies to the
// host under a condition its caller decides. A caller whose device follows
// the same condition is fine; one that passes the other value is not.
void copy_out_flag(torch::Tensor t, bool use_gpu, float *dst) {
  if (use_gpu)
    t = t.to(torch::kCPU);
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
void copy_out_available(torch::Tensor t, float *dst) {
  if (torch::cuda::is_available())
    t = t.cpu();
  std::memcpy(dst, t.data_ptr<float>(), sizeof(float) * t.numel());
}
// The flag passed on through a second helper keeps its meaning.
void save_flag(torch::Tensor t, bool gpu, float *dst) {
  copy_out_flag(t, gpu, dst);
}
void flag_guarded_helpers(bool use_gpu, float *dst) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto x = torch::ones({4}).to(device);
  copy_out_flag(x, use_gpu, dst);
  save_flag(x, use_gpu, dst);
  copy_out_available(x, dst);
  auto y = torch::ones({4}).cuda();
  copy_out_flag(y, true, dst);
  copy_out_available(y, dst);
  copy_out_flag(y, false, dst);
  // CHECK: :[[@LINE-1]]:3: warning: 'y' is on a CUDA device when it is passed to 'copy_out_flag', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:29: note: 'y' is moved to a CUDA device here
  // CHECK: :[[@LINE-23]]:3: note: 't' reaches host code here, inside the helper
  copy_out_flag(x, !use_gpu, dst);
  // CHECK: :[[@LINE-1]]:3: warning: 'x' may be on a CUDA device when it is passed to 'copy_out_flag', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-14]]:26: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE-14]]:29: note: 'x' is moved to 'device' here
  // CHECK: :[[@LINE-28]]:3: note: 't' reaches host code here, inside the helper
}
void availability_guarded_helpers(float *dst) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  auto x = torch::ones({4}).to(device);
  copy_out_available(x, dst);
  copy_out_flag(x, torch::cuda::is_available(), dst);
  copy_out_flag(x, false, dst);
  // CHECK: :[[@LINE-1]]:3: warning: 'x' may be on a CUDA device when it is passed to 'copy_out_flag', which reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-7]]:24: note: 'device' is a CUDA device when 'torch::cuda::is_available()' is true
  // CHECK: :[[@LINE-6]]:29: note: 'x' is moved to 'device' here
  // CHECK: :[[@LINE-40]]:3: note: 't' reaches host code here, inside the helper
}

// Results too: a helper that returns a host copy under its flag, or chooses
// the device from it.
torch::Tensor host_if(torch::Tensor t, bool use_gpu) {
  if (use_gpu)
    return t.cpu();
  return t;
}
torch::Device device_for(bool use_gpu) {
  return use_gpu ? torch::kCUDA : torch::kCPU;
}
float flag_guarded_results(bool use_gpu) {
  auto x = torch::ones({4}).to(device_for(use_gpu));
  auto h = host_if(x, use_gpu);
  auto c = torch::ones({4}).to(device_for(false));
  auto d = torch::ones({4}).to(device_for(true));
  auto e = host_if(d, false);
  return h.data_ptr<float>()[0] + c.data_ptr<float>()[0] +
         e.data_ptr<float>()[0];
         // CHECK: :[[@LINE-1]]:12: warning: 'e' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
         // CHECK: :[[@LINE-11]]:10: note: a CUDA device is chosen here when 'use_gpu' is true
         // CHECK: :[[@LINE-6]]:32: note: the tensor comes from 'device_for', which returns a result that may be on a CUDA device
         // CHECK: :[[@LINE-7]]:29: note: 'd' is moved to 'device_for(true)' here
         // CHECK: :[[@LINE-7]]:8: note: 'e' is assigned here
}

// A flag member that only the constructor sets is one condition in every
// method of the object: a helper method that moves its tensor back under the
// same flag before its memcpy is safe when called on this object.
class Pipeline {
public:
  explicit Pipeline(bool use_gpu) : use_gpu_(use_gpu) {}
  void run(torch::Tensor input, float *dst) {
    if (use_gpu_)
      input = input.to(torch::kCUDA);
    copy_out(input * 2, dst);
  }
  // Positive twin: the same call to a helper without the guard.
  void run_unguarded(torch::Tensor input, float *dst) {
    if (use_gpu_)
      input = input.to(torch::kCUDA);
    copy_raw(input * 2, dst);
    // CHECK: :[[@LINE-1]]:5: warning: 'input * 2' may be on a CUDA device when it is passed to 'copy_raw', which reads its memory on the host [devplace-host-sink]
    // CHECK: :[[@LINE-3]]:24: note: 'torch::kCUDA' is chosen here, when 'use_gpu_' is true
    // CHECK: :[[@LINE-4]]:21: note: 'input' is moved to 'torch::kCUDA' here, when 'use_gpu_' is true
    // CHECK: :[[@LINE+10]]:5: note: 't' reaches host code here, inside the helper
  }

private:
  void copy_out(torch::Tensor t, float *dst) {
    if (use_gpu_)
      t = t.to(torch::kCPU);
    std::memcpy(dst, t.data_ptr<float>(), t.numel() * sizeof(float));
  }
  void copy_raw(torch::Tensor t, float *dst) {
    std::memcpy(dst, t.data_ptr<float>(), t.numel() * sizeof(float));
  }
  bool use_gpu_;
};

// Positive twin: a flag that another method writes is not one condition
// across calls (toggle() may run between the move and the copy).
class Toggled {
public:
  explicit Toggled(bool use_gpu) : use_gpu_(use_gpu) {}
  void toggle() { use_gpu_ = !use_gpu_; }
  void run(torch::Tensor input, float *dst) {
    if (use_gpu_)
      input = input.to(torch::kCUDA);
    copy_out(input * 2, dst);
    // CHECK: :[[@LINE-1]]:5: warning: 'input * 2' may be on a CUDA device when it is passed to 'copy_out', which reads its memory on the host [devplace-host-sink]
    // CHECK: :[[@LINE-3]]:24: note: 'torch::kCUDA' is chosen here, when 'use_gpu_' is true
    // CHECK: :[[@LINE-4]]:21: note: 'input' is moved to 'torch::kCUDA' here, when 'use_gpu_' is true
    // CHECK: :[[@LINE+7]]:5: note: 't' reaches host code here, inside the helper
  }

private:
  void copy_out(torch::Tensor t, float *dst) {
    if (use_gpu_)
      t = t.to(torch::kCPU);
    std::memcpy(dst, t.data_ptr<float>(), t.numel() * sizeof(float));
  }
  bool use_gpu_;
};

// Positive twin: the helper called on another object of the class tests
// that object's flag, not this one's.
class Pair {
public:
  explicit Pair(bool use_gpu) : use_gpu_(use_gpu) {}
  void run(Pair &other, torch::Tensor input, float *dst) {
    if (use_gpu_)
      input = input.to(torch::kCUDA);
    other.copy_out(input * 2, dst);
    // CHECK: :[[@LINE-1]]:11: warning: 'input * 2' may be on a CUDA device when it is passed to 'copy_out', which reads its memory on the host [devplace-host-sink]
    // CHECK: :[[@LINE-3]]:24: note: 'torch::kCUDA' is chosen here, when 'use_gpu_' is true
    // CHECK: :[[@LINE-4]]:21: note: 'input' is moved to 'torch::kCUDA' here, when 'use_gpu_' is true
    // CHECK: :[[@LINE+7]]:5: note: 't' reaches host code here, inside the helper
  }

private:
  void copy_out(torch::Tensor t, float *dst) {
    if (use_gpu_)
      t = t.to(torch::kCPU);
    std::memcpy(dst, t.data_ptr<float>(), t.numel() * sizeof(float));
  }
  bool use_gpu_;
};

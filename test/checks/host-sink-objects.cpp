// A class that collects tensors gets them from its callers, per object: a
// history fed device tensors is reported where a method reads it on the
// host; one fed host values is silent (devplace-host-sink).
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <vector>

class MetricHistory {
public:
  void add(const torch::Tensor &value) { values_.push_back(value); }
  float last() const { return values_.back().data_ptr<float>()[0]; }
  torch::Tensor latest() const { return values_.back(); }

private:
  std::vector<torch::Tensor> values_;
};

float fed_device_tensors() {
  MetricHistory history;
  auto loss = torch::ones({1}).to(torch::kCUDA);
  history.add(loss);
  float a = history.last();
  // CHECK: :[[@LINE-1]]:21: warning: 'history.values_' is on a CUDA device when 'last' reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:32: note: 'loss' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:11: note: an element is added to 'history.values_' here
  // CHECK: :[[@LINE-15]]:46: note: 'values_.back()' reaches host code here, inside the helper
  float b = history.latest().data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:30: warning: 'history.latest()' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-9]]:32: note: 'loss' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-9]]:11: note: an element is added to 'history.values_' here
  return a + b;
}

// The fix: record host values. Each object keeps what it was given.
float fed_host_values() {
  auto loss = torch::ones({1}).cuda();
  MetricHistory history;
  history.add(loss.cpu());
  MetricHistory other;
  other.add(torch::ones({1}) * loss.item<float>());
  MetricHistory device;
  device.add(loss);
  return history.last() + other.last();
}

// A class template, per instantiation and per object.
template <typename T> class RunningMean {
public:
  void update(const T &value) {
    sum_ = sum_ + value;
    ++count_;
  }
  float mean() const { return sum_.template data_ptr<float>()[0] / count_; }

private:
  T sum_ = T();
  int count_ = 0;
};

float running_means(const torch::Tensor &x) {
  RunningMean<torch::Tensor> on_device, on_host;
  on_device.update(x.cuda());
  on_host.update(x.cpu());
  return on_host.mean() + on_device.mean();
  // CHECK: :[[@LINE-1]]:37: warning: 'on_device.sum_' is on a CUDA device when 'mean' reads its memory on the host [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:22: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:13: note: 'on_device.sum_' is assigned here
  // CHECK: :[[@LINE-15]]:45: note: 'sum_' reaches host code here, inside the helper
}

// A method that copies to the host itself, and an object passed to code
// devplace cannot see: silent.
class SafeHistory {
public:
  void add(const torch::Tensor &value) { values_.push_back(value.cpu()); }
  float last() const { return values_.back().data_ptr<float>()[0]; }

private:
  std::vector<torch::Tensor> values_;
};
void reset(MetricHistory &history);
float unknown_after_opaque_call() {
  SafeHistory safe;
  safe.add(torch::ones({1}).cuda());
  MetricHistory history;
  history.add(torch::ones({1}).cuda());
  reset(history);
  return safe.last() + history.last();
}

// Constructors' arguments: what a constructor leaves in each member, in
// terms of its arguments, per object.
class RunningSum {
public:
  explicit RunningSum(torch::Device device) : sum_(torch::zeros({1}, device)) {}
  void add(const torch::Tensor &x) { sum_ += x.sum(); }
  float value() const { return sum_.data_ptr<float>()[0]; }
  // CHECK: :[[@LINE-1]]:37: warning: 'sum_' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE+7]]:26: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE+7]]:14: note: 'total.sum_' is assigned here

private:
  torch::Tensor sum_;
};
float constructed_on_the_device(bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  RunningSum total(device);
  return total.value();
}

// The same shape built on the host only: silent.
class HostSum {
public:
  explicit HostSum(torch::Device device) : sum_(torch::zeros({1}, device)) {}
  float value() const { return sum_.data_ptr<float>()[0]; }

private:
  torch::Tensor sum_;
};
float constructed_on_the_host() {
  HostSum total(torch::kCPU);
  return total.value();
}

// Pairs, tuples, structured bindings, std::get, std::tie, maps and arrays
// keep each element's device (devplace-host-sink).
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <map>
#include <string>
#include <tuple>
#include <utility>

float pairs() {
  auto p = std::make_pair(torch::ones({2}).cuda(), torch::ones({2}));
  float a = p.first.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:21: warning: 'p.first' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:44: note: the tensor is moved to a CUDA device here
  float b = p.second.data_ptr<float>()[0];
  return a + b;
}

float bindings_and_get() {
  auto t = std::make_tuple(torch::ones({2}), torch::zeros({2}).cuda());
  auto [host, dev] = t;
  float a = host.data_ptr<float>()[0] + dev.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:45: warning: 'dev' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:64: note: the tensor is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:15: note: 'dev' is assigned here
  float b = std::get<1>(t).data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:28: warning: 'std::get<1>(t)' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:64: note: the tensor is moved to a CUDA device here
  float c = std::get<0>(t).data_ptr<float>()[0];
  return a + b + c;
}

float tie() {
  torch::Tensor dev, host;
  std::tie(dev, host) = std::make_tuple(torch::ones({2}).cuda(), torch::ones({2}));
  return dev.data_ptr<float>()[0] + host.data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:14: warning: 'dev' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:58: note: the tensor is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:23: note: 'dev' is assigned here
}

std::pair<torch::Tensor, torch::Tensor> unknown_pair();
float unknown_elements_stay_silent() {
  auto [a, b] = unknown_pair();
  return a.data_ptr<float>()[0] + b.data_ptr<float>()[0];
}

float maps(const std::string &key) {
  std::map<std::string, torch::Tensor> metrics;
  metrics["acc"] = torch::ones({1}).cuda();
  float total = metrics.at(key).data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:33: warning: 'metrics.at(key)' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:37: note: the tensor is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:18: note: an element of 'metrics' is assigned here
  for (const auto &kv : metrics)
    total += kv.second.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:24: warning: 'kv.second' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-8]]:37: note: the tensor is moved to a CUDA device here
    // CHECK: :[[@LINE-9]]:18: note: an element of 'metrics' is assigned here
    // CHECK: :[[@LINE-5]]:20: note: 'kv' is assigned here
  for (const auto &[name, value] : metrics)
    total += value.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:20: warning: 'value' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-14]]:37: note: the tensor is moved to a CUDA device here
    // CHECK: :[[@LINE-15]]:18: note: an element of 'metrics' is assigned here
    // CHECK: :[[@LINE-5]]:20: note: is assigned here
    // CHECK: :[[@LINE-6]]:27: note: 'value' is assigned here
  return total;
}

float host_map() {
  std::map<std::string, torch::Tensor> metrics;
  metrics["acc"] = torch::ones({1});
  float total = 0;
  for (const auto &kv : metrics)
    total += kv.second.data_ptr<float>()[0];
  return total;
}

float arrays() {
  torch::Tensor both[2] = {torch::ones({2}).cuda(), torch::ones({2}).cuda()};
  torch::Tensor host[2] = {torch::ones({2}), torch::ones({2})};
  return both[1].data_ptr<float>()[0] + host[0].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:10: warning: 'both' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:45: note: the tensor is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:17: note: 'both' is assigned here
}

// Functions that return pairs and tuples: one summary per element, used by
// structured bindings, std::tie, std::get and .first/.second at the call.
std::tuple<torch::Tensor, torch::Tensor> split(const torch::Tensor &x) {
  auto dev = x.to(torch::kCUDA);
  return {dev * 2, x.to(torch::kCPU)};
}
std::pair<torch::Tensor, torch::Tensor> device_and_host(const torch::Tensor &x) {
  return std::make_pair(x.cuda(), x.cpu());
}
std::tuple<torch::Tensor, torch::Tensor> forwarded(const torch::Tensor &x) {
  return split(x);
}

float returned_elements(const torch::Tensor &x) {
  auto [d, h] = split(x);
  float a = h.data_ptr<float>()[0] + d.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:40: warning: 'd' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-14]]:16: note: 'dev' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:17: note: the tensor comes from 'split', which returns a result that may be on a CUDA device
  // CHECK: :[[@LINE-5]]:9: note: 'd' is assigned here
  torch::Tensor p, q;
  std::tie(p, q) = device_and_host(x);
  float b = q.data_ptr<float>()[0];
  auto t = forwarded(x);
  float c = std::get<1>(t).data_ptr<float>()[0];
  auto pr = device_and_host(x);
  return a + b + c + pr.second.data_ptr<float>()[0] + pr.first.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:64: warning: 'pr.first' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-21]]:27: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:13: note: the tensor comes from 'device_and_host', which returns a result that may be on a CUDA device
}

// Rows of a container built from tensor memory: a standard container's method
// that copies a [first, last) pointer range reads host memory, as
// std::vector<float>(p, p + n) does. One pointer is not a range.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

std::vector<std::vector<float>> rows_of(const torch::Tensor &x) {
  auto t = x.to(torch::kCUDA);
  const int64_t n = t.size(1);
  float *p = t.data_ptr<float>();
  std::vector<std::vector<float>> rows;
  for (int64_t r = 0; r < t.size(0); ++r)
    rows.emplace_back(p + r * n, p + (r + 1) * n);
  // CHECK: :[[@LINE-1]]:10: warning: 't' is on a CUDA device when its memory is passed to host code 'std::vector::emplace_back' here [devplace-host-sink]
  // CHECK: :[[@LINE-7]]:14: note: 't' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-6]]:16: note: 'p' points into the memory of 't'
  return rows;
}

std::vector<float> appended(const torch::Tensor &x, std::vector<float> out) {
  auto t = x.cuda();
  const float *p = t.data_ptr<float>();
  out.insert(out.end(), p, p + t.numel());
  // CHECK: :[[@LINE-1]]:7: warning: 't' is on a CUDA device when its memory is passed to host code 'std::vector::insert' here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:14: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:22: note: 'p' points into the memory of 't'
  return out;
}

void assigned(const torch::Tensor &x, std::vector<float> &v, std::string &bytes) {
  auto t = x.to(torch::kCUDA);
  float *p = t.data_ptr<float>();
  v.assign(p, p + t.numel());
  // CHECK: :[[@LINE-1]]:5: warning: 't' is on a CUDA device when its memory is passed to host code 'std::vector::assign' here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:14: note: 't' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:16: note: 'p' points into the memory of 't'
  auto *c = reinterpret_cast<char *>(p);
  bytes.append(c, c + 4 * t.numel());
  // CHECK: :[[@LINE-1]]:9: warning: 't' is on a CUDA device when its memory is passed to host code 'std::basic_string::append' here [devplace-host-sink]
  // CHECK: :[[@LINE-9]]:14: note: 't' is moved to 'torch::kCUDA' here
  // CHECK: :[[@LINE-9]]:16: note: 'p' points into the memory of 't'
  // CHECK: :[[@LINE-5]]:9: note: 'c' is assigned here
}

std::vector<float> copied(const torch::Tensor &x) {
  auto t = x.cuda();
  float *p = t.data_ptr<float>();
  std::vector<float> v;
  std::copy(p, p + t.numel(), std::back_inserter(v));
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is passed to host code 'std::copy' here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:14: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:16: note: 'p' points into the memory of 't'
  return v;
}

// Silent: the rows come from a host copy.
std::vector<std::vector<float>> rows_of_host_copy(const torch::Tensor &x) {
  auto t = x.to(torch::kCUDA).cpu();
  const int64_t n = t.size(1);
  float *p = t.data_ptr<float>();
  std::vector<std::vector<float>> rows;
  for (int64_t r = 0; r < t.size(0); ++r)
    rows.emplace_back(p + r * n, p + (r + 1) * n);
  return rows;
}

// Silent: one pointer is an element of a vector of pointers, not a range.
std::vector<float *> pointers(const torch::Tensor &x) {
  auto t = x.cuda();
  std::vector<float *> ptrs;
  ptrs.emplace_back(t.data_ptr<float>());
  ptrs.insert(ptrs.begin(), t.data_ptr<float>());
  return ptrs;
}

// Silent: a class of the project's own whose insert devplace cannot see.
struct Ring {
  void insert(const float *first, const float *last);
};
void ring(const torch::Tensor &x, Ring &r) {
  auto t = x.cuda();
  float *p = t.data_ptr<float>();
  r.insert(p, p + 4);
}

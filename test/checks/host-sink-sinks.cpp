// Every kind of host sink, each reached by a CUDA tensor.
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <opencv2/core.hpp>
#include <matplotlibcpp.h>
#include <string>
#include <vector>

void sinks(FILE *out, std::ifstream &in, std::ofstream &os, float *dst) {
  auto t = torch::ones({4, 4}).cuda();
  const int64_t n = t.numel();
  float *p = t.data_ptr<float>();

  auto acc = t.accessor<float, 2>();
  // CHECK: :[[@LINE-1]]:16: warning: 't' is on a CUDA device when a host accessor to it is made here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:32: note: 't' is moved to a CUDA device here
  float first = *p;
  // CHECK: :[[@LINE-1]]:17: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-9]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-8]]:16: note: 'p' points into the memory of 't'
  p[1] = 2.0f;
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is written on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-13]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-12]]:16: note: 'p' points into the memory of 't'
  float v = t.data_ptr<float>()[3];
  // CHECK: :[[@LINE-1]]:15: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-17]]:32: note: 't' is moved to a CUDA device here
  float w = *static_cast<float *>(t.data_ptr());
  // CHECK: :[[@LINE-1]]:13: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-20]]:32: note: 't' is moved to a CUDA device here
  float d = t.data<float>()[0];
  // CHECK: :[[@LINE-1]]:15: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-23]]:32: note: 't' is moved to a CUDA device here
  float m = t.mutable_data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:15: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-26]]:32: note: 't' is moved to a CUDA device here
  float c = t.const_data_ptr<float>()[1];
  // CHECK: :[[@LINE-1]]:15: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-29]]:32: note: 't' is moved to a CUDA device here

  std::memcpy(dst, p, n * sizeof(float));
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is passed to host code 'memcpy' here [devplace-host-sink]
  // CHECK: :[[@LINE-33]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-32]]:16: note: 'p' points into the memory of 't'
  memmove(dst, p, n * sizeof(float));
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is passed to host code 'memmove' here [devplace-host-sink]
  // CHECK: :[[@LINE-37]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-36]]:16: note: 'p' points into the memory of 't'
  std::memset(p, 0, n * sizeof(float));
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is passed to host code 'memset' here [devplace-host-sink]
  // CHECK: :[[@LINE-41]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-40]]:16: note: 'p' points into the memory of 't'
  std::copy(p, p + n, dst);
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is passed to host code 'std::copy' here [devplace-host-sink]
  // CHECK: :[[@LINE-45]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-44]]:16: note: 'p' points into the memory of 't'
  float sum = std::accumulate(p, p + n, 0.0f);
  // CHECK: :[[@LINE-1]]:15: warning: 't' is on a CUDA device when its memory is passed to host code 'std::accumulate' here [devplace-host-sink]
  // CHECK: :[[@LINE-49]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-48]]:16: note: 'p' points into the memory of 't'
  std::vector<float> vec(p, p + n);
  // CHECK: :[[@LINE-1]]:22: warning: 't' is on a CUDA device when its memory is wrapped by host type 'std::vector' here [devplace-host-sink]
  // CHECK: :[[@LINE-53]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-52]]:16: note: 'p' points into the memory of 't'
  vec.assign(p, p + n);
  // CHECK: :[[@LINE-1]]:7: warning: 't' is on a CUDA device when its memory is passed to host code 'std::vector::assign' here [devplace-host-sink]
  // CHECK: :[[@LINE-57]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-56]]:16: note: 'p' points into the memory of 't'
  vec.insert(vec.end(), p, p + n);
  // CHECK: :[[@LINE-1]]:7: warning: 't' is on a CUDA device when its memory is passed to host code 'std::vector::insert' here [devplace-host-sink]
  // CHECK: :[[@LINE-61]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-60]]:16: note: 'p' points into the memory of 't'
  std::fwrite(p, sizeof(float), n, out);
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is passed to host code 'fwrite' here [devplace-host-sink]
  // CHECK: :[[@LINE-65]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-64]]:16: note: 'p' points into the memory of 't'
  in.read(reinterpret_cast<char *>(p), n * sizeof(float));
  // CHECK: :[[@LINE-1]]:6: warning: 't' is on a CUDA device when its memory is passed to host code 'std::basic_istream::read' here [devplace-host-sink]
  // CHECK: :[[@LINE-69]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-68]]:16: note: 'p' points into the memory of 't'
  os.write(reinterpret_cast<const char *>(p), n * sizeof(float));
  // CHECK: :[[@LINE-1]]:6: warning: 't' is on a CUDA device when its memory is passed to host code 'std::basic_ostream::write' here [devplace-host-sink]
  // CHECK: :[[@LINE-73]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-72]]:16: note: 'p' points into the memory of 't'
  cv::Mat image(4, 4, CV_32FC1, p);
  // CHECK: :[[@LINE-1]]:11: warning: 't' is on a CUDA device when its memory is wrapped by host type 'cv::Mat' here [devplace-host-sink]
  // CHECK: :[[@LINE-77]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-76]]:16: note: 'p' points into the memory of 't'
  Eigen::Map<Eigen::MatrixXf> map(p, 4, 4);
  // CHECK: :[[@LINE-1]]:31: warning: 't' is on a CUDA device when its memory is wrapped by host type 'Eigen::Map' here [devplace-host-sink]
  // CHECK: :[[@LINE-81]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-80]]:16: note: 'p' points into the memory of 't'
  matplotlibcpp::imshow(p, 4, 4, 1);
  // CHECK: :[[@LINE-1]]:3: warning: 't' is on a CUDA device when its memory is passed to host code 'matplotlibcpp::imshow' here [devplace-host-sink]
  // CHECK: :[[@LINE-85]]:32: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-84]]:16: note: 'p' points into the memory of 't'
}

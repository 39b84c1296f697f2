// Plain structs of tensors keep each member's device, per object: local
// aggregates, members assigned one by one, structs returned by functions
// (devplace-host-sink).
// RUN: %tidy_load --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <utility>
#include <vector>

struct Stats {
  torch::Tensor loss;
  torch::Tensor acc;
  int count = 0;
};

struct Output {
  torch::Tensor main;
  torch::Tensor aux;
};

float local_aggregate(torch::Tensor a, torch::Tensor b) {
  torch::Device dev(torch::kCUDA);
  Stats s{a.to(dev), b.cpu()};
  float x = s.loss.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:20: warning: 's.loss' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:21: note: 'dev' is set to 'torch::kCUDA' here
  // CHECK: :[[@LINE-4]]:13: note: 'a' is moved to 'dev' here
  // CHECK: :[[@LINE-5]]:9: note: 's.loss' is assigned here
  float y = s.acc.data_ptr<float>()[0];
  return x + y;
}

// Each object has its own members: a host copy in one, a device tensor in
// the other.
float two_objects(torch::Tensor a) {
  Stats host{a.cpu(), a.cpu()};
  Stats dev{a.cuda(), a.cuda()};
  float x = host.loss.data_ptr<float>()[0];
  float y = dev.acc.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:21: warning: 'dev.acc' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:25: note: 'a' is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:9: note: 'dev.acc' is assigned here
  return x + y;
}

// The fix of the story: the member is made a host value before it is read.
float reassigned(torch::Tensor a) {
  Stats s{a.cuda(), a.cpu()};
  s.loss = s.loss.cpu();
  return s.loss.data_ptr<float>()[0];
}

Output make(torch::Tensor x) {
  Output o;
  o.main = x.cuda();
  o.aux = x.cpu();
  return o;
}

Output braced(torch::Tensor x) { return Output{x.cpu(), x.cuda()}; }
Output keeps(torch::Tensor x) { return {x.cpu(), x}; }
Output moved(torch::Tensor x) {
  Output o{x.cpu(), x.cpu()};
  return std::move(o);
}

float returned(torch::Tensor x) {
  Output o = make(x);
  float a = o.main.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:20: warning: 'o.main' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-16]]:14: note: 'o.main' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:14: note: the tensor comes from 'make', which returns a result that may be on a CUDA device
  // CHECK: :[[@LINE-5]]:10: note: 'o.main' is assigned here
  float b = o.aux.data_ptr<float>()[0];
  float c = braced(x).aux.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:27: warning: 'braced(x).aux' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-17]]:59: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-3]]:13: note: the tensor comes from 'braced', which returns a result that may be on a CUDA device
  float d = braced(x).main.data_ptr<float>()[0];
  auto [m, aux] = make(x);
  float e = m.data_ptr<float>()[0] + aux.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:15: warning: 'm' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-28]]:14: note: 'o.main' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:19: note: the tensor comes from 'make', which returns a result that may be on a CUDA device
  // CHECK: :[[@LINE-5]]:9: note: 'm' is assigned here
  // The member follows the argument: the caller's device.
  float f = keeps(x.cuda()).aux.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:33: warning: 'keeps(x.cuda()).aux' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-2]]:21: note: 'x' is moved to a CUDA device here
  float g = keeps(x.cuda()).main.data_ptr<float>()[0];
  float h = moved(x.cuda()).main.data_ptr<float>()[0];
  return a + b + c + d + e + f + g + h;
}

// Members collected in a loop.
float history(std::vector<torch::Tensor> xs) {
  struct History {
    std::vector<torch::Tensor> values;
  } h;
  for (auto &x : xs)
    h.values.push_back(x.cuda());
  float sum = 0;
  for (auto &v : h.values)
    sum += v.data_ptr<float>()[0];
    // CHECK: :[[@LINE-1]]:14: warning: 'v' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
    // CHECK: :[[@LINE-5]]:26: note: 'x' is moved to a CUDA device here
    // CHECK: :[[@LINE-6]]:14: note: an element is added to 'h.values' here
    // CHECK: :[[@LINE-5]]:14: note: 'v' is assigned here
  return sum;
}

// What the analysis cannot follow is unknown: an object passed by non-const
// reference to a function not seen here, members left to their defaults.
void refill(Stats &s);
float changed_by_a_call(torch::Tensor a) {
  Stats s{a.cuda(), a.cuda()};
  refill(s);
  Stats empty;
  return s.loss.data_ptr<float>()[0] + empty.loss.data_ptr<float>()[0];
}

// A helper that moves one member of a struct passed by reference: the
// caller's object gets that member's device from the helper's summary and
// keeps the others as they were (still on the host).
struct Batch {
  torch::Tensor images;
  torch::Tensor labels;
};
static void to_device(Batch &b, torch::Device d) { b.images = b.images.to(d); }

float one_member_moved(bool gpu) {
  torch::Device device = gpu ? torch::kCUDA : torch::kCPU;
  Batch b{torch::ones({4}), torch::ones({4})};
  to_device(b, device);
  float label = b.labels.data_ptr<float>()[0];
  return label + b.images.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:27: warning: 'b.images' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:26: note: 'device' is a CUDA device when 'gpu' is true
}

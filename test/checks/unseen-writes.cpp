// Writes the analysis cannot see make a value unknown, never host; writes
// through another name for a value (a structured binding, a range-for
// reference, a pointer, std::swap, std::exchange, an element) reach the
// value. Each shape has a positive, where the write is seen and reaches a
// host read or a mismatch, and a silent twin, where the callee is not known
// or the write moves the tensor back.
// RUN: %tidy_load --checks='-*,devplace-device-mismatch,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-device-mismatch,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <tuple>
#include <utility>
#include <vector>

// Defined in another file: what they write is not known.
void decode(const torch::Tensor &raw, torch::Tensor &out);
void decode_into(const torch::Tensor &raw, torch::Tensor *out);
struct Loader {
  void fill(torch::Tensor &t);
};
std::tuple<torch::Tensor, torch::Tensor> split(const torch::Tensor &x);

// Defined here: what they write is followed.
void decode_gpu(const torch::Tensor &raw, torch::Tensor &out) {
  out = raw.cuda();
}
void decode_gpu_into(const torch::Tensor &raw, torch::Tensor *out) {
  *out = raw.cuda();
}

torch::Tensor out_parameter_unknown(const torch::Tensor &raw) {
  torch::Tensor out = torch::zeros({3});
  decode(raw, out);
  auto w = torch::ones({3}).to(torch::kCUDA);
  return out + w;
}

float out_parameter_seen(const torch::Tensor &raw) {
  torch::Tensor out = torch::zeros({3});
  decode_gpu(raw, out);
  return out.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:14: warning: 'out' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-18]]:13: note: 'out' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:3: note: 'out' is moved by 'decode_gpu' here
}

torch::Tensor undefined_out_parameter(const torch::Tensor &raw) {
  torch::Tensor out; // undefined: no evidence of the host
  decode(raw, out);
  auto w = torch::ones({3}).to(torch::kCUDA);
  return out + w;
}

torch::Tensor pointer_out_parameter(const torch::Tensor &raw) {
  torch::Tensor out = torch::zeros({3});
  decode_into(raw, &out);
  auto w = torch::ones({3}).to(torch::kCUDA);
  return out + w;
}

torch::Tensor pointer_out_parameter_seen(const torch::Tensor &raw) {
  torch::Tensor out = torch::zeros({3});
  decode_gpu_into(raw, &out); // a summary follows references, not pointers
  auto w = torch::ones({3}).to(torch::kCUDA);
  return out + w;
}

torch::Tensor method_of_another_file(Loader &loader) {
  torch::Tensor t = torch::zeros({3});
  loader.fill(t);
  auto w = torch::ones({3}).to(torch::kCUDA);
  return t + w;
}

torch::Tensor loaded_tensor() {
  torch::Tensor t = torch::zeros({3});
  torch::load(t, "t.pt");
  auto w = torch::ones({3}).to(torch::kCUDA);
  return t + w;
}

torch::Tensor loaded_tensor_twin() {
  torch::Tensor t = torch::zeros({3});
  torch::save(t, "t.pt"); // reads it
  auto w = torch::ones({3}).to(torch::kCUDA);
  return t + w;
  // CHECK: :[[@LINE-1]]:12: warning: 'w' is on a CUDA device and 't' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:29: note: 'w' is moved to 'torch::kCUDA' here
}

torch::Tensor written_in_place(const torch::Tensor &a) {
  torch::Tensor out = torch::zeros({3});
  at::add_out(out, a, a); // writes out in place: it stays on the host
  auto w = torch::ones({3}).to(torch::kCUDA);
  return out + w;
  // CHECK: :[[@LINE-1]]:14: warning: 'w' is on a CUDA device and 'out' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-3]]:29: note: 'w' is moved to 'torch::kCUDA' here
}

float binding_moved_back(const torch::Tensor &x) {
  auto [boxes, scores] = std::make_tuple(x.cuda(), x.cuda());
  boxes = boxes.cpu();
  return boxes.data_ptr<float>()[0];
}

float binding_moved_to_gpu(const torch::Tensor &x) {
  auto [boxes, scores] = split(x);
  boxes = boxes.cuda();
  return boxes.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:16: warning: 'boxes' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:17: note: 'boxes' is moved to a CUDA device here
}

float reference_binding_writes_the_pair(const torch::Tensor &x) {
  auto pair = std::make_pair(x.cuda(), x);
  auto &[first, second] = pair;
  first = first.cpu();
  return pair.first.data_ptr<float>()[0];
}

// Every iteration replaces its element: whatever element is read after the
// loop is one it moved.
float range_for_reference(std::vector<torch::Tensor> batch) {
  for (auto &t : batch)
    t = t.cuda();
  return batch[0].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:19: warning: 'batch[0]' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:11: note: 't' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:7: note: an element of 'batch' is assigned here
}

float range_for_moves_every_element_back(const torch::Tensor &x) {
  std::vector<torch::Tensor> outs{x.cuda(), x.cuda() * 2};
  for (auto &t : outs)
    t = t.cpu();
  return outs[0].data_ptr<float>()[0];
}

float range_for_stops_early(const torch::Tensor &x, int n) {
  std::vector<torch::Tensor> outs{x.cuda(), x.cuda() * 2};
  for (auto &t : outs) {
    t = t.cpu();
    if (--n == 0)
      break; // the elements after it stay on the device
  }
  return outs[1].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:18: warning: 'outs[1]' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-8]]:37: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-9]]:30: note: 'outs' is assigned here
}

float range_for_moves_some_back(const torch::Tensor &x) {
  std::vector<torch::Tensor> outs{x.cuda(), x.cuda() * 2};
  for (auto &t : outs)
    if (t.dim() > 1)
      t = t.cpu();
  return outs[0].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:18: warning: 'outs[0]' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:37: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-7]]:30: note: 'outs' is assigned here
}

float element_moved_back(const torch::Tensor &x) {
  std::vector<torch::Tensor> v{x.cuda()};
  v[0] = v[0].cpu(); // which element is not followed: the others are unknown
  return v[0].data_ptr<float>()[0];
}

float element_moved_to_the_device(const torch::Tensor &x) {
  std::vector<torch::Tensor> v{x.cpu()};
  v[0] = v[0].cuda();
  return v[0].data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:15: warning: 'v[0]' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:15: note: the tensor is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:8: note: an element of 'v' is assigned here
}

float range_for_copy(std::vector<torch::Tensor> batch) {
  for (auto t : batch) // a copy: the batch is not written
    t = t.cuda();
  return batch[0].data_ptr<float>()[0];
}

float pointer_to_local(const torch::Tensor &x) {
  torch::Tensor t = x.cuda();
  torch::Tensor *p = &t;
  *p = p->cpu();
  return t.data_ptr<float>()[0];
}

float exchanged(const torch::Tensor &x) {
  torch::Tensor t = x.cpu();
  torch::Tensor old = std::exchange(t, x.cuda());
  return t.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 't' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:42: note: 't' is moved to a CUDA device here
}

float exchanged_back(const torch::Tensor &x) {
  torch::Tensor t = x.cuda();
  torch::Tensor old = std::exchange(t, x.cpu());
  return t.data_ptr<float>()[0];
}

float swapped(const torch::Tensor &x) {
  torch::Tensor t = x.cuda();
  torch::Tensor h = torch::zeros({3});
  std::swap(t, h);
  float a = t.data_ptr<float>()[0];
  return a + h.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:16: warning: 'h' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:23: note: 't' is moved to a CUDA device here
}

torch::Tensor accumulated_from_undefined(const torch::Tensor &x, int n) {
  torch::Tensor acc;
  auto w = x.cuda();
  for (int i = 0; i < n; ++i)
    acc = acc.defined() ? acc + w : w;
  return acc + torch::ones({3});
  // CHECK: :[[@LINE-1]]:14: warning: 'acc' is on a CUDA device and 'torch::ones({3})' is on the host: they must be on the same device for this operation [devplace-device-mismatch]
  // CHECK: :[[@LINE-5]]:14: note: 'w' is moved to a CUDA device here
  // CHECK: :[[@LINE-4]]:9: note: 'acc' is assigned here
}

// References bound to a part of an object that is not a variable (an
// element through std::get, a member of a local struct): a write through the
// reference makes that object's parts unknown, and a write to the object
// makes the reference unknown. Each with a positive twin.
float element_reference_writes_the_pair(const torch::Tensor &x) {
  auto pair = std::make_pair(x.cuda(), x);
  auto &first = std::get<0>(pair);
  first = first.cpu();
  return pair.first.data_ptr<float>()[0];
}

float element_reference_moved_to_gpu(const torch::Tensor &x) {
  auto pair = std::make_pair(x.cpu(), x);
  auto &first = std::get<0>(pair);
  first = first.cuda();
  return first.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:16: warning: 'first' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-3]]:17: note: 'first' is moved to a CUDA device here
}

struct Heads {
  torch::Tensor main, aux;
};

float member_reference_writes_the_object(const torch::Tensor &x) {
  Heads h{x.cuda(), x.cpu()};
  auto &m = h.main;
  m = m.cpu();
  return h.main.data_ptr<float>()[0];
}

float member_reference_reads_the_member(const torch::Tensor &x) {
  Heads h{x.cuda(), x.cpu()};
  auto &m = h.main;
  return m.data_ptr<float>()[0];
  // CHECK: :[[@LINE-1]]:12: warning: 'm' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
  // CHECK: :[[@LINE-4]]:13: note: 'x' is moved to a CUDA device here
  // CHECK: :[[@LINE-5]]:9: note: 'h.main' is assigned here
  // CHECK: :[[@LINE-5]]:9: note: 'm' is assigned here
}

float object_written_under_the_reference(const torch::Tensor &x) {
  Heads h{x.cuda(), x.cpu()};
  auto &m = h.main;
  h.main = h.main.cpu();
  return m.data_ptr<float>()[0];
}

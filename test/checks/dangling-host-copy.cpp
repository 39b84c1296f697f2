// devplace-dangling-host-copy: pointers and views into temporary tensors
// that outlive the statement; uses inside the statement are fine.
// RUN: %check_fixes devplace-dangling-host-copy
// RUN: not %devplace --checks='-*,devplace-dangling-host-copy' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <opencv2/core.hpp>
#include <Eigen/Core>
#include <cstring>
#include <vector>

void dangling(torch::Tensor mask, torch::Tensor x, float *out) {
  const float *p = x.cpu().data_ptr<float>();
  // CHECK: :[[@LINE-1]]:28: warning: 'p' keeps a pointer into the temporary tensor 'x.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  // FIXES: {{^ *}}auto x_host = x.cpu();{{$}}
  // FIXES: {{^ *}}const float *p = x_host.data_ptr<float>();{{$}}
  std::memcpy(out, p, 4 * sizeof(float));
  cv::Mat view(4, 4, CV_8UC1, mask.to(torch::kCPU).contiguous().data_ptr<uint8_t>());
  // CHECK: :[[@LINE-1]]:65: warning: 'view' keeps a pointer into the temporary tensor 'mask.to(torch::kCPU).contiguous()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  // FIXES: {{^ *}}auto mask_host = mask.to(torch::kCPU).contiguous();{{$}}
  cv::imwrite("mask.png", view);
  Eigen::Map<Eigen::MatrixXf> m(x.cpu().data_ptr<float>(), 2, 2);
  // CHECK: :[[@LINE-1]]:41: warning: 'm' keeps a pointer into the temporary tensor 'x.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  auto wrapped = torch::from_blob(x.cpu().data_ptr<float>(), {4});
  // CHECK: :[[@LINE-1]]:43: warning: 'wrapped' keeps a pointer into the temporary tensor 'x.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  float *q;
  q = x.cpu().data_ptr<float>();
  // CHECK: :[[@LINE-1]]:15: warning: 'q' keeps a pointer into the temporary tensor 'x.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  torch::Tensor rewrapped;
  rewrapped = torch::from_blob(x.cpu().data_ptr<float>(), {4});
  // CHECK: :[[@LINE-1]]:40: warning: 'rewrapped' keeps a pointer into the temporary tensor 'x.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  out[0] = *q + m.sum() + wrapped.sum().item<float>() +
           rewrapped.sum().item<float>();
}

void fine(torch::Tensor mask, torch::Tensor x, float *out) {
  std::memcpy(out, x.cpu().data_ptr<float>(), 4 * sizeof(float));
  std::vector<float> copy(x.cpu().data_ptr<float>(), x.cpu().data_ptr<float>() + 4);
  cv::imwrite("mask.png", cv::Mat(4, 4, CV_8UC1, mask.cpu().data_ptr<uint8_t>()));
  cv::Mat owned = cv::Mat(4, 4, CV_8UC1, mask.cpu().data_ptr<uint8_t>()).clone();
  auto host = x.cpu();
  const float *p = host.data_ptr<float>();
  auto cloned = torch::from_blob(x.cpu().data_ptr<float>(), {4}).clone();
  torch::Tensor recloned;
  recloned = torch::from_blob(x.cpu().data_ptr<float>(), {4}).clone();
  out[0] = p[0] + cloned.sum().item<float>() + recloned.sum().item<float>();
}

// Views into a named copy that leave the function: the copy is local, and
// on a GPU machine it is the only owner of that memory.
cv::Mat to_mat(torch::Tensor t) {
  t = t.to(torch::kCPU);
  return cv::Mat(2, 2, CV_32FC1, t.data_ptr<float>());
  // CHECK: :[[@LINE-1]]:36: warning: the returned value keeps a pointer into 't', a tensor copy local to 'to_mat', which is destroyed when the function returns [devplace-dangling-host-copy]
}
float *raw_pointer(const torch::Tensor &x) {
  auto h = x.cpu();
  return h.data_ptr<float>();
  // CHECK: :[[@LINE-1]]:12: warning: the returned value keeps a pointer into 'h', a tensor copy local to 'raw_pointer', which is destroyed when the function returns [devplace-dangling-host-copy]
}
void out_parameters(const torch::Tensor &x, cv::Mat &out, float **p) {
  auto h = x.cpu();
  out = cv::Mat(2, 2, CV_32FC1, h.data_ptr<float>());
  // CHECK: :[[@LINE-1]]:35: warning: out-parameter 'out' keeps a pointer into 'h', a tensor copy local to 'out_parameters', which is destroyed when the function returns [devplace-dangling-host-copy]
  *p = h.data_ptr<float>();
  // CHECK: :[[@LINE-1]]:10: warning: out-parameter 'p' keeps a pointer into 'h', a tensor copy local to 'out_parameters', which is destroyed when the function returns [devplace-dangling-host-copy]
}
torch::Tensor wrapped_copy(const torch::Tensor &x) {
  auto h = x.cpu();
  return torch::from_blob(h.data_ptr<float>(), {4});
  // CHECK: :[[@LINE-1]]:29: warning: the returned value keeps a pointer into 'h', a tensor copy local to 'wrapped_copy', which is destroyed when the function returns [devplace-dangling-host-copy]
}

// Silent: an owning copy leaves, the view stays inside, the pointer is into
// the caller's tensor, or the copy is shared with something that outlives it.
cv::Mat cloned(const torch::Tensor &x) {
  auto h = x.cpu();
  return cv::Mat(2, 2, CV_32FC1, h.data_ptr<float>()).clone();
}
void used_inside(const torch::Tensor &x) {
  auto h = x.cpu();
  cv::Mat m(2, 2, CV_32FC1, h.data_ptr<float>());
  cv::imwrite("m.png", m);
}
float *into_parameter(torch::Tensor t) { return t.data_ptr<float>(); }
std::vector<torch::Tensor> kept;
float *kept_alive(const torch::Tensor &x) {
  auto h = x.cpu();
  kept.push_back(h);
  return h.data_ptr<float>();
}

// Silent: a row of a named tensor (`h[0]`) is a view of h's memory, and h
// outlives the pointer. Its twin indexes with a tensor, which copies.
float rows(const torch::Tensor &x, const torch::Tensor &index) {
  torch::Tensor h = x.cpu();
  float *row = h[0].data_ptr<float>();
  float *picked = h[index].data_ptr<float>();
  // CHECK: :[[@LINE-1]]:28: warning: 'picked' keeps a pointer into the temporary tensor 'h[index]', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  // FIXES: {{^ *}}auto host_copy = h[index];{{$}}
  // FIXES: {{^ *}}float *picked = host_copy.data_ptr<float>();{{$}}
  return row[0] + picked[0];
}

// `t.cpu()` of a tensor proven on the host on every path is `t` itself, not
// a copy: silent. The same code on a tensor that may be on a device, or one
// whose device is unknown, is reported; so is a move that also converts the
// type, which copies on the host too.
float host_tensor_copied_to_host(bool gpu, const torch::Tensor &unseen) {
  auto t = torch::ones({4});
  float *p = t.cpu().data_ptr<float>();
  float *q = t.to(torch::kCPU).data_ptr<float>();
  torch::Device dev = gpu ? torch::kCUDA : torch::kCPU;
  auto u = torch::ones({4}).to(dev);
  float *r = u.cpu().data_ptr<float>();
  // CHECK: :[[@LINE-1]]:22: warning: 'r' keeps a pointer into the temporary tensor 'u.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  // FIXES: {{^ *}}auto u_host = u.cpu();{{$}}
  float *s = unseen.cpu().data_ptr<float>();
  // CHECK: :[[@LINE-1]]:27: warning: 's' keeps a pointer into the temporary tensor 'unseen.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  // FIXES: {{^ *}}auto unseen_host = unseen.cpu();{{$}}
  float *d = t.to(torch::kCPU, torch::kDouble).data_ptr<float>();
  // CHECK: :[[@LINE-1]]:48: warning: 'd' keeps a pointer into the temporary tensor 't.to(torch::kCPU, torch::kDouble)', which is destroyed at the end of this statement [devplace-dangling-host-copy]
  // FIXES: {{^ *}}auto t_host = t.to(torch::kCPU, torch::kDouble);{{$}}
  return p[0] + q[0] + r[0] + s[0] + d[0];
}

// Every iteration of the loop moves its element to the host device chosen
// here: what is read after it is on the host.
float replaced_on_the_host() {
  torch::Device dev(torch::kCPU);
  std::vector<torch::Tensor> v{torch::ones({4}), torch::ones({4})};
  for (auto &x : v)
    x = x.to(dev);
  auto t = v[1];
  float *p = t.cpu().data_ptr<float>();
  return p[0];
}

// Image writers (stb_image_write) read host memory through their data
// pointer: a tensor saved straight from a device is garbage or a crash.
// RUN: %check_fixes devplace-host-sink
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <stb_image_write.h>

void save(const char *path, bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto img = torch::zeros({64, 64, 3}).to(device);
  // FIXES: {{^ *}}auto img_host = img.cpu();{{$}}
  // FIXES-NEXT: {{^ *}}stbi_write_hdr(path, 64, 64, 3, img_host.data_ptr<float>());{{$}}
  stbi_write_hdr(path, 64, 64, 3, img.data_ptr<float>());
  // CHECK: :[[@LINE-1]]:3: warning: 'img' may be on a CUDA device when its memory is passed to host code 'stbi_write_hdr' here [devplace-host-sink]
  // CHECK: :[[@LINE-6]]:26: note: 'device' is a CUDA device when 'use_gpu' is true
  // CHECK: :[[@LINE-6]]:40: note: 'img' is moved to 'device' here
}

void save_png(const char *path) {
  auto img = torch::zeros({64, 64, 3}).cuda();
  // FIXES: {{^ *}}auto img_host = img.cpu();{{$}}
  // FIXES-NEXT: {{^ *}}stbi_write_png(path, 64, 64, 3, img_host.data_ptr(), 64 * 3);{{$}}
  stbi_write_png(path, 64, 64, 3, img.data_ptr(), 64 * 3);
  // CHECK: :[[@LINE-1]]:3: warning: 'img' is on a CUDA device when its memory is passed to host code 'stbi_write_png' here [devplace-host-sink]
  // CHECK: :[[@LINE-5]]:40: note: 'img' is moved to a CUDA device here
}

// The twin: the image is copied to the host first.
void save_host(const char *path, bool use_gpu) {
  torch::Device device = use_gpu ? torch::kCUDA : torch::kCPU;
  auto img = torch::zeros({64, 64, 3}).to(device).cpu();
  stbi_write_jpg(path, 64, 64, 3, img.data_ptr(), 90);
  stbi_write_bmp(path, 64, 64, 3, img.data_ptr());
}

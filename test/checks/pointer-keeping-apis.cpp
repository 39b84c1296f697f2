// APIs that keep a pointer beyond the call (cudaMemcpyAsync, TensorRT's
// tensor addresses) and APIs that expect device memory (TensorRT): a pointer
// into a temporary copy dangles (devplace-dangling-host-copy), and a pointer
// into a tensor on the host is the wrong memory (devplace-host-sink). Each
// shape has a silent twin.
// RUN: %tidy_load --checks='-*,devplace-dangling-host-copy,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-dangling-host-copy,devplace-host-sink' %s -- %mock_flags | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include <torch/torch.h>
#include <NvInfer.h>
#include <cuda_runtime_api.h>
#include <opencv2/core.hpp>
#include <vector>

void async_copy_from_temporary(const torch::Tensor &x, float *dst, cudaStream_t stream) {
  cudaMemcpyAsync(dst, x.cpu().data_ptr<float>(), x.numel() * sizeof(float),
  // CHECK: :[[@LINE-1]]:32: warning: 'cudaMemcpyAsync' keeps a pointer into the temporary tensor 'x.cpu()' beyond the call, and the tensor is destroyed at the end of this statement [devplace-dangling-host-copy]
                  cudaMemcpyHostToDevice, stream);
}

// Silent: a synchronous copy reads the temporary before it is destroyed.
void sync_copy_from_temporary(const torch::Tensor &x, float *dst) {
  cudaMemcpy(dst, x.cpu().data_ptr<float>(), x.numel() * sizeof(float),
             cudaMemcpyHostToDevice);
}

// Silent: the copy is named and lives until the stream has finished.
void async_copy_from_named_copy(const torch::Tensor &x, float *dst, cudaStream_t stream) {
  torch::Tensor host = x.cpu();
  cudaMemcpyAsync(dst, host.data_ptr<float>(), host.numel() * sizeof(float),
                  cudaMemcpyHostToDevice, stream);
  cudaStreamSynchronize(stream);
}

void engine_input_from_temporary(nvinfer1::IExecutionContext *context, const torch::Tensor &x,
                                 cudaStream_t stream) {
  context->setTensorAddress("images", x.to(torch::kCUDA).data_ptr());
  // CHECK: :[[@LINE-1]]:58: warning: 'nvinfer1::IExecutionContext::setTensorAddress' keeps a pointer into the temporary tensor 'x.to(torch::kCUDA)' beyond the call, and the tensor is destroyed at the end of this statement [devplace-dangling-host-copy]
  context->enqueueV3(stream);
}

// Silent: the device copy is named and outlives the enqueue.
void engine_input_named(nvinfer1::IExecutionContext *context, const torch::Tensor &x,
                        cudaStream_t stream) {
  torch::Tensor input = x.to(torch::kCUDA);
  context->setTensorAddress("images", input.data_ptr());
  context->enqueueV3(stream);
}

void engine_output_on_host(nvinfer1::IExecutionContext *context, cudaStream_t stream) {
  torch::Tensor output = torch::empty({1, 25200, 85});
  context->setTensorAddress("output", output.data_ptr<float>());
  // CHECK: :[[@LINE-1]]:39: warning: 'output' is on the host when its memory is passed to 'nvinfer1::IExecutionContext::setTensorAddress', which expects device memory [devplace-host-sink]
  context->enqueueV3(stream);
}

// Silent: the output is allocated on the device.
void engine_output_on_device(nvinfer1::IExecutionContext *context, cudaStream_t stream) {
  torch::Tensor output = torch::empty({1, 25200, 85}, torch::kCUDA);
  context->setTensorAddress("output", output.data_ptr<float>());
  context->enqueueV3(stream);
}

// Silent: on the host only where no CUDA device is there to run the engine.
void engine_output_chosen(nvinfer1::IExecutionContext *context, cudaStream_t stream) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::Tensor output = torch::empty({1, 25200, 85}, device);
  context->setTensorAddress("output", output.data_ptr<float>());
  context->enqueueV3(stream);
}

// Silent: a tensor whose device is not known.
void engine_output_unknown(nvinfer1::IExecutionContext *context, torch::Tensor output) {
  context->setInputTensorAddress("output", output.data_ptr<float>());
}

// Views returned to the caller: over a temporary copy, or over a buffer the
// function owns.
cv::Mat returned_view(const torch::Tensor &t) {
  return cv::Mat(2, 2, CV_32FC1, t.cpu().data_ptr<float>());
  // CHECK: :[[@LINE-1]]:42: warning: the returned value keeps a pointer into the temporary tensor 't.cpu()', which is destroyed at the end of this statement [devplace-dangling-host-copy]
}

torch::Tensor returned_blob(int n) {
  std::vector<float> buffer(n, 0.f);
  return torch::from_blob(buffer.data(), {n});
  // CHECK: :[[@LINE-1]]:34: warning: the returned value keeps a pointer into 'buffer', a buffer local to 'returned_blob', which is destroyed when the function returns [devplace-dangling-host-copy]
}

torch::Tensor returned_blob_of_array() {
  float values[4] = {1, 2, 3, 4};
  return torch::from_blob(values, {4});
  // CHECK: :[[@LINE-1]]:27: warning: the returned value keeps a pointer into 'values', a buffer local to 'returned_blob_of_array', which is destroyed when the function returns [devplace-dangling-host-copy]
}

// Silent: an owning copy is returned.
torch::Tensor returned_blob_cloned(int n) {
  std::vector<float> buffer(n, 0.f);
  return torch::from_blob(buffer.data(), {n}).clone();
}

// Silent: the buffer is the caller's.
torch::Tensor returned_blob_of_caller(std::vector<float> &buffer) {
  return torch::from_blob(buffer.data(), {static_cast<int64_t>(buffer.size())});
}

// Silent: a temporary view shares the memory of a tensor that outlives it.
float *row_of(const torch::Tensor &t, int64_t i) {
  float *p = t.select(0, i).view({-1}).data_ptr<float>();
  return p;
}

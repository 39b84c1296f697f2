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

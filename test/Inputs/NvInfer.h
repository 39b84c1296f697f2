// Mock of TensorRT's NvInfer.h: the execution context's calls that take
// device memory, signatures as in TensorRT 10, bodies omitted.
#pragma once
#include <cuda_runtime_api.h>
#include <cstdint>

namespace nvinfer1 {
class IExecutionContext {
public:
  bool setTensorAddress(const char *tensorName, void *data) noexcept;
  bool setInputTensorAddress(const char *tensorName, const void *data) noexcept;
  bool enqueueV3(cudaStream_t stream) noexcept;
  bool executeV2(void *const *bindings) noexcept;
};
} // namespace nvinfer1

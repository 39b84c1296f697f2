// Mock of ATen/cuda/CUDAContext.h (LibTorch 2.x): ATen's names for c10's
// CUDA streams, as the real header has them.
#pragma once
#include <c10/cuda/CUDAStream.h>

namespace at::cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using c10::cuda::getStreamFromPool;
} // namespace at::cuda

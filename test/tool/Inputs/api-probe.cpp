// What tool/api-table-headers.test parses: the headers LibTorch's users
// include, for the API table's rows to be resolved against.
#include <torch/script.h>
#include <torch/torch.h>
#ifdef DEVPLACE_PROBE_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime.h>
#endif

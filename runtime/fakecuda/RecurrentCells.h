// The fused LSTM and GRU cells. On CUDA tensors LibTorch's recurrent layers
// (torch::nn::LSTM, GRU, LSTMCell, GRUCell) call fused cell operators that a
// CPU build has for CUDA only; these kernels compute the same cells from
// ordinary operators, on the device, and their backward from the workspace
// the forward leaves (the layout is this file's own: forward and backward
// are both here).
#pragma once

#include <torch/library.h>

namespace devplace::fakecuda {

// Registers the four cell operators on `aten`, a library for the CUDA key.
void registerRecurrentCells(torch::Library &aten);

} // namespace devplace::fakecuda

// The operators the fake CUDA device implements itself rather than through
// DeviceCall: allocation on the device, copies between the device and the
// host (with CUDA's synchronisation and non_blocking behaviour), pinned
// memory, and item() (a synchronisation before it reads).
#pragma once

#include <torch/library.h>

#include <string>

namespace devplace::fakecuda {

// Registers every kernel of its own on `aten`, a library for the CUDA key.
void registerDeviceKernels(torch::Library &aten);

// Whether `name` ("aten::op.overload") has a kernel of its own.
bool hasDeviceKernel(const std::string &name);

} // namespace devplace::fakecuda

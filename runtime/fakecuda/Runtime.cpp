// The fake CUDA device's start: when the library is loaded (LD_PRELOAD, or
// linked into a program), it checks that LibTorch is a CPU build whose CUDA
// nobody has asked about yet, and registers the device: the hooks, the
// device guard, the allocators, the kernels and the fallback under the CUDA
// dispatch key, and the host-read trap.
#include "ComputeAllocator.h"
#include "DeviceAllocator.h"
#include "DeviceCall.h"
#include "DeviceKernels.h"
#include "DeviceMemory.h"
#include "FakeCudaGuard.h"
#include "FakeCudaHooks.h"
#include "HostReadTrap.h"
#include "PendingCopies.h"
#include "RecurrentCells.h"
#include "Refusal.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unistd.h>

#include "devplace/fakecuda.h"

namespace devplace::fakecuda {

namespace {

bool registered = false;

// Operators with a composite kernel of their own (CompositeExplicitAutograd)
// would run it on fake CUDA tensors, and some reach per-device code that a
// CPU build has only for the CPU: they go through DeviceCall too, which runs
// the whole operator on the host views.
void routeCompositeKernels(torch::Library &aten) {
  auto &dispatcher = c10::Dispatcher::singleton();
  for (const c10::OperatorName &name : dispatcher.getAllOpNames()) {
    if (name.name.rfind("aten::", 0) != 0)
      continue;
    std::string full = name.overload_name.empty()
                           ? name.name
                           : name.name + "." + name.overload_name;
    if (hasDeviceKernel(full))
      continue;
    auto op = dispatcher.findOp(name);
    if (!op || op->hasKernelForDispatchKey(c10::DispatchKey::CUDA))
      continue;
    if (op->hasKernelForDispatchKey(
            c10::DispatchKey::CompositeExplicitAutograd) ||
        op->hasKernelForDispatchKey(
            c10::DispatchKey::CompositeExplicitAutogradNonFunctional))
      aten.impl(
          full.c_str(),
          torch::CppFunction::makeFromBoxedFunction<&DeviceCall::fallback>());
  }
}

void start() {
  if (FakeCudaGuard::devices() == 0)
    return; // DEVPLACE_FAKE_CUDA_DEVICES=0: LibTorch as it is
  if (at::CUDAHooksRegistry()->Has("CUDAHooks"))
    refuse("this LibTorch has CUDA (its CUDA library is loaded); the fake CUDA "
           "device is for CPU-only "
           "LibTorch builds: run without it on a GPU machine");
  at::CUDAHooksRegistry()->Register(
      "CUDAHooks",
      [](at::CUDAHooksArgs args) -> std::unique_ptr<at::CUDAHooksInterface> {
        return std::make_unique<FakeCudaHooks>(args);
      });
  if (!dynamic_cast<const FakeCudaHooks *>(&at::detail::getCUDAHooks()))
    refuse("LibTorch was asked about CUDA before the fake CUDA device was "
           "loaded, and keeps its first "
           "answer; load libdevplace_fakecuda.so with LD_PRELOAD or link it "
           "into the program");
  static c10::impl::DeviceGuardImplRegistrar guard(c10::DeviceType::CUDA,
                                                   new FakeCudaGuard());
  c10::SetAllocator(c10::DeviceType::CUDA, &DeviceAllocator::instance());
  DeviceMemory::instance();
  ComputeAllocator::instance().install();
  static auto *fallback = new torch::Library(
      torch::Library::IMPL, "_", c10::DispatchKey::CUDA, __FILE__, __LINE__);
  fallback->fallback(
      torch::CppFunction::makeFromBoxedFunction<&DeviceCall::fallback>());
  static auto *aten = new torch::Library(
      torch::Library::IMPL, "aten", c10::DispatchKey::CUDA, __FILE__, __LINE__);
  registerDeviceKernels(*aten);
  registerRecurrentCells(*aten);
  routeCompositeKernels(*aten);
  HostReadTrap::install();
  registered = true;
}

struct Start {
  Start() { start(); }
} started;

} // namespace

} // namespace devplace::fakecuda

extern "C" {

int devplace_fakecuda_active(void) {
  return devplace::fakecuda::registered ? 1 : 0;
}

long devplace_fakecuda_synchronisations(void) {
  return devplace::fakecuda::PendingCopies::instance().synchronisations();
}

size_t devplace_fakecuda_peak_bytes(void) {
  return devplace::fakecuda::DeviceMemory::instance().peakBytes();
}
}

#include "DeviceKernels.h"

#include "BoxedArguments.h"

#include "DeviceAllocator.h"
#include "DeviceCall.h"
#include "FakeCudaGuard.h"
#include "HostView.h"
#include "PendingCopies.h"
#include "PinnedMemory.h"

#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>

#include <unordered_set>

namespace devplace::fakecuda {

namespace {

using torch::jit::Stack;

c10::ScalarType dtypeOr(const c10::optional<c10::ScalarType> &dtype) {
  return dtype ? *dtype : c10::typeMetaToScalarType(c10::get_default_dtype());
}

// empty.memory_format(SymInt[] size, *, ScalarType? dtype, Layout? layout,
//                     Device? device, bool? pin_memory, MemoryFormat?
//                     memory_format)
void empty(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments args(stack, 6);
  FakeCudaGuard::IndexScope on_device(
      FakeCudaGuard::checkedIndex(args.device(3)));
  at::Tensor t =
      at::detail::empty_generic(args.ints(0), &DeviceAllocator::instance(),
                                c10::DispatchKeySet(c10::DispatchKey::CUDA),
                                dtypeOr(args.optional<c10::ScalarType>(1)),
                                args.optional<c10::MemoryFormat>(5));
  args.returns(std::move(t));
}

// empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype,
//               Layout? layout, Device? device, bool? pin_memory)
void emptyStrided(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments args(stack, 6);
  FakeCudaGuard::IndexScope on_device(
      FakeCudaGuard::checkedIndex(args.device(4)));
  at::Tensor t = at::detail::empty_strided_generic(
      args.ints(0), args.ints(1), &DeviceAllocator::instance(),
      c10::DispatchKeySet(c10::DispatchKey::CUDA),
      dtypeOr(args.optional<c10::ScalarType>(2)));
  args.returns(std::move(t));
}

bool isPinned(const at::Tensor &t) {
  return t.is_cpu() &&
         PinnedMemory::instance().contains(t.storage().data_ptr().get());
}

// dst.copy_(src, non_blocking) where either is on the fake device.
void copyInto(const at::Tensor &dst, const at::Tensor &src, bool non_blocking) {
  bool host_device = dst.is_cuda() != src.is_cuda();
  at::Tensor host_dst = dst.is_cuda() ? hostViewOf(dst) : dst;
  at::Tensor host_src = src.is_cuda() ? hostViewOf(src) : src;
  if (src.is_cuda() && dst.is_cpu() && non_blocking && isPinned(dst)) {
    // Queued on the stream: the values are the source's now, they land at
    // the next synchronisation.
    at::Tensor values = at::empty_like(host_dst);
    values.copy_(host_src);
    PendingCopies::instance().queue(dst, std::move(values));
    return;
  }
  if (host_device && !non_blocking)
    PendingCopies::instance().synchronise();
  host_dst.copy_(host_src);
}

// copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
void copy(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments args(stack, 3);
  at::Tensor self = args[0].toTensor();
  copyInto(self, args[1].toTensor(), args[2].toBool());
  args.returns(std::move(self));
}

// _copy_from(Tensor self, Tensor dst, bool non_blocking=False) -> Tensor
void copyFrom(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments args(stack, 3);
  at::Tensor dst = args[1].toTensor();
  copyInto(dst, args[0].toTensor(), args[2].toBool());
  args.returns(std::move(dst));
}

// _copy_from_and_resize(Tensor self, Tensor dst) -> Tensor
void copyFromAndResize(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments args(stack, 2);
  at::Tensor self = args[0].toTensor();
  at::Tensor dst = args[1].toTensor();
  dst.resize_(self.sizes());
  copyInto(dst, self, false);
  args.returns(std::move(dst));
}

// _to_copy(Tensor self, *, ScalarType? dtype, Layout? layout, Device? device,
//          bool? pin_memory, bool non_blocking, MemoryFormat? memory_format)
// of a device tensor: to the host, or to a device.
void toCopy(const c10::OperatorHandle &op, Stack *stack) {
  BoxedArguments args(stack, 7);
  at::Tensor self = args[0].toTensor();
  c10::optional<c10::Device> device = args.device(3);
  bool non_blocking = args[5].toBool();
  if (device && device->is_cpu()) {
    // A non_blocking copy to the host goes into pinned memory, as CUDA's
    // _to_copy allocates it, and so is asynchronous.
    at::Tensor host = at::_to_copy(
        hostViewOf(self), args.optional<c10::ScalarType>(1),
        args.optional<c10::Layout>(2), c10::Device(c10::DeviceType::CPU), false,
        false, args.optional<c10::MemoryFormat>(6));
    if (args.flag(4) || non_blocking) {
      at::Tensor pinned = at::empty_strided(host.sizes(), host.strides(),
                                            host.options().pinned_memory(true));
      pinned.copy_(host);
      host = pinned;
    }
    if (non_blocking) {
      PendingCopies::instance().queue(host, host.clone());
    } else {
      PendingCopies::instance().synchronise();
    }
    args.returns(std::move(host));
    return;
  }
  // To a device, maybe another one: computed on the host views like any
  // other operator.
  if (!device)
    args[3] = c10::IValue(self.device());
  DeviceCall::fallback(op, stack);
}

// _local_scalar_dense(Tensor self) -> Scalar: item() reads the device, which
// waits for it.
void localScalarDense(const c10::OperatorHandle &op, Stack *stack) {
  PendingCopies::instance().synchronise();
  DeviceCall::fallback(op, stack);
}

// is_pinned(Tensor self, Device? device=None) -> bool
void isPinnedKernel(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments args(stack, 2);
  args.returns(isPinned(args[0].toTensor()));
}

// _pin_memory(Tensor self, Device? device=None) -> Tensor
void pinMemory(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments args(stack, 2);
  at::Tensor self = args[0].toTensor();
  at::Tensor pinned = at::empty_strided(self.sizes(), self.strides(),
                                        self.options().pinned_memory(true));
  pinned.copy_(self);
  args.returns(std::move(pinned));
}

// record_stream(Tensor(a!) self, Stream s) -> (): one stream per device.
void recordStream(const c10::OperatorHandle &, Stack *stack) {
  torch::jit::drop(*stack, 2);
}

} // namespace

#define DEVPLACE_KERNELS(X)                                                    \
  X("aten::empty.memory_format", empty)                                        \
  X("aten::empty_strided", emptyStrided)                                       \
  X("aten::copy_", copy)                                                       \
  X("aten::_copy_from", copyFrom)                                              \
  X("aten::_copy_from_and_resize", copyFromAndResize)                          \
  X("aten::_to_copy", toCopy)                                                  \
  X("aten::_local_scalar_dense", localScalarDense)                             \
  X("aten::is_pinned", isPinnedKernel)                                         \
  X("aten::_pin_memory", pinMemory)                                            \
  X("aten::record_stream", recordStream)

void registerDeviceKernels(torch::Library &aten) {
#define DEVPLACE_REGISTER(name, kernel)                                        \
  aten.impl(name, torch::CppFunction::makeFromBoxedFunction<&kernel>());
  DEVPLACE_KERNELS(DEVPLACE_REGISTER)
#undef DEVPLACE_REGISTER
}

bool hasDeviceKernel(const std::string &name) {
#define DEVPLACE_NAME(name, kernel) name,
  static const std::unordered_set<std::string> names = {
      DEVPLACE_KERNELS(DEVPLACE_NAME)};
#undef DEVPLACE_NAME
  return names.count(name) != 0;
}

} // namespace devplace::fakecuda

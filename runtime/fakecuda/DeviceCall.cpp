#include "DeviceCall.h"

#include "ComputeAllocator.h"
#include "FakeCudaGuard.h"
#include "HostView.h"

#include <ATen/core/List.h>

namespace devplace::fakecuda {

namespace {

// Operators that take tensors of two devices by design and reach the
// fallback: a copy to another device (DeviceKernels' _to_copy hands it here).
bool crossesDevices(const c10::OperatorName &name) {
  return name.name == "aten::_to_copy";
}

bool isWritten(const c10::Argument &argument) {
  return argument.alias_info() && argument.alias_info()->isWrite();
}

} // namespace

DeviceCall::DeviceCall(const c10::OperatorHandle &op, torch::jit::Stack *stack)
    : op_(op), stack_(stack), argument_count_(op.schema().arguments().size()) {
  first_argument_ = stack->size() - argument_count_;
}

void DeviceCall::fallback(const c10::OperatorHandle &op,
                          torch::jit::Stack *stack) {
  DeviceCall(op, stack).run();
}

void DeviceCall::run() {
  checkDevices();
  HostViews views;
  toHost(views);
  {
    c10::DeviceIndex index = result_device_ && result_device_->is_cuda() &&
                                     result_device_->has_index()
                                 ? result_device_->index()
                                 : FakeCudaGuard::currentIndex();
    FakeCudaGuard::IndexScope on_device(index);
    ComputeAllocator::Scope compute_range;
    try {
      op_.redispatchBoxed(c10::DispatchKeySet(c10::DispatchKey::CPU), stack_);
    } catch (const c10::NotImplementedError &) {
      // An operator with a CUDA kernel only (in a CUDA build) has no CPU
      // kernel to run here: say so, rather than LibTorch's "no CPU
      // backend". Asked only on failure, off the path of every call.
      TORCH_CHECK_NOT_IMPLEMENTED(
          hasHostKernel(), "devplace fakecuda: ", op_.schema().operator_name(),
          " has a kernel for CUDA only, and the fake CUDA device, which "
          "computes with the CPU's kernels, has no "
          "equivalent of its own for it (docs/fakecuda.md, \"What it cannot "
          "be\")");
      throw;
    }
  }
  writeBack(views);
  toDevice(views);
}

bool DeviceCall::hasHostKernel() const {
  return op_.hasKernelForDispatchKey(c10::DispatchKey::CPU) ||
         op_.hasKernelForDispatchKey(
             c10::DispatchKey::CompositeExplicitAutograd) ||
         op_.hasKernelForDispatchKey(
             c10::DispatchKey::CompositeExplicitAutogradNonFunctional) ||
         op_.hasKernelForDispatchKey(
             c10::DispatchKey::CompositeImplicitAutograd);
}

// CUDA's rule, as its kernels and TensorIterator check it: one device for
// every tensor of a call; a 0-dim CPU tensor that is only read is a scalar;
// the CPU index tensors of indexing (Tensor?[]) are moved by the kernel.
void DeviceCall::checkDevices() const {
  const c10::FunctionSchema &schema = op_.schema();
  if (crossesDevices(schema.operator_name()))
    return;
  c10::optional<c10::Device> common;
  for (std::size_t i = 0; i < argument_count_; ++i) {
    const c10::IValue &value = (*stack_)[first_argument_ + i];
    const c10::Argument &argument = schema.arguments()[i];
    bool written = isWritten(argument);
    auto check = [&](const at::Tensor &t, bool index) {
      if (!t.defined() || (t.is_cpu() && (index || (t.dim() == 0 && !written))))
        return;
      if (!common) {
        common = t.device();
        return;
      }
      TORCH_CHECK(*common == t.device(),
                  "Expected all tensors to be on the same device, but found at "
                  "least two devices, ",
                  *common, " and ", t.device(),
                  "! (when checking argument for argument ", argument.name(),
                  " in method ", schema.name(), ")");
    };
    if (value.isTensor()) {
      check(value.toTensor(), false);
    } else if (value.isTensorList()) {
      for (const at::Tensor &t : value.toTensorVector())
        check(t, false);
    } else if (value.isList()) {
      for (const c10::IValue element : value.toList())
        if (element.isTensor())
          check(element.toTensor(), true);
    }
  }
}

void DeviceCall::toHost(HostViews &views) {
  const c10::FunctionSchema &schema = op_.schema();
  c10::optional<c10::Device> first_device_tensor;
  auto host = [&](const at::Tensor &t,
                  bool written) -> c10::optional<at::Tensor> {
    if (!t.defined() || !t.is_cuda())
      return c10::nullopt;
    if (!first_device_tensor)
      first_device_tensor = t.device();
    at::Tensor view = views.viewOf(t);
    arguments_.push_back({t, view, written});
    return view;
  };
  for (std::size_t i = 0; i < argument_count_; ++i) {
    c10::IValue &value = (*stack_)[first_argument_ + i];
    bool written = isWritten(schema.arguments()[i]);
    if (value.isTensor()) {
      if (auto view = host(value.toTensor(), written))
        value = *view;
    } else if (value.isTensorList()) {
      std::vector<at::Tensor> tensors = value.toTensorVector();
      for (at::Tensor &t : tensors)
        if (auto view = host(t, written))
          t = *view;
      value = c10::List<at::Tensor>(tensors);
    } else if (value.isList()) {
      c10::List<c10::IValue> list = value.toList();
      c10::impl::GenericList replaced(list.elementType());
      for (const c10::IValue element : list) {
        c10::optional<at::Tensor> view;
        if (element.isTensor())
          view = host(element.toTensor(), written);
        replaced.push_back(view ? c10::IValue(*view) : element);
      }
      value = replaced;
    } else if (value.isStorage() && value.toStorage().device().is_cuda()) {
      value = views.hostStorageOf(value.toStorage());
    } else if (value.isDevice()) {
      // A device named by the call decides where its results live.
      c10::Device device = value.toDevice();
      if (device.is_cuda() || device.is_cpu())
        result_device_ = device;
      if (device.is_cuda())
        value = c10::Device(c10::DeviceType::CPU);
    }
  }
  if (!result_device_)
    result_device_ =
        first_device_tensor
            ? *first_device_tensor
            : c10::Device(c10::DeviceType::CUDA, FakeCudaGuard::currentIndex());
}

void DeviceCall::writeBack(HostViews &views) {
  views.moveResizedStorages();
  // In-place operators that change a tensor's shape (resize_, t_,
  // squeeze_, as_strided_) changed the view: the tensor follows.
  for (Argument &argument : arguments_) {
    if (!argument.written)
      continue;
    const at::Tensor &host = argument.host;
    c10::TensorImpl *device = argument.device.unsafeGetTensorImpl();
    // set_ gave the view another storage: the tensor takes its device side.
    const c10::StorageImpl *storage = host.storage().unsafeGetStorageImpl();
    if (storage != argument.device.storage().unsafeGetStorageImpl()) {
      const c10::Storage *known = views.deviceStorageOf(storage);
      device->set_storage_keep_dtype(
          known ? *known
                : deviceStorageFor(host.storage(),
                                   argument.device.device().index()));
    }
    if (host.sizes() != argument.device.sizes() ||
        host.strides() != argument.device.strides())
      device->set_sizes_and_strides(host.sizes(), host.strides());
    if (host.storage_offset() != argument.device.storage_offset())
      device->set_storage_offset(host.storage_offset());
  }
}

void DeviceCall::toDevice(HostViews &views) {
  for (std::size_t i = first_argument_; i < stack_->size(); ++i) {
    c10::IValue &value = (*stack_)[i];
    if (value.isTensor()) {
      value = resultOnDevice(value.toTensor(), views);
    } else if (value.isTensorList()) {
      std::vector<at::Tensor> tensors = value.toTensorVector();
      for (at::Tensor &t : tensors)
        t = resultOnDevice(t, views);
      value = c10::List<at::Tensor>(tensors);
    }
  }
}

at::Tensor DeviceCall::resultOnDevice(const at::Tensor &result,
                                      HostViews &views) {
  if (!result.defined())
    return result;
  for (const Argument &argument : arguments_)
    if (result.unsafeGetTensorImpl() == argument.host.unsafeGetTensorImpl())
      return argument.device;
  if (!result.is_cpu() || result_device_->is_cpu() ||
      result.layout() != c10::kStrided)
    return result;
  const c10::StorageImpl *storage = result.storage().unsafeGetStorageImpl();
  if (const c10::Storage *device = views.deviceStorageOf(storage))
    return deviceTensorOn(*device, result);
  c10::Storage &adopted = adopted_[storage];
  if (!adopted.unsafeGetStorageImpl())
    adopted = deviceStorageFor(result.storage(), result_device_->has_index()
                                                     ? result_device_->index()
                                                     : 0);
  return deviceTensorOn(adopted, result);
}

} // namespace devplace::fakecuda

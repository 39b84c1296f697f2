// The arguments of a boxed kernel's call, read from the end of the
// dispatcher's stack, and its results put in their place: for the fake
// device's kernels of their own (DeviceKernels, RecurrentCells).
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/stack.h>
#include <torch/version.h>

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace devplace::fakecuda {

class BoxedArguments {
public:
  BoxedArguments(torch::jit::Stack *stack, std::size_t count)
      : stack_(stack), first_(stack->size() - count), count_(count) {}
  const c10::IValue &operator[](std::size_t i) const {
    return (*stack_)[first_ + i];
  }
  c10::IValue &operator[](std::size_t i) { return (*stack_)[first_ + i]; }

  std::vector<int64_t> ints(std::size_t i) const {
    std::vector<int64_t> out;
    for (const c10::IValue element : (*this)[i].toList()) {
#if TORCH_VERSION_MAJOR >= 2
      out.push_back(element.isSymInt() ? element.toSymInt().expect_int()
                                       : element.toInt());
#else
      out.push_back(element.toInt());
#endif
    }
    return out;
  }
  template <typename Enum> c10::optional<Enum> optional(std::size_t i) const {
    const c10::IValue &v = (*this)[i];
    return v.isNone() ? c10::nullopt
                      : c10::optional<Enum>(static_cast<Enum>(v.toInt()));
  }
  c10::optional<c10::Device> device(std::size_t i) const {
    const c10::IValue &v = (*this)[i];
    return v.isNone() ? c10::nullopt : c10::optional<c10::Device>(v.toDevice());
  }
  bool flag(std::size_t i) const {
    const c10::IValue &v = (*this)[i];
    return !v.isNone() && v.toBool();
  }
  at::Tensor optionalTensor(std::size_t i) const {
    const c10::IValue &v = (*this)[i];
    return v.isNone() ? at::Tensor() : v.toTensor();
  }
  // Replaces the arguments with the result.
  void returns(c10::IValue result) { returns({std::move(result)}); }
  // Replaces the arguments with the results.
  void returns(std::initializer_list<c10::IValue> results) {
    torch::jit::drop(*stack_, count_);
    for (const c10::IValue &result : results)
      torch::jit::push(*stack_, result);
  }

private:
  torch::jit::Stack *stack_;
  std::size_t first_;
  std::size_t count_;
};

} // namespace devplace::fakecuda

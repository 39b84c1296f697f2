// Mock of torch/library.h: operator registration, shaped like the real
// macros (a static TorchLibraryInit naming the dispatch key, and the init
// function that registers the kernels).
#pragma once
#include <torch/torch.h>
#include <type_traits>

namespace c10 {
enum class DispatchKey : uint16_t {
  Undefined,
  CPU,
  CUDA,
  AutogradCPU,
  AutogradCUDA,
  CompositeImplicitAutograd,
  CatchAll,
};
template <typename T> optional<T> make_optional(T v);

template <class FuncType_, FuncType_ *func_ptr_>
struct CompileTimeFunctionPointer final {
  using FuncType = FuncType_;
  static constexpr FuncType *func_ptr() { return func_ptr_; }
};
} // namespace c10

#define TORCH_FN_TYPE(func)                                                    \
  ::c10::CompileTimeFunctionPointer<                                           \
      std::remove_pointer_t<std::remove_reference_t<decltype(func)>>, func>
#define TORCH_FN(func) TORCH_FN_TYPE(func)()

namespace torch {
class CppFunction {
public:
  template <typename Func> explicit CppFunction(Func *f);
  template <typename FuncPtr, typename T = void>
  explicit CppFunction(FuncPtr f, T * = nullptr);
};
template <typename Func> CppFunction dispatch(c10::DispatchKey k, Func &&raw_f);
template <typename Func> CppFunction dispatch(c10::DeviceType t, Func &&raw_f);

class Library {
public:
  enum Kind { DEF, IMPL, FRAGMENT };
  template <typename Name, typename Func> Library &impl(Name name, Func &&raw_f) &;
  template <typename Schema, typename Func> Library &def(Schema s, Func &&raw_f) &;
  template <typename Schema> Library &def(Schema s) &;
};

namespace detail {
class TorchLibraryInit final {
  using InitFn = void(Library &);

public:
  TorchLibraryInit(Library::Kind kind, InitFn *fn, const char *ns,
                   c10::optional<c10::DispatchKey> k, const char *file,
                   uint32_t line);
};
} // namespace detail
} // namespace torch

#define TORCH_LIBRARY_CONCAT_(a, b) a##b
#define TORCH_LIBRARY_CONCAT(a, b) TORCH_LIBRARY_CONCAT_(a, b)

#define TORCH_LIBRARY_IMPL(ns, k, m) _TORCH_LIBRARY_IMPL(ns, k, m, __COUNTER__)
#define _TORCH_LIBRARY_IMPL(ns, k, m, uid)                                     \
  static void TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_IMPL_init_##ns##_##k##_,      \
                                   uid)(torch::Library &);                     \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_CONCAT(           \
      TORCH_LIBRARY_IMPL_static_init_##ns##_##k##_, uid)(                      \
      torch::Library::IMPL,                                                    \
      []() {                                                                   \
        return &TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_IMPL_init_##ns##_##k##_,    \
                                     uid);                                     \
      }(),                                                                     \
      #ns, c10::make_optional(c10::DispatchKey::k), __FILE__, __LINE__);       \
  void TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_IMPL_init_##ns##_##k##_,             \
                            uid)(torch::Library & m)

#define TORCH_LIBRARY(ns, m)                                                   \
  static void TORCH_LIBRARY_init_##ns(torch::Library &);                       \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_static_init_##ns( \
      torch::Library::DEF, &TORCH_LIBRARY_init_##ns, #ns,                      \
      c10::make_optional(c10::DispatchKey::CatchAll), __FILE__, __LINE__);     \
  void TORCH_LIBRARY_init_##ns(torch::Library &m)

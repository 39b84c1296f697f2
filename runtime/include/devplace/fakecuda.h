// What a program can ask the fake CUDA device (libdevplace_fakecuda.so).
// The functions are looked up at run time, so a program that includes this
// header runs with and without the device: without it they say 0.
#pragma once

#include <dlfcn.h>

#include <cstddef>

#ifndef DEVPLACE_FAKECUDA_API
#define DEVPLACE_FAKECUDA_API
#endif

extern "C" {
// Defined by libdevplace_fakecuda.so.
DEVPLACE_FAKECUDA_API int devplace_fakecuda_active(void);
DEVPLACE_FAKECUDA_API long devplace_fakecuda_synchronisations(void);
DEVPLACE_FAKECUDA_API size_t devplace_fakecuda_peak_bytes(void);
}

namespace devplace::fakecuda {

// Whether the fake CUDA device is loaded and registered.
inline bool active() {
  auto *f = reinterpret_cast<int (*)()>(
      dlsym(RTLD_DEFAULT, "devplace_fakecuda_active"));
  return f && f() != 0;
}

// Host synchronisations so far: blocking copies between the device and the
// host, item() of a device tensor, torch::cuda::synchronize().
inline long synchronisations() {
  auto *f = reinterpret_cast<long (*)()>(
      dlsym(RTLD_DEFAULT, "devplace_fakecuda_synchronisations"));
  return f ? f() : 0;
}

// The most device memory held at once, in bytes.
inline std::size_t peakBytes() {
  auto *f = reinterpret_cast<std::size_t (*)()>(
      dlsym(RTLD_DEFAULT, "devplace_fakecuda_peak_bytes"));
  return f ? f() : 0;
}

} // namespace devplace::fakecuda

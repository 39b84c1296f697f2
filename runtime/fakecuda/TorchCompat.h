// The differences between LibTorch 1.13 and 2.x that the runtime meets, in
// one place.
#pragma once

#include <torch/version.h>

#if TORCH_VERSION_MAJOR >= 2
// 2.x's Allocator::allocate is not const.
#define DEVPLACE_ALLOCATE_CONST
#else
#define DEVPLACE_ALLOCATE_CONST const
#endif

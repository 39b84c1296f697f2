//===--- ModelNames.h - the device model's names in the checks --*- C++ -*-===//
//
// The checks live in clang::tidy::devplace, the model (model/) in
// clang::devplace, a library of its own; this makes the model's names
// visible to the checks.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_UTILS_MODELNAMES_H
#define DEVPLACE_UTILS_MODELNAMES_H

#include "devplace/model/DeviceModel.h"

namespace clang::tidy::devplace {
using namespace ::clang::devplace;
} // namespace clang::tidy::devplace

#endif

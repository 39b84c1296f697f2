//===--- Catalogue.h - device sources, host sinks, sanitizers ---*- C++ -*-===//
//
// The one place that names the functions devplace knows by name: where host
// code touches raw memory (sinks), what yields a device tensor (sources) and
// what yields a host copy (sanitizers). Users extend it through the
// HostSinkFunctions, SourceFunctions and SanitizerFunctions check options.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_ANALYSIS_CATALOGUE_H
#define DEVPLACE_ANALYSIS_CATALOGUE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

namespace clang::tidy::devplace {

struct Catalogue {
  /// Free functions that read or write host memory through any pointer
  /// argument (memcpy, std::copy, fwrite, plotting calls taking raw memory).
  llvm::StringSet<> HostMemoryFunctions;
  /// Classes whose constructors read or wrap host memory from a pointer
  /// (std::vector, std::span, cv::Mat, Eigen::Map, …).
  llvm::StringSet<> HostMemoryClasses;
  /// Member functions that read host memory from a pointer argument
  /// (std::vector::assign, std::basic_ostream::write, …).
  llvm::StringSet<> HostMemoryMethods;
  /// Functions whose tensor result is on a CUDA device.
  llvm::StringSet<> DeviceSources;
  /// Functions whose tensor result is on the host whatever their input.
  llvm::StringSet<> HostSanitizers;

  /// The built-in catalogue.
  static Catalogue builtin();

  /// Adds the ';'- or ','-separated qualified names in \p List to \p Set.
  static void extend(llvm::StringSet<> &Set, llvm::StringRef List);

  /// True when \p Name is a host-memory sink, as a free function or method.
  bool isHostMemoryCall(llvm::StringRef Name) const {
    return HostMemoryFunctions.contains(Name) || HostMemoryMethods.contains(Name);
  }
};

} // namespace clang::tidy::devplace

#endif

//===--- HostSinkCheck.h - devplace-host-sink -------------------*- C++ -*-===//
//
// Reports host code that reads or writes the memory of a tensor that is, or
// may be, on a CUDA device: dereferenced or indexed data_ptr pointers,
// accessor<T, N>(), and raw pointers handed to host-memory code (memcpy,
// std::vector, cv::Mat, plotting calls, …).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_HOSTSINKCHECK_H
#define DEVPLACE_HOSTSINKCHECK_H

#include "utils/DeviceCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include <memory>

namespace clang::tidy::devplace {

class HostSinkCheck : public DeviceCheck {
public:
  HostSinkCheck(StringRef Name, ClangTidyContext *Context);
  ~HostSinkCheck() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void report(const FunctionDecl *FD, const FunctionFacts &R,
              ASTContext &Ctx) override;
  void startTranslationUnit() override;
  /// Host code touching memory whose device the model cannot see (a
  /// parameter, a field) is reported too.
  const bool StrictMode;
  struct FunctionIndex;
  const FunctionIndex &indexOf(const FunctionDecl *FD, const FunctionFacts &R);
  void diagnose(const HostAccess &A, const FunctionDecl *FD,
                const FunctionFacts &R, ASTContext &Ctx);

  /// Pointer variables already given a host-copy fix in this TU: several
  /// sinks through one pointer share one fix.
  llvm::DenseSet<const VarDecl *> FixedPointers;
  /// Host-copy names the fixes introduced, per function.
  llvm::DenseMap<const FunctionDecl *, llvm::StringSet<>> IntroducedNames;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionIndex>> Indexes;
};

} // namespace clang::tidy::devplace

#endif

//===--- Compat.h - what differs between the LLVM versions ----------------===//
//
// devplace builds against LLVM/Clang 16 to 22 (16, 19 and 22 are tested).
// Every place where those versions' APIs differ is named here, once, and the
// rest of the sources use the names below: no LLVM_VERSION_MAJOR test
// appears anywhere else.
//
//===----------------------------------------------------------------------===//

#ifndef DEVPLACE_COMPAT_H
#define DEVPLACE_COMPAT_H

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/ThreadPool.h"
// clang-tidy's module registry: its own header until LLVM 21, in
// ClangTidyModule.h from 22 on (the old header warns that it is going).
#if LLVM_VERSION_MAJOR < 22
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif

// clang's driver options: clang/Driver/Options.h's clang::driver in 16 and
// 19, clang/Options/Options.h's clang in 22 (20 and 21, untested, are taken
// to be as 19).
#if LLVM_VERSION_MAJOR >= 22
#include "clang/Options/Options.h"
#else
#include "clang/Driver/Options.h"
#endif

#if LLVM_VERSION_MAJOR < 16
#error "devplace needs LLVM/Clang 16 or newer"
#endif

namespace clang::devplace::compat {

/// LLVM 19 split the thread pool into an interface and implementations;
/// `ThreadPool` before that.
#if LLVM_VERSION_MAJOR >= 19
using ThreadPool = llvm::DefaultThreadPool;
#else
using ThreadPool = llvm::ThreadPool;
#endif

/// The table of the options clang's driver takes.
inline const llvm::opt::OptTable &driverOptions() {
#if LLVM_VERSION_MAJOR >= 22
  return getDriverOptTable();
#else
  return driver::getDriverOptTable();
#endif
}

/// The type a class declares. LLVM 22 folded record types into tag types
/// (`getRecordType` is gone; `getCanonicalTagType` is new).
inline QualType recordType(const ASTContext &Context, const RecordDecl *RD) {
#if LLVM_VERSION_MAJOR >= 22
  return Context.getCanonicalTagType(RD);
#else
  return Context.getRecordType(RD);
#endif
}

/// A place in \p File (opened in \p SM if the translation unit did not
/// read it), or an invalid location when the file cannot be read: where a
/// note walks into another translation unit. LLVM 16 takes a FileEntry,
/// later versions a FileEntryRef.
inline SourceLocation locationIn(SourceManager &SM, llvm::StringRef File,
                                 unsigned Line, unsigned Column) {
  OptionalFileEntryRef FE = SM.getFileManager().getOptionalFileRef(File);
  if (!FE || !Line)
    return {};
#if LLVM_VERSION_MAJOR >= 17
  FileID FID = SM.getOrCreateFileID(*FE, SrcMgr::C_User);
#else
  FileID FID = SM.getOrCreateFileID(&FE->getFileEntry(), SrcMgr::C_User);
#endif
  return SM.translateLineCol(FID, Line, std::max(1u, Column));
}

/// The DiagnosticsEngine a ClangTidyContext reports through. LLVM 21 made
/// DiagnosticOptions a plain object that the engine borrows, and the context
/// owns it (setDiagnosticsEngine takes it); before, the engine shared it.
class TidyDiagnosticsEngine {
public:
  TidyDiagnosticsEngine(tidy::ClangTidyContext &Context,
                        DiagnosticConsumer &Consumer) {
#if LLVM_VERSION_MAJOR >= 21
    auto Options = std::make_unique<DiagnosticOptions>();
    Engine = std::make_unique<DiagnosticsEngine>(
        new DiagnosticIDs(), *Options, &Consumer, /*ShouldOwnClient=*/false);
    Context.setDiagnosticsEngine(std::move(Options), Engine.get());
#else
    Engine = std::make_unique<DiagnosticsEngine>(
        new DiagnosticIDs(), new DiagnosticOptions(), &Consumer,
        /*ShouldOwnClient=*/false);
    Context.setDiagnosticsEngine(Engine.get());
#endif
  }

private:
  std::unique_ptr<DiagnosticsEngine> Engine;
};

/// Calls clang-tidy's getCheckNames or getCheckOptions the way devplace
/// wants them: the analyzer's alpha checks off, and, from LLVM 22 on, the
/// experimental custom (query-based) checks off too.
template <typename Function>
auto withDevplaceCheckFlags(Function Fn,
                            const tidy::ClangTidyOptions &Options) {
#if LLVM_VERSION_MAJOR >= 22
  return Fn(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false,
            /*ExperimentalCustomChecks=*/false);
#else
  return Fn(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false);
#endif
}

/// The checks a configuration enables, and their options.
inline std::vector<std::string>
enabledCheckNames(const tidy::ClangTidyOptions &Options) {
  return withDevplaceCheckFlags(tidy::getCheckNames, Options);
}
inline tidy::ClangTidyOptions::OptionMap
enabledCheckOptions(const tidy::ClangTidyOptions &Options) {
  return withDevplaceCheckFlags(tidy::getCheckOptions, Options);
}

/// Preprocessor callbacks that hear the name of every header looked up
/// (`#include`, `#import`, `#include_next`, `__has_include`), as written.
/// LLVM 19 added an argument to InclusionDirective.
class HeaderLookupCallbacks : public PPCallbacks {
public:
  virtual void lookedUp(llvm::StringRef Name) = 0;
#if LLVM_VERSION_MAJOR >= 19
  void InclusionDirective(SourceLocation, const Token &, llvm::StringRef Name,
                          bool, CharSourceRange, OptionalFileEntryRef,
                          llvm::StringRef, llvm::StringRef, const Module *,
                          bool, SrcMgr::CharacteristicKind) override {
    lookedUp(Name);
  }
#else
  void InclusionDirective(SourceLocation, const Token &, llvm::StringRef Name,
                          bool, CharSourceRange, OptionalFileEntryRef,
                          llvm::StringRef, llvm::StringRef, const Module *,
                          SrcMgr::CharacteristicKind) override {
    lookedUp(Name);
  }
#endif
  void HasInclude(SourceLocation, llvm::StringRef Name, bool,
                  OptionalFileEntryRef, SrcMgr::CharacteristicKind) override {
    lookedUp(Name);
  }
};

} // namespace clang::devplace::compat

/// `vfs::FileSystem::exists` is virtual from LLVM 17 on, and a
/// ProxyFileSystem forwards it to the file system below, past `status()`;
/// a proxy that watches lookups must override it there. In LLVM 16 it is
/// not virtual and calls `status()`, which the proxy already sees.
#if LLVM_VERSION_MAJOR >= 17
#define DEVPLACE_VFS_EXISTS_OVERRIDE override
#else
#define DEVPLACE_VFS_EXISTS_OVERRIDE
#endif

#endif // DEVPLACE_COMPAT_H

//===--- MainFileDecls.cpp - what the checks look at ----------------------===//

#include "utils/MainFileDecls.h"
#include "devplace/model/Types.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace clang::tidy::devplace {

namespace {
struct Collector : RecursiveASTVisitor<Collector> {
  std::vector<const FunctionDecl *> Out;
  std::vector<const CXXRecordDecl *> Classes;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !FD->isImplicit())
      Out.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    if (CXXMethodDecl *Call = LE->getCallOperator();
        Call && !Call->isDependentContext())
      Out.push_back(Call);
    return true;
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition() && !RD->isDependentContext() &&
        !RD->isLambda() && !RD->isImplicit())
      Classes.push_back(RD);
    return true;
  }
};

/// Walks only the top-level declarations written in the main file (all of
/// them with \p AllFiles). When the AST's traversal scope is already the
/// main file's declarations (the devplace command and clangd set it), that
/// list is walked instead of the translation unit's: over a precompiled
/// preamble, listing the translation unit would deserialise every
/// declaration of the headers in it.
Collector collect(ASTContext &Ctx, bool AllFiles) {
  Collector C;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  bool Limited = Scope.size() != 1 || !isa<TranslationUnitDecl>(Scope.front());
  auto InMainFile = [&](const Decl *D) {
    return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
  };
  if (Limited && !AllFiles) {
    for (Decl *D : Scope)
      if (InMainFile(D))
        C.TraverseDecl(D);
    return C;
  }
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (AllFiles || InMainFile(D))
      C.TraverseDecl(D);
  return C;
}

/// What the checks of the translation unit being checked have collected:
/// every check walks the same declarations, so they are found once.
/// Thread-local because clangd builds translation units on worker threads;
/// forgotten at the start of every translation unit (a new AST may sit at
/// the old one's address).
struct Collected {
  const ASTContext *Ctx = nullptr;
  std::optional<std::vector<const FunctionDecl *>> Functions[2];
  std::optional<std::vector<const CXXRecordDecl *>> Classes[2];
};
thread_local Collected ThisUnit;

Collected &collectedFor(const ASTContext &Ctx) {
  if (ThisUnit.Ctx != &Ctx) {
    ThisUnit = Collected();
    ThisUnit.Ctx = &Ctx;
  }
  return ThisUnit;
}

std::vector<const FunctionDecl *> compilingFunctions(ASTContext &Ctx,
                                                     bool AllFiles) {
  Collector C = collect(Ctx, AllFiles);
  // A lambda's call operator is reached both through its class and its
  // expression; keep the first. Functions that do not compile are left out:
  // no check reports on code clang could only recover from.
  llvm::DenseSet<const FunctionDecl *> Seen;
  std::vector<const FunctionDecl *> Unique;
  bool SomeBroken = false;
  for (const FunctionDecl *FD : C.Out) {
    if (!Seen.insert(FD).second)
      continue;
    if (clang::devplace::hasErrors(FD))
      SomeBroken = true;
    else
      Unique.push_back(FD);
  }
  // The compiler reported an error that no function carries: clang (22 at
  // least) drops some statements it cannot parse without a trace, e.g.
  // `return v * undeclared` missing its `;`, so the function that held it
  // looks whole. Not knowing which function it was, analyse none of them.
  if (!SomeBroken && Ctx.getDiagnostics().hasUncompilableErrorOccurred())
    return {};
  return Unique;
}
} // namespace

MainFileCheck::MainFileCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      HostSinkFunctions(Options.getLocalOrGlobal("HostSinkFunctions", "")),
      SourceFunctions(Options.getLocalOrGlobal("SourceFunctions", "")),
      SanitizerFunctions(Options.getLocalOrGlobal("SanitizerFunctions", "")) {
  if (HostSinkFunctions.empty() && SourceFunctions.empty() &&
      SanitizerFunctions.empty())
    return;
  Configured = ApiTable::builtin();
  Configured->addFunctions(HostSinkFunctions, ApiRole::HostMemoryCall);
  Configured->addFunctions(SourceFunctions, ApiRole::DeviceSource);
  Configured->addFunctions(SanitizerFunctions, ApiRole::HostSanitizer);
}

void MainFileCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "HostSinkFunctions", HostSinkFunctions);
  Options.store(Opts, "SourceFunctions", SourceFunctions);
  Options.store(Opts, "SanitizerFunctions", SanitizerFunctions);
}

std::string MainFileCheck::tableOptions() const {
  return HostSinkFunctions + "\n" + SourceFunctions + "\n" + SanitizerFunctions;
}

void MainFileCheck::registerMatchers(ast_matchers::MatchFinder *Finder) {
  Finder->addMatcher(ast_matchers::translationUnitDecl(), this);
}

// clang-tidy starts every check's translation unit before any check runs.
void MainFileCheck::onStartOfTranslationUnit() { ThisUnit = Collected(); }

std::vector<const CXXRecordDecl *> mainFileClasses(ASTContext &Ctx,
                                                   bool AllFiles) {
  auto &Classes = collectedFor(Ctx).Classes[AllFiles];
  if (!Classes)
    Classes = collect(Ctx, AllFiles).Classes;
  return *Classes;
}

std::vector<const FunctionDecl *> mainFileFunctions(ASTContext &Ctx,
                                                    bool AllFiles) {
  auto &Functions = collectedFor(Ctx).Functions[AllFiles];
  if (!Functions)
    Functions = compilingFunctions(Ctx, AllFiles);
  return *Functions;
}

} // namespace clang::tidy::devplace

//===--- rewrite_sites.cpp - where the metamorphic rewrites apply ---------===//
//
// devplace-rewrite-sites FILE -- COMPILER FLAGS
//
// Parses FILE and prints, as JSON, the places of the main file that the
// metamorphic harness (test/robustness/metamorphic.py) rewrites, as byte
// offsets found in the AST, so that every rewrite is a rewrite of the
// program's structure rather than of its text:
//
//   bodies   each function or method defined in the file: the range that
//            removing its body replaces (the body, for a definition that
//            is also a declaration; the whole definition, for one out of
//            its class, whose declaration stays in the class), its name,
//            and whether it is a method
//   locals   each named local variable of those functions: its name and
//            the offset of every spelling of it (the declaration and each
//            reference), for renaming
//
// Exit status 1 when FILE does not compile: the harness analyses only
// programs that compile.
//
//===----------------------------------------------------------------------===//

#include "ParseArguments.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace clang;

namespace {

struct Sites : RecursiveASTVisitor<Sites> {
  ASTContext &Ctx;
  SourceManager &SM;
  llvm::json::Array Bodies;
  /// Keyed by declaration; the harness orders them by their first site.
  std::map<const VarDecl *, std::vector<unsigned>> Locals;

  explicit Sites(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  /// The offset of \p L in the main file, written there (not in a macro).
  std::optional<unsigned> offset(SourceLocation L) const {
    if (L.isInvalid() || L.isMacroID() || !SM.isInMainFile(L))
      return std::nullopt;
    return SM.getFileOffset(L);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit() ||
        FD->isDefaulted())
      return true;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->getParent()->isLambda())
      return true;
    const Stmt *Body = FD->getBody();
    if (!Body || isa<CXXTryStmt>(Body))
      return true;
    // A constructor's initialisers go with its body.
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *I : CD->inits())
        if (I->isWritten())
          return true;
    bool OutOfLine = FD->isOutOfLine();
    std::optional<unsigned> Begin =
        offset(OutOfLine ? FD->getOuterLocStart() : Body->getBeginLoc());
    std::optional<unsigned> End = offset(Body->getEndLoc());
    if (!Begin || !End || *End < *Begin)
      return true;
    Bodies.push_back(llvm::json::Object{
        {"name", FD->getQualifiedNameAsString()},
        {"begin", *Begin},
        {"end", *End + 1},
        {"whole", OutOfLine},
        {"method", isa<CXXMethodDecl>(FD)},
        {"line", SM.getSpellingLineNumber(FD->getLocation())},
    });
    return true;
  }

  static bool isLocal(const VarDecl *VD) {
    return VD->isLocalVarDecl() && !VD->isImplicit() && VD->getIdentifier() &&
           !isa<DecompositionDecl>(VD) && !VD->isStaticLocal();
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (isLocal(VD))
      if (std::optional<unsigned> O = offset(VD->getLocation()))
        Locals[VD].push_back(*O);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD))
      if (std::optional<unsigned> O = offset(DRE->getLocation()))
        Locals[VD].push_back(*O);
    return true;
  }
};

} // namespace

int main(int argc, char **argv) {
  devplace_test::ToolInput In;
  if (!devplace_test::parseArguments(argc, argv, "devplace-rewrite-sites",
                                     "devplace-rewrite-sites FILE -- FLAGS",
                                     {}, In))
    return 2;
  if (!In.AST)
    return 1;
  std::unique_ptr<ASTUnit> &AST = In.AST;
  Sites S(AST->getASTContext());
  S.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  llvm::json::Array Locals;
  for (const auto &[VD, Offsets] : S.Locals) {
    const auto *Fn = dyn_cast<FunctionDecl>(VD->getParentFunctionOrMethod());
    Locals.push_back(llvm::json::Object{
        {"name", VD->getName()},
        {"function", Fn ? Fn->getQualifiedNameAsString() : ""},
        {"sites", llvm::json::Array(Offsets)},
    });
  }
  llvm::outs() << llvm::json::Value(llvm::json::Object{
                      {"bodies", std::move(S.Bodies)},
                      {"locals", std::move(Locals)}})
               << "\n";
  return 0;
}

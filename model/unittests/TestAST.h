//===--- TestAST.h - snippets parsed for the model's unit tests -*- C++ -*-===//
#ifndef DEVPLACE_MODEL_UNITTESTS_TESTAST_H
#define DEVPLACE_MODEL_UNITTESTS_TESTAST_H

#include "devplace/model/DeviceModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <map>
#include <memory>
#include <string>

namespace clang::devplace::test {

/// A snippet compiled against the mock LibTorch headers, with a model.
/// Line numbers count from the first line of the snippet: in a raw string
/// that starts with a line break, line 1 is the empty line after R"cpp(.
class TestAST {
public:
  explicit TestAST(llvm::StringRef Code, bool AllowErrors = false)
      : Unit(tooling::buildASTFromCodeWithArgs(
            ("#include <torch/torch.h>\n" + Code).str(),
            {"-std=c++17", "-I" DEVPLACE_MOCK_HEADERS}, "input.cpp")),
        Model(Unit->getASTContext(), ApiTable::builtin(), AnalysisOptions()) {
    EXPECT_TRUE(AllowErrors || !Unit->getDiagnostics().hasErrorOccurred())
        << "snippet does not compile";
  }

  ASTContext &context() { return Unit->getASTContext(); }
  DeviceModel &model() { return Model; }

  /// The definition of the function named \p Name in the snippet.
  const FunctionDecl *function(llvm::StringRef Name) {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::StringRef Name;
      const FunctionDecl *Found = nullptr;
      bool VisitFunctionDecl(FunctionDecl *FD) {
        if (FD->getIdentifier() && FD->getName() == Name && FD->hasBody() &&
            FD->isThisDeclarationADefinition())
          Found = FD;
        return !Found;
      }
    } F;
    F.Name = Name;
    F.TraverseDecl(context().getTranslationUnitDecl());
    EXPECT_NE(F.Found, nullptr) << "no function " << Name.str();
    return F.Found;
  }

  /// The call operator of the \p Index-th lambda of the snippet.
  const FunctionDecl *lambda(unsigned Index) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const SourceManager *SM;
      std::vector<const FunctionDecl *> Found;
      bool VisitLambdaExpr(LambdaExpr *LE) {
        if (SM->isInMainFile(LE->getBeginLoc()))
          Found.push_back(LE->getCallOperator());
        return true;
      }
    } F;
    F.SM = &context().getSourceManager();
    F.TraverseDecl(context().getTranslationUnitDecl());
    EXPECT_LT(Index, F.Found.size()) << "no lambda " << Index;
    return Index < F.Found.size() ? F.Found[Index] : nullptr;
  }

  /// The state after the last statement on each line of \p Function, as
  /// the model's final pass sees it: line -> variable name -> fact.
  struct Point {
    Mask Reach = 0;
    std::map<std::string, Fact> Values;
    /// Locals that hold a non_blocking host copy nothing has waited for,
    /// with the valuations under which they do.
    std::map<std::string, Mask> Pending;
  };
  std::map<unsigned, Point> trace(llvm::StringRef Function) {
    std::map<unsigned, Point> Lines;
    const FunctionDecl *FD = function(Function);
    if (!FD)
      return Lines;
    const SourceManager &SM = context().getSourceManager();
    Model.trace(FD, [&](const Stmt *S, const ProgramPoint &P) {
      unsigned Line = SM.getExpansionLineNumber(S->getEndLoc()) - 1;
      Point &Out = Lines[Line];
      Out.Reach = P.reach();
      Out.Values.clear();
      Out.Pending.clear();
      Atoms = P.atoms();
      for (const ValueDecl *D : declsOf(FD)) {
        if (Mask M = P.pendingCopyIn(D))
          Out.Pending[D->getNameAsString()] = M;
        if (std::optional<Fact> F = P.valueOf(D))
          Out.Values[D->getNameAsString()] = *F;
        // Members of local objects, as "s.loss".
        const auto *VD = dyn_cast<VarDecl>(D);
        const auto *RD = VD ? VD->getType()->getAsCXXRecordDecl() : nullptr;
        if (RD && RD->hasDefinition())
          for (const FieldDecl *Field : RD->fields())
            if (std::optional<Fact> F = P.memberOf(VD, Field))
              Out.Values[D->getNameAsString() + "." +
                         Field->getNameAsString()] = *F;
      }
    });
    return Lines;
  }
  /// The atoms the last trace found, in order.
  std::vector<std::string> Atoms;

private:
  static std::vector<const ValueDecl *> declsOf(const FunctionDecl *FD) {
    struct Collector : RecursiveASTVisitor<Collector> {
      std::vector<const ValueDecl *> Out;
      bool VisitVarDecl(VarDecl *VD) {
        Out.push_back(VD);
        return true;
      }
      bool VisitBindingDecl(BindingDecl *BD) {
        Out.push_back(BD);
        return true;
      }
    } C;
    C.TraverseDecl(const_cast<FunctionDecl *>(FD));
    return C.Out;
  }

  std::unique_ptr<ASTUnit> Unit;
  DeviceModel Model;
};

/// Under the valuations where atom \p I is true / false.
inline Mask whenTrue(unsigned I) { return atomTrueMask(I); }
inline Mask whenFalse(unsigned I) { return ~atomTrueMask(I); }

} // namespace clang::devplace::test

#endif

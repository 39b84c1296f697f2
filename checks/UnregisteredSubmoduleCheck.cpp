//===--- UnregisteredSubmoduleCheck.cpp - devplace-unregistered-submodule -===//

#include "UnregisteredSubmoduleCheck.h"
#include "devplace/model/Modules.h"
#include "utils/FixIts.h"
#include "utils/MainFileDecls.h"
#include "utils/ModelNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::devplace {

void UnregisteredSubmoduleCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  // This check reports an absence (no register_* call). After a compile
  // error clang may skip function bodies, and the registrations with them.
  if (Ctx.getDiagnostics().hasUncompilableErrorOccurred())
    return;
  auto Check = [&](const CXXRecordDecl *RD, bool InMainFile) {
    if (!RD->isInvalidDecl() && isNNModuleClass(RD) &&
        !api().is(ApiMatch::Class, qualifiedName(RD), ApiRole::ModuleBase))
      checkClass(RD, InMainFile, Ctx);
  };
  std::vector<const CXXRecordDecl *> Classes = mainFileClasses(Ctx);
  llvm::DenseSet<const CXXRecordDecl *> Seen(Classes.begin(), Classes.end());
  for (const CXXRecordDecl *RD : Classes)
    Check(RD, true);
  // A class of a project header whose constructor is defined here: its
  // members get their values here (a header with the class and a source
  // file with its methods is how most projects are laid out), so it is
  // checked here, once, where the constructor is.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *FD : mainFileFunctions(Ctx))
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(FD);
        CD && CD->isOutOfLine() && CD->getParent()->hasDefinition())
      if (const CXXRecordDecl *RD = CD->getParent()->getDefinition();
          !SM.isInSystemHeader(RD->getLocation()) && Seen.insert(RD).second)
        Check(RD, false);
}

void UnregisteredSubmoduleCheck::checkClass(const CXXRecordDecl *RD,
                                            bool InMainFile, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  ModuleRegistrations Registrations = scanRegistrations(RD, api());
  // An absence needs every method seen: one defined in another file may
  // register a member, or replace it as a cache.
  if (!Registrations.AllMethodsSeen)
    return;
  for (const FieldDecl *F : RD->fields()) {
    DeviceCarrier C = classifyType(F->getType());
    if (C != DeviceCarrier::Module && C != DeviceCarrier::Tensor)
      continue;
    auto It = Registrations.Members.find(F);
    if (It == Registrations.Members.end() || It->second.Registered)
      continue;
    const MemberRegistration &U = It->second;
    // The class's own to() moves it with the module.
    if (U.MovedByOwnTo)
      continue;
    // Tensors set outside a constructor, or replaced by a method with a
    // value not computed from them, are state (a cache, the last output),
    // not parameters or buffers. One whose every read (if any) is moved to
    // another tensor's device first, or read as a host number, works
    // wherever the module is.
    if (C == DeviceCarrier::Tensor &&
        (!U.InitialisedInConstructor || U.ReplacedInMethod ||
         U.Reads == U.ReadsOnAnyDevice))
      continue;
    // A module class of the code's own with nothing to move or to switch
    // to eval(): nothing goes wrong when it is left out.
    if (C == DeviceCarrier::Module &&
        holdsNoState(moduleClassOf(F->getType()), api()))
      continue;
    // A class of a header is reported where the member gets its value in
    // this file, with a note at its declaration.
    SourceLocation At = F->getLocation();
    if (!InMainFile) {
      if (!U.FirstValue ||
          !SM.isInMainFile(SM.getExpansionLoc(U.FirstValue->getBeginLoc())))
        continue;
      At = U.FirstValue->getBeginLoc();
    }
    // Which harm applies: a module without parameters or buffers moves,
    // trains and saves nothing; one whose behaviour depends on train() and
    // eval() (dropout, batch norm) stays in training mode.
    bool Parameterless = false, TrainingMode = false;
    if (C == DeviceCarrier::Module) {
      const ApiTable &Api = api();
      std::string N = moduleClassName(F->getType());
      auto Has = [&](ApiRole R) {
        return !N.empty() &&
               (Api.endsWith(N, R) || Api.is(ApiMatch::ClassName, N, R));
      };
      Parameterless = Has(ApiRole::ParameterlessModule);
      TrainingMode = Has(ApiRole::TrainingModeModule);
      if (Parameterless && !TrainingMode)
        continue;
    }
    {
      auto D =
          Parameterless
              ? diag(At, "submodule '%0' of '%1' is never registered: it stays "
                         "in training mode when '%1' is put in eval() mode; "
                         "register it with register_module")
                    << F->getName() << RD->getName()
              : diag(At,
                     "%select{submodule|tensor member}0 '%1' of '%2' is "
                     "never registered: it will not move with "
                     "->to(device)%select{, and its parameters will not be "
                     "trained or saved%3; register it with register_module|, "
                     "will not be trained as a parameter and will not be "
                     "saved; register it with register_parameter or "
                     "register_buffer}0")
                    << (C == DeviceCarrier::Tensor) << F->getName()
                    << RD->getName()
                    << (TrainingMode ? ", and it stays in training mode under "
                                       "eval()"
                                     : "");
      // Fix-it: wrap the one value the submodule gets in register_module,
      // when that value is an expression of its own (not `se(4, 4)`).
      const Expr *Value = stripValue(U.FirstValue);
      bool Wrappable = Value && isa<CallExpr, CXXTemporaryObjectExpr,
                                    CXXFunctionalCastExpr, DeclRefExpr>(Value);
      if (C == DeviceCarrier::Module && U.Values == 1 && Wrappable &&
          !Value->getBeginLoc().isMacroID()) {
        std::string Text = sourceText(Value->getSourceRange(), Ctx);
        if (!Text.empty())
          D << FixItHint::CreateReplacement(
              Value->getSourceRange(),
              ApiTable::spelling(ApiRole::RegistrationFix).str() + "(\"" +
                  F->getName().str() + "\", " + Text + ")");
      }
    } // the warning is emitted before its note
    if (InMainFile)
      diag(U.FirstValue ? U.FirstValue->getBeginLoc() : F->getLocation(),
           "'%0' is given its value here", DiagnosticIDs::Note)
          << F->getName();
    else
      diag(F->getLocation(), "'%0' is declared here", DiagnosticIDs::Note)
          << F->getName();
  }
}

} // namespace clang::tidy::devplace

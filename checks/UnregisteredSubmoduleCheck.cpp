//===--- UnregisteredSubmoduleCheck.cpp - devplace-unregistered-submodule -===//

#include "UnregisteredSubmoduleCheck.h"
#include "utils/FixIts.h"
#include "utils/MainFileDecls.h"
#include "utils/ModelNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::devplace {

void UnregisteredSubmoduleCheck::registerMatchers(MatchFinder *Finder) {
  // One match per translation unit; the main file's classes are walked
  // directly (see utils/MainFileDecls.h).
  Finder->addMatcher(translationUnitDecl(), this);
}

namespace {

bool isRegisterCall(const CallExpr *CE) {
  const auto *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  return ApiTable::builtin().methodName(FD->getName(),
                                        ApiRole::ModuleRegistration);
}

/// `this->f` or `f` inside a member function: the field, if any.
const FieldDecl *fieldOf(const Expr *E) {
  E = stripValue(E); // through the copy made when a holder is passed on
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

/// Where a field gets its value, and whether a register_* call covers it.
struct FieldUse {
  bool Registered = false;
  bool InitialisedInConstructor = false;
  bool Assigned = false;
  const Expr *FirstValue = nullptr; ///< the first value given to it
  unsigned Values = 0;
};

class Scanner : public RecursiveASTVisitor<Scanner> {
public:
  llvm::DenseMap<const FieldDecl *, FieldUse> Uses;
  bool InConstructor = false;

  void value(const FieldDecl *F, const Expr *V, bool Registers) {
    FieldUse &U = Uses[F];
    U.Assigned = true;
    U.Registered |= Registers;
    U.InitialisedInConstructor |= InConstructor;
    if (!U.FirstValue)
      U.FirstValue = V;
    ++U.Values;
  }
  static bool registers(const Expr *V) {
    // Also through a converting constructor: a holder made from the
    // shared_ptr that register_module returns.
    V = stripValue(V);
    while (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(V)) {
      if (Ctor->getNumArgs() != 1)
        break;
      V = stripValue(Ctor->getArg(0));
    }
    const auto *CE = dyn_cast_or_null<CallExpr>(V);
    return CE && isRegisterCall(CE);
  }
  bool VisitCallExpr(CallExpr *CE) {
    // register_module("fc", fc): the field passed after it was built.
    if (isRegisterCall(CE))
      for (const Expr *Arg : CE->arguments())
        if (const FieldDecl *F = fieldOf(Arg))
          Uses[F].Registered = true;
    // layers->push_back(register_module("fc", Linear(4, 4))): a container
    // whose children are registered on this module one by one is, in
    // effect, registered: they move, train and save with it.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
        MC && ApiTable::builtin().methodName(methodName(MC),
                                             ApiRole::ContainerInsert)) {
      const Expr *Obj = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
      if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Obj);
          Arrow && Arrow->getOperator() == OO_Arrow)
        Obj = Arrow->getArg(0);
      if (const FieldDecl *F = fieldOf(Obj))
        for (const Expr *Arg : MC->arguments())
          if (registers(Arg))
            Uses[F].Registered = true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (const FieldDecl *F = fieldOf(OC->getArg(0)))
        value(F, OC->getArg(1), registers(OC->getArg(1)));
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const FieldDecl *F = fieldOf(BO->getLHS()))
        value(F, BO->getRHS(), registers(BO->getRHS()));
    return true;
  }
};

bool isNullHolder(const Expr *Init) {
  // `torch::nn::Linear fc{nullptr};` declares an empty holder.
  if (!Init)
    return true;
  Init = Init->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init))
    return CE->getNumArgs() == 0 ||
           (CE->getNumArgs() == 1 &&
            CE->getArg(0)->IgnoreParenImpCasts()->getType()->isNullPtrType());
  return isa<CXXNullPtrLiteralExpr>(Init);
}

} // namespace

void UnregisteredSubmoduleCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  // This check reports an absence (no register_* call). After a compile
  // error clang may skip function bodies, and the registrations with them.
  if (Ctx.getDiagnostics().hasUncompilableErrorOccurred())
    return;
  for (const CXXRecordDecl *RD : mainFileClasses(Ctx))
    if (!RD->isInvalidDecl() && isNNModuleClass(RD) &&
        !ApiTable::builtin().is(ApiMatch::Class, qualifiedName(RD),
                                ApiRole::ModuleBase))
      checkClass(RD, Ctx);
}

void UnregisteredSubmoduleCheck::checkClass(const CXXRecordDecl *RD,
                                            ASTContext &Ctx) {
  Scanner S;
  for (const Decl *D : RD->decls()) {
    const auto *MD = dyn_cast<CXXMethodDecl>(D);
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      MD = dyn_cast<CXXMethodDecl>(FT->getTemplatedDecl());
    if (!MD || !MD->hasBody())
      continue;
    S.InConstructor = isa<CXXConstructorDecl>(MD);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(MD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (const FieldDecl *F = Init->getMember();
            F && Init->isWritten() && Init->getInit()) {
          if (isNullHolder(Init->getInit()))
            continue;
          S.value(F, Init->getInit(), Scanner::registers(Init->getInit()));
        }
    S.TraverseStmt(MD->getBody());
    for (const auto *Ctor = dyn_cast<CXXConstructorDecl>(MD); Ctor;
         Ctor = nullptr)
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Init->getInit())
          S.TraverseStmt(Init->getInit());
  }
  for (const FieldDecl *F : RD->fields()) {
    DeviceCarrier C = classifyType(F->getType());
    if (C != DeviceCarrier::Module && C != DeviceCarrier::Tensor)
      continue;
    auto It = S.Uses.find(F);
    if (It == S.Uses.end() || It->second.Registered)
      continue;
    const FieldUse &U = It->second;
    // Tensors set outside a constructor are state (a cache, the last
    // output), not parameters or buffers.
    if (C == DeviceCarrier::Tensor && !U.InitialisedInConstructor)
      continue;
    // Which harm applies: a module without parameters or buffers moves,
    // trains and saves nothing; one whose behaviour depends on train() and
    // eval() (dropout, batch norm) stays in training mode.
    bool Parameterless = false, TrainingMode = false;
    if (C == DeviceCarrier::Module) {
      const ApiTable &Api = ApiTable::builtin();
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
              ? diag(F->getLocation(),
                     "submodule '%0' of '%1' is never registered: it stays "
                     "in training mode when '%1' is put in eval() mode; "
                     "register it with register_module")
                    << F->getName() << RD->getName()
              : diag(F->getLocation(),
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
              "register_module(\"" + F->getName().str() + "\", " + Text + ")");
      }
    } // the warning is emitted before its note
    diag(U.FirstValue ? U.FirstValue->getBeginLoc() : F->getLocation(),
         "'%0' is given its value here", DiagnosticIDs::Note)
        << F->getName();
  }
}

} // namespace clang::tidy::devplace

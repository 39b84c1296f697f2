//===--- Modules.cpp - which members of a module class are registered -----===//

#include "devplace/model/Modules.h"
#include "devplace/model/Types.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::devplace {

namespace {

/// `this->f` or `f` inside a member function: the field, if any.
const FieldDecl *fieldOf(const Expr *E) {
  E = stripValue(E); // through the copy made when a holder is passed on
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

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

class Scanner : public RecursiveASTVisitor<Scanner> {
public:
  explicit Scanner(const ApiTable &Api) : Api(Api) {}
  llvm::DenseMap<const FieldDecl *, MemberRegistration> Uses;
  bool InConstructor = false;

  void value(const FieldDecl *F, const Expr *V, bool Registers) {
    MemberRegistration &U = Uses[F];
    U.Registered |= Registers;
    U.InitialisedInConstructor |= InConstructor;
    U.ReplacedInMethod |= !InConstructor && !reads(V, F);
    if (!U.FirstValue)
      U.FirstValue = V;
    ++U.Values;
  }
  /// \p V reads the member \p F.
  static bool reads(const Expr *V, const FieldDecl *F) {
    struct Find : RecursiveASTVisitor<Find> {
      const FieldDecl *F;
      bool Found = false;
      bool VisitMemberExpr(MemberExpr *ME) {
        Found |= ME->getMemberDecl() == F;
        return !Found;
      }
    } S;
    S.F = F;
    S.TraverseStmt(const_cast<Expr *>(V));
    return S.Found;
  }
  bool isRegisterCall(const CallExpr *CE) const {
    const auto *FD = CE->getDirectCallee();
    return FD && FD->getIdentifier() &&
           Api.methodName(FD->getName(), ApiRole::ModuleRegistration);
  }
  bool registers(const Expr *V) const {
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
    // register_module("fc", fc), register_buffer("mean", mean_): the field
    // passed after it was built (a buffer shares the field's tensor, so
    // the field moves with the module).
    if (isRegisterCall(CE))
      for (const Expr *Arg : CE->arguments())
        if (const FieldDecl *F = fieldOf(Arg))
          Uses[F].Registered = true;
    // layers->push_back(register_module("fc", Linear(4, 4))): a container
    // whose children are registered on this module one by one is, in
    // effect, registered: they move, train and save with it.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
        MC && Api.methodName(methodName(MC), ApiRole::ContainerInsert)) {
      if (const FieldDecl *F =
              fieldOf(objectBehind(MC->getImplicitObjectArgument())))
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

private:
  const ApiTable &Api;
};

} // namespace

ModuleRegistrations scanRegistrations(const CXXRecordDecl *RD,
                                      const ApiTable &Api) {
  ModuleRegistrations R;
  Scanner S(Api);
  for (const Decl *D : RD->decls()) {
    const auto *MD = dyn_cast<CXXMethodDecl>(D);
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      MD = dyn_cast<CXXMethodDecl>(FT->getTemplatedDecl());
    if (!MD || MD->isImplicit() || MD->isDefaulted() || MD->isDeleted())
      continue;
    if (!MD->hasBody()) {
      R.AllMethodsSeen = false;
      continue;
    }
    S.InConstructor = isa<CXXConstructorDecl>(MD);
    const auto *Ctor = dyn_cast<CXXConstructorDecl>(MD);
    if (const FunctionDecl *Def = nullptr; Ctor && Ctor->hasBody(Def))
      Ctor = cast<CXXConstructorDecl>(Def); // the initialisers are there
    if (Ctor)
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (const FieldDecl *F = Init->getMember();
            F && Init->isWritten() && Init->getInit()) {
          if (isNullHolder(Init->getInit()))
            continue;
          S.value(F, Init->getInit(), S.registers(Init->getInit()));
        }
    S.TraverseStmt(MD->getBody());
    if (Ctor)
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Init->getInit())
          S.TraverseStmt(Init->getInit());
  }
  R.Members = std::move(S.Uses);
  return R;
}

} // namespace clang::devplace

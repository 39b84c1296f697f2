//===--- LocalObjects.cpp - local objects of plain classes, member by member =//

#include "FunctionAnalysis.h"
#include "devplace/Compat.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

const CXXRecordDecl *LocalObjects::objectClass(const FunctionDecl *M) {
  const auto *MD = dyn_cast<CXXMethodDecl>(M);
  if (!MD || MD->isStatic() || isa<CXXConstructorDecl>(MD) ||
      isa<CXXDestructorDecl>(MD))
    return nullptr;
  const CXXRecordDecl *RD = MD->getParent();
  return Scope.splitsIntoMembers(compat::recordType(Scope.Ctx, RD)) ? RD
                                                                    : nullptr;
}

/// The constructor hands its object to code that may change its members: a
/// non-const method of its own (`reset(device)`), or `this` passed on.
/// Reading and writing members, and const methods, are all it may do. With
/// \p ConstMethodsToo, a const method or a lambda that captures `this`
/// counts too: then nothing but the constructor itself sees its members
/// before it returns.
static bool objectEscapes(const CXXConstructorDecl *Ctor,
                          bool ConstMethodsToo = false) {
  struct Uses : RecursiveASTVisitor<Uses> {
    bool ConstMethodsToo;
    unsigned This = 0, Harmless = 0;
    bool VisitCXXThisExpr(CXXThisExpr *) {
      ++This;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      const auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
          (isa<FieldDecl>(ME->getMemberDecl()) ||
           (M && M->isConst() && !ConstMethodsToo)))
        ++Harmless;
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *LE) {
      if (ConstMethodsToo && LE->getLambdaClass() &&
          LE->getLambdaClass()->isLambda() &&
          llvm::any_of(LE->captures(),
                       [](const LambdaCapture &C) { return C.capturesThis(); }))
        ++This;
      return true;
    }
  } U;
  U.ConstMethodsToo = ConstMethodsToo;
  U.TraverseStmt(Ctor->getBody());
  for (const CXXCtorInitializer *Init : Ctor->inits())
    if (Init->isWritten() && Init->getInit())
      U.TraverseStmt(Init->getInit());
  return U.This != U.Harmless;
}

bool LocalObjects::membersPrivateUntilExit() const {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Scope.FD);
  return Ctor && !objectEscapes(Ctor, /*ConstMethodsToo=*/true);
}

const CXXRecordDecl *LocalObjects::constructedClass(const FunctionDecl *M) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(M);
  if (!Ctor || Ctor->isCopyOrMoveConstructor() || objectEscapes(Ctor))
    return nullptr;
  const CXXRecordDecl *RD = Ctor->getParent();
  return Scope.splitsIntoMembers(compat::recordType(Scope.Ctx, RD)) ? RD
                                                                    : nullptr;
}

std::optional<llvm::SmallVector<Fact, 2>>
LocalObjects::constructedMembers(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  const FunctionDecl *Def = nullptr;
  if (!Ctor || !Ctor->hasBody(Def) || !Def || Def->isDependentContext() ||
      Model.unit().inProgress(Def) ||
      Scope.SM.isInSystemHeader(Def->getLocation()))
    return std::nullopt;
  // The summary has members only for a constructor that keeps its object to
  // itself (constructedClass, decided once, in its own analysis).
  const FunctionFacts &Sum = Model.analyze(Def);
  if (Sum.Broken || !Sum.Complete || Sum.MemberOut.empty())
    return std::nullopt;
  ArgsOf ArgOf(CE);
  // A member the constructor leaves alone has no fact: not known.
  llvm::SmallVector<Fact, 2> Out;
  for (const FieldDecl *Field : Ctor->getParent()->fields()) {
    auto Exit = llvm::find_if(Sum.MemberOut,
                              [&](const auto &M) { return M.first == Field; });
    Out.push_back(Exit == Sum.MemberOut.end()
                      ? Fact{}
                      : A.Summaries.fromSummary(CE, Def, Exit->second, ArgOf));
  }
  return Out;
}

llvm::SmallVector<std::pair<const FieldDecl *, unsigned>, 4>
LocalObjects::memberBits(const FunctionDecl *M) {
  llvm::SmallVector<std::pair<const FieldDecl *, unsigned>, 4> Out;
  const CXXRecordDecl *RD = objectClass(M);
  if (!RD)
    return Out;
  unsigned Bit = M->getNumParams();
  for (const FieldDecl *Field : RD->fields())
    if (Scope.hasMemberFact(Field) && Bit < 32)
      Out.emplace_back(Field, Bit++);
  return Out;
}

const VarDecl *LocalObjects::memberObjectOf(const Expr *E) const {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(stripValue(E)) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && Scope.Storage.keepsMembers(VD) ? VD : nullptr;
}

const VarDecl *LocalObjects::receiverObject(const CallExpr *CE) const {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  return memberObjectOf(MC ? MC->getImplicitObjectArgument() : nullptr);
}

std::optional<MemberSlot> LocalObjects::memberSlotOf(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(stripValue(E));
  if (!ME || ME->isArrow())
    return std::nullopt;
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const VarDecl *VD = memberObjectOf(ME->getBase());
  if (!Field || !VD || !Scope.hasMemberFact(Field))
    return std::nullopt;
  return MemberSlot(VD, Field);
}

Fact LocalObjects::memberAtEntry(const FieldDecl *Field, unsigned Bit,
                                 bool WithOrigin) {
  // Every object's values, less those its methods wrote from their
  // parameters: for this object they come with its bit (the receiver's own
  // slot at each call), and they would make every member unknown.
  Fact F;
  if (std::optional<Fact> S = Model.unit().memberSummary(Field)) {
    F = *S;
    F.Params = 0;
    F.ParamsWhen = AllValuations;
    F = widen(F);
  }
  F.Params |= 1u << Bit;
  if (!F.Dev && WithOrigin)
    F.Why = Model.unit().originStep(Field->getLocation(), Field->getName());
  return F;
}

std::optional<llvm::SmallVector<std::pair<MemberSlot, Fact>, 4>>
LocalObjects::memberUpdates(const Expr *E) {
  // `h.add(loss)`: h's members as the method leaves them, in terms of the
  // arguments and of h's members before the call.
  const auto *CE = dyn_cast<CXXMemberCallExpr>(E);
  const VarDecl *Obj = CE ? receiverObject(CE) : nullptr;
  unsigned First = 0;
  const FunctionDecl *Def =
      Obj ? Scope.summarisable(CE, CE->getDirectCallee(),
                               CalleeScope::NonSystem, First)
          : nullptr;
  if (!Def || !objectClass(Def))
    return std::nullopt;
  const FunctionFacts &Sum = Model.analyze(Def);
  if (Sum.Broken || !Sum.Complete)
    return std::nullopt;
  auto Bits = memberBits(Def);
  std::optional<llvm::SmallVector<std::pair<MemberSlot, Fact>, 4>> Out;
  Out.emplace();
  for (const auto &[Field, Exit] : Sum.MemberOut) {
    const FieldDecl *Member = Field; // (a lambda cannot capture a binding)
    auto B = llvm::find_if(Bits, [&](auto &P) { return P.first == Member; });
    if (B == Bits.end() ||
        Exit.sameAs(memberAtEntry(Field, B->second, /*WithOrigin=*/false)))
      continue; // left as it was
    Fact F = A.Summaries.fromSummary(CE, Def, First, Exit);
    std::string Name = (Obj->getName() + "." + Field->getName()).str();
    // A container member is added to, as far as notes go.
    bool Added = classifyType(Field->getType()) == DeviceCarrier::Container;
    Out->emplace_back(MemberSlot(Obj, Field),
                      A.Env.named(F, Name, Field->getType(), CE->getExprLoc(),
                                  Added, nullptr));
  }
  return Out;
}

} // namespace clang::devplace

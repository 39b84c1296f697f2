//===--- ModuleMembers.cpp - modules and the members that follow them -----===//
//
// A module variable (a holder, a shared_ptr, a TorchScript module) is keyed
// by the object a call goes through; a member reached through it follows
// the module's moves when the module registers it, stays where it was made
// when the class provably never does, and is unknown when registration
// cannot be seen.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalysis.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

const ValueDecl *ModuleMembers::moduleKeyOf(const Expr *Obj) {
  Obj = objectBehind(Obj);
  if (classifyType(Obj->getType()) != DeviceCarrier::Module)
    return nullptr;
  return Scope.keyOf(Obj);
}

const Expr *ModuleMembers::scriptModuleOf(const Expr *Obj) const {
  if (!Obj)
    return nullptr;
  Obj = objectBehind(Obj);
  return isScriptModuleType(Obj->getType()) ? Obj : nullptr;
}

Fact ModuleMembers::scriptOutput(const Expr *Module, const CallExpr *Call) {
  // Its parameters are where it was loaded or moved to, and an input on
  // another device fails: a result may be on either side's device. Inputs
  // come as tensors or IValues, alone or in a vector.
  Fact R = eval(Module);
  unsigned First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
  for (unsigned I = First; I < Call->getNumArgs(); ++I) {
    DeviceCarrier C = classifyType(Call->getArg(I)->getType());
    if (C == DeviceCarrier::Tensor || C == DeviceCarrier::IValue ||
        C == DeviceCarrier::Container)
      R = join(R, eval(Call->getArg(I)));
  }
  return R;
}

bool ModuleMembers::staysBehind(const FieldDecl *Field) {
  // Only a class whose every method is in this translation unit can show
  // that it never registers a member.
  // A class another derives from may see it registered there; and a member
  // its methods never give a value comes from elsewhere.
  const auto *RD = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!RD || !isNNModuleClass(RD) ||
      Scope.SM.isInSystemHeader(RD->getLocation()) ||
      Model.unit().isBaseClass(RD))
    return false;
  const ModuleRegistrations &R = Model.unit().registrations(RD);
  auto It = R.Members.find(Field);
  return R.AllMethodsSeen && It != R.Members.end() && !It->second.Registered;
}

bool ModuleMembers::movesWithModule(const FieldDecl *Field) {
  if (staysBehind(Field))
    return false;
  const auto *RD = dyn_cast<CXXRecordDecl>(Field->getParent());
  // LibTorch's own modules register their tensors.
  if (!RD || !isNNModuleClass(RD) ||
      Scope.SM.isInSystemHeader(RD->getLocation()) ||
      Api.inNamespace(qualifiedName(RD), ApiRole::LibraryNamespace) ||
      classifyType(Field->getType()) != DeviceCarrier::Tensor)
    return true;
  const ModuleRegistrations &R = Model.unit().registrations(RD);
  if (auto It = R.Members.find(Field);
      It != R.Members.end() && It->second.Registered)
    return true;
  return !Model.unit().isBaseClass(RD) && R.AllMethodsSeen;
}

const ValueDecl *ModuleMembers::moduleRootOf(const Expr *Member) {
  for (unsigned Depth = 0; Member && Depth < 8; ++Depth) {
    Member = stripValue(Member);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Member);
        OC && OC->getOperator() == OO_Arrow)
      Member = OC->getArg(0);
    else if (const auto *ME = dyn_cast<MemberExpr>(Member)) {
      if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
          Field && !movesWithModule(Field))
        return nullptr;
      Member = ME->getBase();
    } else if (isa<DeclRefExpr>(Member))
      return classifyType(Member->getType()) == DeviceCarrier::Module
                 ? Scope.keyOf(Member)
                 : nullptr;
    else
      return nullptr;
  }
  return nullptr;
}

} // namespace clang::devplace

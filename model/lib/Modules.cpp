//===--- Modules.cpp - which members of a module class are registered -----===//

#include "devplace/model/Modules.h"
#include "devplace/model/Types.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

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

/// The variable \p E names (`rnn_layer`, through the copy a holder makes).
const VarDecl *variableOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripValue(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

class Scanner : public RecursiveASTVisitor<Scanner> {
public:
  explicit Scanner(const ApiTable &Api) : Api(Api) {}
  llvm::DenseMap<const FieldDecl *, MemberRegistration> Uses;
  bool InConstructor = false;
  /// The method scanned is the class's own `to()`.
  bool InOwnTo = false;
  bool RegistersAnything = false;
  bool ReadsTrainingMode = false;

  void value(const FieldDecl *F, const Expr *V, bool Registers) {
    MemberRegistration &U = Uses[F];
    U.Registered |= Registers;
    U.InitialisedInConstructor |= InConstructor;
    U.ReplacedInMethod |= !InConstructor && !reads(V, F);
    if (!U.FirstValue)
      U.FirstValue = V;
    ++U.Values;
    // `rnn = rnn_layer; register_module("rnn_layer", rnn_layer);`: a holder
    // shares its module, a tensor its storage, with the variable registered.
    if (const VarDecl *VD = variableOf(V))
      TakenFrom[VD].push_back(F);
  }
  /// Members given the value of a variable that is registered count as
  /// registered (the order of the two statements does not matter).
  void finish() {
    for (const auto &[VD, Fields] : TakenFrom)
      if (RegisteredVariables.count(VD))
        for (const FieldDecl *F : Fields)
          Uses[F].Registered = true;
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
  /// \p E without the calls around it that return their argument
  /// (`std::dynamic_pointer_cast<torch::nn::Module>(encoder_)`).
  const Expr *passedOn(const Expr *E) const {
    while (const auto *CE = dyn_cast_or_null<CallExpr>(stripValue(E))) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || CE->getNumArgs() != 1 ||
          !Api.is(ApiMatch::Function, qualifiedName(FD),
                  ApiRole::PassesThrough))
        break;
      E = CE->getArg(0);
    }
    return E;
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
  bool VisitVarDecl(VarDecl *VD) {
    // `auto l = register_module("fc", Linear(4, 4)); fc = l;`
    if (VD->getInit() && registers(VD->getInit()))
      RegisteredVariables.insert(VD);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // register_module("fc", fc), register_buffer("mean", mean_): the field
    // passed after it was built (a buffer shares the field's tensor, so
    // the field moves with the module).
    if (isRegisterCall(CE)) {
      RegistersAnything = true;
      for (const Expr *Arg : CE->arguments())
        if (const FieldDecl *F = fieldOf(passedOn(Arg)))
          Uses[F].Registered = true;
        else if (const VarDecl *VD = variableOf(passedOn(Arg)))
          RegisteredVariables.insert(VD);
    }
    if (const auto *FD = CE->getDirectCallee();
        FD && FD->getIdentifier() &&
        Api.methodName(FD->getName(), ApiRole::TrainingModeQuery))
      ReadsTrainingMode = true;
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
      if (const FieldDecl *F = fieldOf(BO->getLHS())) {
        value(F, BO->getRHS(), registers(BO->getRHS()));
        --Uses[F].Reads; // the left side is no read
      }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (const FieldDecl *F = fieldOf(OC->getArg(0)))
        --Uses[F].Reads;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const FieldDecl *F = fieldOf(ME))
      ++Uses[F].Reads;
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const FieldDecl *F = fieldOf(MC->getImplicitObjectArgument());
    llvm::StringRef Name = methodName(MC);
    // `backbone.to(d, nb)` in the class's own to().
    if (InOwnTo) {
      if (const FieldDecl *Moved =
              fieldOf(objectBehind(MC->getImplicitObjectArgument()));
          Moved && Api.methodName(Name, ApiRole::ModuleMove))
        Uses[Moved].MovedByOwnTo = true;
    }
    if (!F || classifyType(F->getType()) != DeviceCarrier::Tensor)
      return true;
    // `scale.item<float>()`: a host number, whatever the device.
    bool HostNumber = Api.tensorMethod(Name, ApiRole::HostSync) &&
                      MC->getType()->isArithmeticType();
    // `win.to(x.device())`, `w.type_as(x)`: where another tensor is.
    bool ToOperand = (Api.tensorMethod(Name, ApiRole::MovesToArgument) ||
                      Api.tensorMethod(Name, ApiRole::MovesToDeviceOf)) &&
                     llvm::any_of(MC->arguments(), [](const Expr *Arg) {
                       return deviceOfAnotherTensor(Arg);
                     });
    if (HostNumber || ToOperand)
      ++Uses[F].ReadsOnAnyDevice;
    return true;
  }

private:
  /// A tensor, or a tensor's device or options (`x.device()`).
  static bool deviceOfAnotherTensor(const Expr *Arg) {
    const Expr *E = stripValue(Arg);
    // Through the conversion to TensorOptions that `to(x.device())` makes.
    while (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
      if (Ctor->getNumArgs() != 1)
        break;
      E = stripValue(Ctor->getArg(0));
    }
    if (classifyType(E->getType()) == DeviceCarrier::Tensor)
      return true;
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    return MC && MC->getImplicitObjectArgument() &&
           classifyType(MC->getImplicitObjectArgument()->getType()) ==
               DeviceCarrier::Tensor &&
           classifyType(MC->getType()) != DeviceCarrier::None;
  }

  const ApiTable &Api;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const FieldDecl *, 1>>
      TakenFrom;
  llvm::DenseSet<const VarDecl *> RegisteredVariables;
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
      R.ConstructorsSeen &= !isa<CXXConstructorDecl>(MD);
      continue;
    }
    S.InConstructor = isa<CXXConstructorDecl>(MD);
    S.InOwnTo = MD->getIdentifier() &&
                Api.methodName(MD->getName(), ApiRole::ModuleMove);
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
  S.finish();
  R.Members = std::move(S.Uses);
  R.RegistersAnything = S.RegistersAnything;
  R.ReadsTrainingMode = S.ReadsTrainingMode;
  return R;
}

bool shapeHoldsNothing(const CXXRecordDecl *RD, const ApiTable &Api) {
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD || RD->getNumBases() != 1)
    return false;
  const CXXRecordDecl *Base =
      RD->bases_begin()->getType()->getAsCXXRecordDecl();
  if (!Base ||
      !Api.is(ApiMatch::Class, qualifiedName(Base), ApiRole::ModuleBase))
    return false;
  return llvm::none_of(RD->fields(), [](const FieldDecl *F) {
    DeviceCarrier C = classifyType(F->getType());
    return C == DeviceCarrier::Module || C == DeviceCarrier::Tensor ||
           C == DeviceCarrier::Container;
  });
}

bool holdsNoState(
    const CXXRecordDecl *RD, const ApiTable &Api,
    llvm::function_ref<const ModuleRegistrations &(const CXXRecordDecl *)>
        Scan) {
  RD = RD ? RD->getDefinition() : nullptr;
  if (!shapeHoldsNothing(RD, Api))
    return false;
  ModuleRegistrations Own;
  const ModuleRegistrations &R =
      Scan ? Scan(RD) : (Own = scanRegistrations(RD, Api));
  return R.ConstructorsSeen && !R.RegistersAnything && !R.ReadsTrainingMode;
}

} // namespace clang::devplace

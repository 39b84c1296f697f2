//===--- MeetingObserver.cpp - values that meet in one operation ----------===//

#include "FunctionAnalysis.h"
#include "devplace/model/Modules.h"
#include "clang/AST/ExprCXX.h"

namespace clang::devplace {

void MeetingObserver::meet(const Expr *Where, const Expr *First,
                           const Expr *Second, Meeting::Kind K) {
  Out.Meetings.push_back(Meeting{K, Where, First, Second, text(First),
                                 text(Second), eval(First), eval(Second),
                                 now().Reach});
}

bool MeetingObserver::parameterless(const Expr *Module) const {
  std::string N = moduleClassName(Module->getType());
  if (!N.empty() &&
      (Api.endsWith(N, ApiRole::ParameterlessModule) ||
       Api.is(ApiMatch::ClassName, N, ApiRole::ParameterlessModule)))
    return true;
  const CXXRecordDecl *RD = moduleClassOf(Module->getType());
  auto Scan = [&](const CXXRecordDecl *C) -> const ModuleRegistrations & {
    return Model.unit().registrations(C);
  };
  // With its constructors not seen, what they register is not known: a
  // class whose shape could hold nothing may.
  return holdsNoState(RD, Api, Scan) ||
         (shapeHoldsNothing(RD, Api) &&
          !Scan(RD->getDefinition()).ConstructorsSeen);
}

void MeetingObserver::observe(const Expr *E) {
  if (const auto *CE = dyn_cast<CallExpr>(E))
    throughCall(CE);
  auto IsTensor = [&](const Expr *X) {
    return classifyType(X->getType()) == DeviceCarrier::Tensor;
  };
  // All tensor operands against the first one.
  auto Pairwise = [&](const Expr *Where, llvm::ArrayRef<const Expr *> Ops) {
    llvm::SmallVector<const Expr *, 4> Tensors;
    for (const Expr *Op : Ops) {
      const Expr *S = stripValue(Op);
      // A TensorList written as {a, b}: its elements.
      if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
          CE && CE->getNumArgs() == 1)
        S = stripValue(CE->getArg(0));
      if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(S))
        S = stripValue(SIL->getSubExpr());
      if (const auto *IL = dyn_cast<InitListExpr>(S)) {
        for (const Expr *Init : IL->inits())
          if (IsTensor(Init))
            Tensors.push_back(Init);
      } else if (IsTensor(Op)) {
        Tensors.push_back(Op);
      }
    }
    for (size_t I = 1; I < Tensors.size(); ++I)
      meet(Where, Tensors[0], Tensors[I], Meeting::Operands);
  };
  auto ModuleCall = [&](const Expr *Where, const Expr *Module,
                        llvm::ArrayRef<const Expr *> Args) {
    if (!parameterless(Module))
      for (const Expr *Arg : Args)
        if (IsTensor(Arg) ||
            classifyType(Arg->getType()) == DeviceCarrier::Container) {
          meet(Where, Module, Arg, Meeting::ModuleInput);
          break;
        }
    Pairwise(Where, Args);
  };

  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (OC->getOperator() == OO_Call) {
      if (classifyType(OC->getArg(0)->getType()) == DeviceCarrier::Module)
        ModuleCall(OC, OC->getArg(0),
                   llvm::ArrayRef(OC->getArgs() + 1, OC->getNumArgs() - 1));
      return;
    }
    // Tensor arithmetic and comparisons (the table's operators).
    if (OC->getNumArgs() == 2 && IsTensor(OC->getArg(0)) &&
        IsTensor(OC->getArg(1)) &&
        Api.is(ApiMatch::Operator, getOperatorSpelling(OC->getOperator()),
               ApiRole::SameDeviceOperands))
      meet(OC, OC->getArg(0), OC->getArg(1), Meeting::Operands);
    return;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!Obj)
      return;
    llvm::StringRef N = methodName(MC);
    llvm::ArrayRef<const Expr *> Args(MC->getArgs(), MC->getNumArgs());
    if (Api.methodName(N, ApiRole::ModuleForward)) {
      const Expr *Module = objectBehind(Obj);
      if (classifyType(Module->getType()) == DeviceCarrier::Module)
        ModuleCall(MC, Module, Args);
      return;
    }
    if (IsTensor(Obj) && Api.tensorMethod(N, ApiRole::SameDeviceOperands))
      for (const Expr *Arg : Args)
        if (IsTensor(Arg))
          meet(MC, Obj, Arg, Meeting::Operands);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (IsTensor(CE) &&
        Api.inNamespace(Scope.calleeName(CE), ApiRole::LibraryNamespace))
      Pairwise(CE, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
  }
}

void MeetingObserver::throughCall(const CallExpr *CE) {
  llvm::SmallVector<HelperCall, 2> Callees;
  bool Virtual = false; // the call may go to an overrider not seen here
  if (HelperCall H = A.Summaries.helperCall(CE, CalleeScope::NonSystem); H.Sum)
    Callees.push_back(H);
  else if (const auto *MD =
               dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
           MD && MD->isVirtual() && !MD->hasBody()) {
    Virtual = true;
    for (const CXXMethodDecl *O : Model.unit().overriders(MD)) {
      HelperCall OH;
      OH.Call = CE;
      OH.Def = Scope.summarisable(CE, O, CalleeScope::NonSystem, OH.First);
      if (OH.Def) {
        OH.Sum = &Model.analyze(OH.Def);
        Callees.push_back(OH);
      }
    }
  }
  for (const HelperCall &H : Callees) {
    ArgsOf ArgOf{CE, H.First};
    for (const ParamMeeting &PM : H.Sum->ParamMeetings) {
      const Expr *Arg = ArgOf(PM.Index);
      if (!Arg || PM.Index >= H.Def->getNumParams())
        continue;
      const Meeting &Inner = H.Sum->Meetings[PM.Meeting];
      const Fact &Other = PM.ParamIsB ? Inner.FA : Inner.FB;
      // Its device under the callee's conditions: all or nothing here.
      Fact There = widen(restrict(Other, Inner.Reach));
      // Through a base class, the object may be of another class: the
      // overrider's device is one possibility.
      if (Virtual)
        There.Unknown = AllValuations;
      Out.Meetings.push_back(
          Meeting{Meeting::ThroughCall, CE, nullptr, Arg,
                  PM.ParamIsB ? Inner.NameA : Inner.NameB, text(Arg), There,
                  eval(Arg), now().Reach, &Inner,
                  Virtual ? H.Def->getQualifiedNameAsString()
                          : A.Summaries.calleeText(CE, H.Def),
                  H.Def->getParamDecl(PM.Index)->getNameAsString()});
    }
  }
}

} // namespace clang::devplace

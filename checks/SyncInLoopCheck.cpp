//===--- SyncInLoopCheck.cpp - devplace-sync-in-loop ----------------------===//

#include "SyncInLoopCheck.h"
#include "utils/ModelNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::devplace {

namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// True when \p Loop contains another loop: its body runs inner loops, and a
/// sync in it runs once per outer iteration (the recommended way).
bool containsLoop(const Stmt *Loop) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt *Root;
    bool Found = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitStmt(Stmt *S) {
      if (S != Root && isLoop(S))
        Found = true;
      return !Found;
    }
  } F;
  F.Root = Loop;
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Found;
}

bool mentionsRemainder(const Expr *Cond) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Rem)
        Found = true;
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if (OC->getOperator() == OO_Percent)
        Found = true;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(Cond));
  return F.Found;
}

bool isCondition(const Stmt *Parent, const Stmt *Child) {
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return If->getCond() == Child;
  if (const auto *W = dyn_cast<WhileStmt>(Parent))
    return W->getCond() == Child;
  if (const auto *D = dyn_cast<DoStmt>(Parent))
    return D->getCond() == Child;
  if (const auto *F = dyn_cast<ForStmt>(Parent))
    return F->getCond() == Child;
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(Parent))
    return C->getCond() == Child;
  if (const auto *B = dyn_cast<BinaryOperator>(Parent))
    return B->isLogicalOp();
  return false;
}

/// True when the branch \p Branch of an `if` with condition \p Cond can run
/// at most once per loop: it leaves the loop (`break`, `return`, `throw` as
/// its last statement), or it sets a flag the condition reads to a constant
/// (`if (first) { …; first = false; }`).
bool runsOnce(const Expr *Cond, const Stmt *Branch) {
  const Stmt *Last = Branch;
  if (const auto *CS = dyn_cast<CompoundStmt>(Branch); CS && !CS->body_empty())
    Last = CS->body_back();
  if (isa<BreakStmt, ReturnStmt, CXXThrowExpr>(Last))
    return true;
  struct Flags : RecursiveASTVisitor<Flags> {
    llvm::SmallPtrSet<const VarDecl *, 4> Read;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->getType()->isBooleanType())
        Read.insert(VD);
      return true;
    }
  } InCond;
  InCond.TraverseStmt(const_cast<Expr *>(Cond));
  if (InCond.Read.empty())
    return false;
  struct Resets : RecursiveASTVisitor<Resets> {
    const llvm::SmallPtrSet<const VarDecl *, 4> *Flags;
    bool Found = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign)
        return true;
      const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (VD && Flags->contains(VD) &&
          isa<CXXBoolLiteralExpr>(BO->getRHS()->IgnoreParenImpCasts()))
        Found = true;
      return !Found;
    }
  } R;
  R.Flags = &InCond.Read;
  R.TraverseStmt(const_cast<Stmt *>(Branch));
  return R.Found;
}

/// True when an iteration of \p Loop queues tensor work for its syncs to
/// wait for: a forward pass, a loss, an update, an operation on a tensor. A
/// loop that only reads back values computed before it (a history being
/// plotted, a map of metric sums being printed) waits for nothing new.
/// Arithmetic inside a sync's own operand (`(sum / n).item()`) is reading
/// back too; a module, a helper or a copy to a device called there is work.
bool queuesTensorWork(const ApiTable &Api, const Stmt *Loop,
                      const llvm::SmallPtrSetImpl<const Expr *> &Syncs) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const llvm::SmallPtrSetImpl<const Expr *> *Syncs;
    const ApiTable &Api;
    explicit Finder(const ApiTable &Api) : Api(Api) {}
    unsigned InSync = 0;
    bool Found = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseStmt(Stmt *S) {
      if (Found)
        return false;
      bool Sync = isa_and_nonnull<Expr>(S) && Syncs->contains(cast<Expr>(S));
      InSync += Sync;
      bool Go = RecursiveASTVisitor::TraverseStmt(S);
      InSync -= Sync;
      return Go;
    }
    bool isModule(const Expr *E) const {
      E = stripValue(E);
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
          OC && OC->getOperator() == OO_Arrow)
        E = stripValue(OC->getArg(0));
      return classifyType(E->getType()) == DeviceCarrier::Module;
    }
    bool VisitCallExpr(CallExpr *CE) {
      if (classifyType(CE->getType()) != DeviceCarrier::Tensor ||
          Syncs->contains(CE))
        return true;
      const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      if (OC && OC->getOperator() == OO_Call && isModule(OC->getArg(0)))
        return Found = true, false;
      if (MC && Api.methodName(methodName(MC), ApiRole::ModuleForward) &&
          isModule(MC->getImplicitObjectArgument()))
        return Found = true, false;
      std::string Callee = calleeName(CE);
      bool Library = Api.inNamespace(Callee, ApiRole::LibraryNamespace) ||
                     Api.inNamespace(Callee, ApiRole::StandardLibrary);
      // Inside a sync's operand, a copy to the device is work too
      // (`x.to(device).sum().item()`).
      if (InSync && Library &&
          !(MC && (Api.tensorMethod(methodName(MC), ApiRole::MovesToDevice) ||
                   Api.tensorMethod(methodName(MC), ApiRole::MovesToArgument))))
        return true;
      // Reading an element of a container is no work (a unary `*` reads
      // through an iterator; a binary one multiplies tensors).
      if (OC)
        switch (OC->getOperator()) {
        case OO_Star:
          if (OC->getNumArgs() != 1)
            break;
          return true;
        case OO_Subscript:
        case OO_Arrow:
        case OO_Equal:
          return true;
        default:
          break;
        }
      if (MC && classifyType(MC->getImplicitObjectArgument()->getType()) ==
                    DeviceCarrier::Container)
        return true;
      if (Api.is(ApiMatch::Function, Callee, ApiRole::TupleGet))
        return true;
      Found = true;
      return false;
    }
  } F(Api);
  F.Syncs = &Syncs;
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop))
    F.TraverseStmt(const_cast<Stmt *>(RF->getBody()));
  else
    F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Found;
}

bool isLogCall(const ApiTable &Api, const CallExpr *CE) {
  return Api.callee(calleeName(CE), ApiRole::LogCall);
}

/// How the value of a sync is used.
enum class Use { Accumulates, Steers, Other };

/// Classifies the use of \p E: an accumulator (`sum += x`, `v.push_back(x)`,
/// `s = s + x`) or a log line (`std::cout << x`, `printf(…, x)`) count as
/// Accumulates; a condition as Steers.
Use classify(const ApiTable &Api, const Expr *E, const ParentMap &PM,
             const Stmt *Loop, unsigned Depth = 0);

Use classifyVariable(const ApiTable &Api, const VarDecl *VD,
                     const ParentMap &PM, const Stmt *Loop, unsigned Depth) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *VD;
    std::vector<const DeclRefExpr *> Out;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() == VD)
        Out.push_back(DRE);
      return true;
    }
  } U;
  U.VD = VD;
  U.TraverseStmt(const_cast<Stmt *>(Loop));
  if (U.Out.empty())
    return Use::Other;
  Use Result = Use::Accumulates;
  for (const DeclRefExpr *DRE : U.Out) {
    Use One = classify(Api, DRE, PM, Loop, Depth + 1);
    if (One == Use::Steers)
      return Use::Steers;
    if (One == Use::Other)
      Result = Use::Other;
  }
  return Result;
}

Use classify(const ApiTable &Api, const Expr *E, const ParentMap &PM,
             const Stmt *Loop, unsigned Depth) {
  const Stmt *Cur = E;
  for (const Stmt *P = PM.getParent(Cur); P; Cur = P, P = PM.getParent(P)) {
    if (isCondition(P, Cur))
      return Use::Steers;
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
            ExprWithCleanups, CXXBindTemporaryExpr, CXXFunctionalCastExpr,
            CStyleCastExpr, CXXStaticCastExpr, CXXConstructExpr>(P))
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isCompoundAssignmentOp())
        return BO->getRHS() == Cur ? Use::Accumulates : Use::Other;
      if (BO->isAssignmentOp())
        return BO->getRHS() == Cur ? Use::Accumulates : Use::Other;
      if (BO->isAdditiveOp() || BO->isMultiplicativeOp())
        continue; // loss.item() * batch_size
      return Use::Other;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
      // A log line (`std::cout << x`): the table's LogCall operators.
      if (Api.is(ApiMatch::Operator, getOperatorSpelling(OC->getOperator()),
                 ApiRole::LogCall))
        return Use::Accumulates;
      switch (OC->getOperator()) {
      case OO_PlusEqual:
      case OO_MinusEqual:
      case OO_StarEqual:
      case OO_SlashEqual:
      case OO_Equal:
        return OC->getArg(1) == Cur ? Use::Accumulates : Use::Other;
      case OO_Plus:
      case OO_Minus:
      case OO_Star:
      case OO_Slash:
        continue;
      default:
        return Use::Other;
      }
    }
    if (isa<MemberExpr>(P))
      continue; // `loss.cpu().item<float>()`: on to the call
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P)) {
      // A method of the synced value itself passes the value on.
      if (MC->getCallee() == Cur || MC->getImplicitObjectArgument() == Cur)
        continue;
      if (const auto *MD = MC->getMethodDecl(); MD && MD->getIdentifier()) {
        if (Api.methodName(MD->getName(), ApiRole::Accumulator))
          return Use::Accumulates;
      }
      return Use::Other;
    }
    if (const auto *CE = dyn_cast<CallExpr>(P))
      return isLogCall(Api, CE) ? Use::Accumulates : Use::Other;
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      // `double l = loss.item<double>();`: judge by the uses of l.
      if (Depth < 2 && DS->isSingleDecl())
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
          return classifyVariable(Api, VD, PM, Loop, Depth);
      return Use::Other;
    }
    return Use::Other;
  }
  return Use::Other;
}

} // namespace

void SyncInLoopCheck::report(const FunctionDecl *FD, const FunctionFacts &R,
                             ASTContext &Ctx) {
  if (R.Syncs.empty())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const ParentMap &PM = *R.Parents;
  llvm::SmallPtrSet<const Expr *, 8> SyncCalls;
  for (const HostSync &S : R.Syncs)
    SyncCalls.insert(S.Call);
  for (const HostSync &S : R.Syncs) {
    // The innermost loop around the sync, unless a condition on the way
    // makes the sync occasional (logging every N batches) or steers.
    const Stmt *Loop = nullptr;
    bool Occasional = false;
    const Stmt *Cur = S.Call;
    for (const Stmt *P = PM.getParent(Cur); P; Cur = P, P = PM.getParent(P)) {
      if (isCondition(P, Cur)) {
        Occasional = true; // its value decides what runs
        break;
      }
      if (const auto *If = dyn_cast<IfStmt>(P);
          If && (mentionsRemainder(If->getCond()) ||
                 (Cur != If->getCond() && runsOnce(If->getCond(), Cur)))) {
        Occasional = true;
        break;
      }
      if (isLoop(P)) {
        // A sync in a loop's header runs once per loop, not per iteration.
        if (const auto *RF = dyn_cast<CXXForRangeStmt>(P);
            RF && RF->getBody() != Cur)
          break;
        if (const auto *F = dyn_cast<ForStmt>(P); F && F->getBody() != Cur)
          break;
        Loop = P;
        break;
      }
    }
    if (Occasional || !Loop || containsLoop(Loop) ||
        !queuesTensorWork(api(), Loop, SyncCalls))
      continue;
    if (classify(api(), S.Call, PM, Loop) != Use::Accumulates)
      continue;
    SourceLocation Loc = S.Call->getExprLoc();
    if (S.CallerDevice.empty())
      diag(Loc, "'%0' %select{may be|is}1 on %3 and '%2' copies it "
                "to the host on every iteration, so the loop waits for the GPU "
                "each time")
          << S.Tensor << S.Definite << S.What << deviceNoun(S.Why);
    else
      diag(Loc, "'%0' is on the device the caller passes as '%1' and '%2' "
                "copies it to the host on every iteration: on a GPU the loop "
                "waits for it each time")
          << S.Tensor << S.CallerDevice << S.What;
    addProvenanceNotes(S.Why, Loc, SM);
    diag(Loc,
         "keep the running value on the device (a tensor sum such as "
         "'total += %0.detach()') and read it once after the loop",
         DiagnosticIDs::Note)
        << S.Tensor;
  }
}

} // namespace clang::tidy::devplace

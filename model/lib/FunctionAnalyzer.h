//===--- FunctionAnalyzer.h - one run of the model over one function -*- C++
//-*-===//
//
// The model's private core, one file per concern:
//   Evaluate.cpp      the device of an expression (transfer over expressions)
//   Transfer.cpp      statements: declarations, assignments, insertions,
//                     tuples and structured bindings, std::transform's
//                     output, lambdas
//   Conditions.cpp    atoms and branch conditions
//   Summaries.cpp     callees, by-reference parameters, members, captures
//   Places.cpp        where values live and the names that reach them,
//                     read from the body before the flow
//   Objects.cpp       local objects of plain classes, member by member, and
//                     the members methods change
//   PendingCopies.cpp asynchronous host copies, what waits for the device
//   Observations.cpp  the facts recorded for the rules in the final pass
//   Worklist.cpp      the CFG, liveness and the fixpoint
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_FUNCTIONANALYZER_H
#define DEVPLACE_MODEL_FUNCTIONANALYZER_H

#include "Conditions.h"
#include "Places.h"
#include "State.h"
#include "devplace/model/DeviceModel.h"
#include "devplace/model/Questions.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace clang::devplace {

class FunctionAnalyzer {
public:
  FunctionAnalyzer(DeviceModel &Model, const FunctionDecl *FD,
                   FunctionFacts &Out,
                   std::optional<TraceFn> Trace = std::nullopt)
      : Model(Model), Api(Model.api()), Ctx(Model.context()),
        SM(Ctx.getSourceManager()), FD(FD), Out(Out), Trace(Trace),
        Storage(Model) {}

  void run();

private:
  DeviceModel &Model;
  const ApiTable &Api;
  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl *FD;
  FunctionFacts &Out;
  std::optional<TraceFn> Trace;

  //--- Worklist.cpp --------------------------------------------------------
  std::unique_ptr<CFG> Graph;
  // Which tracked locals a later statement may still read, per block exit:
  // the states drop the others, so that a long function does not copy every
  // variable it ever declared into every block's state.
  llvm::DenseMap<const VarDecl *, unsigned> LocalIndex;
  std::vector<llvm::BitVector> LiveOut;
  void computeLiveness();
  bool liveAfter(const CFGBlock *B, const VarDecl *VD) const {
    auto It = LocalIndex.find(VD);
    return It == LocalIndex.end() || LiveOut[B->getBlockID()].test(It->second);
  }
  void setUpEntry(State &Entry);
  /// Runs the block's statements on \p S; in the final pass (\p Final) also
  /// records the facts the rules read.
  void visit(const CFGBlock *B, State &S, bool Final);
  void finish(const State &Exit);

  MutationScanner Mutations;
  /// Where the body's values live and the names that reach them.
  Places Storage;
  // The range's value where each range-for (by its loop variable) evaluated
  // it.
  llvm::DenseMap<const VarDecl *, Fact> RangeValues;
  // std::pair / std::tuple variables: one fact per element (joined over the
  // function), so that a (device, host) pair keeps its host element host.
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<Fact, 2>> Elements;
  /// \p Value as it is once written into an element of \p Container
  /// (the note names the container).
  Fact elementWritten(const ValueDecl *Container, const Expr *Value,
                      SourceLocation Loc);
  /// `c[i] = v`, `c.front() = v`, `m[k] = v`: one element of \p Container
  /// is replaced, which one the model cannot tell, so what the container
  /// held before is unknown; it also holds \p Value.
  void replaceElement(const ValueDecl *Container, const Expr *Value,
                      SourceLocation Loc);
  /// The object's references above become unknown.
  void forgetReferencesInto(const VarDecl *Obj);
  /// Every member of the local object \p Obj (when it keeps facts per
  /// member) and every reference into it is unknown: a write reached it
  /// that the model cannot place.
  void forgetMembers(const VarDecl *Obj);
  // The values of conditional operators' arms where they ran.
  llvm::DenseMap<const Expr *, Fact> ArmFacts;

  State *Cur = nullptr;
  llvm::DenseMap<const Expr *, Fact> Cache; // per block visit

  //--- helpers (Evaluate.cpp) ----------------------------------------------
  // Hides the free function: member code classifies through the memo.
  DeviceCarrier classifyType(QualType T) { return Model.classify(T); }
  // Hide the free functions too: names are asked for at every visit.
  llvm::StringRef qualifiedName(const NamedDecl *D) const {
    return Model.qualifiedName(D);
  }
  llvm::StringRef calleeName(const Expr *Call) const;
  bool isTupleLike(QualType T) const;
  bool splitsIntoMembers(QualType T) const {
    return Storage.splitsIntoMembers(T);
  }
  /// The lambda \p Fn is: a lambda expression, or a local variable (`auto`
  /// or std::function) that holds one lambda all its life; else null.
  const LambdaExpr *lambdaOf(const Expr *Fn) const;
  /// For a local declared without a value (`std::function<…> f;`) and
  /// assigned once in the function (`f = […](…) {…};`): that value.
  const Expr *onlyAssignedValue(const VarDecl *VD) const;
  mutable std::optional<llvm::DenseMap<const VarDecl *, const Expr *>>
      OnlyAssigned;
  bool hasMemberFact(const FieldDecl *Field) const {
    return Storage.hasMemberPlace(Field);
  }
  /// The class of method \p M when its members are symbolic in M's
  /// analysis (a non-static method of a class that splitsIntoMembers).
  const CXXRecordDecl *objectClass(const FunctionDecl *M);
  /// The members of \p M's object class with their symbolic bits (after
  /// M's parameters; only those below 32).
  llvm::SmallVector<std::pair<const FieldDecl *, unsigned>, 4>
  memberBits(const FunctionDecl *M);
  /// The class whose members constructor \p M sets, when its objects keep
  /// per-member facts (not a copy or move constructor).
  const CXXRecordDecl *constructedClass(const FunctionDecl *M);
  /// This function is a constructor that nothing else sees its object
  /// through before it returns (no method of its own, no `this` handed
  /// out): other functions see its members as they are at its exit, not
  /// each value it gives them on the way (`m_ = load(p); m_.to(kCUDA);`).
  bool membersPrivateUntilExit() const;
  bool DeferMemberWrites = false;
  /// Records \p F as a value of the class member \p Key for the other
  /// functions, unless this constructor records its members at its exit.
  void recordOwnMember(const ValueDecl *Key, const Fact &F);
  /// The members, by field index, of the object \p CE constructs with a
  /// constructor of this code: what its summary says it leaves in each
  /// (MemberOut), in terms of \p CE's arguments.
  std::optional<llvm::SmallVector<Fact, 2>>
  constructedMembers(const CXXConstructExpr *CE);
  /// The local object \p E names, when it keeps per-member facts.
  const VarDecl *memberObjectOf(const Expr *E) const;
  /// The local object a member call goes through (`h` in `h.add(x)`), when
  /// it keeps per-member facts.
  const VarDecl *receiverObject(const CallExpr *CE) const;
  /// A plain class's member at the entry of one of its methods: every
  /// object's (the TU-wide summary) and, symbolically, this object's.
  /// (\p WithOrigin: with the step that names the member, for notes; a
  /// comparison needs none.)
  Fact memberAtEntry(const FieldDecl *Field, unsigned Bit,
                     bool WithOrigin = true);
  /// Member facts of the receiver after a call to a method whose summary
  /// says how it changes them (only those it changes); none when \p E is no
  /// such call.
  std::optional<llvm::SmallVector<std::pair<MemberSlot, Fact>, 4>>
  memberUpdates(const Expr *E);
  /// The member of a local object \p E names (`s.loss`), when that object
  /// keeps per-member facts.
  std::optional<MemberSlot> memberSlotOf(const Expr *E);
  /// A new step; it names \p DeviceType, or else the one \p Prev names.
  /// \p DeviceType must outlive the model (the table's text, an
  /// identifier of the AST, or a string saved in the model).
  const Step *makeStep(Step::Kind K, SourceLocation Loc,
                       llvm::StringRef Subject, llvm::StringRef Detail,
                       const Step *Prev, llvm::StringRef DeviceType = {});
  bool sameLine(SourceLocation A, SourceLocation B) const;
  llvm::StringRef whenText();
  std::string text(const Expr *E) const { return exprText(E, Ctx); }
  const ValueDecl *canonical(const ValueDecl *D) const {
    return Storage.canonical(D);
  }
  /// The variable or this-field an lvalue expression names, if any.
  const ValueDecl *keyOf(const Expr *E) const;
  /// The container variable an element access reads or writes (v[i],
  /// v.at(i), v.back()), if any.
  const ValueDecl *containerOf(const Expr *E) const;
  Fact lookup(const ValueDecl *Key, const Expr *Use);
  /// The module variable a call goes through: `model->f()`, `(*model).f()`,
  /// `module.f()`, `model(x)`.
  const ValueDecl *moduleKeyOf(const Expr *Obj);
  /// The TorchScript module (or bound method) a call goes through, through
  /// `->` and `*`; null when the object is not one.
  const Expr *scriptModuleOf(const Expr *Obj) const;
  /// What a TorchScript module's call gives: the module's device joined with
  /// its inputs'.
  Fact scriptOutput(const Expr *Module, const CallExpr *Call);
  /// The module variable a member chain starts from: `net` in
  /// `net->fc->weight`; null when a member on the way does not move with
  /// its module (movesWithModule).
  const ValueDecl *moduleRootOf(const Expr *Member);
  /// Whether \p Field follows its module's moves: not when the class
  /// provably never registers it (staysBehind), nor when it is a tensor
  /// member of a class of this code whose registrations cannot all be seen
  /// (a method defined elsewhere, a class derived from): whether the code
  /// registered it is not known, and a device needs the code's choice.
  /// Submodule members are taken to be registered (an unregistered one is
  /// what devplace-unregistered-submodule reports).
  bool movesWithModule(const FieldDecl *Field);
  /// A member of a module class of this code that the class provably never
  /// registers (register_parameter, register_buffer, register_module).
  bool staysBehind(const FieldDecl *Field);

  Fact eval(const Expr *E);
  Fact evalUncached(const Expr *E);
  Fact evalMember(const MemberExpr *ME);
  Fact evalConditional(const AbstractConditionalOperator *CO);
  Fact evalOperatorCall(const CXXOperatorCallExpr *OC);
  Fact evalMemberCall(const CXXMemberCallExpr *MC);
  Fact evalTensorMethod(const CXXMemberCallExpr *MC, const Expr *Obj);
  Fact evalCall(const CallExpr *CE);
  Fact evalConstruct(const CXXConstructExpr *CE);
  /// A device constant: the host, or an accelerator of \p DeviceType.
  Fact evalDeviceConstant(const Expr *E, bool OnDevice,
                          llvm::StringRef DeviceType);
  Fact joinArgs(const CallExpr *CE, bool TensorsOnly);
  /// The fact of the argument that says where a result goes: a Device,
  /// DeviceType, TensorOptions or (for `.to(other)`) a tensor parameter.
  Fact deviceArg(const CallExpr *CE, const FunctionDecl *Callee,
                 const Expr **ArgOut, bool TensorTarget);

  //--- Conditions.cpp ------------------------------------------------------
  Atoms FunctionAtoms;
  /// The atom of an accelerator-availability call (one per device type,
  /// its key in Shared), or an origin with a null key when \p E is no such
  /// call.
  AtomOrigin availabilityAtom(const Expr *E);
  Branch evalCondition(const Expr *C);

  //--- Transfer.cpp --------------------------------------------------------
  void transfer(const Stmt *S);
  void transferDecl(const VarDecl *VD);
  void transferInitializer(const CXXCtorInitializer *I);
  /// True when \p S describes \p E itself: \p E is the step's expression,
  /// or reaches it through conversions and chained calls on the same value
  /// (`x.cuda().to(kDouble)`, `TensorOptions().dtype(f).device(kCUDA)`),
  /// not through another value passed as an argument (`net(x.cuda())`).
  bool describesDirectly(const Step *S, const Expr *E);
  void assign(const ValueDecl *Key, Fact F, SourceLocation Loc, bool Weak,
              const Expr *Value);
  void assignMember(MemberSlot Slot, Fact F, SourceLocation Loc, bool Weak,
                    const Expr *Value);
  /// \p F as the value \p Name takes at \p Loc: its step names \p Name.
  Fact named(Fact F, llvm::StringRef Name, QualType T, SourceLocation Loc,
             bool Weak, const Expr *Value);
  /// Every member of the local object \p VD takes its element of \p Facts
  /// (by field index), or no information when \p Facts is empty.
  void setMembers(const VarDecl *VD,
                  const std::optional<llvm::SmallVector<Fact, 2>> &Facts,
                  SourceLocation Loc);
  /// The element facts of a tuple-like expression, or the member facts (by
  /// field index) of a struct that splitsIntoMembers, when they are known.
  std::optional<llvm::SmallVector<Fact, 2>> elementFacts(const Expr *E);
  /// Element \p I of the tuple-like value \p Obj; unknown (silent) when the
  /// elements cannot be told apart.
  Fact elementOf(const Expr *Obj, unsigned I);
  void bindElements(const VarDecl *VD, const Expr *Init);
  void setElements(const ValueDecl *K, llvm::ArrayRef<Fact> Facts);
  /// The container an iterator walks or writes into: `v` for `v.begin()`
  /// and `std::back_inserter(v)`; else the iterator itself.
  const Expr *rangeOf(const Expr *Iterator);
  void transferElementResults(const CallExpr *CE);
  /// Joins the elements of a returned pair or tuple into the summary.
  void recordReturnElements(const Expr *Value);
  bool ReturnElementsSplit = true;

  //--- Summaries.cpp -------------------------------------------------------
  Fact callSummary(const CallExpr *CE, const FunctionDecl *Callee);
  /// The argument of \p CE that binds a callee's parameter i: argument
  /// i + First (First is 1 for a member operator call), or null.
  struct ArgsOf {
    ArgsOf(const CallExpr *CE, unsigned First)
        : Args(CE->getArgs()), NumArgs(CE->getNumArgs()), First(First) {}
    explicit ArgsOf(const CXXConstructExpr *CE)
        : Args(CE->getArgs()), NumArgs(CE->getNumArgs()), First(0) {}
    const Expr *const *Args;
    unsigned NumArgs, First;
    const Expr *operator()(unsigned I) const {
      return I + First < NumArgs ? Args[I + First] : nullptr;
    }
  };
  /// A callee's summary fact \p Ret (its return value, or one element of
  /// it) seen by the caller: its parameters become \p CE's arguments.
  Fact fromSummary(const CallExpr *CE, const FunctionDecl *Def, unsigned First,
                   const Fact &Ret);
  /// The same, with parameter i bound to \p ArgOf(i) (none when null).
  Fact fromSummary(const Expr *Call, const FunctionDecl *Def, const Fact &Ret,
                   llvm::function_ref<const Expr *(unsigned)> ArgOf);
  /// How notes name the callee \p Def of \p CE: its name, or for a lambda
  /// the variable that holds it.
  std::string calleeText(const CallExpr *CE, const FunctionDecl *Def) const;
  /// A call to code whose summary can be used (helperCall).
  struct HelperCall {
    const CallExpr *Call = nullptr;
    const FunctionDecl *Def = nullptr;
    const FunctionFacts *Sum = nullptr;
    unsigned First = 0; ///< argument that binds parameter 0
  };
  /// Updates the arguments a helper writes through its references, as its
  /// summary \p Writer says (`to_device(x)` with
  /// `void to_device(torch::Tensor &t) { t = t.cuda(); }`).
  void applyParamMoves(const HelperCall &Writer);
  /// What a call may write that no summary says: a value passed by
  /// non-const reference to code not summarised (`torch::load(t, path)`,
  /// a function defined in another file), or by address to any function,
  /// is unknown after the call, as the Clang Static Analyzer invalidates
  /// what a call can reach. The table names the exceptions: calls that
  /// only read (std::begin), write in place and keep the device (`_out`),
  /// or exchange their arguments (std::swap). A forwarding reference
  /// (`T &&` of a template) passes its argument on and counts as a read.
  /// \p Summarised: \p E's callee has a summary that says what it writes
  /// through references (helperCall in non-system scope).
  void invalidateUnseenWrites(const Expr *E, bool Summarised);
  /// The value stored at \p Place (a variable, a module, a container's
  /// element) is unknown from here on.
  void forgetValueAt(const Expr *Place, SourceLocation Loc);
  /// The local object \p Place is a part of, through members, std::get and
  /// subscripts (`r` in `std::get<0>(r).first`); null for the object itself
  /// or a place that is not part of a local.
  const VarDecl *enclosingObject(const Expr *Place) const;
  /// Each element of tuple \p K is unknown.
  void forgetElements(const ValueDecl *K);
  /// A write through a pointer to a tracked type (`*p = …`, a call given a
  /// `Tensor *`): every value whose address was taken is unknown.
  void forgetAddressTaken();
  /// \p LHS writes through a pointer (`*p`, `p[i]`).
  static bool throughPointer(const Expr *LHS);
  /// \p F, passed to \p Def, where \p Sink reaches host code: only under
  /// the helper's guards, as this call sets them.
  Fact guarded(const Fact &F, const Expr *Call, const FunctionDecl *Def,
               const ParamSink &Sink,
               llvm::function_ref<const Expr *(unsigned)> ArgOf);
  /// The caller's valuations under which the callee \p Def's summary mask
  /// \p CalleeWhen holds at this call: its flag parameters are the
  /// arguments \p ArgOf gives, its availability atoms the caller's own,
  /// and, when \p Call runs on this object, its constructor-set member
  /// flags the caller's tests of the same flags. An argument on a device of
  /// \p OnDeviceType proves that accelerator available. Atoms the call does
  /// not fix are free.
  Mask callerValuations(const Expr *Call, const FunctionDecl *Def,
                        Mask CalleeWhen,
                        llvm::function_ref<const Expr *(unsigned)> ArgOf,
                        llvm::StringRef OnDeviceType = {});
  /// \p E is a member of, or a method call on, this object (in a method).
  bool onThis(const Expr *E);
  /// Where a callee's summary may be used: all non-system code, or only
  /// the main file (where accesses inside helpers can be shown).
  enum class Scope { NonSystem, MainFile };
  /// A direct call to a function in \p Where whose summary can be used,
  /// with that summary; Sum is null when \p E is no such call. In
  /// non-system scope LibTorch's own functions count as not summarised,
  /// even where its headers are not system headers (-I, not -isystem).
  HelperCall helperCall(const Expr *E, Scope Where);
  /// The definition behind \p CE whose summary can be used (a
  /// non-dependent body in \p Where, not under analysis: recursion is cut),
  /// or null. \p ArgShift is 1 when the call's first argument is the object
  /// (a member operator call), so that parameter i is argument i + ArgShift.
  const FunctionDecl *summarisable(const CallExpr *CE,
                                   const FunctionDecl *Callee, Scope Where,
                                   unsigned &ArgShift) const;
  bool isOutParam(const ParmVarDecl *P);
  /// A member's TU-wide summary, widened (it was computed under other
  /// functions' conditions).
  /// A tensor member that its module registers (or may: the class's methods
  /// are not all here) is also where the module was last moved, which
  /// `->to(device)` anywhere may change: unknown as well.
  std::optional<Fact> memberSummary(const FieldDecl *FD);
  void recordCaptures(const LambdaExpr *LE);

  //--- PendingCopies.cpp ---------------------------------------------------
  /// The call has a non_blocking argument that is true.
  bool nonBlocking(const CXXMemberCallExpr *MC) const;
  /// The tensor whose values \p E copies to the host, waiting for its
  /// device (`.item()`, `.cpu()`, `.to(kCPU)`, printing), and how the
  /// message names the call (\p What); null when \p E is no such copy.
  const Expr *syncedTensor(const Expr *E, std::string *What);
  /// \p E is (through conversions) a copy to the host made with
  /// non_blocking=true: `d.to(kCPU, true)`.
  const CXXMemberCallExpr *nonBlockingHostCopy(const Expr *E);
  /// The tensor whose values \p E reads on the host (a pointer into its
  /// memory, an accessor, item(), a reduction, printing), or null.
  const Expr *valueReadOf(const Expr *E);
  /// The pending copy \p Value is: a non_blocking copy of a tensor that may
  /// be on a device, or a variable that holds one.
  std::optional<PendingCopy> pendingFrom(const Expr *Value);
  void holdPending(const ValueDecl *K, std::optional<PendingCopy> P);
  /// The use \p Use of a variable that holds a pending copy reads its
  /// values or copies it to another variable; any other use passes it where
  /// it is not followed.
  bool keepsPending(const DeclRefExpr *Use) const;
  /// Valuations under which \p E may wait for the device (\p Helper: \p E
  /// as a call to the code's own function, with its summary).
  Mask waitsUnder(const Expr *E, const HelperCall &Helper);
  /// Pending copies made, handed on, waited for by one statement.
  void transferPending(const Stmt *S, const HelperCall &Helper);
  void observeAsyncRead(const Expr *E);

  //--- Observations.cpp ----------------------------------------------------
  /// Records the facts of one statement for the rules (final pass only).
  void observe(const Stmt *S);
  void observeSinks(const Expr *E);
  void observeHelperCall(const Expr *E);
  void observeElementCalls(const CallExpr *CE);
  void observeSync(const Expr *E);
  void observeOperation(const Expr *E);
  void meet(const Expr *Where, const Expr *A, const Expr *B, Meeting::Kind K);
  void access(HostAccess::Kind K, const Expr *Sink, const Expr *Operand,
              const Fact &F, llvm::StringRef Callee,
              const HostAccess *Inner = nullptr, llvm::StringRef Name = {});
  bool parameterless(const Expr *Module) const;
  std::string tensorNameOf(const Expr *Operand, const Fact &F) const;
  llvm::DenseSet<const Expr *> Accessed, Synced;
};

} // namespace clang::devplace

#endif

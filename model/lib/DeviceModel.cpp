//===--- DeviceModel.cpp - the model of one translation unit --------------===//
//
// The public entry points (analyze, analyzeAll, trace) and what the model
// keeps across the translation unit: memos of types and names, module
// registrations, base classes, constructor-set flags, the join of every
// value written to each class member, and lambdas' captures.
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalysis.h"
#include "MutationScanner.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

DeviceModel::DeviceModel(ASTContext &Ctx, ApiTable Api, AnalysisOptions Opts)
    : Ctx(Ctx), Api(std::move(Api)), Opts(Opts) {}

DeviceModel::~DeviceModel() = default;

DeviceCarrier DeviceModel::classify(QualType T) {
  if (T.isNull())
    return DeviceCarrier::None;
  const Type *Key = T.getNonReferenceType().getCanonicalType().getTypePtr();
  auto It = Carriers.find(Key);
  if (It != Carriers.end())
    return It->second;
  DeviceCarrier C = classifyType(T);
  Carriers[Key] = C;
  return C;
}

llvm::StringRef DeviceModel::qualifiedName(const NamedDecl *D) {
  if (!D)
    return "";
  auto [It, New] = Names.try_emplace(D);
  if (New)
    It->second = save(clang::devplace::qualifiedName(D));
  return It->second;
}

const ModuleRegistrations &DeviceModel::registrations(const CXXRecordDecl *RD) {
  auto &Slot = Registrations[RD];
  if (!Slot)
    Slot = std::make_unique<ModuleRegistrations>(scanRegistrations(RD, Api));
  return *Slot;
}

bool DeviceModel::isBaseClass(const CXXRecordDecl *RD) {
  if (!BaseClasses) {
    // Once per translation unit, declarations only (no bodies), skipping
    // what system headers declare.
    BaseClasses.emplace();
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::SmallVector<const DeclContext *, 16> Work{
        Ctx.getTranslationUnitDecl()};
    while (!Work.empty()) {
      const DeclContext *DC = Work.pop_back_val();
      for (const Decl *D : DC->decls()) {
        if (SM.isInSystemHeader(D->getLocation()))
          continue;
        if (const auto *CT = dyn_cast<ClassTemplateDecl>(D))
          D = CT->getTemplatedDecl();
        if (const auto *C = dyn_cast<CXXRecordDecl>(D);
            C && C->isThisDeclarationADefinition())
          for (const CXXBaseSpecifier &B : C->bases())
            if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
              BaseClasses->insert(Base->getCanonicalDecl());
        if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D))
          Work.push_back(cast<DeclContext>(D));
      }
    }
  }
  return BaseClasses->contains(RD->getCanonicalDecl());
}

std::optional<Fact> DeviceModel::memberSummary(const FieldDecl *FD) const {
  auto It = FieldFacts.find(FD);
  if (It == FieldFacts.end())
    return std::nullopt;
  return It->second;
}

void DeviceModel::recordMember(const FieldDecl *FD, const Fact &F) {
  Fact &Slot = FieldFacts[FD];
  Slot = join(Slot, F);
}

void DeviceModel::recordCapture(const CXXRecordDecl *Lambda, const VarDecl *VD,
                                const Fact &F) {
  Fact &Slot = CaptureFacts[{Lambda, VD}];
  Slot = join(Slot, F);
}

bool DeviceModel::setOnlyByConstructors(const FieldDecl *Flag) {
  auto [It, New] = ConstructorFlags.try_emplace(Flag, false);
  if (!New)
    return It->second;
  const auto *RD = dyn_cast<CXXRecordDecl>(Flag->getParent());
  if (!RD || Flag->getAccess() == AS_public || Flag->isMutable())
    return false;
  // A method defined elsewhere is not taken to write it: a write devplace
  // cannot see proves nothing, and taking one for granted would report
  // more where less is known.
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(M) || M->isStatic() || M->isConst() ||
        !M->hasBody(Def))
      continue;
    MutationScanner Writes;
    Writes.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
    if (Writes.Mutated.contains(Flag))
      return false;
  }
  // Friends could write it too.
  if (RD->hasFriends())
    return false;
  return It->second = true;
}

AnalysisStats &analysisStats() {
  static AnalysisStats Stats;
  return Stats;
}

const FunctionFacts &DeviceModel::analyze(const FunctionDecl *FD) {
  auto &Slot = Results[FD];
  if (Slot)
    return *Slot;
  auto Result = std::make_unique<FunctionFacts>();
  InProgress[FD] = true;
  FunctionAnalysis(*this, FD, *Result).run();
  InProgress[FD] = false;
  AnalysisStats &Stats = analysisStats();
  ++Stats.Functions;
  Stats.Blocks += Result->Blocks;
  Stats.Visits += Result->Visits;
  Stats.CutShort += !Result->Complete;
  if (Result->Blocks) {
    uint64_t Ratio = uint64_t(Result->Visits) * 100 / Result->Blocks;
    uint64_t Seen = Stats.MaxVisitsPerBlockX100;
    while (Ratio > Seen &&
           !Stats.MaxVisitsPerBlockX100.compare_exchange_weak(Seen, Ratio))
      ;
  }
  // The map may have grown while callees were analysed.
  auto &Final = Results[FD];
  Final = std::move(Result);
  return *Final;
}

void DeviceModel::trace(const FunctionDecl *FD, TraceFn Fn) {
  FunctionFacts Scratch;
  InProgress[FD] = true;
  FunctionAnalysis(*this, FD, Scratch, Fn).run();
  InProgress[FD] = false;
}

void DeviceModel::analyzeAll(
    const std::vector<const FunctionDecl *> &Functions) {
  // Every part of each member's fact: a round that adds only unknown
  // valuations or parameter bits has not settled either.
  auto Snapshot = [&] {
    std::vector<std::pair<const FieldDecl *, Fact>> S(FieldFacts.begin(),
                                                      FieldFacts.end());
    llvm::sort(S, [](const auto &A, const auto &B) {
      return std::less<const FieldDecl *>()(A.first, B.first);
    });
    return S;
  };
  auto Same = [](const auto &Before, const auto &After) {
    return Before.size() == After.size() &&
           llvm::all_of(llvm::zip(Before, After), [](const auto &Pair) {
             const auto &[B, A] = Pair;
             return B.first == A.first && B.second.sameAs(A.second);
           });
  };
  for (const FunctionDecl *FD : Functions)
    analyze(FD);
  // Members may pass device values to one another (a = b in one method,
  // b = x.cuda() in another): analyse again until the member summaries stop
  // changing. Summaries only grow, so this ends; the bound keeps it short.
  for (unsigned Round = 0; Round < MaxMemberRounds; ++Round) {
    bool DeviceMembers = llvm::any_of(
        FieldFacts, [](const auto &Entry) { return Entry.second.Dev != 0; });
    if (!DeviceMembers)
      return;
    auto Before = Snapshot();
    Results.clear();
    for (const FunctionDecl *FD : Functions)
      analyze(FD);
    if (Same(Before, Snapshot()))
      return;
  }
  MembersSettled = false;
}

} // namespace clang::devplace

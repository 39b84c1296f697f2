//===--- TranslationUnitState.cpp - what the model keeps per unit ---------===//

#include "TranslationUnitState.h"
#include "MutationScanner.h"
#include "SummaryPorting.h"
#include "devplace/model/Modules.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::devplace {

DeviceCarrier TranslationUnitState::classify(QualType T) {
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

llvm::StringRef TranslationUnitState::qualifiedName(const NamedDecl *D) {
  if (!D)
    return "";
  auto [It, New] = Names.try_emplace(D);
  if (New)
    It->second = save(clang::devplace::qualifiedName(D));
  return It->second;
}

const ModuleRegistrations &
TranslationUnitState::registrations(const CXXRecordDecl *RD) {
  auto &Slot = Registrations[RD];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<ModuleRegistrations>(scanRegistrations(RD, Api));
  // A class whose constructor another file defines: that file's scan says
  // what it registers.
  if (!Slot->AllMethodsSeen && Project &&
      !Ctx.getSourceManager().isInSystemHeader(RD->getLocation()))
    if (std::string Key = classKey(RD); !Key.empty()) {
      uint64_t Hash = 0;
      const PortableSummary *S =
          Project->Imports ? Project->Imports->usable(Key, Hash) : nullptr;
      Project->Used[Key] = Hash;
      if (S)
        importRegistrations(*S, RD, *Slot);
    }
  return *Slot;
}

const KernelRegistration *
TranslationUnitState::kernelRegistration(const FunctionDecl *FD) {
  if (!Kernels) {
    scanDeclarations();
    Kernels = findKernelRegistrations(Ctx, Api, Code->Variables);
  }
  auto It = Kernels->find(FD->getCanonicalDecl());
  return It == Kernels->end() ? nullptr : &It->second;
}

void TranslationUnitState::scanDeclarations() {
  if (Code)
    return;
  // Once per translation unit, declarations only (no bodies), skipping
  // what system headers declare.
  Code.emplace();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const DeclContext *, 16> Work{Ctx.getTranslationUnitDecl()};
  while (!Work.empty()) {
    const DeclContext *DC = Work.pop_back_val();
    for (const Decl *D : DC->decls()) {
      if (SM.isInSystemHeader(D->getLocation()))
        continue;
      if (const auto *CT = dyn_cast<ClassTemplateDecl>(D))
        D = CT->getTemplatedDecl();
      if (const auto *C = dyn_cast<CXXRecordDecl>(D);
          C && C->isThisDeclarationADefinition()) {
        Code->Classes.push_back(C);
        for (const CXXBaseSpecifier &B : C->bases())
          if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl())
            Code->Bases.insert(Base->getCanonicalDecl());
      }
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && !isa<CXXRecordDecl>(DC))
        Code->Variables.push_back(VD);
      if (isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(D))
        Work.push_back(cast<DeclContext>(D));
    }
  }
}

bool TranslationUnitState::isBaseClass(const CXXRecordDecl *RD) {
  scanDeclarations();
  return Code->Bases.contains(RD->getCanonicalDecl());
}

llvm::ArrayRef<const CXXMethodDecl *>
TranslationUnitState::overriders(const CXXMethodDecl *MD) {
  MD = MD->getCanonicalDecl();
  auto [It, New] = Overriders.try_emplace(MD);
  if (!New)
    return It->second;
  scanDeclarations();
  const CXXRecordDecl *Base = MD->getParent();
  std::vector<const CXXMethodDecl *> Found;
  for (const CXXRecordDecl *C : Code->Classes)
    if (C->isDerivedFrom(Base))
      if (const CXXMethodDecl *O = MD->getCorrespondingMethodDeclaredInClass(C);
          O && O->getCanonicalDecl() != MD)
        Found.push_back(O);
  return Overriders[MD] = std::move(Found);
}

std::optional<Fact>
TranslationUnitState::memberSummary(const FieldDecl *FD) const {
  auto It = FieldFacts.find(FD);
  if (It == FieldFacts.end())
    return std::nullopt;
  return It->second;
}

void TranslationUnitState::recordMember(const FieldDecl *FD, const Fact &F) {
  Fact &Slot = FieldFacts[FD];
  Slot = join(Slot, F);
}

void TranslationUnitState::recordCapture(const CXXRecordDecl *Lambda,
                                         const VarDecl *VD, const Fact &F) {
  Fact &Slot = CaptureFacts[{Lambda, VD}];
  Slot = join(Slot, F);
}

bool TranslationUnitState::setOnlyByConstructors(const FieldDecl *Flag) {
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

std::vector<std::pair<const FieldDecl *, Fact>>
TranslationUnitState::memberSummaries() const {
  std::vector<std::pair<const FieldDecl *, Fact>> S(FieldFacts.begin(),
                                                    FieldFacts.end());
  llvm::sort(S, [](const auto &A, const auto &B) {
    return std::less<const FieldDecl *>()(A.first, B.first);
  });
  return S;
}

bool TranslationUnitState::deviceMembers() const {
  return llvm::any_of(FieldFacts,
                      [](const auto &Entry) { return Entry.second.Dev != 0; });
}

} // namespace clang::devplace

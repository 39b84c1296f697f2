//===--- DeviceMismatchCheck.cpp - devplace-device-mismatch ---------------===//

#include "DeviceMismatchCheck.h"
#include "devplace/model/Questions.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::devplace {

namespace {
/// Two values that meet where one is surely on a device and the other
/// surely on the host.
struct Mismatch {
  const Meeting *M;
  bool AOnDevice; ///< A is the device side (else B is)
  bool Definite;  ///< on every path that reaches the operation
  bool Indices;   ///< both on devices, at indices that differ
};

/// The rule: the model's mismatch question (one side on a device on some
/// path the code chose, the other known to be on the host, or on a device
/// of another index, on every path, under one valuation), asked of every
/// meeting; the first mismatching pair
/// of each operation is reported.
std::vector<Mismatch> findMismatches(const FunctionFacts &R) {
  std::vector<Mismatch> Out;
  // Cut short, no side is proven on the host.
  if (!R.Complete)
    return Out;
  llvm::DenseSet<const Expr *> Seen;
  for (const Meeting &M : R.Meetings) {
    MismatchAnswer Mis = mismatchUnder(M.FA, M.FB, M.Reach);
    if (!Mis || !Seen.insert(M.Where).second)
      continue;
    Out.push_back(
        {&M, Mis.ADeviceBHost != 0, Mis.Definite, Mis.IndicesDiffer != 0});
  }
  return Out;
}
} // namespace

void DeviceMismatchCheck::reportThroughCall(const Meeting &M, bool Definite,
                                            bool Indices,
                                            const SourceManager &SM) {
  SourceLocation Loc = M.Where->getExprLoc();
  // The operation in the callee (through its own calls, if it passes the
  // parameter on): what the argument meets, and how.
  const Meeting *Deepest = M.Inner;
  while (Deepest->K == Meeting::ThroughCall)
    Deepest = Deepest->Inner;
  bool ToModule = Deepest->K == Meeting::ModuleInput;
  if (Indices)
    diag(Loc, "'%0' %select{may be|is}1 on %2 but '%3' %select{uses it "
              "with|gives it to module}4 '%5', which is on %6")
        << M.NameB << Definite << M.FB.Index.Spelling << M.Callee << ToModule
        << M.NameA << M.FA.Index.Spelling;
  else
    diag(Loc, "'%0' is on the host but '%1' %select{uses it with|gives it to "
              "module}2 '%3', which %select{may be|is}4 on %5")
        << M.NameB << M.Callee << ToModule << M.NameA << Definite
        << deviceNoun(M.FA.Why);
  addProvenanceNotes(M.FA.Why, Loc, SM);
  if (Indices)
    addProvenanceNotes(M.FB.Why, Loc, SM);
  const Meeting *Outer = &M;
  for (const Meeting *In = M.Inner; In; Outer = In, In = In->Inner) {
    if (In->K == Meeting::ThroughCall)
      diag(In->Where->getExprLoc(),
           "'%0' passes its parameter '%1' to '%2' here", DiagnosticIDs::Note)
          << Outer->Callee << Outer->Param << In->Callee;
    else
      diag(In->Where->getExprLoc(),
           "'%0' %select{uses its parameter '%1' with|gives its parameter "
           "'%1' to module}2 '%3' here",
           DiagnosticIDs::Note)
          << Outer->Callee << Outer->Param << ToModule << M.NameA;
  }
}

void DeviceMismatchCheck::report(const FunctionDecl *FD, const FunctionFacts &R,
                                 ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Mismatch &X : findMismatches(R)) {
    const Meeting &M = *X.M;
    SourceLocation Loc = M.Where->getExprLoc();
    if (M.K == Meeting::ThroughCall) {
      if (X.AOnDevice || X.Indices)
        reportThroughCall(M, X.Definite, X.Indices, SM);
      continue;
    }
    if (X.Indices) {
      if (M.K == Meeting::ModuleInput)
        diag(Loc, "module '%0' %select{may be|is}1 on %2 but its input '%3' "
                  "on %4")
            << M.NameA << X.Definite << M.FA.Index.Spelling << M.NameB
            << M.FB.Index.Spelling;
      else
        diag(Loc, "'%0' %select{may be|is}1 on %2 and '%3' on %4: they must "
                  "be on the same device for this operation")
            << M.NameA << X.Definite << M.FA.Index.Spelling << M.NameB
            << M.FB.Index.Spelling;
      addProvenanceNotes(M.FA.Why, Loc, SM);
      addProvenanceNotes(M.FB.Why, Loc, SM);
      continue;
    }
    const std::string &Dev = X.AOnDevice ? M.NameA : M.NameB;
    const std::string &Host = X.AOnDevice ? M.NameB : M.NameA;
    std::string Noun = deviceNoun(X.AOnDevice ? M.FA.Why : M.FB.Why);
    if (M.K == Meeting::ModuleInput && X.AOnDevice)
      diag(Loc, "module '%0' %select{may be|is}1 on %3 but its "
                "input '%2' is on the host")
          << M.NameA << X.Definite << M.NameB << Noun;
    else if (M.K == Meeting::ModuleInput)
      diag(Loc, "input '%0' %select{may be|is}1 on %3 but module "
                "'%2' is on the host; move the module with ->to()")
          << M.NameB << X.Definite << M.NameA << Noun;
    else
      diag(Loc, "'%0' %select{may be|is}1 on %3 and '%2' is on the "
                "host: they must be on the same device for this operation")
          << Dev << X.Definite << Host << Noun;
    addProvenanceNotes(X.AOnDevice ? M.FA.Why : M.FB.Why, Loc, SM);
  }
}

} // namespace clang::tidy::devplace

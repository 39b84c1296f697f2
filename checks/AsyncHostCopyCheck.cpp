//===--- AsyncHostCopyCheck.cpp - devplace-async-host-copy ----------------===//
//
// A rule over the model's facts: the model follows each copy to the host
// made with non_blocking=true of a tensor that may be on a device, and
// records a read of the copy's values on a path on which nothing has waited
// for the device (AsyncRead). Each such copy is reported once, with a note
// at its first read in the source.
//
//===----------------------------------------------------------------------===//

#include "AsyncHostCopyCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"

namespace clang::tidy::devplace {

void AsyncHostCopyCheck::report(const FunctionDecl *FD, const FunctionFacts &R,
                                ASTContext &Ctx) {
  const ApiTable &Api = model().api();
  const SourceManager &SM = Ctx.getSourceManager();
  // The first read of each copy, in source order.
  llvm::MapVector<const Expr *, const Expr *> FirstRead;
  for (const AsyncRead &A : R.AsyncReads) {
    const Expr *&Read = FirstRead[A.Copy];
    if (!Read ||
        SM.isBeforeInTranslationUnit(A.Read->getExprLoc(), Read->getExprLoc()))
      Read = A.Read;
  }
  for (const HostSync &S : R.Syncs) {
    auto It = FirstRead.find(S.Call);
    if (It == FirstRead.end())
      continue;
    const Expr *Read = It->second;
    SourceLocation Loc = S.Call->getExprLoc();
    diag(Loc, "'%0' %select{may be|is}1 on %3 and '%2' copies it to "
              "the host asynchronously; the copy is read before anything waits "
              "for it")
        << S.Tensor << S.Definite << S.What << deviceNoun(S.Why);
    addProvenanceNotes(S.Why, Loc, SM);
    // The synchronisation to suggest is the one of the device type the code
    // chose; a chain that names none gets the general advice.
    llvm::StringRef Sync =
        Api.nameFor(ApiRole::DeviceSynchronize, S.Why ? S.Why->DeviceType : "");
    diag(Read->getExprLoc(),
         "read here, possibly before the copy has arrived; %select{call "
         "%1() first|wait for the device first}0, or copy without "
         "non_blocking",
         DiagnosticIDs::Note)
        << Sync.empty() << Sync;
  }
}

} // namespace clang::tidy::devplace

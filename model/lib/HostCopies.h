//===--- HostCopies.h - asynchronous host copies and what waits -*- C++ -*-===//
//
// A copy to the host made with non_blocking=true returns before its data has
// arrived. The model follows, per valuation, which locals hold such a copy of
// a tensor that may be on a device, and what waits for the device: a device
// synchronisation, a blocking copy (or `.item()`, printing) of a tensor that
// may be on one, a call to code that may do either. A read of the copy's
// values on a path on which nothing has waited is recorded (AsyncRead). Any
// other use of the copy (passed to a function, stored elsewhere) ends the
// following: what becomes of it there is not seen, so it is not reported.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_HOSTCOPIES_H
#define DEVPLACE_MODEL_HOSTCOPIES_H

#include "AnalysisUnit.h"
#include "CalleeSummaries.h"
#include <optional>

namespace clang::devplace {

class HostCopies : AnalysisUnit {
public:
  using AnalysisUnit::AnalysisUnit;

  /// The tensor whose values \p E copies to the host, waiting for its
  /// device (`.item()`, `.cpu()`, `.to(kCPU)`, printing), and how the
  /// message names the call (\p What); null when \p E is no such copy.
  const Expr *syncedTensor(const Expr *E, std::string *What);
  /// Pending copies made, handed on, waited for by one statement.
  void transferPending(const Stmt *S, const HelperCall &Helper);
  /// Records a read of a pending copy's values (AsyncReads).
  void observe(const Expr *E);

private:
  /// The tensor an operator the table says prints (`std::cout << t`)
  /// copies to the host, or null.
  const Expr *printedTensor(const CXXOperatorCallExpr *OC) const;
  /// The call has a non_blocking argument that is true.
  bool nonBlocking(const CXXMemberCallExpr *MC) const;
  /// \p E is (through conversions) a copy to the host made with
  /// non_blocking=true: `d.to(kCPU, true)`.
  const CXXMemberCallExpr *nonBlockingHostCopy(const Expr *E);
  /// The tensor whose values \p E reads on the host (a pointer into its
  /// memory, an accessor, item(), a reduction, printing), or null.
  const Expr *valueReadOf(const Expr *E) const;
  /// The pending copy \p Value is: a non_blocking copy of a tensor that may
  /// be on a device, or a variable that holds one.
  std::optional<PendingCopy> pendingFrom(const Expr *Value);
  /// The use \p Use of a variable that holds a pending copy reads its
  /// values or copies it to another variable; any other use passes it where
  /// it is not followed.
  bool keepsPending(const DeclRefExpr *Use) const;
  /// Valuations under which \p E may wait for the device (\p Helper: \p E
  /// as a call to the code's own function, with its summary).
  Mask waitsUnder(const Expr *E, const HelperCall &Helper);
};

} // namespace clang::devplace

#endif

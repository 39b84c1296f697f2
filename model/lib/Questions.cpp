//===--- Questions.cpp - what rules may ask of a fact ---------------------===//

#include "devplace/model/Questions.h"

namespace clang::devplace {

namespace {
/// Valuations under which a parameter's device (the caller's choice) may
/// flow into the value.
Mask paramsUnder(const Fact &F) { return F.Params ? F.ParamsWhen : 0; }

/// Valuations under which every path puts the value on a device the code
/// chose.
Mask deviceOnlyUnder(const Fact &F) {
  return F.Dev & ~F.Host & ~F.Unknown & ~paramsUnder(F);
}
} // namespace

Mask deviceUnder(const Fact &F, Mask Reach) { return F.Dev & Reach; }

Mask hostOnlyUnder(const Fact &F, Mask Reach) {
  return F.Host & ~F.Dev & ~F.Unknown & ~paramsUnder(F) & Reach;
}

Mask unknownUnder(const Fact &F, Mask Reach) {
  return (F.Unknown | paramsUnder(F)) & Reach;
}

bool onDeviceOnEveryPath(const Fact &F, Mask Reach) {
  return Reach && (F.Dev & Reach) == Reach &&
         !((F.Host | F.Unknown | paramsUnder(F)) & Reach);
}

bool onHostOnEveryPath(const Fact &F, Mask Reach) {
  return Reach && hostOnlyUnder(F, Reach) == Reach;
}

MismatchAnswer mismatchUnder(const Fact &A, const Fact &B, Mask Reach) {
  MismatchAnswer R;
  if (!B.Scalar)
    R.ADeviceBHost = deviceUnder(A, Reach) & hostOnlyUnder(B, Reach);
  if (!A.Scalar)
    R.AHostBDevice = hostOnlyUnder(A, Reach) & deviceUnder(B, Reach);
  R.Definite = (R.ADeviceBHost && onDeviceOnEveryPath(A, Reach) &&
                onHostOnEveryPath(B, Reach)) ||
               (R.AHostBDevice && onHostOnEveryPath(A, Reach) &&
                onDeviceOnEveryPath(B, Reach));
  if (R.ADeviceBHost || R.AHostBDevice || !indicesMayDiffer(A.Index, B.Index))
    return R;
  R.IndicesDiffer = ((deviceUnder(A, Reach) & deviceOnlyUnder(B)) |
                     (deviceOnlyUnder(A) & deviceUnder(B, Reach))) &
                    Reach;
  // Definite: both on their devices on every path, at two numbers.
  R.Definite = R.IndicesDiffer && onDeviceOnEveryPath(A, Reach) &&
               onDeviceOnEveryPath(B, Reach) &&
               A.Index.K == DeviceIndex::Number &&
               B.Index.K == DeviceIndex::Number;
  return R;
}

} // namespace clang::devplace

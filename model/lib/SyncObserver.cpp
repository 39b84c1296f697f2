//===--- SyncObserver.cpp - host synchronisations -------------------------===//

#include "FunctionAnalysis.h"

namespace clang::devplace {

void SyncObserver::observe(const Expr *E) {
  std::string What;
  const Expr *Tensor = A.Copies.syncedTensor(E, &What);
  if (!Tensor || !Synced.insert(E).second)
    return;
  Fact F = eval(Tensor);
  if (isTensorType(E->getType()) && onHostOnEveryPath(F, now().Reach))
    Out.HostCopiesOfHostValues.push_back(E);
  Mask OnDev = deviceUnder(F, now().Reach);
  // test(model, device, loader): on the device the caller passes in.
  std::string CallerDevice;
  for (unsigned I = 0; !OnDev && I < Scope.FD->getNumParams() && I < 32; ++I) {
    const ParmVarDecl *P = Scope.FD->getParamDecl(I);
    DeviceCarrier C = classifyType(P->getType());
    if ((F.Params & (1u << I)) &&
        (C == DeviceCarrier::Device || C == DeviceCarrier::Options)) {
      CallerDevice = P->getName().str();
      break;
    }
  }
  if (!OnDev && CallerDevice.empty())
    return;
  Out.Syncs.push_back(HostSync{E, text(Tensor), What,
                               onDeviceOnEveryPath(F, now().Reach), F.Why,
                               CallerDevice});
}

} // namespace clang::devplace

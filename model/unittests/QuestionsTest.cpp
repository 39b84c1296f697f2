//===--- QuestionsTest.cpp - what rules may ask of a fact -----------------===//

#include "devplace/model/Questions.h"
#include "gtest/gtest.h"

namespace clang::devplace {
namespace {

const Step Source{Step::MovedTo, SourceLocation(), "", "", "", nullptr, 0};

Fact device() { return Fact::device(&Source); }
Fact param() {
  Fact F;
  F.Params = 1;
  return F;
}

TEST(Questions, AnUnknownPathNeitherProvesNorRefutesADevice) {
  // `model->to(kCUDA); if (resume) torch::load(model, path);`: a device on
  // one path, unknown on the other.
  Fact F = join(device(), Fact::unknown());
  EXPECT_EQ(deviceUnder(F, AllValuations), AllValuations);
  EXPECT_EQ(unknownUnder(F, AllValuations), AllValuations);
  EXPECT_FALSE(onDeviceOnEveryPath(F, AllValuations));
  EXPECT_EQ(hostOnlyUnder(F, AllValuations), 0u);
  // Unknown alone: no device, and not the host either.
  EXPECT_EQ(deviceUnder(Fact::unknown(), AllValuations), 0u);
  EXPECT_EQ(hostOnlyUnder(Fact::unknown(), AllValuations), 0u);
  EXPECT_FALSE(onHostOnEveryPath(Fact::unknown(), AllValuations));
}

TEST(Questions, TheHostNeedsEveryPathKnown) {
  EXPECT_TRUE(onHostOnEveryPath(Fact::host(), AllValuations));
  EXPECT_FALSE(
      onHostOnEveryPath(join(Fact::host(), Fact::unknown()), AllValuations));
  EXPECT_FALSE(onHostOnEveryPath(join(Fact::host(), param()), AllValuations));
  // A parameter's device only where use_gpu (atom 0) is false: the host is
  // proven where it is true.
  Fact Guarded = join(Fact::host(), restrict(param(), ~atomTrueMask(0)));
  EXPECT_EQ(hostOnlyUnder(Guarded, AllValuations), atomTrueMask(0));
  // Nothing reaches: nothing is proven.
  EXPECT_FALSE(onHostOnEveryPath(Fact::host(), 0));
  EXPECT_FALSE(onDeviceOnEveryPath(device(), 0));
  // Unknown only under some valuations is unknown only there.
  Fact Partly = Fact::host();
  Partly.Unknown = atomTrueMask(1);
  EXPECT_EQ(hostOnlyUnder(Partly, AllValuations), ~atomTrueMask(1));
  EXPECT_EQ(unknownUnder(Partly, atomTrueMask(0)),
            atomTrueMask(1) & atomTrueMask(0));
}

TEST(Questions, OnEveryPathOnlyWhereNoOtherPathIsPossible) {
  EXPECT_TRUE(onDeviceOnEveryPath(device(), AllValuations));
  EXPECT_FALSE(
      onDeviceOnEveryPath(join(device(), Fact::host()), AllValuations));
  // Chosen by availability (atom 0): on a device on every path only where
  // the statement runs with it available.
  Fact Chosen = device();
  Chosen.Dev = atomTrueMask(0);
  Chosen.Host = ~atomTrueMask(0);
  EXPECT_FALSE(onDeviceOnEveryPath(Chosen, AllValuations));
  EXPECT_TRUE(onDeviceOnEveryPath(Chosen, atomTrueMask(0)));
  EXPECT_TRUE(onHostOnEveryPath(Chosen, ~atomTrueMask(0)));
}

TEST(Questions, AMismatchNeedsOneSideOnADeviceAndTheOtherSurelyOnTheHost) {
  MismatchAnswer M = mismatchUnder(device(), Fact::host(), AllValuations);
  EXPECT_EQ(M.ADeviceBHost, AllValuations);
  EXPECT_EQ(M.AHostBDevice, 0u);
  EXPECT_TRUE(M.Definite);
  // The other way round.
  M = mismatchUnder(Fact::host(), device(), AllValuations);
  EXPECT_EQ(M.AHostBDevice, AllValuations);
  EXPECT_TRUE(M.Definite);
  // A device on one path and unknown on another, against the host: the
  // path with the device is a mismatch ("may be").
  M = mismatchUnder(join(device(), Fact::unknown()), Fact::host(),
                    AllValuations);
  EXPECT_TRUE(M);
  EXPECT_FALSE(M.Definite);
  // And so is a device on one path and the host on another: the unknown
  // path may be the host, so the two must answer alike (knowing less never
  // reports more).
  M = mismatchUnder(join(device(), Fact::host()), Fact::host(), AllValuations);
  EXPECT_TRUE(M);
  EXPECT_FALSE(M.Definite);
  // The host side must be known on every path: unknown, a parameter or a
  // device on some path is no proof of the host.
  EXPECT_FALSE(mismatchUnder(device(), join(Fact::host(), Fact::unknown()),
                             AllValuations));
  EXPECT_FALSE(
      mismatchUnder(device(), join(Fact::host(), param()), AllValuations));
  EXPECT_FALSE(mismatchUnder(device(), Fact::unknown(), AllValuations));
  EXPECT_FALSE(mismatchUnder(device(), device(), AllValuations));
  EXPECT_FALSE(mismatchUnder(Fact::host(), Fact::host(), AllValuations));
  // A 0-dim host tensor may meet a tensor on any device.
  Fact Scalar = Fact::host();
  Scalar.Scalar = true;
  EXPECT_FALSE(mismatchUnder(device(), Scalar, AllValuations));
  EXPECT_FALSE(mismatchUnder(Scalar, device(), AllValuations));
  // Only under the valuations that reach, and where both sides agree.
  Fact Chosen = device();
  Chosen.Dev = atomTrueMask(0);
  Chosen.Host = ~atomTrueMask(0);
  M = mismatchUnder(Chosen, Fact::host(), AllValuations);
  EXPECT_EQ(M.ADeviceBHost, atomTrueMask(0));
  EXPECT_FALSE(M.Definite);
  EXPECT_FALSE(mismatchUnder(Chosen, Fact::host(), ~atomTrueMask(0)));
  EXPECT_TRUE(mismatchUnder(Chosen, Fact::host(), atomTrueMask(0)).Definite);
}

TEST(Questions, DevicesOfDifferentIndicesMismatch) {
  const int Rank = 0;
  auto On = [](DeviceIndex I) {
    Fact F = device();
    F.Index = I;
    return F;
  };
  Fact Zero = On(DeviceIndex::number(0, "cuda:0"));
  Fact One = On(DeviceIndex::number(1, "cuda:1"));
  Fact OnRank = On(DeviceIndex::variable(&Rank, "cuda:rank"));
  MismatchAnswer M = mismatchUnder(Zero, One, AllValuations);
  EXPECT_EQ(M.IndicesDiffer, AllValuations);
  EXPECT_EQ(M.ADeviceBHost | M.AHostBDevice, 0u);
  EXPECT_TRUE(M.Definite);
  // cuda:0 against cuda:rank: a mismatch on every rank but 0.
  M = mismatchUnder(Zero, OnRank, AllValuations);
  EXPECT_EQ(M.IndicesDiffer, AllValuations);
  EXPECT_FALSE(M.Definite);
  EXPECT_FALSE(mismatchUnder(Zero, Zero, AllValuations));
  EXPECT_FALSE(mismatchUnder(OnRank, OnRank, AllValuations));
  EXPECT_FALSE(mismatchUnder(Zero, device(), AllValuations));
  // The other side on its device on every path; this one on some path.
  Fact MaybeOne = join(One, Fact::unknown());
  M = mismatchUnder(MaybeOne, Zero, AllValuations);
  EXPECT_TRUE(M);
  EXPECT_FALSE(M.Definite);
  EXPECT_FALSE(
      mismatchUnder(MaybeOne, join(Zero, Fact::unknown()), AllValuations));
  // A host side is answered as before.
  M = mismatchUnder(join(One, Fact::host()), Fact::host(), AllValuations);
  EXPECT_EQ(M.ADeviceBHost, AllValuations);
  EXPECT_EQ(M.IndicesDiffer, 0u);
}

} // namespace
} // namespace clang::devplace

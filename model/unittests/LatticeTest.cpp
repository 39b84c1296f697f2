//===--- LatticeTest.cpp - facts, joins and widening ----------------------===//

#include "devplace/model/Lattice.h"
#include "gtest/gtest.h"

namespace clang::devplace {
namespace {

Step step(unsigned Depth, const Step *Prev = nullptr) {
  return Step{Step::MovedTo, SourceLocation(), "", "", "", Prev, Depth};
}

TEST(Lattice, AtomMasksSplitTheValuations) {
  for (unsigned I = 0; I < MaxAtoms; ++I) {
    Mask T = atomTrueMask(I);
    EXPECT_EQ(__builtin_popcountll(T), 32) << "atom " << I;
    // Valuation V has atom I true exactly when bit I of V is set.
    for (unsigned V = 0; V < 64; ++V)
      EXPECT_EQ((T >> V) & 1, (V >> I) & 1u)
          << "atom " << I << " valuation " << V;
  }
  EXPECT_EQ(atomTrueMask(0) & atomTrueMask(1),
            atomTrueMask(0) & ~(~atomTrueMask(1)));
}

TEST(Lattice, NoInformationIsTheIdentityOfJoin) {
  Fact Host = Fact::host();
  Fact None;
  EXPECT_TRUE(join(Host, None).sameAs(Host));
  EXPECT_TRUE(join(None, Host).sameAs(Host));
  Fact Scalar = Fact::host();
  Scalar.Scalar = true;
  // A 0-dim operand stays 0-dim when joined with nothing...
  EXPECT_TRUE(join(Scalar, None).Scalar);
  // ...but not when joined with a tensor that is not 0-dim.
  EXPECT_FALSE(join(Scalar, Host).Scalar);
}

TEST(Lattice, JoinIsAnOrOfMasksParametersAndUnknown) {
  Fact A, B;
  A.Host = atomTrueMask(0);
  B.Dev = ~atomTrueMask(0);
  B.Params = 0b10;
  A.Unknown = atomTrueMask(1);
  Fact J = join(A, B);
  EXPECT_EQ(J.Host, atomTrueMask(0));
  EXPECT_EQ(J.Dev, ~atomTrueMask(0));
  EXPECT_EQ(J.Params, 0b10u);
  // Unknown is one more element of the join, per valuation: it does not
  // absorb the device another path chose.
  EXPECT_EQ(J.Unknown, atomTrueMask(1));
  // Commutative in everything but the explanation.
  EXPECT_TRUE(join(B, A).sameAs(J));
}

TEST(Lattice, JoinKeepsTheShortestExplanationOfADevice) {
  Step Source = step(0), Middle = step(1, &Source), Long = step(2, &Middle);
  Fact Near = Fact::device(&Source), Far = Fact::device(&Long);
  EXPECT_EQ(join(Far, Near).Why, &Source);
  EXPECT_EQ(join(Near, Far).Why, &Source);
  // On a tie the first one stays (a loop's fixpoint does not churn).
  Step Other = step(0);
  EXPECT_EQ(join(Fact::device(&Other), Near).Why, &Other);
  // A host value's explanation never replaces a device one.
  Fact Host = Fact::host();
  Host.Why = &Source;
  EXPECT_EQ(join(Host, Far).Why, &Long);
}

TEST(Lattice, ParametersCarryTheValuationsUnderWhichTheyFlow) {
  Fact Param;
  Param.Params = 1;
  // `if (use_gpu) t = t.cpu();`: the parameter's device stays where use_gpu
  // (atom 0) is false.
  Fact Kept = restrict(Param, ~atomTrueMask(0));
  EXPECT_EQ(Kept.Params, 1u);
  EXPECT_EQ(Kept.ParamsWhen, ~atomTrueMask(0));
  Fact J = join(Fact::host(), Kept);
  EXPECT_EQ(J.ParamsWhen, ~atomTrueMask(0));
  // Joined with a parameter under other valuations: the union.
  Fact Other = restrict(Param, atomTrueMask(1));
  EXPECT_EQ(join(Kept, Other).ParamsWhen, ~atomTrueMask(0) | atomTrueMask(1));
  // Restricted to no valuation it carries, a fact has no parameter left.
  Fact None = restrict(Kept, atomTrueMask(0));
  EXPECT_EQ(None.Params, 0u);
  EXPECT_EQ(None.ParamsWhen, AllValuations);
  EXPECT_FALSE(Kept.sameAs(Param));
}

TEST(Lattice, RestrictAndWiden) {
  Fact F;
  F.Host = AllValuations;
  F.Dev = atomTrueMask(2);
  F.Params = 1;
  F.Unknown = atomTrueMask(3);
  Fact R = restrict(F, atomTrueMask(0));
  EXPECT_EQ(R.Host, atomTrueMask(0));
  EXPECT_EQ(R.Unknown, atomTrueMask(3) & atomTrueMask(0));
  EXPECT_EQ(R.Dev, atomTrueMask(2) & atomTrueMask(0));
  EXPECT_EQ(R.Params, 1u);
  // Widened for use under another function's conditions: all or nothing,
  // and no parameters of that function.
  Fact W = widen(R);
  EXPECT_EQ(W.Host, AllValuations);
  EXPECT_EQ(W.Dev, AllValuations);
  EXPECT_EQ(W.Params, 0u);
  // Its parameters are what its callers passed: unknown here, under every
  // valuation of the caller.
  EXPECT_EQ(W.Unknown, AllValuations);
  EXPECT_EQ(widen(Fact()).Dev, 0u);
  EXPECT_FALSE(widen(Fact::host()).Unknown);
}

TEST(Lattice, AnIndexIsKeptWhereThePathsAgree) {
  const int Rank = 0, LocalRank = 0;
  Fact Zero = Fact::device(nullptr), One = Fact::device(nullptr);
  Zero.Index = DeviceIndex::number(0, "cuda:0");
  One.Index = DeviceIndex::number(1, "cuda:1");
  // The host side of a join has no index to disagree with.
  EXPECT_EQ(join(Zero, Fact::host()).Index, Zero.Index);
  EXPECT_EQ(join(Fact::host(), One).Index, One.Index);
  EXPECT_EQ(join(Zero, Zero).Index, Zero.Index);
  // Two devices on two paths: which one is not said.
  EXPECT_EQ(join(Zero, One).Index.K, DeviceIndex::Unsaid);
  EXPECT_EQ(join(Zero, Fact::device(nullptr)).Index.K, DeviceIndex::Unsaid);
  // Restricted to no device path, there is no index left to compare.
  Fact Chosen = Zero;
  Chosen.Dev = atomTrueMask(0);
  Chosen.Host = ~atomTrueMask(0);
  EXPECT_EQ(restrict(Chosen, ~atomTrueMask(0)).Index.K, DeviceIndex::Unsaid);
  Fact HostThere;
  HostThere.Host = ~atomTrueMask(0);
  EXPECT_TRUE(restrict(Chosen, ~atomTrueMask(0)).sameAs(HostThere));
  EXPECT_FALSE(Zero.sameAs(One));
  // A variable of another function is not this one's; a number is.
  Fact OnRank = Fact::device(nullptr);
  OnRank.Index = DeviceIndex::variable(&Rank, "cuda:rank");
  EXPECT_EQ(widen(OnRank).Index.K, DeviceIndex::Unsaid);
  EXPECT_EQ(widen(One).Index, One.Index);
  // Numbers differ by value; a number and a variable may differ; two
  // variables may hold one value; unsaid never differs.
  DeviceIndex Var = DeviceIndex::variable(&Rank, "cuda:rank");
  DeviceIndex Other = DeviceIndex::variable(&LocalRank, "cuda:local_rank");
  EXPECT_TRUE(indicesMayDiffer(Zero.Index, One.Index));
  EXPECT_FALSE(indicesMayDiffer(Zero.Index, DeviceIndex::number(0, "")));
  EXPECT_TRUE(indicesMayDiffer(Zero.Index, Var));
  EXPECT_TRUE(indicesMayDiffer(Var, One.Index));
  EXPECT_FALSE(indicesMayDiffer(Var, Other));
  EXPECT_FALSE(indicesMayDiffer(Var, Var));
  EXPECT_FALSE(indicesMayDiffer(Zero.Index, DeviceIndex{}));
}

} // namespace
} // namespace clang::devplace

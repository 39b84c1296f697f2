//===--- FactsTest.cpp - facts at program points --------------------------===//
//
// Each test parses a snippet against the mock LibTorch headers and asserts
// what the model knows after a given line (lines count from 1 in the
// snippet), independent of any rule.
//
//===----------------------------------------------------------------------===//

#include "TestAST.h"

namespace clang::devplace::test {
namespace {

TEST(Facts, ADeviceChosenByIsAvailableIsAnAtom) {
  TestAST AST(R"cpp(
void f() {
  torch::Device d = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto t = torch::ones({2}).to(d);
  auto h = t.cpu();
  (void)h;
}
)cpp");
  auto Lines = AST.trace("f");
  ASSERT_EQ(AST.Atoms, std::vector<std::string>{"torch::cuda::is_available()"});
  // After line 4, t is on a device when is_available() is true, on the host
  // otherwise.
  const Fact &T = Lines[4].Values["t"];
  EXPECT_EQ(T.Dev, whenTrue(0));
  EXPECT_EQ(T.Host, whenFalse(0));
  ASSERT_NE(T.Why, nullptr);
  EXPECT_EQ(T.Why->K, Step::MovedTo);
  const Fact &H = Lines[5].Values["h"];
  EXPECT_EQ(H.Host, AllValuations);
  EXPECT_EQ(H.Dev, 0u);
}

TEST(Facts, BranchesOnAFlagJoinAtTheirEnd) {
  TestAST AST(R"cpp(
void f(bool use_gpu) {
  torch::Tensor t = torch::ones({2});
  if (use_gpu)
    t = t.cuda();
  auto u = t + 1;
  (void)u;
}
)cpp");
  auto Lines = AST.trace("f");
  ASSERT_EQ(AST.Atoms, std::vector<std::string>{"use_gpu"});
  EXPECT_EQ(Lines[3].Values["t"].Host, AllValuations);
  // Inside the branch only the valuations with use_gpu true reach.
  EXPECT_EQ(Lines[5].Reach, whenTrue(0));
  EXPECT_EQ(Lines[5].Values["t"].Dev & Lines[5].Reach, whenTrue(0));
  // After it: device exactly when use_gpu, host otherwise.
  const Fact &U = Lines[6].Values["u"];
  EXPECT_EQ(U.Dev, whenTrue(0));
  EXPECT_EQ(U.Host, whenFalse(0));
  EXPECT_EQ(Lines[6].Reach, AllValuations);
}

TEST(Facts, AFlagThatIsReassignedIsNoCondition) {
  TestAST AST(R"cpp(
void f(bool use_gpu) {
  use_gpu = !use_gpu;
  torch::Tensor t = torch::ones({2});
  if (use_gpu)
    t = t.cuda();
  (void)t;
}
)cpp");
  auto Lines = AST.trace("f");
  EXPECT_TRUE(AST.Atoms.empty());
  const Fact &T = Lines[7].Values["t"];
  EXPECT_EQ(T.Dev, AllValuations);
  EXPECT_EQ(T.Host, AllValuations);
}

TEST(Facts, GuardsOnTheTensorItselfRefineItsFact) {
  TestAST AST(R"cpp(
void f(bool use_gpu) {
  torch::Tensor t = torch::ones({2});
  if (use_gpu)
    t = t.cuda();
  if (t.is_cuda())
    t = t.cpu();
  (void)t;
}
)cpp");
  auto Lines = AST.trace("f");
  // On the true side of is_cuda(), t is the device value only.
  EXPECT_EQ(Lines[7].Values["t"].Host, AllValuations);
  const Fact &T = Lines[8].Values["t"];
  EXPECT_EQ(T.Dev, 0u);
  EXPECT_EQ(T.Host, AllValuations);
}

TEST(Facts, LoopsReachAFixpoint) {
  TestAST AST(R"cpp(
void f(int n) {
  torch::Tensor t = torch::ones({2});
  torch::Tensor acc = torch::zeros({2});
  for (int i = 0; i < n; ++i) {
    acc = acc + t;
    t = t.cuda();
  }
  (void)acc;
}
)cpp");
  const FunctionDecl *FD = AST.function("f");
  const FunctionFacts &R = AST.model().analyze(FD);
  EXPECT_TRUE(R.Complete);
  EXPECT_LE(R.Visits, 3 * R.Blocks);
  auto Lines = AST.trace("f");
  // acc may hold either after the loop: the second iteration adds a device t.
  const Fact &Acc = Lines[9].Values["acc"];
  EXPECT_EQ(Acc.Dev, AllValuations);
  EXPECT_EQ(Acc.Host, AllValuations);
  // The mixed add in the loop is a meeting of a host and a maybe-device value.
  ASSERT_FALSE(R.Meetings.empty());
  EXPECT_EQ(R.Meetings.front().K, Meeting::Operands);
}

TEST(Facts, UnknownIsNeitherHostNorDevice) {
  TestAST AST(R"cpp(
float f(torch::Tensor p) {
  auto q = p + 1;
  return q.data_ptr<float>()[0];
}
)cpp");
  auto Lines = AST.trace("f");
  const Fact &Q = Lines[3].Values["q"];
  EXPECT_EQ(Q.Host, 0u);
  EXPECT_EQ(Q.Dev, 0u);
  EXPECT_EQ(Q.Params, 1u);
  // The host read of a parameter's memory is recorded, as unknown only.
  const FunctionFacts &R = AST.model().analyze(AST.function("f"));
  ASSERT_EQ(R.Accesses.size(), 1u);
  EXPECT_TRUE(R.Accesses[0].UnknownOnly);
  EXPECT_FALSE(R.Accesses[0].Definite);
  EXPECT_EQ(R.Accesses[0].Tensor, "q");
}

TEST(Facts, HostTouchesSyncsAndMeetingsAreRecorded) {
  TestAST AST(R"cpp(
void f() {
  auto d = torch::ones({4}).cuda();
  auto h = torch::ones({4});
  float x = d.data_ptr<float>()[1];
  float y = h.data_ptr<float>()[1];
  float z = d.item<float>();
  auto s = d + h;
  (void)x; (void)y; (void)z; (void)s;
}
)cpp");
  const FunctionFacts &R = AST.model().analyze(AST.function("f"));
  // Only the device tensor's memory is a fact worth keeping.
  ASSERT_EQ(R.Accesses.size(), 1u);
  EXPECT_EQ(R.Accesses[0].K, HostAccess::Read);
  EXPECT_EQ(R.Accesses[0].Tensor, "d");
  EXPECT_TRUE(R.Accesses[0].Definite);
  ASSERT_EQ(R.Syncs.size(), 1u);
  EXPECT_EQ(R.Syncs[0].What, ".item()");
  ASSERT_EQ(R.Meetings.size(), 1u);
  EXPECT_EQ(R.Meetings[0].NameA, "d");
  EXPECT_EQ(R.Meetings[0].FA.Dev, AllValuations);
  EXPECT_EQ(R.Meetings[0].FB.Host, AllValuations);
}

TEST(Facts, SyncsOnACallersDeviceNameTheParameter) {
  TestAST AST(R"cpp(
void f(torch::Device device, const torch::Tensor &t, const torch::Tensor &x) {
  float a = t.to(device).item<float>();
  float b = x.item<float>();
  float c = t.to(torch::kCPU).item<float>();
  (void)a; (void)b; (void)c;
}
)cpp");
  const FunctionFacts &R = AST.model().analyze(AST.function("f"));
  // On the device the caller passes: recorded, naming that parameter. A
  // tensor parameter's own device is nobody's choice here; a host copy is
  // on the host.
  ASSERT_EQ(R.Syncs.size(), 1u);
  EXPECT_EQ(R.Syncs[0].CallerDevice, "device");
  EXPECT_FALSE(R.Syncs[0].Definite);
}

TEST(Facts, TypeAsMovesToTheDeviceOfItsArgument) {
  TestAST AST(R"cpp(
void f() {
  auto d = torch::ones({4}).cuda();
  auto h = torch::zeros({4});
  auto m = h.type_as(d);
  (void)m;
}
)cpp");
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[5].Values["m"].Dev, AllValuations);
  EXPECT_EQ(Lines[5].Values["m"].Host, 0u);
}

} // namespace
} // namespace clang::devplace::test

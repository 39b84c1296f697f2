//===--- PendingCopiesTest.cpp - asynchronous host copies and waits -------===//
//
// A non_blocking copy to the host of a tensor that may be on a device is
// pending until something waits for the device; the model follows it per
// valuation at each program point, and summarises whether a function may
// wait.

#include "TestAST.h"

namespace clang::devplace::test {
namespace {

TEST(PendingCopies, ACopyIsPendingUntilSomethingWaits) {
  TestAST AST(R"cpp(
void f(torch::Tensor x, bool quick) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, /*non_blocking=*/true);
  auto b = h;
  torch::Tensor view = h;
  if (quick)
    torch::cuda::synchronize();
  float v = view.data_ptr<float>()[0];
  torch::cuda::synchronize();
  (void)h; (void)v;
}
)cpp");
  auto Lines = AST.trace("f");
  ASSERT_EQ(AST.Atoms.size(), 1u); // 'quick'
  // Copied without waiting: pending on every path.
  EXPECT_EQ(Lines[4].Pending["h"], AllValuations);
  // A copy of the tensor shares its memory: pending too.
  EXPECT_EQ(Lines[5].Pending["b"], AllValuations);
  EXPECT_EQ(Lines[6].Pending["view"], AllValuations);
  // Waited for on one branch: still pending where 'quick' is false (a read
  // keeps it: the read is what the rule reports).
  EXPECT_EQ(Lines[9].Pending["h"], whenFalse(0));
  EXPECT_EQ(Lines[9].Pending["view"], whenFalse(0));
  // Waited for on every path.
  EXPECT_EQ(Lines[10].Pending.count("h"), 0u);
}

TEST(PendingCopies, OnlyACopyOfATensorOnADeviceIsPending) {
  TestAST AST(R"cpp(
void f(torch::Tensor x, bool use_gpu) {
  auto a = x.to(torch::kCPU, true);
  auto d = use_gpu ? x.cuda() : x;
  auto b = d.to(torch::kCPU, true);
  auto c = d.to(torch::kCPU);
  (void)a; (void)b; (void)c;
}
)cpp");
  auto Lines = AST.trace("f");
  // A parameter's device is the caller's: no device the code chose.
  EXPECT_EQ(Lines[3].Pending.count("a"), 0u);
  // Only where the tensor was moved.
  EXPECT_EQ(Lines[5].Pending["b"], whenTrue(0));
  // A blocking copy is never pending, and it waits for the device's queue:
  // the copy made before it has arrived.
  EXPECT_EQ(Lines[6].Pending.count("c"), 0u);
  EXPECT_EQ(Lines[6].Pending.count("b"), 0u);
}

TEST(PendingCopies, OtherUsesAndBlockingCopiesEndIt) {
  TestAST AST(R"cpp(
void consume(const torch::Tensor &t) { (void)t.dim(); }
void f(torch::Tensor x, torch::Tensor loss) {
  auto d = x.cuda();
  auto h = d.to(torch::kCPU, true);
  auto g = d.to(torch::kCPU, true);
  float p = h.data_ptr<float>()[0];
  consume(h);
  float l = loss.item<float>();
  (void)p; (void)l; (void)g;
}
)cpp");
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[6].Pending["h"], AllValuations);
  // A read keeps it (and is recorded); passing it on ends the following.
  EXPECT_EQ(Lines[7].Pending["h"], AllValuations);
  EXPECT_EQ(Lines[8].Pending.count("h"), 0u);
  EXPECT_EQ(Lines[8].Pending["g"], AllValuations);
  // item() of a tensor whose device is not known may wait for the device.
  EXPECT_EQ(Lines[9].Pending.count("g"), 0u);
  const FunctionFacts &R = AST.model().analyze(AST.function("f"));
  ASSERT_EQ(R.AsyncReads.size(), 1u);
  EXPECT_EQ(AST.context().getSourceManager().getExpansionLineNumber(
                R.AsyncReads[0].Read->getExprLoc()) -
                1,
            7u);
}

TEST(PendingCopies, FunctionsSayWhetherTheyMayWait) {
  TestAST AST(R"cpp(
#include <iostream>
void elsewhere();
void waits() { torch::cuda::synchronize(); }
void calls_one_that_waits() { waits(); }
void calls_unseen() { elsewhere(); }
void prints(int step) { std::cout << step; }
float reads(torch::Tensor t) { return t.item<float>(); }
float reads_host() { return torch::ones({1}).item<float>(); }
)cpp");
  auto MayWait = [&](llvm::StringRef Name) {
    return AST.model().analyze(AST.function(Name)).MayWait;
  };
  EXPECT_TRUE(MayWait("waits"));
  EXPECT_TRUE(MayWait("calls_one_that_waits"));
  // Code not seen may wait.
  EXPECT_TRUE(MayWait("calls_unseen"));
  EXPECT_FALSE(MayWait("prints"));
  // item() of a parameter: on the caller's device, which may be one.
  EXPECT_TRUE(MayWait("reads"));
  EXPECT_FALSE(MayWait("reads_host"));
}

} // namespace
} // namespace clang::devplace::test

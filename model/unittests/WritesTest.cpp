//===--- WritesTest.cpp - what calls, aliases and pointers write ----------===//
//
// A call the model has no summary for may write what it can reach; writes
// through another name for a value (a structured binding, a pointer,
// std::swap) reach the value. Each is asserted at the program point after
// the write.

#include "TestAST.h"

namespace clang::devplace::test {
namespace {

TEST(Writes, CallsNotSummarisedLeaveWhatTheyMayWriteUnknown) {
  TestAST AST(R"cpp(
void decode(const torch::Tensor &raw, torch::Tensor &out);
void decode_to(const torch::Tensor &raw, torch::Tensor *out);
void show(const torch::Tensor &t);
void f(const torch::Tensor &raw) {
  torch::Tensor a = torch::zeros({2});
  torch::Tensor b = torch::zeros({2});
  torch::Tensor c = torch::zeros({2});
  decode(raw, a);
  decode_to(raw, &b);
  show(c);
  torch::load(c, "c.pt");
  (void)a; (void)b; (void)c;
}
)cpp");
  auto Lines = AST.trace("f");
  // Made on the host.
  EXPECT_EQ(Lines[8].Values["a"].Host, AllValuations);
  // decode(raw, a): a non-const reference to code not summarised.
  EXPECT_TRUE(Lines[9].Values["a"].Unknown);
  EXPECT_EQ(Lines[9].Values["a"].Host, 0u);
  EXPECT_EQ(Lines[9].Values["b"].Host, AllValuations);
  // decode_to(raw, &b): its address.
  EXPECT_TRUE(Lines[10].Values["b"].Unknown);
  EXPECT_EQ(Lines[10].Values["b"].Host, 0u);
  // show(c) takes a const reference: c is still on the host.
  EXPECT_EQ(Lines[11].Values["c"].Host, AllValuations);
  EXPECT_FALSE(Lines[11].Values["c"].Unknown);
  // torch::load replaces its argument.
  EXPECT_TRUE(Lines[12].Values["c"].Unknown);
  EXPECT_EQ(Lines[12].Values["c"].Host, 0u);
}

TEST(Writes, SummariesSayWhatTheirFunctionsWrite) {
  TestAST AST(R"cpp(
torch::Tensor opaque();
void replace(torch::Tensor &t) { t = opaque(); }
void keep(torch::Tensor &t) { (void)t.sum(); }
void f(const torch::Tensor &x) {
  torch::Tensor a = torch::zeros({2});
  torch::Tensor b = torch::zeros({2});
  replace(a);
  keep(b);
  (void)a; (void)b;
}
)cpp");
  auto Lines = AST.trace("f");
  // replace() gives its parameter a value of unknown device.
  EXPECT_TRUE(Lines[8].Values["a"].Unknown);
  EXPECT_EQ(Lines[8].Values["a"].Host, 0u);
  // keep() leaves it as it was.
  EXPECT_EQ(Lines[9].Values["b"].Host, AllValuations);
  EXPECT_FALSE(Lines[9].Values["b"].Unknown);
}

TEST(Writes, WritesThroughAliasesReachTheValue) {
  TestAST AST(R"cpp(
#include <tuple>
#include <utility>
void f(const torch::Tensor &x) {
  auto [boxes, scores] = std::make_tuple(x.cuda(), x.cuda());
  boxes = boxes.cpu();
  torch::Tensor t = x.cuda();
  torch::Tensor h = torch::zeros({2});
  std::swap(t, h);
  torch::Tensor u = x.cuda();
  torch::Tensor *p = &u;
  *p = torch::zeros({2});
  (void)scores; (void)p;
}
)cpp");
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[5].Values["boxes"].Dev, AllValuations);
  // The binding is written.
  EXPECT_EQ(Lines[6].Values["boxes"].Host, AllValuations);
  EXPECT_EQ(Lines[6].Values["boxes"].Dev, 0u);
  EXPECT_EQ(Lines[6].Values["scores"].Dev, AllValuations);
  // std::swap exchanges the two.
  EXPECT_EQ(Lines[9].Values["t"].Host, AllValuations);
  EXPECT_EQ(Lines[9].Values["t"].Dev, 0u);
  EXPECT_EQ(Lines[9].Values["h"].Dev, AllValuations);
  // A write through a pointer reaches every value whose address was taken.
  EXPECT_EQ(Lines[11].Values["u"].Dev, AllValuations);
  EXPECT_TRUE(Lines[12].Values["u"].Unknown);
  EXPECT_EQ(Lines[12].Values["u"].Dev, 0u);
}

TEST(Writes, AnElementReplacedLeavesTheOthersUnknown) {
  TestAST AST(R"cpp(
#include <vector>
void f(const torch::Tensor &x) {
  std::vector<torch::Tensor> v{x.cuda(), x.cuda()};
  v[0] = v[0].cpu();
  std::vector<torch::Tensor> w{x.cpu()};
  w[0] = w[0].cuda();
  std::vector<torch::Tensor> outs{x.cuda(), x.cuda()};
  for (auto &t : outs)
    t = t.cpu();
  (void)v; (void)w; (void)outs;
}
)cpp");
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[4].Values["v"].Dev, AllValuations);
  // Which element was replaced is not told: the others are unknown, and
  // the one written is on the host.
  EXPECT_EQ(Lines[5].Values["v"].Dev, 0u);
  EXPECT_TRUE(Lines[5].Values["v"].Unknown);
  EXPECT_EQ(Lines[5].Values["v"].Host, AllValuations);
  // A device written into a host container is seen.
  EXPECT_EQ(Lines[7].Values["w"].Dev, AllValuations);
  // A loop that assigns every element through its reference leaves none
  // of the old ones: after it, no element is on a device.
  EXPECT_EQ(Lines[8].Values["outs"].Dev, AllValuations);
  EXPECT_EQ(Lines[11].Values["outs"].Dev, 0u);
  EXPECT_EQ(Lines[11].Values["outs"].Host, AllValuations);
}

} // namespace
} // namespace clang::devplace::test

//===--- SummariesTest.cpp - facts across calls, members and lambdas ------===//

#include "../lib/TranslationUnitState.h"
#include "TestAST.h"

namespace clang::devplace::test {
namespace {

TEST(Summaries, ReturnsInTermsOfParameters) {
  TestAST AST(R"cpp(
torch::Tensor same(torch::Tensor a, torch::Tensor b) { return b * 2; }
torch::Tensor moved(torch::Tensor a) { return a.cuda(); }
torch::Tensor either(torch::Tensor a, bool g) { return g ? a.cuda() : a.cpu(); }
)cpp");
  const FunctionFacts &Same = AST.model().analyze(AST.function("same"));
  EXPECT_EQ(Same.Return.Params, 0b10u);
  EXPECT_EQ(Same.Return.Dev, 0u);
  const FunctionFacts &Moved = AST.model().analyze(AST.function("moved"));
  EXPECT_EQ(Moved.Return.Dev, AllValuations);
  EXPECT_EQ(Moved.Return.Params, 0u);
  const FunctionFacts &Either = AST.model().analyze(AST.function("either"));
  EXPECT_NE(Either.Return.Dev, 0u);
  EXPECT_NE(Either.Return.Host, 0u);
}

TEST(Summaries, CallersUseTheirCalleesSummaries) {
  TestAST AST(R"cpp(
torch::Tensor same(torch::Tensor a) { return a + 1; }
torch::Tensor moved(torch::Tensor a) { return a.cuda(); }
void to_device(torch::Tensor &t) { t = t.cuda(); }
void f() {
  auto h = same(torch::ones({2}));
  auto d = moved(torch::ones({2}));
  auto k = torch::ones({2});
  to_device(k);
  (void)h; (void)d; (void)k;
}
)cpp");
  const FunctionFacts &ToDevice =
      AST.model().analyze(AST.function("to_device"));
  ASSERT_EQ(ToDevice.ParamOut.size(), 1u);
  EXPECT_EQ(ToDevice.ParamOut[0].first, 0u);
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[6].Values["h"].Host, AllValuations);
  EXPECT_EQ(Lines[6].Values["h"].Dev, 0u);
  EXPECT_EQ(Lines[7].Values["d"].Dev, AllValuations);
  ASSERT_NE(Lines[7].Values["d"].Why, nullptr);
  EXPECT_EQ(Lines[7].Values["d"].Why->K, Step::Returned);
  EXPECT_EQ(Lines[9].Values["k"].Dev, AllValuations);
  ASSERT_NE(Lines[9].Values["k"].Why, nullptr);
  EXPECT_EQ(Lines[9].Values["k"].Why->K, Step::MovedByCall);
}

TEST(Summaries, ParametersThatReachHostCode) {
  TestAST AST(R"cpp(
float first(torch::Tensor t) { return t.data_ptr<float>()[0]; }
float safe(torch::Tensor t) { return t.item<float>(); }
)cpp");
  const FunctionFacts &First = AST.model().analyze(AST.function("first"));
  ASSERT_EQ(First.ParamSinks.size(), 1u);
  EXPECT_EQ(First.ParamSinks[0].Index, 0u);
  EXPECT_EQ(AST.model().analyze(AST.function("safe")).ParamSinks.size(), 0u);
}

TEST(Summaries, GuardsInHelpersAreValuationsCallersSet) {
  TestAST AST(R"cpp(
void copy_flag(torch::Tensor t, bool use_gpu, float *dst) {
  if (use_gpu)
    t = t.cpu();
  dst[0] = t.data_ptr<float>()[0];
}
void copy_available(torch::Tensor t, float *dst) {
  if (torch::cuda::is_available())
    t = t.cpu();
  dst[0] = t.data_ptr<float>()[0];
}
torch::Tensor host_if(torch::Tensor t, bool use_gpu) {
  return use_gpu ? t.cpu() : t;
}
void f(bool gpu) {
  auto x = torch::ones({2}).cuda();
  auto a = host_if(x, true);
  auto b = host_if(x, false);
  auto c = host_if(x, gpu);
  (void)a; (void)b; (void)c;
}
)cpp");
  // The parameter reaches host code only where the flag (a parameter: its
  // callers set it) is false.
  const FunctionFacts &Flag = AST.model().analyze(AST.function("copy_flag"));
  ASSERT_EQ(Flag.ParamSinks.size(), 1u);
  EXPECT_EQ(Flag.ParamSinks[0].Index, 0u);
  EXPECT_EQ(Flag.ParamSinks[0].When, ~atomTrueMask(0));
  ASSERT_EQ(Flag.AtomOrigins.size(), 1u);
  EXPECT_EQ(Flag.AtomOrigins[0].Param, 1);
  // Availability means the same in every function.
  const FunctionFacts &Available =
      AST.model().analyze(AST.function("copy_available"));
  ASSERT_EQ(Available.ParamSinks.size(), 1u);
  EXPECT_EQ(Available.ParamSinks[0].When, ~atomTrueMask(0));
  ASSERT_EQ(Available.AtomOrigins.size(), 1u);
  EXPECT_NE(Available.AtomOrigins[0].Shared, nullptr);
  EXPECT_EQ(Available.AtomOrigins[0].DeviceType, "CUDA");
  // A result: host where the flag is true, the parameter where it is false.
  const FunctionFacts &HostIf = AST.model().analyze(AST.function("host_if"));
  EXPECT_EQ(HostIf.Return.Host, atomTrueMask(0));
  EXPECT_EQ(HostIf.Return.Params, 1u);
  EXPECT_EQ(HostIf.Return.ParamsWhen, ~atomTrueMask(0));
  // Each caller's argument decides: true gives the host copy, false the
  // device tensor, the caller's own flag either (under that flag's atom).
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[17].Values["a"].Host, AllValuations);
  EXPECT_EQ(Lines[17].Values["a"].Dev, 0u);
  EXPECT_EQ(Lines[18].Values["b"].Host, 0u);
  EXPECT_EQ(Lines[18].Values["b"].Dev, AllValuations);
  EXPECT_EQ(Lines[19].Values["c"].Host, atomTrueMask(0));
  EXPECT_EQ(Lines[19].Values["c"].Dev, ~atomTrueMask(0));
}

TEST(Summaries, ConstructorsSetTheirObjectsMembers) {
  TestAST AST(R"cpp(
struct Sum {
  explicit Sum(torch::Device d) : total(torch::zeros({1}, d)) {}
  torch::Tensor total, other;
};
void f(bool gpu) {
  torch::Device device = gpu ? torch::kCUDA : torch::kCPU;
  Sum a(device);
  Sum b(torch::kCPU);
  (void)a; (void)b;
}
)cpp");
  auto Lines = AST.trace("f");
  // The member the constructor sets follows its argument, per object; the
  // one it leaves alone is neither host nor device.
  EXPECT_EQ(Lines[8].Values["a.total"].Dev, whenTrue(0));
  EXPECT_EQ(Lines[8].Values["a.total"].Host, whenFalse(0));
  EXPECT_EQ(Lines[8].Values["a.other"].Host, 0u);
  EXPECT_EQ(Lines[8].Values["a.other"].Dev, 0u);
  EXPECT_EQ(Lines[9].Values["b.total"].Host, AllValuations);
  EXPECT_EQ(Lines[9].Values["b.total"].Dev, 0u);
}

TEST(Summaries, ModulesMoveWhatTheyRegister) {
  TestAST AST(R"cpp(
struct Scaler : torch::nn::Module {
  Scaler() {
    scale = register_parameter("scale", torch::ones({2}));
    register_buffer("shift", shift);
    count = torch::zeros({1});
  }
  torch::Tensor scale, shift, count;
};
void f() {
  auto net = std::make_shared<Scaler>();
  net->to(torch::kCUDA);
  auto a = net->scale;
  auto b = net->shift;
  auto c = net->count;
  (void)a; (void)b; (void)c;
}
)cpp");
  const CXXRecordDecl *Scaler = nullptr;
  for (const Decl *D : AST.context().getTranslationUnitDecl()->decls())
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D);
        RD && RD->getName() == "Scaler" && RD->hasDefinition())
      Scaler = RD;
  ASSERT_NE(Scaler, nullptr);
  ModuleRegistrations R = scanRegistrations(Scaler, ApiTable::builtin());
  EXPECT_TRUE(R.AllMethodsSeen);
  std::map<std::string, MemberRegistration> ByName;
  for (const auto &[Field, Use] : R.Members)
    ByName[Field->getNameAsString()] = Use;
  EXPECT_TRUE(ByName["scale"].Registered);
  EXPECT_TRUE(ByName["shift"].Registered);
  EXPECT_FALSE(ByName["count"].Registered);
  EXPECT_TRUE(ByName["count"].InitialisedInConstructor);
  // The parameter and the buffer move with the module; the member it
  // never registers stays on the host (where the constructor made it).
  AST.model().analyzeAll({*Scaler->ctor_begin(), AST.function("f")});
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[13].Values["a"].Dev, AllValuations);
  EXPECT_EQ(Lines[14].Values["b"].Dev, AllValuations);
  EXPECT_EQ(Lines[15].Values["c"].Dev, 0u);
  EXPECT_EQ(Lines[15].Values["c"].Host, AllValuations);
}

TEST(Summaries, MembersJoinEveryWriteInTheTranslationUnit) {
  TestAST AST(R"cpp(
struct Trainer {
  torch::Tensor acc_;
  void step() { acc_ = torch::ones({1}).cuda(); }
  float read() { return acc_.data_ptr<float>()[0]; }
};
)cpp");
  const FunctionDecl *Step = AST.function("step");
  const FunctionDecl *Read = AST.function("read");
  AST.model().analyzeAll({Read, Step});
  EXPECT_TRUE(AST.model().membersSettled());
  // The read is analysed again once the member is known to hold a device
  // value.
  const FunctionFacts &R = AST.model().analyze(Read);
  ASSERT_EQ(R.Accesses.size(), 1u);
  EXPECT_FALSE(R.Accesses[0].UnknownOnly);
}

TEST(Summaries, MemberRoundsSettleOnEveryPartOfAFact) {
  // Each round of analyzeAll carries a member's value one write further.
  // c gains an unknown value (from a function with no body here) after b
  // copied it; the next round gives b that unknown value, and only the
  // unknown valuations change; a copies b one round later. A round in which
  // only unknown valuations change has not settled: a must end up unknown
  // too, not "on the host" (a base class keeps Chain's members from being
  // split per object).
  TestAST AST(R"cpp(
torch::Tensor opaque();
struct Base {};
struct Chain : Base {
  torch::Tensor a, b, c, d;
  void setB() { b = torch::zeros({1}); }
  void setC() { c = torch::zeros({1}); }
  void copyA() { a = b; }
  void copyB() { b = c; }
  void loadC() { c = opaque(); }
  void toDevice() { d = torch::ones({1}).cuda(); }
};
)cpp");
  AST.model().analyzeAll({AST.function("setB"), AST.function("setC"),
                          AST.function("copyA"), AST.function("copyB"),
                          AST.function("loadC"), AST.function("toDevice")});
  const FieldDecl *A = nullptr;
  for (const FieldDecl *Field :
       cast<CXXMethodDecl>(AST.function("copyA"))->getParent()->fields())
    if (Field->getName() == "a")
      A = Field;
  ASSERT_NE(A, nullptr);
  std::optional<Fact> Summary = AST.model().unit().memberSummary(A);
  ASSERT_TRUE(Summary.has_value());
  EXPECT_EQ(Summary->Host, AllValuations);
  EXPECT_EQ(Summary->Unknown, AllValuations);
  EXPECT_TRUE(AST.model().membersSettled());
}

TEST(Summaries, LambdasSeeTheirCapturesAsTheyWereWhereTheyWereMade) {
  TestAST AST(R"cpp(
void f() {
  auto d = torch::ones({2}).cuda();
  auto read = [&]() { return d.data_ptr<float>()[0]; };
  float x = read();
  (void)x;
}
)cpp");
  // Analysing f records the capture; the lambda's body then sees d.
  AST.model().analyze(AST.function("f"));
  const FunctionFacts &Body = AST.model().analyze(AST.lambda(0));
  ASSERT_EQ(Body.Accesses.size(), 1u);
  EXPECT_TRUE(Body.Accesses[0].Definite);
  EXPECT_EQ(Body.Accesses[0].Tensor, "d");
}

TEST(Summaries, TuplesAreReturnedElementByElement) {
  TestAST AST(R"cpp(
#include <tuple>
std::tuple<torch::Tensor, torch::Tensor> split(torch::Tensor x) {
  return {x.cuda(), x.cpu()};
}
std::pair<torch::Tensor, torch::Tensor> keep(torch::Tensor x, bool g) {
  if (g)
    return std::make_pair(x, x.cpu());
  return {x * 2, torch::ones({2})};
}
std::tuple<torch::Tensor, torch::Tensor> opaque(std::tuple<torch::Tensor, torch::Tensor> t) {
  return t;
}
void f(torch::Tensor in) {
  auto [d, h] = split(in);
  (void)d; (void)h;
}
)cpp");
  const FunctionFacts &Split = AST.model().analyze(AST.function("split"));
  ASSERT_EQ(Split.ReturnElements.size(), 2u);
  EXPECT_EQ(Split.ReturnElements[0].Dev, AllValuations);
  EXPECT_EQ(Split.ReturnElements[0].Host, 0u);
  EXPECT_EQ(Split.ReturnElements[1].Host, AllValuations);
  EXPECT_EQ(Split.ReturnElements[1].Dev, 0u);
  // Every return joins in; parameters stay symbolic.
  const FunctionFacts &Keep = AST.model().analyze(AST.function("keep"));
  ASSERT_EQ(Keep.ReturnElements.size(), 2u);
  EXPECT_EQ(Keep.ReturnElements[0].Params, 0b1u);
  EXPECT_EQ(Keep.ReturnElements[0].Dev, 0u);
  EXPECT_EQ(Keep.ReturnElements[1].Params, 0u);
  EXPECT_NE(Keep.ReturnElements[1].Host, 0u);
  // A tuple that cannot be split (a parameter) gives no element summary.
  EXPECT_TRUE(
      AST.model().analyze(AST.function("opaque")).ReturnElements.empty());
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[15].Values["d"].Dev, AllValuations);
  EXPECT_EQ(Lines[15].Values["h"].Host, AllValuations);
  EXPECT_EQ(Lines[15].Values["h"].Dev, 0u);
}

TEST(Summaries, StructsKeepAFactPerMemberOfEachObject) {
  TestAST AST(R"cpp(
struct Stats { torch::Tensor loss; torch::Tensor acc; int n = 0; };
Stats make(torch::Tensor x) {
  Stats s;
  s.loss = x.cuda();
  s.acc = x;
  return s;
}
Stats opaque(Stats s) { return s; }
void fill(Stats &s);
void f(torch::Tensor in) {
  Stats a = make(in);
  Stats b{in.cpu(), in.cuda()};
  b.acc = b.acc.cpu();
  fill(a);
}
)cpp");
  // The returned object's members, by field index, in terms of parameters.
  const FunctionFacts &Make = AST.model().analyze(AST.function("make"));
  ASSERT_EQ(Make.ReturnElements.size(), 3u);
  EXPECT_EQ(Make.ReturnElements[0].Dev, AllValuations);
  EXPECT_EQ(Make.ReturnElements[0].Host, 0u);
  EXPECT_EQ(Make.ReturnElements[1].Params, 0b1u);
  EXPECT_EQ(Make.ReturnElements[1].Dev, 0u);
  EXPECT_FALSE(Make.ReturnElements[2].hasInfo());
  // A parameter's members are not followed: no per-member summary.
  EXPECT_TRUE(
      AST.model().analyze(AST.function("opaque")).ReturnElements.empty());
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[12].Values["a.loss"].Dev, AllValuations);
  EXPECT_EQ(Lines[12].Values["a.acc"].Params, 0b1u);
  EXPECT_EQ(Lines[12].Values["a.acc"].Dev, 0u);
  // Each object has its own facts, and an assignment replaces one.
  EXPECT_EQ(Lines[13].Values["b.loss"].Host, AllValuations);
  EXPECT_EQ(Lines[13].Values["b.acc"].Dev, AllValuations);
  EXPECT_EQ(Lines[14].Values["b.acc"].Dev, 0u);
  EXPECT_EQ(Lines[14].Values["b.acc"].Host, AllValuations);
  EXPECT_EQ(Lines[14].Values["a.loss"].Dev, AllValuations);
  // A call that may change the object leaves its members unknown.
  EXPECT_TRUE(Lines[15].Values["a.loss"].Unknown);
  EXPECT_EQ(Lines[15].Values["a.loss"].Dev, 0u);
}

TEST(Summaries, MethodsSayHowTheyChangeTheirObject) {
  TestAST AST(R"cpp(
#include <vector>
class History {
public:
  void add(torch::Tensor v) { values_.push_back(v); }
  void to_host() { last_ = last_.cpu(); }
  torch::Tensor last_;
  std::vector<torch::Tensor> values_;
};
void f(torch::Tensor in) {
  History h;
  h.add(in.cuda());
  h.last_ = in.cuda();
  h.to_host();
}
)cpp");
  // Members are symbolic after the parameters: last_ is bit 1 and values_
  // bit 2 in add(v).
  const FunctionFacts &Add = AST.model().analyze(AST.function("add"));
  ASSERT_EQ(Add.MemberOut.size(), 2u);
  EXPECT_EQ(Add.MemberOut[1].first->getName(), "values_");
  EXPECT_EQ(Add.MemberOut[1].second.Params, 0b101u);
  EXPECT_EQ(Add.MemberOut[0].second.Params, 0b10u);
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[12].Values["h.values_"].Dev, AllValuations);
  EXPECT_EQ(Lines[13].Values["h.last_"].Dev, AllValuations);
  EXPECT_EQ(Lines[14].Values["h.last_"].Host, AllValuations);
  EXPECT_EQ(Lines[14].Values["h.last_"].Dev, 0u);
  EXPECT_EQ(Lines[14].Values["h.values_"].Dev, AllValuations);
}

TEST(Summaries, LambdaResultsAreSummarisedLikeFunctions) {
  TestAST AST(R"cpp(
void f() {
  auto d = torch::ones({2}).cuda();
  auto to_host = [](const torch::Tensor &t) { return t.cpu(); };
  auto twice = [](const torch::Tensor &t) { return t * 2; };
  auto h = to_host(d);
  auto k = twice(d);
  (void)h; (void)k;
}
)cpp");
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[6].Values["h"].Host, AllValuations);
  EXPECT_EQ(Lines[6].Values["h"].Dev, 0u);
  EXPECT_EQ(Lines[7].Values["k"].Dev, AllValuations);
  EXPECT_EQ(Lines[7].Values["k"].Host, 0u);
}

TEST(Summaries, StoredLambdasAndTransformOutputsUseTheLambdasSummary) {
  TestAST AST(R"cpp(
#include <algorithm>
#include <functional>
#include <iterator>
#include <vector>
void f(std::vector<torch::Tensor> in) {
  auto d = torch::ones({2}).cuda();
  std::function<torch::Tensor(torch::Tensor)> to_host = [](torch::Tensor t) { return t.cpu(); };
  auto h = to_host(d);
  std::vector<torch::Tensor> out;
  std::transform(in.begin(), in.end(), std::back_inserter(out), [](const torch::Tensor &t) { return t.cuda(); });
  (void)h;
}
)cpp");
  auto Lines = AST.trace("f");
  EXPECT_EQ(Lines[9].Values["h"].Host, AllValuations);
  EXPECT_EQ(Lines[9].Values["h"].Dev, 0u);
  EXPECT_EQ(Lines[11].Values["out"].Dev, AllValuations);
}

TEST(Summaries, CodeThatDoesNotCompileHasNoFactsAndAnUnknownResult) {
  TestAST AST(R"cpp(
torch::Tensor broken(torch::Tensor x) { return undeclared_helper(x).cuda(); }
float f() {
  auto d = torch::ones({2}).cuda();
  auto r = broken(d);
  return d.data_ptr<float>()[0] + r.data_ptr<float>()[0];
}
)cpp",
              /*AllowErrors=*/true);
  const FunctionFacts &Broken = AST.model().analyze(AST.function("broken"));
  EXPECT_TRUE(Broken.Broken);
  EXPECT_TRUE(Broken.Return.Unknown);
  EXPECT_EQ(Broken.Return.Dev, 0u);
  EXPECT_EQ(Broken.Return.Host, 0u);
  // The caller compiles: d is read on the host for sure, r only as unknown.
  const FunctionFacts &F = AST.model().analyze(AST.function("f"));
  EXPECT_FALSE(F.Broken);
  ASSERT_EQ(F.Accesses.size(), 2u);
  EXPECT_TRUE(F.Accesses[0].Definite);
  EXPECT_TRUE(F.Accesses[1].UnknownOnly);
}

} // namespace
} // namespace clang::devplace::test

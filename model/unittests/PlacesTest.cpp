//===--- PlacesTest.cpp - where values live, read before the flow ---------===//
//
// What a body says about its storage, asserted on the scan alone: which
// values a pointer may reach, which local objects keep a place per member
// and which calls change them, which references are bound into them, and
// which range-for loops replace every element of their range.

#include "../lib/Places.h"
#include "TestAST.h"
#include "devplace/Compat.h"

namespace clang::devplace::test {
namespace {

/// The declarations and calls of one function, by name.
struct Body {
  std::map<std::string, const VarDecl *> Vars;
  std::map<std::string, const CallExpr *> Calls; // by callee, the last one

  explicit Body(const FunctionDecl *FD) {
    struct Finder : RecursiveASTVisitor<Finder> {
      Body *B;
      bool VisitVarDecl(VarDecl *VD) {
        if (VD->getIdentifier())
          B->Vars[VD->getName().str()] = VD;
        return true;
      }
      bool VisitCallExpr(CallExpr *CE) {
        if (const FunctionDecl *Callee = CE->getDirectCallee();
            Callee && Callee->getIdentifier())
          B->Calls[Callee->getName().str()] = CE;
        return true;
      }
    } F;
    F.B = this;
    for (const ParmVarDecl *P : FD->parameters())
      Vars[P->getName().str()] = P;
    F.TraverseStmt(FD->getBody());
  }
  const VarDecl *var(const std::string &Name) const {
    auto It = Vars.find(Name);
    EXPECT_NE(It, Vars.end()) << "no variable " << Name;
    return It == Vars.end() ? nullptr : It->second;
  }
  const CallExpr *call(const std::string &Callee) const {
    auto It = Calls.find(Callee);
    EXPECT_NE(It, Calls.end()) << "no call to " << Callee;
    return It == Calls.end() ? nullptr : It->second;
  }
};

/// \p Function of \p AST scanned, and its names.
std::pair<Places, Body> scanned(TestAST &AST, llvm::StringRef Function) {
  const FunctionDecl *FD = AST.function(Function);
  Places P(AST.model());
  P.scan(FD);
  return {std::move(P), Body(FD)};
}

TEST(Places, PointersReachWhatHadItsAddressTaken) {
  TestAST AST(R"cpp(
void fill(torch::Tensor *out);
void f() {
  torch::Tensor a = torch::zeros({2});
  torch::Tensor b = torch::zeros({2});
  int n = 0;
  torch::Tensor *p = &a;
  int *q = &n;
  fill(p);
  (void)b; (void)q;
}
)cpp");
  auto [P, B] = scanned(AST, "f");
  EXPECT_TRUE(P.addressTaken(B.var("a")));
  EXPECT_FALSE(P.addressTaken(B.var("b")));
  // An int is no place the model keeps a fact for.
  EXPECT_FALSE(P.addressTaken(B.var("n")));
  EXPECT_EQ(P.reachableByPointers().size(), 1u);
}

TEST(Places, LocalObjectsKeepAPlacePerMemberUnlessAnotherNameReachesThem) {
  TestAST AST(R"cpp(
struct Stats { torch::Tensor loss; torch::Tensor correct; };
struct Counts { int seen; };
struct Derived : Stats { torch::Tensor extra; };
void change(Stats &s);
void read(const Stats &s);
void f() {
  Stats kept{torch::zeros({1}), torch::zeros({1})};
  Stats passed{torch::zeros({1}), torch::zeros({1})};
  Stats pointed{torch::zeros({1}), torch::zeros({1})};
  Stats referred{torch::zeros({1}), torch::zeros({1})};
  Stats captured{torch::zeros({1}), torch::zeros({1})};
  Stats *p = &pointed;
  Stats &r = referred;
  auto &loss = kept.loss;
  auto show = [&captured]() { (void)captured.loss; };
  read(kept);
  change(passed);
  (void)p; (void)r; (void)loss; (void)show;
}
)cpp");
  auto [P, B] = scanned(AST, "f");
  ASTContext &Ctx = AST.context();
  auto TypeOf = [&](const char *Name) {
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (const auto *RD = dyn_cast<CXXRecordDecl>(D);
          RD && RD->getName() == Name && RD->isThisDeclarationADefinition())
        return compat::recordType(Ctx, RD);
    ADD_FAILURE() << "no struct " << Name;
    return QualType();
  };
  EXPECT_TRUE(P.splitsIntoMembers(TypeOf("Stats")));
  EXPECT_FALSE(P.splitsIntoMembers(TypeOf("Counts")));  // no tensor member
  EXPECT_FALSE(P.splitsIntoMembers(TypeOf("Derived"))); // a base class

  EXPECT_TRUE(P.keepsMembers(B.var("kept")));
  // A call that may change the object does not make it another name's: its
  // members are unknown after that call, and followed again from there.
  EXPECT_TRUE(P.keepsMembers(B.var("passed")));
  EXPECT_FALSE(P.keepsMembers(B.var("pointed")));
  EXPECT_FALSE(P.keepsMembers(B.var("referred")));
  EXPECT_FALSE(P.keepsMembers(B.var("captured")));

  ASSERT_EQ(P.referencesInto(B.var("kept")).size(), 1u);
  EXPECT_EQ(P.referencesInto(B.var("kept"))[0], B.var("loss"));

  ASSERT_EQ(P.objectsChangedBy(B.call("change")).size(), 1u);
  EXPECT_EQ(P.objectsChangedBy(B.call("change"))[0], B.var("passed"));
  EXPECT_TRUE(P.objectsChangedBy(B.call("read")).empty());
}

TEST(Places, RangeForLoopsThatAssignEveryElementReplaceTheirRange) {
  TestAST AST(R"cpp(
#include <map>
#include <string>
#include <vector>
void f(std::vector<torch::Tensor> &outs,
       std::map<std::string, torch::Tensor> &named, bool stop) {
  for (auto &every : outs)
    every = every.cpu();
  for (auto &skips : outs) {
    if (!skips.defined())
      continue;
    skips = skips.cpu();
  }
  for (auto &stops : outs) {
    stops = stops.cpu();
    if (stop)
      break;
  }
  for (auto &after : outs) {
    after = after.cpu();
    if (!after.defined())
      continue;
  }
  for (auto copy : outs)
    copy = copy.cpu();
  for (const auto &reads : outs)
    (void)reads;
  for (auto &entry : named)
    (void)entry;
}
)cpp");
  auto [P, B] = scanned(AST, "f");
  for (const char *Name :
       {"every", "skips", "stops", "after", "copy", "reads", "entry"})
    EXPECT_TRUE(P.isLoopVariable(B.var(Name))) << Name;
  EXPECT_FALSE(P.isLoopVariable(B.var("outs")));
  EXPECT_TRUE(P.replacesEveryElement(B.var("every")));
  EXPECT_TRUE(P.replacesEveryElement(B.var("after")));
  EXPECT_FALSE(P.replacesEveryElement(B.var("skips")));
  EXPECT_FALSE(P.replacesEveryElement(B.var("stops")));
  EXPECT_FALSE(P.replacesEveryElement(B.var("copy")));
  EXPECT_FALSE(P.replacesEveryElement(B.var("reads")));
  EXPECT_TRUE(P.iteratesMap(B.var("entry")));
  EXPECT_FALSE(P.iteratesMap(B.var("every")));
  // The range each loop walks is the expression after the colon.
  const auto *Range =
      dyn_cast<DeclRefExpr>(P.rangeOf(B.var("every"))->IgnoreParenImpCasts());
  ASSERT_NE(Range, nullptr);
  EXPECT_EQ(Range->getDecl(), B.var("outs"));
}

TEST(Places, AReferenceNamesItsTargetAndKeepsItAlive) {
  TestAST AST(R"cpp(
void f() {
  torch::Tensor a = torch::zeros({2});
  torch::Tensor &r = a;
  (void)r;
}
)cpp");
  auto [P, B] = scanned(AST, "f");
  EXPECT_EQ(P.canonical(B.var("r")), B.var("r"));
  EXPECT_FALSE(P.keptAlive(B.var("a")));
  P.bindReference(B.var("r"), B.var("a"));
  EXPECT_EQ(P.canonical(B.var("r")), B.var("a"));
  EXPECT_EQ(P.canonical(B.var("a")), B.var("a"));
  EXPECT_TRUE(P.keptAlive(B.var("a")));
}

} // namespace
} // namespace clang::devplace::test

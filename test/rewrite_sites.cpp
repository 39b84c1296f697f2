//===--- rewrite_sites.cpp - where the metamorphic rewrites apply ---------===//
//
// devplace-rewrite-sites FILE -- COMPILER FLAGS
//
// Parses FILE and prints, as JSON, the places of the main file that the
// metamorphic harness (test/robustness/metamorphic.py) rewrites, as byte
// offsets found in the AST, so that every rewrite is a rewrite of the
// program's structure rather than of its text:
//
//   bodies   each function or method defined in the file: the range that
//            removing its body replaces (the body, for a definition that
//            is also a declaration; the whole definition, for one out of
//            its class, whose declaration stays in the class), its name,
//            and whether it is a method
//   locals   each named local variable of those functions: its name and
//            the offset of every spelling of it (the declaration and each
//            reference), for renaming
//   decls    each local `T x = e;` of a class type alone in its statement:
//            where the statement begins, where `e` begins, where its `;`
//            is, and the type spelt in full, for splitting it into
//            `T x; x = e;` and for replacing `e` by a call to a function
//            without a body
//   params   each `const X &` parameter of class type of a function with no
//            other declaration (and not virtual): the range of its type and
//            the type spelt in full, for passing it by value
//   bindings each `auto [a, b] = e;` alone in its statement: the offsets of
//            its `[` and of the end of its `]`, and per binding its name and
//            what it names (`std::get<I>` of a tuple-like object, a member,
//            an array element), for spelling it as an object and references
//   top      where the file's first declaration begins, for wrapping the
//            file's code in a namespace
//   moves    each free function defined at namespace scope that can be
//            called before its definition (not a template, its return
//            type not deduced, not constexpr): where its definition
//            begins, where its body begins and ends, the ranges of its
//            default arguments (`= e`) and the namespaces around it, for
//            leaving a declaration in its place and defining it at the end
//            of the file
//   extracts each call argument that is a tensor made by a call
//            (`f(x.cuda())`), in a statement of one line directly in a
//            block, reached only through values that hold no pointer into
//            it (tensors, numbers, nothing) and through no branch (`?:`,
//            `&&`, `||`, a lambda): its range and where its statement
//            begins, for computing it into a local before the statement
//
// Exit status 1 when FILE does not compile: the harness analyses only
// programs that compile.
//
//===----------------------------------------------------------------------===//

#include "ParseArguments.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace clang;

namespace {

struct Sites : RecursiveASTVisitor<Sites> {
  ASTContext &Ctx;
  SourceManager &SM;
  llvm::json::Array Bodies, Decls, Params, Bindings, Moves, Extracts;
  /// Keyed by declaration; the harness orders them by their first site.
  std::map<const VarDecl *, std::vector<unsigned>> Locals;

  explicit Sites(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  /// The offset of \p L in the main file, written there (not in a macro).
  std::optional<unsigned> offset(SourceLocation L) const {
    if (L.isInvalid() || L.isMacroID() || !SM.isInMainFile(L))
      return std::nullopt;
    return SM.getFileOffset(L);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit() ||
        FD->isDefaulted())
      return true;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->getParent()->isLambda())
      return true;
    const Stmt *Body = FD->getBody();
    if (!Body || isa<CXXTryStmt>(Body))
      return true;
    // A constructor's initialisers go with its body.
    if (const auto *CD = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *I : CD->inits())
        if (I->isWritten())
          return true;
    bool OutOfLine = FD->isOutOfLine();
    std::optional<unsigned> Begin =
        offset(OutOfLine ? FD->getOuterLocStart() : Body->getBeginLoc());
    std::optional<unsigned> End = offset(Body->getEndLoc());
    if (!Begin || !End || *End < *Begin)
      return true;
    collectParams(FD);
    collectMove(FD, *Begin, *End);
    Bodies.push_back(llvm::json::Object{
        {"name", FD->getQualifiedNameAsString()},
        {"begin", *Begin},
        {"end", *End + 1},
        {"whole", OutOfLine},
        {"method", isa<CXXMethodDecl>(FD)},
        {"line", SM.getSpellingLineNumber(FD->getLocation())},
    });
    return true;
  }

  static bool isLocal(const VarDecl *VD) {
    return VD->isLocalVarDecl() && !VD->isImplicit() && VD->getIdentifier() &&
           !isa<DecompositionDecl>(VD) && !VD->isStaticLocal();
  }

  /// \p T spelt so that it means the same anywhere in the file.
  std::string spelt(QualType T) const {
    PrintingPolicy P(Ctx.getLangOpts());
    P.FullyQualifiedName = true;
    P.SuppressTagKeyword = true;
    P.SuppressUnwrittenScope = true;
    return T.getCanonicalType().getUnqualifiedType().getAsString(P);
  }

  /// \p Init changes no local variable (`std::exchange(t, x)`,
  /// `v.pop_back()`) and calls no non-const method of its object: replacing
  /// it by a call that does nothing else changes only the one variable.
  bool changesNothing(const Expr *Init) const {
    struct Uses : RecursiveASTVisitor<Uses> {
      llvm::SmallPtrSet<const VarDecl *, 4> Locals;
      bool ChangesObject = false;
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            VD && VD->isLocalVarDecl())
          Locals.insert(VD);
        return true;
      }
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
        const auto *MD = MC->getMethodDecl();
        if (MD && !MD->isConst() && MC->getImplicitObjectArgument() &&
            isa<CXXThisExpr>(
                MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
          ChangesObject = true;
        return true;
      }
    } U;
    U.TraverseStmt(const_cast<Expr *>(Init));
    if (U.ChangesObject)
      return false;
    ExprMutationAnalyzer Mutations(*Init, Ctx);
    return llvm::none_of(U.Locals, [&](const VarDecl *VD) {
      return Mutations.isMutated(VD);
    });
  }

  /// A class type that can be spelt out and default-constructed (not a
  /// lambda's, not local to a function).
  static bool splittable(QualType T) {
    const auto *RD = T->getAsCXXRecordDecl();
    return RD && !RD->isLambda() && !RD->isLocalClass() &&
           !T.isConstQualified() && RD->hasDefinition() &&
           (RD->hasDefaultConstructor() ||
            RD->needsImplicitDefaultConstructor());
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (isLocal(VD))
      if (std::optional<unsigned> O = offset(VD->getLocation()))
        Locals[VD].push_back(*O);
    if (isLocal(VD) && VD->hasInit() && VD->getInitStyle() == VarDecl::CInit &&
        !VD->getType()->isReferenceType() && splittable(VD->getType()))
      for (const DynTypedNode &P : Ctx.getParents(*VD))
        if (const auto *DS = P.get<DeclStmt>(); DS && DS->isSingleDecl())
          for (const DynTypedNode &PP : Ctx.getParents(*DS))
            if (PP.get<CompoundStmt>()) {
              std::optional<unsigned> Begin = offset(DS->getBeginLoc());
              std::optional<unsigned> Init =
                  offset(VD->getInit()->getBeginLoc());
              std::optional<unsigned> End = offset(DS->getEndLoc());
              if (Begin && Init && End && *Init > *Begin && *End > *Init)
                Decls.push_back(llvm::json::Object{
                    {"name", VD->getName()},
                    {"begin", *Begin},
                    {"init", *Init},
                    {"end", *End},
                    {"changesNothing", changesNothing(VD->getInit())},
                    {"type", spelt(VD->getType())},
                    {"line", SM.getSpellingLineNumber(VD->getLocation())},
                });
            }
    return true;
  }

  bool VisitDecompositionDecl(DecompositionDecl *DD) {
    if (!DD->isLocalVarDecl() || DD->bindings().empty())
      return true;
    bool Alone = false;
    for (const DynTypedNode &P : Ctx.getParents(*DD))
      if (const auto *DS = P.get<DeclStmt>(); DS && DS->isSingleDecl())
        for (const DynTypedNode &PP : Ctx.getParents(*DS))
          Alone |= PP.get<CompoundStmt>() != nullptr;
    std::optional<unsigned> LSquare = offset(DD->getLocation());
    auto RSquare = Lexer::findNextToken(DD->bindings().back()->getLocation(),
                                        SM, Ctx.getLangOpts());
    if (!Alone || !LSquare || !RSquare || !RSquare->is(tok::r_square))
      return true;
    std::optional<unsigned> End = offset(RSquare->getEndLoc());
    if (!End || data(*LSquare) != '[')
      return true;
    llvm::json::Array Names;
    unsigned Index = 0;
    for (const BindingDecl *BD : DD->bindings()) {
      std::string Of;
      const Expr *B = BD->getBinding();
      if (BD->getHoldingVar())
        Of = "std::get<" + std::to_string(Index) + ">";
      else if (const auto *ME = dyn_cast_or_null<MemberExpr>(B))
        Of = "." + ME->getMemberDecl()->getNameAsString();
      else if (isa_and_nonnull<ArraySubscriptExpr>(B))
        Of = "[" + std::to_string(Index) + "]";
      if (Of.empty() || !BD->getIdentifier())
        return true;
      Names.push_back(llvm::json::Object{{"name", BD->getName()}, {"of", Of}});
      ++Index;
    }
    Bindings.push_back(llvm::json::Object{
        {"begin", *LSquare},
        {"end", *End},
        {"bindings", std::move(Names)},
        {"line", SM.getSpellingLineNumber(DD->getLocation())},
    });
    return true;
  }

  char data(unsigned Offset) const {
    return SM.getBufferData(SM.getMainFileID())[Offset];
  }

  void collectParams(const FunctionDecl *FD) {
    if (FD->getPreviousDecl() || FD->getMostRecentDecl() != FD)
      return;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && (MD->isVirtual() || MD->getParent()->isLambda()))
      return;
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType();
      if (!T->isLValueReferenceType() ||
          !T.getNonReferenceType().isConstQualified() ||
          !splittable(T.getNonReferenceType().getUnqualifiedType()) ||
          !P->getTypeSourceInfo())
        continue;
      SourceRange R = P->getTypeSourceInfo()->getTypeLoc().getSourceRange();
      std::optional<unsigned> Begin = offset(R.getBegin());
      std::optional<unsigned> End = offset(
          Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Ctx.getLangOpts()));
      if (Begin && End && *End > *Begin)
        Params.push_back(llvm::json::Object{
            {"function", FD->getQualifiedNameAsString()},
            {"name", P->getName()},
            {"begin", *Begin},
            {"end", *End},
            {"type", spelt(T.getNonReferenceType())},
        });
    }
  }

  /// The namespaces around \p FD, outermost first ("" for an anonymous
  /// one), or nothing when something other than a namespace encloses it.
  static std::optional<std::vector<std::string>>
  namespacesAround(const FunctionDecl *FD) {
    std::vector<std::string> Names;
    if (FD->getLexicalDeclContext() != FD->getDeclContext())
      return std::nullopt; // a friend defined in its class
    for (const DeclContext *DC = FD->getDeclContext(); !DC->isTranslationUnit();
         DC = DC->getParent()) {
      const auto *NS = dyn_cast<NamespaceDecl>(DC);
      if (!NS || NS->isInline())
        return std::nullopt; // extern "C", a class, an inline namespace
      Names.insert(Names.begin(), NS->getName().str());
    }
    return Names;
  }

  void collectMove(const FunctionDecl *FD, unsigned BodyBegin,
                   unsigned BodyEnd) {
    if (isa<CXXMethodDecl>(FD) || FD->isOutOfLine() || FD->isTemplated() ||
        FD->getTemplateSpecializationKind() != TSK_Undeclared ||
        FD->isConstexpr() || FD->isMain() ||
        FD->getReturnType()->getContainedDeducedType())
      return;
    std::optional<std::vector<std::string>> Namespaces = namespacesAround(FD);
    std::optional<unsigned> Begin = offset(FD->getOuterLocStart());
    if (!Namespaces || !Begin || *Begin >= BodyBegin)
      return;
    llvm::json::Array Defaults;
    for (const ParmVarDecl *P : FD->parameters()) {
      if (!P->hasDefaultArg() || P->hasInheritedDefaultArg())
        continue;
      std::optional<unsigned> Arg = offset(P->getDefaultArgRange().getBegin());
      std::optional<unsigned> End = offset(Lexer::getLocForEndOfToken(
          P->getDefaultArgRange().getEnd(), 0, SM, Ctx.getLangOpts()));
      std::optional<unsigned> Name = offset(P->getLocation());
      if (!Arg || !End || !Name)
        return;
      // The `=` before the argument, after the parameter's name.
      unsigned Eq = *Arg;
      while (Eq > *Name && data(Eq - 1) != '=')
        --Eq;
      if (Eq == *Name)
        return;
      Defaults.push_back(llvm::json::Array{Eq - 1, *End});
    }
    llvm::json::Array NS;
    for (std::string &N : *Namespaces)
      NS.push_back(std::move(N));
    Moves.push_back(llvm::json::Object{
        {"name", FD->getQualifiedNameAsString()},
        {"begin", *Begin},
        {"body", BodyBegin},
        {"end", BodyEnd + 1},
        {"defaults", std::move(Defaults)},
        {"namespaces", std::move(NS)},
        {"line", SM.getSpellingLineNumber(FD->getOuterLocStart())},
    });
  }

  /// Whether \p T holds no pointer into a tensor it was computed from:
  /// a tensor (it owns a reference), a number, or nothing.
  static bool holdsNoPointer(QualType T) {
    T = T.getNonReferenceType().getCanonicalType();
    if (T->isVoidType() || T->isArithmeticType() || T->isEnumeralType())
      return true;
    const auto *RD = T->getAsCXXRecordDecl();
    return RD && RD->getQualifiedNameAsString() == "at::Tensor";
  }

  /// The statement around \p S: for a variable's initialiser, the
  /// declaration statement.
  const Stmt *parentOf(const Stmt *S) const {
    auto Parents = Ctx.getParents(*S);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *VD = Parents[0].get<VarDecl>()) {
      auto Up = Ctx.getParents(*VD);
      return Up.size() == 1 ? Up[0].get<DeclStmt>() : nullptr;
    }
    return Parents[0].get<Stmt>();
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CXXOperatorCallExpr>(Call))
      return true;
    for (const Expr *A : Call->arguments()) {
      const Expr *Arg = A->IgnoreImplicit();
      if (!isa<CallExpr>(Arg) || !Arg->isPRValue() ||
          !Arg->getType()->getAsCXXRecordDecl() ||
          !holdsNoPointer(Arg->getType()))
        continue; // not a tensor computed by a call
      // Up to the statement: values that keep no pointer into the local,
      // no branch that might not compute it, and no lambda.
      const Stmt *S = Call, *Child = Call;
      bool Fine = holdsNoPointer(Call->getType());
      while (Fine && (S = parentOf(Child)) && !isa<CompoundStmt>(S)) {
        if (isa<DeclStmt>(S))
          break;
        const auto *E = dyn_cast<Expr>(S);
        const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
        Fine = E &&
               !isa<AbstractConditionalOperator, LambdaExpr, StmtExpr>(E) &&
               !(BO && (BO->isLogicalOp() || BO->isCommaOp())) &&
               (isa<ImplicitCastExpr, MaterializeTemporaryExpr,
                    CXXBindTemporaryExpr, ExprWithCleanups>(E) ||
                holdsNoPointer(E->getType()));
        Child = S;
      }
      if (!Fine || !S)
        continue;
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        const auto *VD = DS->isSingleDecl()
                             ? dyn_cast<VarDecl>(DS->getSingleDecl())
                             : nullptr;
        if (!VD || VD->getType()->isReferenceType() ||
            !holdsNoPointer(VD->getType()) || !parentOf(DS) ||
            !isa<CompoundStmt>(parentOf(DS)))
          continue;
        Child = DS;
      } else if (!isa<Expr>(Child)) {
        continue; // an if, a loop, a return: not a statement of its own
      }
      std::optional<unsigned> StmtBegin = offset(Child->getBeginLoc());
      std::optional<unsigned> Begin = offset(Arg->getBeginLoc());
      std::optional<unsigned> End = offset(Lexer::getLocForEndOfToken(
          Arg->getEndLoc(), 0, SM, Ctx.getLangOpts()));
      if (!StmtBegin || !Begin || !End || *End <= *Begin ||
          SM.getSpellingLineNumber(Child->getBeginLoc()) !=
              SM.getSpellingLineNumber(Child->getEndLoc()))
        continue;
      Extracts.push_back(llvm::json::Object{
          {"stmt", *StmtBegin},
          {"begin", *Begin},
          {"end", *End},
          {"line", SM.getSpellingLineNumber(Arg->getBeginLoc())},
      });
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && isLocal(VD))
      if (std::optional<unsigned> O = offset(DRE->getLocation()))
        Locals[VD].push_back(*O);
    return true;
  }
};

} // namespace

int main(int argc, char **argv) {
  devplace_test::ToolInput In;
  if (!devplace_test::parseArguments(argc, argv, "devplace-rewrite-sites",
                                     "devplace-rewrite-sites FILE -- FLAGS", {},
                                     In))
    return 2;
  if (!In.AST)
    return 1;
  std::unique_ptr<ASTUnit> &AST = In.AST;
  Sites S(AST->getASTContext());
  S.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  // The first declaration of the main file, for the namespace around it.
  std::optional<unsigned> Top;
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
    if (!D->isImplicit() && (Top = S.offset(D->getBeginLoc())))
      break;
  llvm::json::Array Locals;
  for (const auto &[VD, Offsets] : S.Locals) {
    const auto *Fn = dyn_cast<FunctionDecl>(VD->getParentFunctionOrMethod());
    Locals.push_back(llvm::json::Object{
        {"name", VD->getName()},
        {"function", Fn ? Fn->getQualifiedNameAsString() : ""},
        {"sites", llvm::json::Array(Offsets)},
    });
  }
  llvm::outs() << llvm::json::Value(llvm::json::Object{
                      {"bodies", std::move(S.Bodies)},
                      {"decls", std::move(S.Decls)},
                      {"params", std::move(S.Params)},
                      {"bindings", std::move(S.Bindings)},
                      {"moves", std::move(S.Moves)},
                      {"extracts", std::move(S.Extracts)},
                      {"top", Top ? llvm::json::Value(*Top) : nullptr},
                      {"locals", std::move(Locals)}})
               << "\n";
  return 0;
}

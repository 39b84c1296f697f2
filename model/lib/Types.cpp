//===--- Types.cpp - the LibTorch types whose device the model follows ----===//

#include "devplace/model/Types.h"
#include "devplace/Compat.h"
#include "devplace/model/ApiTable.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::devplace {

std::string qualifiedName(const NamedDecl *D) {
  if (!D)
    return "";
  // Members of class template specializations are named after the template
  // ("std::vector::assign", not "std::vector<float>::assign").
  if (const auto *Parent = dyn_cast<CXXRecordDecl>(D->getDeclContext());
      Parent && D->getIdentifier())
    return qualifiedName(Parent) + "::" + D->getName().str();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  PrintingPolicy Policy(D->getASTContext().getLangOpts());
  Policy.SuppressInlineNamespace = true;
  Policy.SuppressUnwrittenScope = true;
  D->printQualifiedName(OS, Policy);
  return OS.str();
}

static const CXXRecordDecl *recordOf(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *RT = T->getAs<RecordType>())
    return dyn_cast<CXXRecordDecl>(RT->getDecl());
  return nullptr;
}

/// The class has role \p R in the API table.
static bool hasRole(const CXXRecordDecl *RD, ApiRole R) {
  return RD && ApiTable::builtin().is(ApiMatch::Class, qualifiedName(RD), R);
}

bool isTensorType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  if (hasRole(RD, ApiRole::TensorClass))
    return true;
  RD = RD->getDefinition();
  if (!RD)
    return false;
  // torch::autograd::Variable and user subclasses derive from at::Tensor.
  bool Derived = false;
  RD->forallBases([&](const CXXRecordDecl *Base) {
    if (hasRole(Base, ApiRole::TensorClass))
      Derived = true;
    return true;
  });
  return Derived;
}

static bool derivesFrom(const CXXRecordDecl *RD, ApiRole R) {
  if (hasRole(RD, R))
    return true;
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD)
    return false;
  bool Found = false;
  RD->forallBases([&](const CXXRecordDecl *Base) {
    if (hasRole(Base, R))
      Found = true;
    return true;
  });
  return Found;
}

const CXXRecordDecl *moduleClassOf(QualType Type) {
  QualType T = Type.getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  // For holders and shared_ptrs, the module class is the template argument.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      Spec && Spec->getTemplateArgs().size() >= 1 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    if (const CXXRecordDecl *Inner =
            Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl())
      RD = Inner;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            B.getType()->getAsCXXRecordDecl());
        Spec &&
        ApiTable::builtin().is(ApiMatch::Class, qualifiedName(Spec),
                               ApiRole::ModuleHolder) &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      RD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return RD;
}

std::string moduleClassName(QualType Type) {
  const CXXRecordDecl *RD = moduleClassOf(Type);
  if (!RD || !RD->getIdentifier())
    return "";
  llvm::StringRef N = RD->getName();
  N.consume_back("Impl");
  return N.str();
}

bool isNNModuleClass(const CXXRecordDecl *RD) {
  return derivesFrom(RD, ApiRole::ModuleBase);
}

bool isScriptModuleType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  if (hasRole(RD, ApiRole::SharedPointer))
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
        Spec && Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      RD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return RD && derivesFrom(RD, ApiRole::ScriptModule);
}

DeviceCarrier classifyType(QualType T) {
  if (T.isNull())
    return DeviceCarrier::None;
  T = T.getNonReferenceType().getCanonicalType();
  // A pointer into memory; a pointer to a tensor, a container or a module
  // is not one (what it points to is not followed).
  if (T->isPointerType())
    return classifyType(T->getPointeeType()) == DeviceCarrier::None ||
                   T->getPointeeType()->isPointerType()
               ? DeviceCarrier::Pointer
               : DeviceCarrier::None;
  if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    return classifyType(AT->getElementType()) == DeviceCarrier::None
               ? DeviceCarrier::None
               : DeviceCarrier::Container;
  if (const auto *ET = T->getAs<EnumType>()) {
    return ApiTable::builtin().is(ApiMatch::Class, qualifiedName(ET->getDecl()),
                                  ApiRole::DeviceTypeEnum)
               ? DeviceCarrier::DeviceType
               : DeviceCarrier::None;
  }
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return DeviceCarrier::None;
  if (isTensorType(T))
    return DeviceCarrier::Tensor;
  std::string N = qualifiedName(RD);
  const ApiTable &Api = ApiTable::builtin();
  auto Is = [&](ApiRole R) { return Api.is(ApiMatch::Class, N, R); };
  if (Is(ApiRole::DeviceClass))
    return DeviceCarrier::Device;
  if (Is(ApiRole::OptionsClass))
    return DeviceCarrier::Options;
  if (Is(ApiRole::IValueClass))
    return DeviceCarrier::IValue;
  // Modules: the class itself, its TORCH_MODULE holder, a shared_ptr to it,
  // and TorchScript modules.
  if (isNNModuleClass(RD) || derivesFrom(RD, ApiRole::ModuleHolder) ||
      derivesFrom(RD, ApiRole::ScriptModule))
    return DeviceCarrier::Module;
  // A shared pointer to a module (or, for TorchScript's older API, to a
  // script module) is the module; an intrusive pointer to a TorchScript
  // tuple (IValue::toTuple()) is the value.
  if (Is(ApiRole::SharedPointer))
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
        Spec && Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      if (const CXXRecordDecl *Pointee =
              Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl()) {
        if (isNNModuleClass(Pointee) ||
            derivesFrom(Pointee, ApiRole::ScriptModule))
          return DeviceCarrier::Module;
        if (hasRole(Pointee, ApiRole::IValueClass))
          return DeviceCarrier::IValue;
      }
  // An item of a torch::OrderedDict (named_parameters()) holds its value.
  if (Is(ApiRole::OrderedDictItem))
    if (const auto *Dict = dyn_cast<CXXRecordDecl>(RD->getDeclContext()))
      return classifyType(compat::recordType(Dict->getASTContext(), Dict)) ==
                     DeviceCarrier::Container
                 ? DeviceCarrier::Container
                 : DeviceCarrier::None;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
    if (!Is(ApiRole::ContainerClass))
      return DeviceCarrier::None;
    llvm::SmallVector<TemplateArgument, 4> Args;
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
      if (Arg.getKind() == TemplateArgument::Pack) // std::tuple<Ts...>
        Args.append(Arg.pack_begin(), Arg.pack_end());
      else
        Args.push_back(Arg);
    }
    for (const TemplateArgument &Arg : Args) {
      if (Arg.getKind() != TemplateArgument::Type)
        continue;
      DeviceCarrier Inner = classifyType(Arg.getAsType());
      if (Inner == DeviceCarrier::Device && Is(ApiRole::OptionalClass))
        return DeviceCarrier::Device;
      if (Inner != DeviceCarrier::None && Inner != DeviceCarrier::Pointer &&
          Inner != DeviceCarrier::Module)
        return DeviceCarrier::Container;
    }
  }
  return DeviceCarrier::None;
}

bool isDataPtrMethod(llvm::StringRef Name) {
  return ApiTable::builtin().tensorMethod(Name, ApiRole::PointerToMemory);
}

const Expr *stripValue(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MTE->getSubExpr();
    else if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BTE->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() == 1 &&
             CE->getConstructor()->isCopyOrMoveConstructor())
      E = CE->getArg(0);
    else
      return E;
  }
  return E;
}

const Expr *objectBehind(const Expr *Obj) {
  Obj = stripValue(Obj);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Obj);
      OC && (OC->getOperator() == OO_Arrow || OC->getOperator() == OO_Star))
    return stripValue(OC->getArg(0));
  if (const auto *UO = dyn_cast<UnaryOperator>(Obj);
      UO && UO->getOpcode() == UO_Deref)
    return stripValue(UO->getSubExpr());
  return Obj;
}

AssignmentSides assignmentSides(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Assign)
    return {BO->getLHS(), BO->getRHS()};
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
    return {OC->getArg(0), OC->getArg(1)};
  return {};
}

bool hasErrors(const FunctionDecl *FD) {
  if (FD->isInvalidDecl())
    return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitExpr(Expr *E) {
      Found = E->containsErrors();
      return !Found;
    }
    bool VisitDecl(Decl *D) {
      Found = D->isInvalidDecl();
      return !Found;
    }
  } F;
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

llvm::StringRef methodName(const CXXMemberCallExpr *MC) {
  const auto *MD = MC->getMethodDecl();
  return MD && MD->getIdentifier() ? MD->getName() : "";
}

std::string calleeName(const Expr *Call) {
  if (const auto *CE = dyn_cast_or_null<CallExpr>(Call))
    if (const auto *FD = CE->getDirectCallee())
      return qualifiedName(FD);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(Call))
    return qualifiedName(CE->getConstructor()->getParent());
  return "";
}

std::string exprText(const Expr *E, const ASTContext &Ctx, unsigned MaxLen) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  CharSourceRange File = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  // Inside a macro: a variable by its name, else the text as spelled.
  const Expr *Bare = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Bare);
      File.isInvalid() && DRE && DRE->getDecl()->getIdentifier() &&
      isa<VarDecl>(DRE->getDecl()))
    return DRE->getDecl()->getName().str();
  if (File.isInvalid())
    File = CharSourceRange::getTokenRange(SM.getSpellingLoc(E->getBeginLoc()),
                                          SM.getSpellingLoc(E->getEndLoc()));
  llvm::StringRef Text = Lexer::getSourceText(File, SM, Ctx.getLangOpts());
  std::string S;
  // Collapse white space so that multi-line expressions read as one.
  bool Space = false;
  for (char C : Text) {
    if (isspace(static_cast<unsigned char>(C))) {
      Space = !S.empty();
      continue;
    }
    if (Space)
      S += ' ';
    Space = false;
    S += C;
  }
  if (S.empty())
    return "expression";
  if (S.size() > MaxLen)
    S = S.substr(0, MaxLen - 3) + "...";
  return S;
}

} // namespace clang::devplace

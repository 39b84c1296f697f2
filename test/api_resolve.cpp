//===--- api_resolve.cpp - do the API table's rows name real declarations? ===//
//
// devplace-api-resolve FILE [--cuda] -- COMPILER FLAGS
//
// Parses FILE (a translation unit that includes the library's headers) and
// prints, for every row of TorchApi.def about LibTorch, whether some
// declaration of the headers has that name in the sense the model compares
// names (qualifiedName: template arguments and inline namespaces dropped,
// a member named after the class that declares it). A row that resolves to
// nothing matches nothing in users' code, silently: a method that moved to a
// base class, a function renamed or removed, a class turned into an alias.
// With --cuda, the rows that name CUDA-only API (at::cuda, c10::cuda, the
// CUDA runtime) are checked too; without it they are left out, since a CPU
// build of LibTorch does not ship their headers.
//
// Suffix, Substring and DeviceString rows are patterns, and MethodName rows
// of the Accumulator and LogCall roles name methods of users' own classes
// (loggers): none of these is checked.
//
//===----------------------------------------------------------------------===//

#include "ParseArguments.h"
#include "devplace/model/ApiTable.h"
#include "devplace/model/Types.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::devplace;

namespace {

/// Every name the headers declare, by the kind of row that could match it.
struct Declared {
  llvm::StringSet<> Functions;     ///< free and static functions, methods
  llvm::StringSet<> Members;       ///< methods and fields, "Class::name"
  llvm::StringSet<> MethodNames;   ///< any method's own name
  llvm::StringSet<> TensorMethods; ///< methods of at::Tensor, at::TensorBase
  llvm::StringSet<> Classes;       ///< classes, class templates, enums
  llvm::StringSet<> ModuleClasses; ///< torch::nn classes, "Impl" dropped
  llvm::StringSet<> Namespaces;
  llvm::StringSet<> Enumerators;        ///< of c10::DeviceType
  llvm::StringSet<> DispatchKeys;       ///< of c10::DispatchKey
  llvm::StringSet<> Parameters;         ///< of LibTorch functions
  llvm::StringMap<std::string> Aliases; ///< typedef or using name -> its type
};

bool inLibTorch(llvm::StringRef Qualified) {
  return Qualified.starts_with("at::") || Qualified.starts_with("c10::") ||
         Qualified.starts_with("torch::");
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(Declared &D) : D(D) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->getIdentifier())
      return true;
    std::string Q = qualifiedName(FD);
    D.Functions.insert(Q);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
      D.Members.insert(Q);
      D.MethodNames.insert(FD->getName());
      std::string Class = qualifiedName(MD->getParent());
      if (Class == "at::Tensor" || Class == "at::TensorBase")
        D.TensorMethods.insert(FD->getName());
    }
    if (inLibTorch(Q))
      for (const ParmVarDecl *P : FD->parameters())
        if (P->getIdentifier())
          D.Parameters.insert(P->getName());
    return true;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    if (F->getIdentifier())
      D.Members.insert(qualifiedName(F));
    return true;
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (!RD->getIdentifier())
      return true;
    std::string Q = qualifiedName(RD);
    D.Classes.insert(Q);
    if (llvm::StringRef(Q).starts_with("torch::nn::")) {
      llvm::StringRef N = RD->getName();
      N.consume_back("Impl");
      D.ModuleClasses.insert(N);
    }
    return true;
  }
  bool VisitEnumDecl(EnumDecl *ED) {
    if (ED->getIdentifier())
      D.Classes.insert(qualifiedName(ED));
    return true;
  }
  bool VisitEnumConstantDecl(EnumConstantDecl *EC) {
    if (const auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext());
        ED && qualifiedName(ED) == "c10::DeviceType")
      D.Enumerators.insert(EC->getName());
    else if (ED && qualifiedName(ED) == "c10::DispatchKey")
      D.DispatchKeys.insert(EC->getName());
    return true;
  }
  bool VisitNamespaceDecl(NamespaceDecl *ND) {
    if (ND->getIdentifier())
      D.Namespaces.insert(qualifiedName(ND));
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
    if (TD->getIdentifier())
      D.Aliases[qualifiedName(TD)] =
          TD->getUnderlyingType().getCanonicalType().getAsString();
    return true;
  }

private:
  Declared &D;
};

/// The CUDA-only rows: a CPU build of LibTorch ships none of their headers.
bool cudaOnly(const ApiRow &R) {
  llvm::StringRef N = R.Name;
  return N.starts_with("at::cuda::") || N.starts_with("c10::cuda::") ||
         (R.Match == ApiMatch::Function && N.starts_with("cuda"));
}

/// The row is about LibTorch (or, with --cuda, CUDA), and names something
/// that one declaration must carry.
bool checked(const ApiRow &R, bool Cuda) {
  if (cudaOnly(R))
    return Cuda;
  switch (R.Match) {
  case ApiMatch::Function:
  case ApiMatch::Method:
  case ApiMatch::Class:
    return inLibTorch(R.Name);
  case ApiMatch::Namespace:
    return R.Name == "at" || R.Name == "c10" || R.Name == "torch";
  case ApiMatch::TensorMethod:
  case ApiMatch::ClassName:
  case ApiMatch::Enumerator:
  case ApiMatch::DispatchKey:
  case ApiMatch::Parameter:
    return true;
  case ApiMatch::MethodName:
    return R.Role != ApiRole::Accumulator && R.Role != ApiRole::LogCall;
  default:
    return false;
  }
}

bool resolves(const ApiRow &R, const Declared &D) {
  switch (R.Match) {
  case ApiMatch::Function:
    return D.Functions.contains(R.Name);
  case ApiMatch::Method:
    return D.Members.contains(R.Name);
  case ApiMatch::Class:
    return D.Classes.contains(R.Name);
  case ApiMatch::Namespace:
    return D.Namespaces.contains(R.Name);
  case ApiMatch::TensorMethod:
    return D.TensorMethods.contains(R.Name);
  case ApiMatch::ClassName:
    return D.ModuleClasses.contains(R.Name);
  case ApiMatch::Enumerator:
    return D.Enumerators.contains(R.Name);
  case ApiMatch::DispatchKey:
    return D.DispatchKeys.contains(R.Name);
  case ApiMatch::Parameter:
    return D.Parameters.contains(R.Name);
  case ApiMatch::MethodName:
    return D.MethodNames.contains(R.Name);
  default:
    return false;
  }
}

} // namespace

int main(int argc, char **argv) {
  devplace_test::ToolInput In;
  if (!devplace_test::parseArguments(
          argc, argv, "devplace-api-resolve",
          "devplace-api-resolve FILE [--cuda] -- FLAGS", {"--cuda"}, In))
    return 2;
  if (!In.AST) {
    llvm::errs() << "devplace-api-resolve: " << In.File
                 << " does not compile with these flags\n";
    return 2;
  }
  bool Cuda = In.Options.contains("--cuda");
  std::unique_ptr<ASTUnit> &Unit = In.AST;
  Declared D;
  Collector(D).TraverseDecl(Unit->getASTContext().getTranslationUnitDecl());

  unsigned Checked = 0, Resolved = 0;
  for (const ApiRow &R : ApiTable::builtinRows()) {
    if (!checked(R, Cuda))
      continue;
    ++Checked;
    bool Ok = resolves(R, D);
    Resolved += Ok;
    llvm::outs() << (Ok ? "resolved " : "unresolved ")
                 << ApiTable::matchName(R.Match) << " " << R.Name << " ("
                 << ApiTable::roleName(R.Role) << ")";
    if (!Ok)
      if (auto It = D.Aliases.find(R.Name); It != D.Aliases.end())
        llvm::outs() << ": an alias of '" << It->second << "'";
    llvm::outs() << "\n";
  }
  llvm::outs() << Resolved << " of " << Checked << " rows resolve\n";
  return 0;
}

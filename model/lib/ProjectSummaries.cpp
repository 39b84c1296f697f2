//===--- ProjectSummaries.cpp - summaries across translation units --------===//

#include "devplace/model/ProjectSummaries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace clang::devplace {

namespace json = llvm::json;

namespace {

json::Value toJSON(const Fact &F) {
  // Masks are 64-bit: JSON numbers are not, so they travel as hex text.
  auto Hex = [](uint64_t M) { return llvm::utohexstr(M); };
  return json::Object{
      {"host", Hex(F.Host)},         {"dev", Hex(F.Dev)},
      {"params", int64_t(F.Params)}, {"paramsWhen", Hex(F.ParamsWhen)},
      {"unknown", Hex(F.Unknown)},   {"scalar", F.Scalar}};
}

json::Value toJSON(const PortableStep &S) {
  return json::Object{{"kind", int64_t(S.K)},
                      {"file", S.File},
                      {"line", int64_t(S.Line)},
                      {"column", int64_t(S.Column)},
                      {"subject", S.Subject},
                      {"detail", S.Detail},
                      {"when", S.When},
                      {"object", S.Object},
                      {"deviceType", S.DeviceType},
                      {"subjectIsDevice", S.SubjectIsDevice}};
}

json::Value toJSON(const PortableFact &F) {
  json::Array Why;
  for (const PortableStep &S : F.Why)
    Why.push_back(toJSON(S));
  return json::Object{{"fact", toJSON(F.Value)}, {"why", std::move(Why)}};
}

json::Value toJSON(const PortableSummary &S) {
  json::Array Elements, Sinks, Atoms, Out;
  for (const PortableFact &F : S.ReturnElements)
    Elements.push_back(toJSON(F));
  for (const PortableSink &P : S.ParamSinks)
    Sinks.push_back(json::Object{{"index", int64_t(P.Index)},
                                 {"when", llvm::utohexstr(P.When)},
                                 {"unknownOnly", P.UnknownOnly},
                                 {"tensor", P.Tensor},
                                 {"file", P.File},
                                 {"line", int64_t(P.Line)},
                                 {"column", int64_t(P.Column)}});
  for (const PortableAtom &A : S.Atoms)
    Atoms.push_back(json::Object{{"param", int64_t(A.Param)},
                                 {"deviceType", A.DeviceType},
                                 {"member", A.Member}});
  for (const auto &[Index, F] : S.ParamOut)
    Out.push_back(json::Object{{"index", int64_t(Index)}, {"exit", toJSON(F)}});
  json::Array Members;
  for (const auto &[Name, Registered] : S.Members)
    Members.push_back(json::Object{{"name", Name}, {"registered", Registered}});
  return json::Object{{"name", S.Name},
                      {"return", toJSON(S.Return)},
                      {"returnElements", std::move(Elements)},
                      {"paramSinks", std::move(Sinks)},
                      {"atoms", std::move(Atoms)},
                      {"paramOut", std::move(Out)},
                      {"mayWait", S.MayWait},
                      {"complete", S.Complete},
                      {"moduleClass", S.ModuleClass},
                      {"members", std::move(Members)},
                      {"registersAnything", S.RegistersAnything},
                      {"readsTrainingMode", S.ReadsTrainingMode}};
}

/// Reads JSON written by the functions above; any mismatch fails the whole
/// read (a cache written by another version is not used, not half-used).
class Reader {
public:
  bool Ok = true;

  std::string str(const json::Object &O, llvm::StringRef Key) {
    if (auto S = O.getString(Key))
      return S->str();
    Ok = false;
    return "";
  }
  int64_t num(const json::Object &O, llvm::StringRef Key) {
    if (auto N = O.getInteger(Key))
      return *N;
    Ok = false;
    return 0;
  }
  bool flag(const json::Object &O, llvm::StringRef Key) {
    if (auto B = O.getBoolean(Key))
      return *B;
    Ok = false;
    return false;
  }
  uint64_t mask(const json::Object &O, llvm::StringRef Key) {
    uint64_t M = 0;
    if (llvm::StringRef(str(O, Key)).getAsInteger(16, M))
      Ok = false;
    return M;
  }
  const json::Object &object(const json::Value *V) {
    static const json::Object Empty;
    if (const json::Object *O = V ? V->getAsObject() : nullptr)
      return *O;
    Ok = false;
    return Empty;
  }
  const json::Array &array(const json::Object &O, llvm::StringRef Key) {
    static const json::Array Empty;
    if (const json::Array *A = O.getArray(Key))
      return *A;
    Ok = false;
    return Empty;
  }

  Fact fact(const json::Object &O) {
    Fact F;
    F.Host = mask(O, "host");
    F.Dev = mask(O, "dev");
    F.Params = uint32_t(num(O, "params"));
    F.ParamsWhen = mask(O, "paramsWhen");
    F.Unknown = mask(O, "unknown");
    F.Scalar = flag(O, "scalar");
    return F;
  }
  PortableFact portableFact(const json::Object &O) {
    PortableFact F;
    F.Value = fact(object(O.get("fact")));
    for (const json::Value &V : array(O, "why")) {
      const json::Object &S = object(&V);
      PortableStep P;
      int64_t K = num(S, "kind");
      if (K < 0 || K > Step::KernelArgument)
        Ok = false;
      P.K = Step::Kind(K);
      P.File = str(S, "file");
      P.Line = unsigned(num(S, "line"));
      P.Column = unsigned(num(S, "column"));
      P.Subject = str(S, "subject");
      P.Detail = str(S, "detail");
      P.When = str(S, "when");
      P.Object = str(S, "object");
      P.DeviceType = str(S, "deviceType");
      P.SubjectIsDevice = flag(S, "subjectIsDevice");
      F.Why.push_back(std::move(P));
    }
    return F;
  }
  PortableSummary summary(const json::Object &O) {
    PortableSummary S;
    S.Name = str(O, "name");
    S.Return = portableFact(object(O.get("return")));
    for (const json::Value &V : array(O, "returnElements"))
      S.ReturnElements.push_back(portableFact(object(&V)));
    for (const json::Value &V : array(O, "paramSinks")) {
      const json::Object &P = object(&V);
      PortableSink Sink;
      Sink.Index = unsigned(num(P, "index"));
      Sink.When = mask(P, "when");
      Sink.UnknownOnly = flag(P, "unknownOnly");
      Sink.Tensor = str(P, "tensor");
      Sink.File = str(P, "file");
      Sink.Line = unsigned(num(P, "line"));
      Sink.Column = unsigned(num(P, "column"));
      S.ParamSinks.push_back(std::move(Sink));
    }
    for (const json::Value &V : array(O, "atoms")) {
      const json::Object &A = object(&V);
      S.Atoms.push_back(
          {int(num(A, "param")), str(A, "deviceType"), str(A, "member")});
    }
    for (const json::Value &V : array(O, "paramOut")) {
      const json::Object &P = object(&V);
      S.ParamOut.emplace_back(unsigned(num(P, "index")),
                              portableFact(object(P.get("exit"))));
    }
    S.MayWait = flag(O, "mayWait");
    S.Complete = flag(O, "complete");
    S.ModuleClass = flag(O, "moduleClass");
    for (const json::Value &V : array(O, "members")) {
      const json::Object &M = object(&V);
      S.Members.emplace_back(str(M, "name"), flag(M, "registered"));
    }
    S.RegistersAnything = flag(O, "registersAnything");
    S.ReadsTrainingMode = flag(O, "readsTrainingMode");
    return S;
  }
};

std::string text(const json::Value &V) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << V;
  return OS.str();
}

} // namespace

bool PortableSummary::informative() const {
  auto Says = [](const PortableFact &F) {
    return F.Value.Host || F.Value.Dev || F.Value.Params || F.Value.Scalar;
  };
  // A module class's summary always says something: that every method was
  // seen, so what it does not register is not registered.
  return ModuleClass || !ParamSinks.empty() || !ParamOut.empty() ||
         Says(Return) || llvm::any_of(ReturnElements, Says);
}

bool PortableSummary::operator==(const PortableSummary &O) const {
  return text(toJSON(*this)) == text(toJSON(O));
}

uint64_t PortableSummary::hash() const {
  // FNV-1a over the JSON text: the same in every process and version of
  // LLVM (a result cache compares it across runs).
  uint64_t H = 14695981039346656037ull;
  for (char C : text(toJSON(*this))) {
    H ^= uint8_t(C);
    H *= 1099511628211ull;
  }
  return H ? H : 1; // 0 means "no summary"
}

const PortableSummary *ProjectSummaries::usable(llvm::StringRef LinkageName,
                                                uint64_t &Hash) const {
  auto It = ByName.find(LinkageName.str());
  Hash = It == ByName.end() || It->second.Ambiguous ? 0 : It->second.Usable;
  return Hash ? &It->second.Summary : nullptr;
}

void ProjectSummaries::add(const std::string &LinkageName,
                           const PortableSummary &S, const std::string &File) {
  auto [It, New] = ByName.try_emplace(LinkageName);
  Entry &E = It->second;
  if (New || (E.Files.size() == 1 && E.Files.front() == File)) {
    E.Summary = S;
    E.Usable = S.informative() ? S.hash() : 0;
    if (!New)
      return;
  } else if (E.Summary != S) {
    E.Ambiguous = true;
  }
  if (!llvm::is_contained(E.Files, File))
    E.Files.push_back(File);
}

void ProjectSummaries::replaceFile(
    const std::string &File,
    const std::map<std::string, PortableSummary> &Exports) {
  for (auto It = ByName.begin(); It != ByName.end();) {
    auto &Files = It->second.Files;
    Files.erase(std::remove(Files.begin(), Files.end(), File), Files.end());
    if (Files.empty())
      It = ByName.erase(It);
    else
      ++It;
  }
  for (const auto &[Name, S] : Exports)
    add(Name, S, File);
}

std::string ProjectSummaries::toJSON() const {
  json::Object Names;
  for (const auto &[Name, E] : ByName) {
    json::Array Files;
    for (const std::string &F : E.Files)
      Files.push_back(F);
    Names[Name] = json::Object{{"summary", clang::devplace::toJSON(E.Summary)},
                               {"files", std::move(Files)},
                               {"ambiguous", E.Ambiguous}};
  }
  return text(
      json::Object{{"devplaceSummaries", 1}, {"functions", std::move(Names)}});
}

std::optional<ProjectSummaries>
ProjectSummaries::fromJSON(llvm::StringRef Text) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  Reader R;
  const json::Object &Top = R.object(&*V);
  if (R.num(Top, "devplaceSummaries") != 1 || !R.Ok)
    return std::nullopt;
  ProjectSummaries Out;
  const json::Object &Names = R.object(Top.get("functions"));
  for (const auto &[Name, Value] : Names) {
    const json::Object &O = R.object(&Value);
    Entry E;
    E.Summary = R.summary(R.object(O.get("summary")));
    for (const json::Value &F : R.array(O, "files"))
      if (auto S = F.getAsString())
        E.Files.push_back(S->str());
    E.Ambiguous = R.flag(O, "ambiguous");
    E.Usable = E.Summary.informative() ? E.Summary.hash() : 0;
    Out.ByName[Name.str()] = std::move(E);
  }
  if (!R.Ok)
    return std::nullopt;
  return Out;
}

std::string summariesToJSON(const std::map<std::string, PortableSummary> &M) {
  json::Object O;
  for (const auto &[Name, S] : M)
    O[Name] = toJSON(S);
  return text(std::move(O));
}

std::optional<std::map<std::string, PortableSummary>>
summariesFromJSON(llvm::StringRef Text) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  Reader R;
  std::map<std::string, PortableSummary> Out;
  for (const auto &[Name, Value] : R.object(&*V))
    Out[Name.str()] = R.summary(R.object(&Value));
  if (!R.Ok)
    return std::nullopt;
  return Out;
}

SummaryExchange *&currentSummaryExchange() {
  thread_local SummaryExchange *Current = nullptr;
  return Current;
}

const ProjectSummaries *&processSummaries() {
  static const ProjectSummaries *Summaries = nullptr;
  return Summaries;
}

std::string classKey(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() || !RD->isExternallyVisible() ||
      RD->isDependentContext() || RD->isLocalClass() ||
      isa<ClassTemplateSpecializationDecl>(RD))
    return "";
  return "class " + RD->getQualifiedNameAsString();
}

std::string linkageName(const FunctionDecl *FD) {
  if (!FD || !FD->isExternallyVisible() || FD->isDependentContext() ||
      isa<CXXConstructorDecl>(FD) || isa<CXXDestructorDecl>(FD))
    return "";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda())
    return "";
  std::unique_ptr<MangleContext> MC(FD->getASTContext().createMangleContext());
  if (!MC->shouldMangleDeclName(FD))
    return FD->getName().str();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  MC->mangleName(GlobalDecl(FD), OS);
  return OS.str();
}

} // namespace clang::devplace

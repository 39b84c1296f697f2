//===--- ReportReader.cpp - reading SARIF and JSON reports back -----------===//
//
// What `devplace merge` joins: the reports of shards, read back into the
// RunReport their writer (Reports.cpp) started from. The SARIF reader
// recovers what the SARIF writer puts there; failed files come from the
// notifications' translationUnit property.
//
//===----------------------------------------------------------------------===//

#include "Reports.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace devplace_tool {

static std::string percentDecode(StringRef S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned Byte;
    if (S[I] == '%' && I + 2 < S.size() &&
        !S.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Out += static_cast<char>(Byte);
      I += 2;
    } else {
      Out += S[I];
    }
  }
  return Out;
}

namespace {
/// Reads the values the writers above wrote; the first thing missing or of
/// the wrong kind makes the report unreadable.
class ReportReader {
public:
  explicit ReportReader(StringRef BaseDir) : BaseDir(BaseDir) {}
  bool Ok = true;

  const json::Value *at(const json::Value *V, StringRef Key) {
    const json::Object *O = V ? V->getAsObject() : nullptr;
    const json::Value *Field = O ? O->get(Key) : nullptr;
    Ok &= Field != nullptr;
    return Field;
  }
  std::string text(const json::Value *V, StringRef Key) {
    const json::Value *F = at(V, Key);
    auto S = F ? F->getAsString() : std::nullopt;
    Ok &= S.has_value();
    return S ? S->str() : "";
  }
  unsigned number(const json::Value *V, StringRef Key) {
    const json::Value *F = at(V, Key);
    auto N = F ? F->getAsInteger() : std::nullopt;
    Ok &= N.has_value();
    return N ? *N : 0;
  }
  const json::Array &list(const json::Value *V, StringRef Key) {
    static const json::Array None;
    const json::Value *F = at(V, Key);
    const json::Array *A = F ? F->getAsArray() : nullptr;
    Ok &= A != nullptr;
    return A ? *A : None;
  }
  const json::Value *first(const json::Value *V, StringRef Key) {
    const json::Array &A = list(V, Key);
    Ok &= !A.empty();
    return A.empty() ? nullptr : &A.front();
  }

  // devplace's JSON.
  SourcePoint point(const json::Value *V) {
    return {text(V, "file"), number(V, "line"), number(V, "column")};
  }
  Finding finding(const json::Value *V) {
    Finding F;
    F.Where = point(V);
    F.Check = text(V, "check");
    F.Level = text(V, "level");
    F.Message = text(V, "message");
    F.Function = text(V, "function");
    F.Fingerprint = text(V, "fingerprint");
    for (const json::Value &N : list(V, "notes"))
      F.Notes.push_back({point(&N), text(&N, "message")});
    for (const json::Value &E : list(V, "fixes")) {
      Edit Out;
      Out.Begin = point(&E);
      Out.End = {Out.Begin.File, number(&E, "endLine"),
                 number(&E, "endColumn")};
      Out.Offset = number(&E, "offset");
      Out.Length = number(&E, "length");
      Out.Text = text(&E, "replacement");
      F.Fixes.push_back(std::move(Out));
    }
    return F;
  }

  // SARIF.
  std::string file(const json::Value *PhysicalLocation) {
    const json::Value *A = at(PhysicalLocation, "artifactLocation");
    std::string Uri = percentDecode(text(A, "uri"));
    const json::Object *O = A ? A->getAsObject() : nullptr;
    if (O && O->get("uriBaseId"))
      return BaseDir.str() + "/" + Uri;
    return StringRef(Uri).starts_with("file://") ? Uri.substr(7) : Uri;
  }
  SourcePoint sarifPoint(const json::Value *PhysicalLocation) {
    const json::Value *Region = at(PhysicalLocation, "region");
    const json::Object *R = Region ? Region->getAsObject() : nullptr;
    unsigned Column =
        R && R->get("startColumn") ? number(Region, "startColumn") : 0;
    return {file(PhysicalLocation), number(Region, "startLine"), Column};
  }
  Finding sarifFinding(const json::Value *Result) {
    Finding F;
    F.Check = text(Result, "ruleId");
    F.Level = text(Result, "level");
    if (F.Level == "note")
      F.Level = "remark";
    F.Message = text(at(Result, "message"), "text");
    const json::Value *Location = first(Result, "locations");
    F.Where = sarifPoint(at(Location, "physicalLocation"));
    const json::Object *L = Location ? Location->getAsObject() : nullptr;
    if (L && L->get("logicalLocations"))
      F.Function =
          text(first(Location, "logicalLocations"), "fullyQualifiedName");
    F.Fingerprint = text(at(Result, "partialFingerprints"), "devplace/v2");
    const json::Object *O = Result ? Result->getAsObject() : nullptr;
    if (O && O->get("relatedLocations"))
      for (const json::Value &N : list(Result, "relatedLocations"))
        F.Notes.push_back({sarifPoint(at(&N, "physicalLocation")),
                           text(at(&N, "message"), "text")});
    if (O && O->get("fixes"))
      for (const json::Value &Fix : list(Result, "fixes"))
        for (const json::Value &Change : list(&Fix, "artifactChanges")) {
          std::string File = file(&Change);
          for (const json::Value &Replacement : list(&Change, "replacements")) {
            const json::Value *Deleted = at(&Replacement, "deletedRegion");
            Edit E;
            E.Begin = {File, number(Deleted, "startLine"),
                       number(Deleted, "startColumn")};
            E.End = {File, number(Deleted, "endLine"),
                     number(Deleted, "endColumn")};
            E.Text = text(at(&Replacement, "insertedContent"), "text");
            F.Fixes.push_back(std::move(E));
          }
        }
    return F;
  }

private:
  StringRef BaseDir;
};
} // namespace

static bool readJsonReport(const json::Value &V, RunReport &R) {
  ReportReader In("");
  In.Ok = In.text(&V, "tool") == "devplace";
  R.Files = In.number(&V, "files");
  for (const json::Value &F : In.list(&V, "findings"))
    R.Findings.push_back(In.finding(&F));
  for (const json::Value &F : In.list(&V, "remarks"))
    R.Remarks.push_back(In.finding(&F));
  for (const json::Value &FF : In.list(&V, "failedFiles")) {
    FailedFile Failed{In.text(&FF, "file"), {}};
    for (const json::Value &E : In.list(&FF, "errors"))
      Failed.Errors.push_back(In.finding(&E));
    R.Failed.push_back(std::move(Failed));
  }
  R.Suppressed = In.number(&V, "suppressedByBaseline");
  for (const json::Value &S : In.list(&V, "staleBaselineEntries"))
    R.StaleBaselineEntries.push_back(S.getAsString() ? S.getAsString()->str()
                                                     : "");
  const json::Value *Seconds = In.at(&V, "seconds");
  R.Seconds = Seconds && Seconds->getAsNumber() ? *Seconds->getAsNumber() : 0;
  return In.Ok;
}

static bool readSarifReport(const json::Value &V, RunReport &R) {
  ReportReader Probe("");
  const json::Value *Run = Probe.first(&V, "runs");
  std::string Root = Probe.text(
      Probe.at(Probe.at(Run, "originalUriBaseIds"), "SRCROOT"), "uri");
  if (!Probe.Ok || !StringRef(Root).starts_with("file://"))
    return false;
  R.BaseDir = percentDecode(StringRef(Root).drop_front(7).drop_back());
  ReportReader In(R.BaseDir);
  const json::Value *Driver = In.at(In.at(Run, "tool"), "driver");
  In.Ok &= In.text(Driver, "name") == "devplace";
  R.DocBaseUri = In.text(Driver, "informationUri");
  // The rules are the enabled checks, then compiler diagnostics that came
  // up as findings (the only other rules a run adds).
  for (const json::Value &Rule : In.list(Driver, "rules")) {
    std::string Id = In.text(&Rule, "id");
    if (!StringRef(Id).starts_with("clang-diagnostic-"))
      R.Checks.push_back(Id);
  }
  for (const json::Value &Result : In.list(Run, "results")) {
    Finding F = In.sarifFinding(&Result);
    (F.Level == "remark" ? R.Remarks : R.Findings).push_back(std::move(F));
  }
  for (const json::Value &N :
       In.list(In.first(Run, "invocations"), "toolExecutionNotifications")) {
    std::string File =
        R.BaseDir + "/" + In.text(In.at(&N, "properties"), "translationUnit");
    Finding E;
    E.Level = "error";
    E.Message = In.text(In.at(&N, "message"), "text");
    E.Where =
        In.sarifPoint(In.at(In.first(&N, "locations"), "physicalLocation"));
    if (R.Failed.empty() || R.Failed.back().File != File)
      R.Failed.push_back({File, {}});
    R.Failed.back().Errors.push_back(std::move(E));
  }
  return In.Ok;
}

std::optional<ReportFormat> readReport(StringRef Text, RunReport &R,
                                       std::string &Error) {
  Expected<json::Value> V = json::parse(Text);
  if (!V) {
    Error = "not JSON: " + toString(V.takeError());
    return std::nullopt;
  }
  const json::Object *O = V->getAsObject();
  if (O && O->getString("version") == StringRef("2.1.0") && O->get("runs")) {
    if (readSarifReport(*V, R))
      return ReportFormat::Sarif;
    Error = "not a SARIF report written by devplace";
    return std::nullopt;
  }
  if (readJsonReport(*V, R))
    return ReportFormat::Json;
  Error = "neither a SARIF nor a JSON report written by devplace";
  return std::nullopt;
}

} // namespace devplace_tool

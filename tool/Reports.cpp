//===--- Reports.cpp - SARIF 2.1.0, JSON and plain-text reports -----------===//
//
// SARIF follows what GitHub code scanning reads: one rule per enabled check
// (descriptions and help from the check's doc page, compiled in), results
// with physical and logical locations, codeFlows from the notes (source →
// assignments → sink), fixes from the fix-its and a partialFingerprint that
// does not depend on line numbers. Paths under the working directory are
// written relative to the SRCROOT base so that reports from two checkouts
// compare equal. ReportReader.cpp reads SARIF and JSON reports back.
//
//===----------------------------------------------------------------------===//

#include "Reports.h"
#include "devplace/model/ApiTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include <map>

using namespace llvm;

namespace devplace_tool {

namespace {
struct CheckDoc {
  const char *Name;
  const char *Markdown;
};
// Generated from docs/checks/*.md at configure time.
const CheckDoc Docs[] = {
#include "CheckDocs.inc"
};
} // namespace

static StringRef docPage(StringRef Check) {
  for (const CheckDoc &D : Docs)
    if (Check == D.Name)
      return D.Markdown;
  return "";
}

std::string checkSummary(StringRef Check) {
  // The first paragraph after the page's title.
  SmallVector<StringRef, 64> Lines;
  docPage(Check).split(Lines, '\n');
  std::string Out;
  bool InParagraph = false;
  for (StringRef L : Lines) {
    L = L.trim();
    if (L.starts_with("#"))
      continue;
    if (L.empty()) {
      if (InParagraph)
        break;
      continue;
    }
    InParagraph = true;
    if (!Out.empty())
      Out += ' ';
    Out += L.str();
  }
  return Out.empty() ? ("The " + Check + " check.").str() : Out;
}

/// SARIF wants a readable name distinct from the id: devplace-host-sink →
/// HostSink.
static std::string ruleName(StringRef Check) {
  Check.consume_front("devplace-");
  std::string Out;
  bool Upper = true;
  for (char C : Check) {
    if (!isAlnum(C)) {
      Upper = true;
      continue;
    }
    Out += Upper ? toUpper(C) : C;
    Upper = false;
  }
  return Out;
}

static std::string firstSentence(StringRef Text) {
  size_t Stop = Text.find(". ");
  return Stop == StringRef::npos ? Text.str() : Text.take_front(Stop + 1).str();
}

static std::string percentEncode(StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("/-._~").contains(C))
      Out += C;
    else
      Out += "%" + utohexstr(C, /*LowerCase=*/false, 2);
  }
  return Out;
}

static json::Object artifact(StringRef File, StringRef BaseDir) {
  std::string Rel = relativeTo(File, BaseDir);
  if (Rel != File)
    return json::Object{{"uri", percentEncode(Rel)}, {"uriBaseId", "SRCROOT"}};
  return json::Object{{"uri", "file://" + percentEncode(File)}};
}

static json::Object region(const SourcePoint &P) {
  json::Object R{{"startLine", P.Line ? P.Line : 1}};
  if (P.Column)
    R["startColumn"] = P.Column;
  return R;
}

static json::Object physical(const SourcePoint &P, StringRef BaseDir) {
  return json::Object{{"artifactLocation", artifact(P.File, BaseDir)},
                      {"region", region(P)}};
}

static json::Array sarifFixes(const Finding &F, StringRef BaseDir) {
  std::map<std::string, json::Array> ByFile;
  for (const Edit &E : F.Fixes) {
    json::Object Deleted{{"startLine", E.Begin.Line},
                         {"startColumn", E.Begin.Column},
                         {"endLine", E.End.Line},
                         {"endColumn", E.End.Column}};
    ByFile[E.Begin.File].push_back(
        json::Object{{"deletedRegion", std::move(Deleted)},
                     {"insertedContent", json::Object{{"text", E.Text}}}});
  }
  json::Array Changes;
  for (auto &[File, Replacements] : ByFile)
    Changes.push_back(json::Object{{"artifactLocation", artifact(File, BaseDir)},
                                   {"replacements", std::move(Replacements)}});
  json::Array Fixes;
  if (!Changes.empty())
    Fixes.push_back(json::Object{
        {"description", json::Object{{"text", "Apply " + F.Check + "'s fix-it"}}},
        {"artifactChanges", std::move(Changes)}});
  return Fixes;
}

static json::Object sarifResult(const Finding &F, unsigned RuleIndex,
                                StringRef BaseDir) {
  json::Object Location{{"physicalLocation", physical(F.Where, BaseDir)}};
  if (!F.Function.empty())
    Location["logicalLocations"] = json::Array{json::Object{
        {"fullyQualifiedName", F.Function}, {"kind", "function"}}};
  json::Object Result{
      {"ruleId", F.Check},
      {"ruleIndex", RuleIndex},
      {"level", F.Level == "remark" ? "note" : F.Level},
      {"message", json::Object{{"text", F.Message}}},
      {"locations", json::Array{std::move(Location)}},
      {"partialFingerprints", json::Object{{"devplace/v2", F.Fingerprint}}}};
  // The notes are the finding's story, source first; the sink ends it.
  json::Array Steps, Related;
  unsigned Id = 1;
  for (const Step &N : F.Notes) {
    if (N.Where.File.empty())
      continue;
    Steps.push_back(json::Object{
        {"location", json::Object{{"physicalLocation", physical(N.Where, BaseDir)},
                                  {"message", json::Object{{"text", N.Message}}}}}});
    Related.push_back(json::Object{{"id", Id++},
                                   {"physicalLocation", physical(N.Where, BaseDir)},
                                   {"message", json::Object{{"text", N.Message}}}});
  }
  if (!Steps.empty()) {
    Steps.push_back(json::Object{
        {"location", json::Object{{"physicalLocation", physical(F.Where, BaseDir)},
                                  {"message", json::Object{{"text", F.Message}}}}}});
    Result["codeFlows"] = json::Array{json::Object{
        {"threadFlows", json::Array{json::Object{{"locations", std::move(Steps)}}}}}};
    Result["relatedLocations"] = std::move(Related);
  }
  json::Array Fixes = sarifFixes(F, BaseDir);
  if (!Fixes.empty())
    Result["fixes"] = std::move(Fixes);
  return Result;
}

void writeSarif(const RunReport &R, raw_ostream &OS) {
  json::Array Rules;
  std::map<std::string, unsigned> RuleIndex;
  auto AddRule = [&](StringRef Check) {
    if (RuleIndex.count(Check.str()))
      return;
    RuleIndex[Check.str()] = Rules.size();
    std::string Summary = checkSummary(Check);
    json::Object Rule{
        {"id", Check},
        {"name", ruleName(Check)},
        {"shortDescription", json::Object{{"text", firstSentence(Summary)}}},
        {"fullDescription", json::Object{{"text", Summary}}},
        {"defaultConfiguration", json::Object{{"level", "warning"}}}};
    StringRef Page = docPage(Check);
    if (!Page.empty()) {
      Rule["help"] = json::Object{{"text", Page}, {"markdown", Page}};
      Rule["helpUri"] = R.DocBaseUri + Check.drop_front(strlen("devplace-")).str() + ".md";
    }
    Rules.push_back(std::move(Rule));
  };
  for (const std::string &C : R.Checks)
    AddRule(C);
  json::Array Results;
  for (const Finding &F : R.Findings) {
    AddRule(F.Check); // clang-analyzer-* or other checks enabled by the user
    Results.push_back(sarifResult(F, RuleIndex[F.Check], R.BaseDir));
  }
  for (const Finding &F : R.Remarks) {
    AddRule(F.Check);
    Results.push_back(sarifResult(F, RuleIndex[F.Check], R.BaseDir));
  }

  json::Array Notifications;
  for (const FailedFile &FF : R.Failed)
    for (const Finding &E : FF.Errors)
      Notifications.push_back(json::Object{
          {"level", "error"},
          {"message", json::Object{{"text", E.Message}}},
          {"locations",
           json::Array{json::Object{
               {"physicalLocation", physical(E.Where, R.BaseDir)}}}},
          // The file that failed (the error may lie in a header it includes):
          // what `devplace merge` orders failures by.
          {"properties",
           json::Object{{"translationUnit", relativeTo(FF.File, R.BaseDir)}}}});

  json::Object Driver{{"name", "devplace"},
                      {"version", DEVPLACE_VERSION},
                      {"semanticVersion", DEVPLACE_VERSION},
                      {"informationUri", R.DocBaseUri},
                      {"rules", std::move(Rules)}};
  json::Object Run{
      {"tool", json::Object{{"driver", std::move(Driver)}}},
      {"originalUriBaseIds",
       json::Object{{"SRCROOT",
                     json::Object{{"uri", "file://" + percentEncode(R.BaseDir) + "/"}}}}},
      {"invocations",
       json::Array{json::Object{{"executionSuccessful", R.Failed.empty()},
                                {"toolExecutionNotifications",
                                 std::move(Notifications)}}}},
      {"columnKind", "unicodeCodePoints"},
      {"results", std::move(Results)}};
  json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{std::move(Run)}}};
  OS << formatv("{0:2}", json::Value(std::move(Log))) << "\n";
}

static json::Object jsonPoint(const SourcePoint &P) {
  return json::Object{{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

static json::Object jsonFinding(const Finding &F) {
  json::Object O = jsonPoint(F.Where);
  O["check"] = F.Check;
  O["level"] = F.Level;
  O["message"] = F.Message;
  O["function"] = F.Function;
  O["fingerprint"] = F.Fingerprint;
  json::Array Notes, Fixes;
  for (const Step &N : F.Notes) {
    json::Object NO = jsonPoint(N.Where);
    NO["message"] = N.Message;
    Notes.push_back(std::move(NO));
  }
  for (const Edit &E : F.Fixes) {
    json::Object EO = jsonPoint(E.Begin);
    EO["endLine"] = E.End.Line;
    EO["endColumn"] = E.End.Column;
    EO["offset"] = E.Offset;
    EO["length"] = E.Length;
    EO["replacement"] = E.Text;
    Fixes.push_back(std::move(EO));
  }
  O["notes"] = std::move(Notes);
  O["fixes"] = std::move(Fixes);
  return O;
}

void writeJson(const RunReport &R, raw_ostream &OS) {
  json::Array Findings, Remarks, Failed, Stale;
  for (const Finding &F : R.Findings)
    Findings.push_back(jsonFinding(F));
  for (const Finding &F : R.Remarks)
    Remarks.push_back(jsonFinding(F));
  for (const FailedFile &FF : R.Failed) {
    json::Array Errors;
    for (const Finding &E : FF.Errors)
      Errors.push_back(jsonFinding(E));
    Failed.push_back(json::Object{{"file", FF.File}, {"errors", std::move(Errors)}});
  }
  for (const std::string &S : R.StaleBaselineEntries)
    Stale.push_back(S);
  json::Object Root{{"tool", "devplace"},
                    {"version", DEVPLACE_VERSION},
                    {"files", R.Files},
                    {"findings", std::move(Findings)},
                    {"remarks", std::move(Remarks)},
                    {"failedFiles", std::move(Failed)},
                    {"suppressedByBaseline", R.Suppressed},
                    {"staleBaselineEntries", std::move(Stale)},
                    {"seconds", R.Seconds}};
  OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
}

static void plainLine(raw_ostream &OS, const SourcePoint &P, StringRef Level,
                      StringRef Message, StringRef Check) {
  OS << P.File << ":" << P.Line << ":" << P.Column << ": " << Level << ": "
     << Message;
  if (!Check.empty())
    OS << " [" << Check << "]";
  OS << "\n";
}

void writePlainText(const RunReport &R, raw_ostream &OS) {
  auto Write = [&](const Finding &F) {
    plainLine(OS, F.Where, F.Level, F.Message, F.Check);
    for (const Step &N : F.Notes)
      plainLine(OS, N.Where, "note", N.Message, "");
  };
  for (const FailedFile &FF : R.Failed)
    for (const Finding &E : FF.Errors)
      Write(E);
  for (const Finding &F : R.Findings)
    Write(F);
  for (const Finding &F : R.Remarks)
    Write(F);
}

void writeApiTable(raw_ostream &OS) {
  using clang::devplace::ApiRole;
  using clang::devplace::ApiRow;
  using clang::devplace::ApiTable;
  OS << "| role | what it means | names |\n| --- | --- | --- |\n";
  for (unsigned R = 0; R < static_cast<unsigned>(ApiRole::NumRoles); ++R) {
    auto Role = static_cast<ApiRole>(R);
    std::string Names;
    for (const ApiRow &Row : ApiTable::builtinRows()) {
      if (Row.Role != Role)
        continue;
      std::string How = ApiTable::matchName(Row.Match).str();
      if (!Row.DeviceType.empty())
        How += ", " + Row.DeviceType.str();
      // A '|' would end the table's cell, even in code.
      std::string Name = Row.Name.str();
      for (size_t At = Name.find('|'); At != std::string::npos;
           At = Name.find('|', At + 2))
        Name.replace(At, 1, "\\|");
      Names += (Names.empty() ? "" : ", ") + ("`" + Name + "` (" + How + ")");
    }
    OS << "| " << ApiTable::roleName(Role) << " | " << ApiTable::roleDoc(Role)
       << " | " << (Names.empty() ? "(options only)" : Names) << " |\n";
  }
}

std::string writeReport(const RunReport &R, ReportFormat Format,
                        StringRef Path) {
  std::error_code EC;
  std::optional<raw_fd_ostream> File;
  if (!Path.empty()) {
    File.emplace(Path, EC, sys::fs::OF_Text);
    if (EC)
      return "cannot write '" + Path.str() + "': " + EC.message();
  }
  raw_ostream &OS = File ? static_cast<raw_ostream &>(*File) : outs();
  if (Format == ReportFormat::Sarif)
    writeSarif(R, OS);
  else if (Format == ReportFormat::Json)
    writeJson(R, OS);
  else
    writePlainText(R, OS);
  return "";
}

bool reportOrder(const Finding &A, const Finding &B) {
  return std::tie(A.Where.File, A.Where.Line, A.Where.Column, A.Check,
                  A.Message) < std::tie(B.Where.File, B.Where.Line,
                                        B.Where.Column, B.Check, B.Message);
}

void sortReport(RunReport &R) {
  std::stable_sort(R.Findings.begin(), R.Findings.end(), reportOrder);
  std::stable_sort(R.Remarks.begin(), R.Remarks.end(), reportOrder);
  std::stable_sort(
      R.Failed.begin(), R.Failed.end(),
      [](const FailedFile &A, const FailedFile &B) { return A.File < B.File; });
  llvm::sort(R.StaleBaselineEntries);
}

} // namespace devplace_tool

//===--- Baseline.cpp - findings accepted once, not reported again --------===//

#include "Baseline.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace devplace_tool {

static std::string directoryOf(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, true);
  return sys::path::parent_path(Abs).str();
}

Expected<Baseline> Baseline::load(StringRef Path) {
  auto Text = MemoryBuffer::getFile(Path);
  if (!Text)
    return createStringError(Text.getError(), "cannot read baseline '%s': %s",
                             Path.str().c_str(), Text.getError().message().c_str());
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), "invalid baseline '%s': %s",
                             Path.str().c_str(), Why.str().c_str());
  };
  Expected<json::Value> Parsed = json::parse((*Text)->getBuffer());
  if (!Parsed)
    return Fail(toString(Parsed.takeError()));
  const json::Object *Root = Parsed->getAsObject();
  const json::Array *List = Root ? Root->getArray("findings") : nullptr;
  if (!Root || Root->getInteger("devplaceBaseline") != 1 || !List)
    return Fail("not a devplace baseline (version 1)");
  Baseline B;
  B.Dir = directoryOf(Path);
  for (const json::Value &V : *List) {
    const json::Object *O = V.getAsObject();
    if (!O)
      return Fail("an entry is not an object");
    Entry E;
    auto Str = [&](StringRef Field) {
      auto S = O->getString(Field);
      return S ? S->str() : std::string();
    };
    E.Check = Str("check");
    E.File = Str("file");
    E.Function = Str("function");
    E.Snippet = Str("snippet");
    E.Left = O->getInteger("count").value_or(1);
    if (E.Check.empty() || E.File.empty())
      return Fail("an entry lacks 'check' or 'file'");
    std::string Key = E.Check + "|" + E.File + "|" + E.Function + "|" + E.Snippet;
    auto [It, New] = B.Entries.try_emplace(Key, E);
    if (!New)
      It->second.Left += E.Left;
  }
  return std::move(B);
}

Error Baseline::write(StringRef Path, ArrayRef<Finding> Findings) {
  std::string Dir = directoryOf(Path);
  std::map<std::string, std::pair<json::Object, unsigned>> Counted;
  for (const Finding &F : Findings) {
    std::string File = relativeTo(F.Where.File, Dir);
    auto &Slot = Counted[F.key(File)];
    if (!Slot.second++)
      Slot.first = json::Object{{"check", F.Check},
                                {"file", File},
                                {"function", F.Function},
                                {"snippet", F.Snippet}};
  }
  json::Array List;
  for (auto &[Key, Entry] : Counted) {
    Entry.first["count"] = Entry.second;
    List.push_back(std::move(Entry.first));
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write baseline '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  OS << formatv("{0:2}", json::Value(json::Object{{"devplaceBaseline", 1},
                                                  {"findings", std::move(List)}}))
     << "\n";
  return Error::success();
}

bool Baseline::absorbs(const Finding &F) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Entries.find(F.key(relativeTo(F.Where.File, Dir)));
  if (It == Entries.end() || It->second.Left == 0)
    return false;
  --It->second.Left;
  return true;
}

std::vector<std::string> Baseline::stale(const std::set<std::string> &AnalysedFiles) const {
  std::vector<std::string> Out;
  for (const auto &[Key, E] : Entries) {
    SmallString<256> Abs(E.File);
    if (sys::path::is_relative(E.File)) {
      Abs = Dir;
      sys::path::append(Abs, E.File);
    }
    if (E.Left && AnalysedFiles.count(std::string(Abs)))
      Out.push_back(E.Check + " in " + E.File +
                    (E.Function.empty() ? "" : " (" + E.Function + ")") + ": `" +
                    E.Snippet + "`" + (E.Left > 1 ? " x" + std::to_string(E.Left) : ""));
  }
  return Out;
}

} // namespace devplace_tool

//===--- Findings.cpp - ClangTidyErrors into keyed findings ---------------===//

#include "Findings.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace devplace_tool {

std::string Finding::key(StringRef RelativeFile) const {
  return Check + "|" + RelativeFile.str() + "|" + Function + "|" + Snippet;
}

SourceCache::File &SourceCache::file(StringRef AbsPath) {
  auto It = Files.find(AbsPath);
  if (It == Files.end()) {
    auto Buffer = MemoryBuffer::getFile(AbsPath, /*IsText=*/true);
    It = Files.try_emplace(AbsPath).first;
    if (Buffer)
      It->second.Buffer = std::move(*Buffer);
  }
  return It->second;
}

StringRef SourceCache::text(StringRef AbsPath) {
  std::lock_guard<std::mutex> Guard(Lock);
  File &F = file(AbsPath);
  return F.Buffer ? F.Buffer->getBuffer() : StringRef();
}

SourcePoint SourceCache::point(StringRef AbsPath, unsigned Offset) {
  SourcePoint P;
  P.File = AbsPath.str();
  std::lock_guard<std::mutex> Guard(Lock);
  File &F = file(AbsPath);
  StringRef Text = F.Buffer ? F.Buffer->getBuffer() : StringRef();
  if (Text.empty() || Offset > Text.size())
    return P;
  if (F.LineStarts.empty()) {
    F.LineStarts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        F.LineStarts.push_back(I + 1);
  }
  // The last line start at or before Offset.
  auto Next =
      std::upper_bound(F.LineStarts.begin(), F.LineStarts.end(), Offset);
  P.Line = Next - F.LineStarts.begin();
  P.Column = Offset - *(Next - 1) + 1;
  return P;
}

std::string absolutePath(StringRef Path, StringRef BuildDirectory) {
  SmallString<256> Abs(Path);
  if (!sys::path::is_absolute(Abs) && !BuildDirectory.empty()) {
    SmallString<256> Joined(BuildDirectory);
    sys::path::append(Joined, Abs);
    Abs = Joined;
  }
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

static void makePathsAbsolute(clang::tooling::DiagnosticMessage &M,
                              StringRef BuildDirectory) {
  if (!M.FilePath.empty())
    M.FilePath = absolutePath(M.FilePath, BuildDirectory);
  for (clang::tooling::FileByteRange &R : M.Ranges)
    if (!R.FilePath.empty())
      R.FilePath = absolutePath(R.FilePath, BuildDirectory);
  StringMap<clang::tooling::Replacements> Fix;
  for (const auto &[File, Replacements] : M.Fix) {
    std::string Abs = absolutePath(File, BuildDirectory);
    clang::tooling::Replacements &Into = Fix[Abs];
    for (const clang::tooling::Replacement &R : Replacements)
      // Replacements of one file already fit together: adding them again,
      // renamed, cannot conflict.
      consumeError(Into.add(clang::tooling::Replacement(
          Abs, R.getOffset(), R.getLength(), R.getReplacementText())));
  }
  M.Fix = std::move(Fix);
}

void makePathsAbsolute(ClangTidyError &E) {
  makePathsAbsolute(E.Message, E.BuildDirectory);
  for (clang::tooling::DiagnosticMessage &N : E.Notes)
    makePathsAbsolute(N, E.BuildDirectory);
}

std::string relativeTo(StringRef Path, StringRef BaseDir) {
  if (BaseDir.empty())
    return Path.str();
  SmallString<256> Base(BaseDir);
  sys::path::remove_dots(Base, true);
  StringRef Rest = Path;
  if (!Rest.consume_front(Base) || (!Rest.empty() && !sys::path::is_separator(Rest.front())))
    return Path.str();
  return Rest.ltrim("/").str();
}

/// The reported line without comments and whitespace: what stays the same
/// when code around it is edited, re-indented or re-commented.
static std::string normalisedLine(StringRef Text, unsigned Offset) {
  if (Offset > Text.size())
    return "";
  size_t Begin = Text.take_front(Offset).rfind('\n');
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  size_t End = Text.find('\n', Offset);
  StringRef Line = Text.slice(Begin, End);
  size_t Comment = Line.find("//");
  if (Comment != StringRef::npos)
    Line = Line.take_front(Comment);
  std::string Out;
  for (char C : Line)
    if (!isSpace(C))
      Out += C;
  return Out;
}

static std::string enclosingFunction(const FunctionIndex &Functions,
                                     StringRef File, unsigned Offset) {
  auto It = Functions.find(File.str());
  if (It == Functions.end())
    return "";
  const FunctionSpan *Best = nullptr;
  for (const FunctionSpan &S : It->second)
    if (S.Begin <= Offset && Offset <= S.End &&
        (!Best || S.End - S.Begin < Best->End - Best->Begin))
      Best = &S;
  return Best ? Best->Name : "";
}

std::vector<Finding> makeFindings(ArrayRef<ClangTidyError> Errors,
                                  const FunctionIndex &Functions,
                                  SourceCache &Sources) {
  std::vector<Finding> Out;
  for (const ClangTidyError &E : Errors) {
    Finding F;
    F.Check = E.DiagnosticName;
    F.Level = E.DiagLevel == ClangTidyError::Error    ? "error"
              : E.DiagLevel == ClangTidyError::Remark ? "remark"
                                                      : "warning";
    F.Message = E.Message.Message;
    if (!E.Message.FilePath.empty()) {
      std::string File = absolutePath(E.Message.FilePath, E.BuildDirectory);
      StringRef Text = Sources.text(File);
      F.Where = Sources.point(File, E.Message.FileOffset);
      F.Function = enclosingFunction(Functions, File, E.Message.FileOffset);
      F.Snippet = normalisedLine(Text, E.Message.FileOffset);
    }
    for (const auto &N : E.Notes) {
      Step S;
      S.Message = N.Message;
      if (!N.FilePath.empty()) {
        std::string File = absolutePath(N.FilePath, E.BuildDirectory);
        S.Where = Sources.point(File, N.FileOffset);
      }
      F.Notes.push_back(std::move(S));
    }
    for (const auto &FileFix : E.Message.Fix) {
      std::string File = absolutePath(FileFix.getKey(), E.BuildDirectory);
      for (const auto &R : FileFix.getValue()) {
        Edit Ed;
        Ed.Offset = R.getOffset();
        Ed.Length = R.getLength();
        Ed.Begin = Sources.point(File, Ed.Offset);
        Ed.End = Sources.point(File, Ed.Offset + Ed.Length);
        Ed.Text = R.getReplacementText().str();
        F.Fixes.push_back(std::move(Ed));
      }
    }
    Out.push_back(std::move(F));
  }
  return Out;
}

void assignFingerprints(std::vector<Finding> &All, StringRef BaseDir) {
  StringMap<unsigned> Seen;
  for (Finding &F : All) {
    std::string Key = F.key(relativeTo(F.Where.File, BaseDir));
    F.Occurrence = Seen[Key]++;
    Key += "#" + std::to_string(F.Occurrence);
    // xxHash64: the same function in every LLVM devplace builds against
    // (xxh3 is LLVM 17 on), so every build gives a finding the same print.
    F.Fingerprint = utohexstr(xxHash64(Key), /*LowerCase=*/true, 16);
  }
}

} // namespace devplace_tool

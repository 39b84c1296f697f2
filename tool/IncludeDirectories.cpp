//===--- IncludeDirectories.cpp - a command's include search --------------===//

#include "IncludeDirectories.h"
#include "ResultCache.h"
#include "devplace/Compat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace llvm;

namespace devplace_tool {

std::vector<std::string>
splitIncludeDirectories(std::vector<std::string> Args, StringRef WorkingDir,
                        std::vector<IncludeDirectory> &Directories) {
  static const char *const Options[] = {"-I", "-isystem", "-iquote",
                                        "-idirafter"};
  std::vector<std::string> Rest;
  std::vector<IncludeDirectory> Found;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg == "-Xclang" || Arg == "-Xpreprocessor" || Arg == "-I-" ||
        Arg.starts_with("-F") || Arg.starts_with("-iframework") ||
        Arg.starts_with("-iprefix") || Arg.starts_with("-iwithprefix") ||
        Arg.starts_with("-isystem-after"))
      return Args;
    std::string Option;
    std::string Path;
    if (Arg.consume_front("--include-directory")) {
      Option = "-I";
      if (Arg.consume_front("="))
        Path = Arg.str();
      else if (Arg.empty() && I + 1 < Args.size())
        Path = Args[++I];
      else
        return Args;
    } else {
      for (const char *O : Options) {
        if (!Arg.starts_with(O))
          continue;
        Option = O;
        StringRef Joined = Arg.drop_front(Option.size());
        if (!Joined.empty())
          Path = Joined.str();
        else if (I + 1 < Args.size())
          Path = Args[++I];
        else
          return Args;
        break;
      }
      if (Option.empty()) {
        Rest.push_back(Args[I]);
        continue;
      }
    }
    if (Path.empty() || StringRef(Path).starts_with("=") ||
        StringRef(Path).starts_with("$SYSROOT"))
      return Args;
    SmallString<256> Abs(Path);
    if (!sys::path::is_absolute(Abs)) {
      Abs = WorkingDir;
      sys::path::append(Abs, Path);
    }
    sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    Found.push_back({Option, std::string(Abs)});
  }
  Directories = std::move(Found);
  return Rest;
}

bool namesRelativePath(const std::vector<std::string> &Args,
                       StringRef WorkingDir) {
  auto There = [&](StringRef Value) {
    if (Value.empty() || sys::path::is_absolute(Value))
      return false;
    SmallString<256> Path(WorkingDir);
    sys::path::append(Path, Value);
    return sys::fs::exists(Path);
  };
  std::vector<const char *> Argv;
  for (const std::string &Arg : Args) {
    if (There(Arg) || There(StringRef(Arg).split('=').second))
      return true;
    Argv.push_back(Arg.c_str());
  }
  if (Argv.size() < 2)
    return false;
  unsigned MissingIndex = 0, MissingCount = 0;
  opt::InputArgList Parsed = clang::devplace::compat::driverOptions().ParseArgs(
      ArrayRef<const char *>(Argv).drop_front(), MissingIndex, MissingCount);
  for (const opt::Arg *A : Parsed)
    for (const char *Value : A->getValues())
      if (There(Value))
        return true;
  return false;
}

bool findsHeadersAlike(const std::vector<IncludeDirectory> &Built,
                       const std::vector<IncludeDirectory> &Other,
                       const std::vector<std::string> &Lookups,
                       std::vector<std::string> &MustStayAbsent,
                       std::string &Why) {
  auto Twice = [](const std::vector<IncludeDirectory> &Dirs) {
    std::set<std::string> Paths;
    for (const IncludeDirectory &D : Dirs)
      if (!Paths.insert(D.Path).second)
        return true;
    return false;
  };
  // A directory given twice is searched as the compiler's rules for
  // duplicates say; not worth following.
  if (Twice(Built) || Twice(Other)) {
    Why = "a directory is given twice";
    return false;
  }
  auto Common = [](const std::vector<IncludeDirectory> &Dirs,
                   const std::vector<IncludeDirectory> &In) {
    std::vector<IncludeDirectory> Both;
    for (const IncludeDirectory &D : Dirs)
      if (llvm::is_contained(In, D))
        Both.push_back(D);
    return Both;
  };
  if (Common(Built, Other) != Common(Other, Built)) {
    Why = "the directories both search are searched in another order";
    return false;
  }
  // A directory searched by one only, or with another option by each.
  std::vector<std::pair<std::string, bool>> Own; // path, the other's
  for (const IncludeDirectory &D : Built)
    if (!llvm::is_contained(Other, D))
      Own.push_back({D.Path, false});
  for (const IncludeDirectory &D : Other)
    if (!llvm::is_contained(Built, D))
      Own.push_back({D.Path, true});
  MustStayAbsent.clear();
  for (const std::string &Name : Lookups) {
    if (sys::path::is_absolute(Name))
      continue; // looked up nowhere else
    for (const auto &[Dir, Others] : Own) {
      SmallString<256> Candidate(Dir);
      sys::path::append(Candidate, Name);
      if (observePath(Candidate, /*Contents=*/false) != "a") {
        Why = "'" + Name + "' is in '" + Dir + "'";
        return false;
      }
      if (Others)
        MustStayAbsent.push_back(std::string(Candidate));
    }
  }
  return true;
}

} // namespace devplace_tool

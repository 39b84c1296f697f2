//===--- ProjectSummaries.h - summaries across translation units -*- C++
//-*-===//
//
// A function's summary (its return value's device, the parameters it
// moves, reads on the host or writes through references, the conditions
// its masks speak of) in a form that outlives its AST: what one translation
// unit exports for the functions it defines and another imports for the
// functions it only declares. They are keyed by the function's linkage
// name (its mangled name), which is how the linker joins a call in one
// file to the body in another; a name that two files define differently is
// left out (its calls stay unknown).
//
// Provenance crosses too: each step of a summary's chains keeps its file,
// line and column, so notes walk into the other file.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_PROJECTSUMMARIES_H
#define DEVPLACE_MODEL_PROJECTSUMMARIES_H

#include "devplace/model/Facts.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CXXRecordDecl;
class FunctionDecl;
class SourceManager;
namespace devplace {

/// One step of provenance, with its place as file, line and column.
struct PortableStep {
  Step::Kind K = Step::Assigned;
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Subject, Detail, When, Object, DeviceType;
  bool SubjectIsDevice = false;
};

/// A fact, its provenance chain from the value back to its source.
struct PortableFact {
  Fact Value; ///< Why is always null here
  std::vector<PortableStep> Why;
};

/// A parameter that reaches host code, and where.
struct PortableSink {
  unsigned Index = 0;
  Mask When = AllValuations;
  bool UnknownOnly = false;
  std::string Tensor, File;
  unsigned Line = 0, Column = 0;
};

/// Where one of the function's atoms comes from (AtomOrigin): a flag
/// parameter, an accelerator's availability, or a flag member.
struct PortableAtom {
  int Param = -1;
  std::string DeviceType; ///< availability of this accelerator
  std::string Member;     ///< a flag member of the method's class, by name
};

struct PortableSummary {
  std::string Name; ///< as written, for notes ("to_device")
  PortableFact Return;
  std::vector<PortableFact> ReturnElements;
  std::vector<PortableSink> ParamSinks;
  std::vector<PortableAtom> Atoms;
  std::vector<std::pair<unsigned, PortableFact>> ParamOut;
  bool MayWait = false;
  bool Complete = true;

  /// For a module class (keyed by classKey()) whose every method one file
  /// defines, what that file's scan of its registrations says: the members
  /// its methods give a value, each with whether a register_* call covers
  /// it; whether it registers anything; whether it asks about training
  /// mode. A file that sees only the class's declaration (its constructor
  /// defined in the other file) learns which members move with ->to().
  bool ModuleClass = false;
  std::vector<std::pair<std::string, bool>> Members;
  bool RegistersAnything = false;
  bool ReadsTrainingMode = false;

  /// Whether a caller learns anything from it: a device, a parameter
  /// followed, a host read, a write through a reference. A summary that
  /// says only "unknown" is not imported (the call stays as it is without
  /// one), so a file that calls nothing else is never analysed again for it.
  bool informative() const;

  bool operator==(const PortableSummary &O) const;
  bool operator!=(const PortableSummary &O) const { return !(*this == O); }
  /// A hash of everything above: what a file that used it records.
  uint64_t hash() const;
};

/// The summaries of a project's functions, by linkage name.
class ProjectSummaries {
public:
  /// What a file that looks \p LinkageName up uses: its summary when it is
  /// informative (else null), with its hash in \p Hash (0 for none), which
  /// the file records so that a changed summary re-analyses it.
  const PortableSummary *usable(llvm::StringRef LinkageName,
                                uint64_t &Hash) const;
  /// Adds \p S from \p File; a second, different definition of the same
  /// name (two programs of one project each with their own `helper`)
  /// makes the name ambiguous, and usable() answers nothing for it.
  void add(const std::string &LinkageName, const PortableSummary &S,
           const std::string &File);
  /// Every file's own summaries replaced by \p Exports.
  void replaceFile(const std::string &File,
                   const std::map<std::string, PortableSummary> &Exports);
  size_t size() const { return ByName.size(); }

  std::string toJSON() const;
  /// The summaries in \p Text (toJSON's), or none when it is not theirs.
  static std::optional<ProjectSummaries> fromJSON(llvm::StringRef Text);

private:
  struct Entry {
    PortableSummary Summary;
    std::vector<std::string> Files; ///< that define it
    bool Ambiguous = false;
    uint64_t Usable = 0; ///< usable()'s hash, kept with the summary
  };
  std::map<std::string, Entry> ByName;
};

/// A map of summaries as JSON, and back (the result cache keeps each file's
/// exports so).
std::string summariesToJSON(const std::map<std::string, PortableSummary> &M);
std::optional<std::map<std::string, PortableSummary>>
summariesFromJSON(llvm::StringRef Text);

/// What one translation unit's analysis exchanges with the project: the
/// summaries it may use, and, filled by the analysis, the summaries of the
/// functions it defines and the names it looked up (with the hash of the
/// summary it found, 0 for none), so that a changed summary re-analyses
/// the files that used it and nothing else.
struct SummaryExchange {
  const ProjectSummaries *Imports = nullptr;
  std::map<std::string, PortableSummary> Exports;
  std::map<std::string, uint64_t> Used;
  bool Exported = false; ///< one analysis per unit exports
};

/// The exchange of the translation unit this thread analyses, set by a
/// front end that runs a project (none: one file, today's behaviour).
SummaryExchange *&currentSummaryExchange();

/// Summaries every translation unit of the process may import when no
/// front end set an exchange: an editor's server, which analyses one file at
/// a time, reads the ones a project run kept (set once, before any
/// analysis).
const ProjectSummaries *&processSummaries();

/// The key of \p RD's registrations among the project's summaries ("class
/// ns::NetImpl"), or "" for a class no other file can name (local, in an
/// anonymous namespace, a template's).
std::string classKey(const CXXRecordDecl *RD);

/// \p FD's linkage name, or "" when it has none a linker would share (a
/// static function, a lambda, a template, a function in an anonymous
/// namespace).
std::string linkageName(const FunctionDecl *FD);

} // namespace devplace
} // namespace clang

#endif

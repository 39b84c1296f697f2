//===--- DeviceAnalysis.h - where may each tensor live? ---------*- C++ -*-===//
//
// A per-function, flow-sensitive analysis of the device of every LibTorch
// value a function touches (tensors, devices, tensor options, IValues,
// containers of them, and raw pointers into tensor memory).
//
// The lattice. A function's device choices depend on a few boolean
// conditions (torch::cuda::is_available(), a use_gpu flag, …): the "atoms".
// With at most six atoms there are 64 valuations, and a fact is two 64-bit
// masks: the valuations under which the value may be on the host, and those
// under which it may be on a CUDA device. Each program point also has a
// reachability mask: a branch on an atom masks the valuations on each side.
// Joins are bitwise ORs, so the analysis is a plain CFG worklist whose cost
// is linear in the size of the function (no solver).
//
// Parameters carry a symbolic "same device as parameter i" bit, so one run
// over a function yields both its findings and a summary that its callers use
// (the device of its return value in terms of its arguments).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_ANALYSIS_DEVICEANALYSIS_H
#define DEVPLACE_ANALYSIS_DEVICEANALYSIS_H

#include "analysis/Catalogue.h"
#include "utils/TensorTypes.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class Expr;
namespace tidy::devplace {

using Mask = uint64_t;
inline constexpr Mask AllValuations = ~Mask(0);

/// One link of the chain that explains how a value came to be on a device.
/// The chain runs from the sink back to the source; notes print it reversed.
struct Step {
  enum Kind {
    DeviceConstant, ///< kCUDA, Device("cuda:0"), a device chosen by a condition
    MovedTo,        ///< .to(dev), .cuda(), .to(other)
    CreatedOn,      ///< a factory with device options
    Assigned,       ///< a variable takes the value
    Inserted,       ///< the value is added to a container
    PointsInto,     ///< a raw pointer into the tensor's memory
    Returned,       ///< the result of a call
    MovedByCall,    ///< a helper moved a variable passed by reference
    UnknownOrigin,  ///< a parameter or field whose device is not known
  };
  Kind K;
  SourceLocation Loc;
  llvm::StringRef Subject; ///< the variable the note names; may be empty
  llvm::StringRef Detail;  ///< device expression, tensor name, callee
  llvm::StringRef When;    ///< the condition under which this step runs
  const Step *Prev;
  unsigned Depth;
  bool SubjectIsDevice = false; ///< the subject is a Device, not a tensor
  llvm::StringRef Object; ///< for moves: the tensor moved, named when no
                          ///< variable takes the result
};

/// The abstract device of one value.
struct Fact {
  Mask Host = 0;         ///< valuations under which it may be on the host
  Mask Dev = 0;          ///< valuations under which it may be on a device
  uint32_t Params = 0;   ///< parameters whose (unknown) device it carries
  bool Unknown = false;  ///< device comes from where the analysis cannot see
  bool Scalar = false;   ///< a 0-dim tensor on every path (a CPU one may meet
                         ///< CUDA tensors in an operation)
  const Step *Why = nullptr; ///< how it may have come to the device

  bool hasInfo() const { return Host || Dev || Params || Unknown; }
  bool sameAs(const Fact &O) const {
    return Host == O.Host && Dev == O.Dev && Params == O.Params &&
           Unknown == O.Unknown && Scalar == O.Scalar;
  }
  static Fact host() {
    Fact F;
    F.Host = AllValuations;
    return F;
  }
  static Fact device(const Step *Why) {
    Fact F;
    F.Dev = AllValuations;
    F.Why = Why;
    return F;
  }
  static Fact unknown(const Step *Why = nullptr) {
    Fact F;
    F.Unknown = true;
    F.Why = Why;
    return F;
  }
};

/// Joins two facts (the device of a value that may come from either).
Fact join(const Fact &A, const Fact &B);

/// Where host code touches the memory of a tensor that may be on a device.
struct HostAccess {
  enum Kind { Read, Write, Accessor, Call, Construct, Helper };
  Kind K;
  const Expr *Sink;      ///< the expression that touches host memory
  const Expr *Operand;   ///< the pointer or tensor expression it touches
  std::string Tensor;    ///< the tensor whose memory it is
  std::string Callee;    ///< for Call/Construct: the host code's name
  bool Definite;         ///< is (rather than may be) on a device
  const Step *Why;       ///< provenance, from the sink back to the source
  bool UnknownOnly;      ///< no known device path: a parameter, a field; the
                         ///< checks report these only in their StrictMode
  uint32_t Params = 0;   ///< parameters of the function whose memory it is
  const HostAccess *Inner = nullptr; ///< for Helper: the sink in the callee
};

/// Two tensors (or a module and its input) that may be on different devices
/// when they meet in one operation.
struct DeviceMismatch {
  enum Kind { Operands, ModuleInput };
  Kind K;
  const Expr *Where;     ///< the operation
  const Expr *A, *B;     ///< the operands; A is the module for ModuleInput
  std::string NameA, NameB;
  Fact FA, FB;
  bool AOnDevice;        ///< A is the device side (else B is)
  bool Definite;         ///< on every path, not only on some
};

/// A host synchronisation on a tensor that is or may be on a device:
/// .item(), .cpu(), .to(kCPU), .is_nonzero(), printing.
struct HostSync {
  const Expr *Call;
  std::string Tensor;
  std::string What;      ///< ".item()", ".cpu()", "operator<<", …
  bool Definite;
  const Step *Why;
};

/// The result of analysing one function.
struct FunctionResult {
  std::vector<HostAccess> Accesses;
  std::vector<DeviceMismatch> Mismatches;
  std::vector<HostSync> Syncs;
  Fact Return;           ///< device of the return value (summary for callers)
  /// Parameters whose memory reaches a host sink, with that sink (directly
  /// or through further calls): callers report device arguments there.
  std::vector<std::pair<unsigned, const HostAccess *>> ParamSinks;
  /// Parameters passed by non-const reference that the function leaves with
  /// another device: their value at the exit (callers update the argument).
  std::vector<std::pair<unsigned, Fact>> ParamOut;
  bool Complete = true;  ///< false when a bound cut the analysis short
  unsigned Blocks = 0;   ///< blocks of the function's CFG
  unsigned Visits = 0;   ///< block visits made (Budget when cut short)
};

struct AnalysisOptions {
  /// Upper bound on block visits, as a multiple of the number of blocks.
  /// Measured (bench/bounds.py): real LibTorch code, the generated
  /// workloads and every inline function of <torch/torch.h>,
  /// <torch/script.h> and OpenCV need at most a few visits per block; the
  /// bound only stops pathological inputs, and cost stays linear.
  unsigned MaxVisitsPerBlock = 64;
};

/// Totals over the process: `devplace --analysis-stats` prints them, and they are how
/// the visit bound was chosen (bench/bounds.py).
struct AnalysisStats {
  std::atomic<uint64_t> Functions{0}, Blocks{0}, Visits{0}, CutShort{0};
  /// The largest visits-per-block ratio of any function, in hundredths.
  std::atomic<uint64_t> MaxVisitsPerBlockX100{0};
};
AnalysisStats &analysisStats();

/// Analyses functions of one translation unit, memoising per function so
/// that each is analysed once and callers can use callee summaries.
class DeviceAnalysis {
public:
  DeviceAnalysis(ASTContext &Ctx, Catalogue Cat, AnalysisOptions Opts);
  ~DeviceAnalysis();

  /// Analyses \p FD (which must have a body); memoised.
  const FunctionResult &analyze(const FunctionDecl *FD);

  /// Analyses all of \p Functions. Class members are summarised across the
  /// translation unit (the join of every value written to them, whichever
  /// object and method); when some member may hold a device value, the
  /// functions are analysed again (at most MaxMemberRounds times) until the
  /// member summaries stop changing, so that reads see every write.
  void analyzeAll(const std::vector<const FunctionDecl *> &Functions);

  /// False when member summaries were still changing after the last round
  /// analyzeAll allows: reads of members may miss some writes.
  bool membersSettled() const { return MembersSettled; }

  /// Renders a step as the text of a note.
  static std::string describe(const Step &S);

  ASTContext &context() const { return Ctx; }

  /// classifyType(), remembered per canonical type for this translation
  /// unit: it is asked for on nearly every expression.
  DeviceCarrier classify(QualType T);
  const Catalogue &catalogue() const { return Cat; }
  const AnalysisOptions &options() const { return Opts; }

  /// Arena for steps; lives as long as the analysis.
  llvm::BumpPtrAllocator &arena() { return Arena; }
  /// Interned strings for steps. Not a UniqueStringSaver over the arena:
  /// its out-of-line allocation path (in libLLVM) does not unpoison what the
  /// inline, ASan-instrumented one poisons, so sanitizer builds would trip.
  llvm::StringRef save(llvm::StringRef S) { return Strings.insert(S).first->getKey(); }

private:
  friend class FunctionAnalyzer;
  ASTContext &Ctx;
  Catalogue Cat;
  AnalysisOptions Opts;
  llvm::BumpPtrAllocator Arena;
  llvm::StringSet<> Strings;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionResult>> Results;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
  llvm::DenseMap<const Type *, DeviceCarrier> Carriers;
  /// Per member, the join of the values written to it anywhere in the TU.
  llvm::DenseMap<const FieldDecl *, Fact> FieldFacts;
  static constexpr unsigned MaxMemberRounds = 4;
  bool MembersSettled = true;
  /// Per lambda class and captured variable, the value at the capture.
  llvm::DenseMap<std::pair<const CXXRecordDecl *, const VarDecl *>, Fact> CaptureFacts;
};

} // namespace tidy::devplace
} // namespace clang


#endif

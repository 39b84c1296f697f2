//===--- Facts.h - what the model records about one function ----*- C++ -*-===//
//
// The model's output for one function: where host code touches memory that
// may not be on the host, where a host synchronisation meets a tensor that
// may be on a device, which values meet in one operation, and the summary
// that callers use. These are facts with their provenance; deciding which of
// them is a finding, and how to say so, is the rules' work (checks/).
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_FACTS_H
#define DEVPLACE_MODEL_FACTS_H

#include "devplace/model/Lattice.h"
#include "llvm/ADT/StringRef.h"
#include <atomic>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace clang {
class Expr;
class FieldDecl;
class ParentMap;
namespace devplace {

/// Host code touches the memory of a tensor that may be on a device, or
/// whose device the model cannot see.
struct HostAccess {
  enum Kind { Read, Write, Accessor, Call, Construct, Helper };
  Kind K;
  const Expr *Sink;    ///< the expression that touches host memory
  const Expr *Operand; ///< the pointer or tensor expression it touches
  std::string Tensor;  ///< the tensor whose memory it is
  std::string Callee;  ///< for Call/Construct: the host code's name
  bool Definite;       ///< is (rather than may be) on a device
  const Step *Why;     ///< provenance, from the sink back to the source
  bool UnknownOnly;    ///< no known device path: a parameter, a field
  uint32_t Params = 0; ///< parameters of the function whose memory it is
  Mask ParamsWhen = AllValuations;   ///< valuations under which it is theirs
  const HostAccess *Inner = nullptr; ///< for Helper: the access in the callee
  /// Where it is: Sink's place, or for the summary of a function defined in
  /// another translation unit (which has no Sink here) its place there.
  SourceLocation At = {};
};

/// Two values meet in one operation that needs them on one device: tensor
/// operands, or a module and its input.
struct Meeting {
  /// Operands of one operation; a module and its input; or an argument
  /// and what a callee's parameter meets inside (ParamMeeting).
  enum Kind { Operands, ModuleInput, ThroughCall };
  Kind K;
  const Expr *Where; ///< the operation, or the call
  /// The operands; A is the module for ModuleInput, and the callee's side
  /// (not an expression of this function) for ThroughCall.
  const Expr *A, *B;
  std::string NameA, NameB;
  Fact FA, FB;
  Mask Reach; ///< valuations under which the operation runs
  /// For ThroughCall: the meeting in the callee, the callee as the call
  /// names it, and its parameter.
  const Meeting *Inner = nullptr;
  std::string Callee = {}, Param = {};
};

/// A parameter meets, in one operation, a value the function put on a
/// device (a member module loaded onto CUDA in the constructor, given the
/// parameter as input): a caller's argument on another device mismatches
/// there.
struct ParamMeeting {
  unsigned Index;   ///< the parameter
  unsigned Meeting; ///< the operation, in FunctionFacts::Meetings
  bool ParamIsB;    ///< the parameter is the meeting's B side (else A)
};

/// A host synchronisation on a tensor that may be on a device: .item(),
/// .cpu(), .to(kCPU), .is_nonzero(), printing.
struct HostSync {
  const Expr *Call;
  std::string Tensor;
  std::string What; ///< ".item()", ".cpu()", "operator<<", …
  bool Definite;
  const Step *Why;
  /// Empty when the function itself may put the tensor on a device.
  /// Otherwise the name of the function's torch::Device or TensorOptions
  /// parameter whose device the tensor is on: the caller's choice, which
  /// may be an accelerator.
  std::string CallerDevice = {};
};

/// The values of a host copy made with non_blocking=true (`h =
/// d.to(kCPU, true)` of a tensor that may be on a device) are read on a
/// path on which nothing has waited for the device since the copy: a
/// device synchronisation, a blocking copy or `.item()` of a tensor on the
/// device, or a call to code that may do one of these.
struct AsyncRead {
  const Expr *Copy; ///< the copy (a HostSync of the same function)
  const Expr *Read; ///< the read: `h.data_ptr<float>()`, `std::cout << h`
};

/// Code that reads device memory (a TensorRT tensor address) is given a
/// pointer into a tensor that is on the host on every path that reaches it.
struct HostMemoryToDevice {
  const Expr *Call;    ///< the call that expects device memory
  const Expr *Operand; ///< the pointer argument
  std::string Tensor;  ///< the tensor (or buffer) whose memory it is
  std::string Callee;
  /// For a tensor made over the memory (from_blob) with options that place
  /// it on a device: how the options came to that device, and whether they
  /// do on every path (rather than under some condition).
  const Step *Claimed = nullptr;
  bool Definite = true;
};

/// A parameter whose memory reaches host code.
struct ParamSink {
  unsigned Index;
  const HostAccess *Access; ///< the first such access
  /// The function's valuations under which one does: a helper that moves
  /// the parameter to the host itself under `if (use_gpu)` reaches host code
  /// with it only where use_gpu is false.
  Mask When;
};

/// Where one of a function's condition atoms comes from, so that a caller
/// can say which of its own valuations a summary's masks mean.
struct AtomOrigin {
  int Param = -1;               ///< a bool parameter, by index, or
  const void *Shared = nullptr; ///< a condition that means the same in
                                ///< every function (an availability call)
  /// or a flag member of the object the method runs on that only its
  /// constructors set: the same condition in every method of one object.
  const FieldDecl *Member = nullptr;
  llvm::StringRef DeviceType; ///< the accelerator whose availability it is
};

/// What the model records about one function.
struct FunctionFacts {
  std::vector<HostAccess> Accesses; ///< in source order
  std::vector<Meeting> Meetings;    ///< in the order the operations run
  std::vector<HostSync> Syncs;
  std::vector<HostMemoryToDevice> HostToDevice;
  std::vector<AsyncRead> AsyncReads; ///< in the order the blocks run
  /// Copies to the host (`t.cpu()`, `t.to(kCPU)`) of a tensor that is on
  /// the host on every path that reaches them: LibTorch returns the tensor
  /// itself, so the result shares its memory and is no temporary copy.
  std::vector<const Expr *> HostCopiesOfHostValues;
  /// The function may wait for a device (a synchronisation, a blocking copy
  /// of a tensor that may be on one, a call that may): callers' pending
  /// asynchronous copies have arrived after a call to it.
  bool MayWait = false;
  Fact Return; ///< device of the return value (summary for callers)
  /// For a pair or tuple result built element by element on every return
  /// (`return {a, b}`, `std::make_tuple(…)`, a local tuple): the device of
  /// each element, so that callers' bindings keep a host element host. For
  /// a plain struct of tensors (`return Output{a, b}`, a local object
  /// returned whole): the device of each member, by field index. Empty when
  /// some return cannot be split.
  std::vector<Fact> ReturnElements;
  /// Parameters whose memory reaches host code, with that access (directly
  /// or through further calls): callers' device arguments reach it too.
  std::vector<ParamSink> ParamSinks;
  /// Parameters that meet a value on a device in one operation, each with
  /// the first such meeting: callers' arguments meet it too.
  std::vector<ParamMeeting> ParamMeetings;
  /// The function's atoms, in order (their masks' bits): what callers map
  /// to their own valuations. Other atoms (a local flag) are left free.
  std::vector<AtomOrigin> AtomOrigins;
  /// Parameters passed by non-const reference that the function leaves with
  /// another device: their value at the exit (callers update the argument).
  std::vector<std::pair<unsigned, Fact>> ParamOut;
  /// Reference parameters to a plain struct whose members the function
  /// follows (`void move(Pair &p, Device d) { p.a = p.a.to(d); }`): their
  /// indices, and the members it leaves with another value than the
  /// caller's (in the function's parameters; the parameter's own bit is
  /// the caller's object). Callers keep the other members as they were.
  std::vector<unsigned> ParamMembersFollowed;
  std::vector<std::tuple<unsigned, const FieldDecl *, Fact>> ParamMemberOut;
  /// For a method of a plain class (one whose objects keep a fact per
  /// member, see MemberObjects): each member's value at the exit. Members
  /// are symbolic at the entry, after the parameters (bit NumParams + k for
  /// the k-th member with a fact), so that a caller updates its own object
  /// (`h.add(loss)` with `void add(Tensor t) { values_.push_back(t); }`).
  std::vector<std::pair<const FieldDecl *, Fact>> MemberOut;
  /// Parents of the statements of the body, for the rules that walk up from
  /// a fact (built once per function, shared by every rule).
  std::shared_ptr<ParentMap> Parents;
  bool Broken = false;  ///< the function does not compile (hasErrors): it
                        ///< has no facts, and its result is unknown
  bool Complete = true; ///< false when a bound cut the analysis short: then
                        ///< every device possibility found is real, but "on
                        ///< every path" and "only on the host" are not
                        ///< proven (the Definite flags are cleared)
  unsigned Blocks = 0;  ///< blocks of the function's CFG
  unsigned Visits = 0;  ///< block visits made (Budget when cut short)
};

struct SummaryExchange;

struct AnalysisOptions {
  /// The project's summaries of functions defined in other translation
  /// units, and where this unit records what it used of them; none for one
  /// file on its own (ProjectSummaries.h).
  SummaryExchange *Project = nullptr;
  /// Upper bound on block visits, as a multiple of the number of blocks.
  /// Measured (bench/bounds.py): real LibTorch code, the generated
  /// workloads and every inline function of <torch/torch.h>,
  /// <torch/script.h> and OpenCV need at most a few visits per block; the
  /// bound only stops pathological inputs, and cost stays linear.
  unsigned MaxVisitsPerBlock = 64;
};

/// Totals over the process: `devplace --analysis-stats` prints them, and they
/// are how the visit bound was chosen (bench/bounds.py).
struct AnalysisStats {
  std::atomic<uint64_t> Functions{0}, Blocks{0}, Visits{0}, CutShort{0};
  /// The largest visits-per-block ratio of any function, in hundredths.
  std::atomic<uint64_t> MaxVisitsPerBlockX100{0};
};
AnalysisStats &analysisStats();

} // namespace devplace
} // namespace clang

#endif

//===--- Lattice.h - the abstract device of one value -----------*- C++ -*-===//
//
// A function's device choices depend on a few boolean conditions
// (torch::cuda::is_available(), a use_gpu flag, …): the "atoms". With at most
// six atoms there are 64 valuations, and a fact is two 64-bit masks: the
// valuations under which the value may be on the host, and those under which
// it may be on a device. Joins are bitwise ORs, so the analysis is a plain
// CFG worklist whose cost is linear in the size of the function (no solver).
//
// Parameters carry a symbolic "same device as parameter i" bit, so one run
// over a function yields both its facts and a summary that its callers use.
// A fact also carries its provenance: the chain of steps by which the value
// may have come to a device.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_LATTICE_H
#define DEVPLACE_MODEL_LATTICE_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace clang::devplace {

using Mask = uint64_t;
inline constexpr Mask AllValuations = ~Mask(0);
inline constexpr unsigned MaxAtoms = 6;

/// Valuations in which atom \p I is true: bit V of the mask is set when bit
/// I of V is set.
Mask atomTrueMask(unsigned I);

/// One link of the chain that explains how a value came to be on a device.
/// The chain runs from the sink back to the source; notes print it reversed.
struct Step {
  enum Kind {
    DeviceConstant, ///< kCUDA, Device("cuda:0"), a device chosen by a condition
    MovedTo,        ///< .to(dev), .cuda(), .to(other)
    CreatedOn,      ///< a factory with device options
    Assigned,       ///< a variable takes the value
    Inserted,       ///< the value is added to a container
    ElementAssigned, ///< the value replaces an element of a container
    PointsInto,      ///< a raw pointer into the tensor's memory
    Returned,        ///< the result of a call
    MovedByCall,     ///< a helper moved a variable passed by reference
    UnknownOrigin,   ///< a parameter or field whose device is not known
    KernelArgument,  ///< a parameter of a kernel registered for a device
  };
  Kind K;
  SourceLocation Loc;
  llvm::StringRef Subject; ///< the variable the note names; may be empty
  llvm::StringRef Detail;  ///< device expression, tensor name, callee
  llvm::StringRef When;    ///< the condition under which this step runs
  const Step *Prev;
  unsigned Depth;
  bool SubjectIsDevice = false; ///< the subject is a Device, not a tensor
  llvm::StringRef Object = {};  ///< for moves: the tensor moved, named when no
                                ///< variable takes the result
  /// The device type the code chose ("CUDA", "MPS"), as c10 spells it;
  /// empty when the chain does not say (a configured source function).
  llvm::StringRef DeviceType = {};
};

/// "a CUDA device", "an MPS device", or "a device" when \p Why names no
/// device type: how messages and notes name where a value may be.
std::string deviceNoun(const Step *Why);

/// Which device of its type a value is on, where the code says:
/// `Device(kCUDA, 1)` and "cuda:1" say 1, `Device(kCUDA, rank)` says the
/// variable rank. Unsaid (`kCUDA`, `.cuda()`: the current device) is never
/// compared, and neither is a join of two different indices.
struct DeviceIndex {
  enum Kind : uint8_t { Unsaid, Number, Variable };
  Kind K = Unsaid;
  int64_t N = 0;             ///< the number, for Number
  const void *Var = nullptr; ///< the declaration that holds it, for Variable
  /// The device as messages write it: "cuda:1", "cuda:rank".
  llvm::StringRef Spelling = {};

  bool operator==(const DeviceIndex &O) const {
    return K == O.K && (K != Number || N == O.N) &&
           (K != Variable || Var == O.Var);
  }
  bool operator!=(const DeviceIndex &O) const { return !(*this == O); }
  static DeviceIndex number(int64_t N, llvm::StringRef Spelling) {
    return {Number, N, nullptr, Spelling};
  }
  static DeviceIndex variable(const void *Var, llvm::StringRef Spelling) {
    return {Variable, 0, Var, Spelling};
  }
};

/// Two indices that name different devices: two numbers that differ, or a
/// number and a variable (`cuda:0` against `cuda:rank` differ on every rank
/// but 0). Two variables may hold one value, so they never do.
bool indicesMayDiffer(const DeviceIndex &A, const DeviceIndex &B);

/// The abstract device of one value.
struct Fact {
  Mask Host = 0;       ///< valuations under which it may be on the host
  Mask Dev = 0;        ///< valuations under which it may be on a device
  uint32_t Params = 0; ///< parameters whose (unknown) device it carries
  /// Valuations under which it may carry them (`if (use_gpu) t = t.cpu();`
  /// leaves parameter t's device only where use_gpu is false). AllValuations
  /// when Params is empty.
  Mask ParamsWhen = AllValuations;
  /// Valuations under which it may come from where the analysis cannot see
  /// (a call without a summary, a write through a place it cannot follow).
  /// Like Host and Dev, one element of a join per path: an unknown path
  /// neither proves nor refutes a device that another path chose.
  Mask Unknown = 0;
  bool Scalar = false; ///< a 0-dim tensor on every path (a CPU one may meet
                       ///< CUDA tensors in an operation)
  const Step *Why = nullptr; ///< how it may have come to the device
  /// Which device of its type every path in Dev puts it on; meaningless
  /// (and Unsaid after a join or a restriction) where Dev is empty.
  DeviceIndex Index = {};

  bool hasInfo() const { return Host || Dev || Params || Unknown; }
  bool sameAs(const Fact &O) const {
    return Host == O.Host && Dev == O.Dev && Params == O.Params &&
           ParamsWhen == O.ParamsWhen && Unknown == O.Unknown &&
           Scalar == O.Scalar && Index == O.Index;
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
    F.Unknown = AllValuations;
    F.Why = Why;
    return F;
  }
};

/// Joins two facts (the device of a value that may come from either).
Fact join(const Fact &A, const Fact &B);

/// \p F seen only under the valuations in \p Reach.
inline Fact restrict(Fact F, Mask Reach) {
  F.Host &= Reach;
  if (!(F.Dev &= Reach))
    F.Index = {};
  F.Unknown &= Reach;
  if (F.Params && !(F.ParamsWhen &= Reach)) {
    F.Params = 0;
    F.ParamsWhen = AllValuations;
  }
  return F;
}

/// \p F computed under another function's conditions: each mask becomes all
/// valuations or none, and parameter bits (of that function) become unknown,
/// as does an index that function held in a variable.
Fact widen(Fact F);

} // namespace clang::devplace

#endif

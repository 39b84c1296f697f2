//===--- Atoms.h - the conditions devices depend on ------------*- C++ -*-===//
//
// The atoms of the lattice: the few boolean conditions a function's device
// choices depend on (torch::cuda::is_available(), an unmodified use_gpu
// flag, …), in the order they were found.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_ATOMS_H
#define DEVPLACE_MODEL_ATOMS_H

#include "devplace/model/Facts.h"
#include "devplace/model/Lattice.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace clang::devplace {

/// The atoms of one function, up to MaxAtoms, in the order they were found.
class Atoms {
public:
  /// The index of the atom for \p Key, added (named by \p Text) when new;
  /// -1 when all MaxAtoms are taken.
  int atomFor(const void *Key, llvm::function_ref<std::string()> Text,
              AtomOrigin Origin = {});
  /// The same for an atom that is no boolean expression (a device named at
  /// run time): describe() says \p WhenTrue and \p WhenFalse for it.
  int atomFor(const void *Key, llvm::function_ref<std::string()> Text,
              std::string WhenTrue, std::string WhenFalse);
  /// The index of the atom for \p Key, or -1.
  int find(const void *Key) const;
  /// What callers need to know of each atom (see FunctionFacts).
  const llvm::SmallVector<AtomOrigin, MaxAtoms> &origins() const {
    return Origins;
  }
  /// "'use_gpu' is true and 'cuda' is false": the atoms that \p M fixes.
  std::string describe(Mask M) const;
  const llvm::SmallVector<std::string, MaxAtoms> &texts() const {
    return Texts;
  }

private:
  llvm::SmallVector<const void *, MaxAtoms> Keys;
  llvm::SmallVector<std::string, MaxAtoms> Texts;
  /// Per atom, how describe() says it is true and false ("" for "'T' is
  /// true").
  llvm::SmallVector<std::pair<std::string, std::string>, MaxAtoms> Phrases;
  llvm::SmallVector<AtomOrigin, MaxAtoms> Origins;
};

} // namespace clang::devplace

#endif

//===--- Atoms.cpp - the conditions a function's devices depend on --------===//

#include "Atoms.h"

namespace clang::devplace {

int Atoms::find(const void *Key) const {
  for (unsigned I = 0; I < Keys.size(); ++I)
    if (Keys[I] == Key)
      return I;
  return -1;
}

int Atoms::atomFor(const void *Key, llvm::function_ref<std::string()> Text,
                   AtomOrigin Origin) {
  if (int I = find(Key); I >= 0)
    return I;
  if (Keys.size() == MaxAtoms)
    return -1;
  Keys.push_back(Key);
  Texts.push_back(Text());
  Origins.push_back(Origin);
  return Keys.size() - 1;
}

std::string Atoms::describe(Mask M) const {
  std::string S;
  for (unsigned I = 0; I < Keys.size(); ++I) {
    Mask T = atomTrueMask(I);
    const char *Val = nullptr;
    if ((M & ~T) == 0)
      Val = "true";
    else if ((M & T) == 0)
      Val = "false";
    if (!Val)
      continue;
    if (!S.empty())
      S += " and ";
    S += "'" + Texts[I] + "' is " + Val;
  }
  return S;
}

} // namespace clang::devplace

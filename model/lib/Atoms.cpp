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
  Phrases.emplace_back();
  return Keys.size() - 1;
}

int Atoms::atomFor(const void *Key, llvm::function_ref<std::string()> Text,
                   std::string WhenTrue, std::string WhenFalse) {
  bool New = find(Key) < 0;
  int I = atomFor(Key, Text);
  if (I >= 0 && New)
    Phrases[I] = {std::move(WhenTrue), std::move(WhenFalse)};
  return I;
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
    const std::string &Phrase =
        Val[0] == 't' ? Phrases[I].first : Phrases[I].second;
    S += Phrase.empty() ? "'" + Texts[I] + "' is " + Val : Phrase;
  }
  return S;
}

} // namespace clang::devplace

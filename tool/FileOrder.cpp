//===--- FileOrder.cpp - which files a run analyses first -----------------===//

#include "FileOrder.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <functional>

namespace devplace_tool {

std::vector<std::vector<size_t>>
likelyCallees(const std::vector<std::string> &Files) {
  llvm::StringMap<std::vector<size_t>> ByStem;
  for (size_t I = 0; I < Files.size(); ++I)
    ByStem[llvm::sys::path::stem(Files[I])].push_back(I);
  // A program's entry file (it defines `main`) calls into others and is
  // called by none: two programs of one project that share a header's
  // name (train/sft_train.cpp, core/sft_train.cpp) are ordered by it.
  std::vector<std::string> Texts(Files.size());
  std::vector<char> Entry(Files.size(), 0);
  for (size_t I = 0; I < Files.size(); ++I)
    if (auto Buffer = llvm::MemoryBuffer::getFile(Files[I])) {
      Texts[I] = (*Buffer)->getBuffer().str();
      Entry[I] = llvm::StringRef(Texts[I]).contains("int main(");
    }
  std::vector<std::vector<size_t>> Out(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    llvm::StringRef Text = Texts[I];
    // `#include "dir/model.h"`, line by line: a textual guess needs no
    // preprocessor.
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      Text = Rest;
      Line = Line.ltrim();
      if (!Line.consume_front("#"))
        continue;
      Line = Line.ltrim();
      if (!Line.consume_front("include"))
        continue;
      Line = Line.ltrim();
      if (!Line.consume_front("\""))
        continue;
      llvm::StringRef Header = Line.take_until([](char C) { return C == '"'; });
      auto It = ByStem.find(llvm::sys::path::stem(Header));
      if (It == ByStem.end())
        continue;
      for (size_t J : It->second)
        if (J != I && !Entry[J] &&
            llvm::sys::path::extension(Files[J]) !=
                llvm::sys::path::extension(Header))
          Out[I].push_back(J);
    }
  }
  return Out;
}

std::vector<size_t>
calleesFirst(const std::vector<std::vector<size_t>> &Callees) {
  std::vector<size_t> Order;
  std::vector<char> Seen(Callees.size(), 0);
  // Depth first, callees before their caller; a file met again while its
  // callees are being placed (a cycle) is left where it was first met.
  std::function<void(size_t)> Place = [&](size_t I) {
    if (Seen[I])
      return;
    Seen[I] = 1;
    for (size_t J : Callees[I])
      Place(J);
    Order.push_back(I);
  };
  for (size_t I = 0; I < Callees.size(); ++I)
    Place(I);
  return Order;
}

} // namespace devplace_tool

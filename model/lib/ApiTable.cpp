//===--- ApiTable.cpp - the names devplace knows, and their roles ---------===//

#include "devplace/model/ApiTable.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::devplace {

static const ApiRow Rows[] = {
#define DEVPLACE_API(Match, Name, Role) {ApiMatch::Match, Name, ApiRole::Role},
#define DEVPLACE_DEVICE_API(Match, Name, Role, DeviceType)                     \
  {ApiMatch::Match, Name, ApiRole::Role, DeviceType},
#include "devplace/model/TorchApi.def"
};

llvm::ArrayRef<ApiRow> ApiTable::builtinRows() { return Rows; }

const ApiTable &ApiTable::builtin() {
  static const ApiTable Table = [] {
    ApiTable T;
    for (const ApiRow &R : Rows)
      T.add(R.Match, R.Name, R.Role, R.DeviceType);
    return T;
  }();
  return Table;
}

llvm::StringRef ApiTable::roleName(ApiRole R) {
  static const char *const Names[] = {
#define DEVPLACE_ROLE(Role, Doc) #Role,
#include "devplace/model/TorchApi.def"
  };
  return Names[static_cast<unsigned>(R)];
}

llvm::StringRef ApiTable::roleDoc(ApiRole R) {
  static const char *const Docs[] = {
#define DEVPLACE_ROLE(Role, Doc) Doc,
#include "devplace/model/TorchApi.def"
  };
  return Docs[static_cast<unsigned>(R)];
}

llvm::StringRef ApiTable::spelling(ApiRole R) {
  for (const ApiRow &Row : Rows)
    if (Row.Role == R)
      return Row.Name;
  return "";
}

llvm::StringRef ApiTable::matchName(ApiMatch M) {
  static const char *const Names[] = {
      "Function",     "Method",    "TensorMethod", "MethodName", "Class",
      "ClassName",    "Suffix",    "Substring",    "Namespace",  "Enumerator",
      "DeviceString", "Parameter", "Operator",     "DispatchKey"};
  return Names[static_cast<unsigned>(M)];
}

void ApiTable::add(ApiMatch M, llvm::StringRef Name, ApiRole R,
                   llvm::StringRef DeviceType) {
  // Device types are the builtin rows' string literals: never freed.
  if (!DeviceType.empty()) {
    DeviceTypes[static_cast<unsigned>(M)][Name] = DeviceType;
    DeviceRows.push_back({R, DeviceType, Name.str()});
  }
  if (M == ApiMatch::Suffix || M == ApiMatch::Substring) {
    Patterns.push_back({M, Name.str(), R});
    return;
  }
  Exact[static_cast<unsigned>(M)][Name].set(static_cast<unsigned>(R));
}

void ApiTable::addFunctions(llvm::StringRef List, ApiRole R) {
  while (!List.empty()) {
    auto [Head, Tail] = List.split(';');
    for (llvm::StringRef Name : llvm::split(Head, ',')) {
      Name = Name.trim();
      Name.consume_front("::"); // "::mylib::f" names the same function
      if (!Name.empty())
        add(ApiMatch::Function, Name, R);
    }
    List = Tail;
  }
}

bool ApiTable::patterns(ApiMatch M, llvm::StringRef Name, ApiRole R) const {
  for (const Pattern &P : Patterns)
    if (P.Match == M && P.Role == R &&
        (M == ApiMatch::Suffix ? Name.ends_with(P.Name)
                               : Name.contains(P.Name)))
      return true;
  return false;
}

bool ApiTable::inNamespace(llvm::StringRef QualifiedName, ApiRole R) const {
  size_t Sep = QualifiedName.find("::");
  return Sep != llvm::StringRef::npos &&
         is(ApiMatch::Namespace, QualifiedName.substr(0, Sep), R);
}

bool ApiTable::startsWith(ApiMatch M, llvm::StringRef Text, ApiRole R) const {
  for (const auto &Row : Exact[static_cast<unsigned>(M)])
    if (Row.second.test(static_cast<unsigned>(R)) &&
        Text.starts_with(Row.getKey()))
      return true;
  return false;
}

llvm::StringRef ApiTable::nameFor(ApiRole R, llvm::StringRef DeviceType) const {
  for (const DeviceRow &Row : DeviceRows)
    if (Row.Role == R && Row.DeviceType == DeviceType)
      return Row.Name;
  return {};
}

bool ApiTable::callee(llvm::StringRef QualifiedName, ApiRole R) const {
  return is(ApiMatch::Function, QualifiedName, R) ||
         is(ApiMatch::Method, QualifiedName, R) ||
         inNamespace(QualifiedName, R) ||
         patterns(ApiMatch::Suffix, QualifiedName, R) ||
         patterns(ApiMatch::Substring, QualifiedName, R);
}

bool ApiTable::classNamed(llvm::StringRef QualifiedName, ApiRole R) const {
  return is(ApiMatch::Class, QualifiedName, R) ||
         patterns(ApiMatch::Suffix, QualifiedName, R);
}

} // namespace clang::devplace

//===--- ApiTable.h - the names devplace knows, and their roles -*- C++ -*-===//
//
// The rows of TorchApi.def, indexed for look-up. Every piece of knowledge
// about a library's API that the model, the rules and the fix-its use comes
// from here; users add rows through the checks' options.
//
//===----------------------------------------------------------------------===//
#ifndef DEVPLACE_MODEL_APITABLE_H
#define DEVPLACE_MODEL_APITABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

namespace clang::devplace {

enum class ApiRole : uint8_t {
#define DEVPLACE_ROLE(Role, Doc) Role,
#include "devplace/model/TorchApi.def"
  NumRoles
};
/// The roles of one name.
using ApiRoles = std::bitset<static_cast<unsigned>(ApiRole::NumRoles)>;

/// How a row's name is compared (see TorchApi.def).
enum class ApiMatch : uint8_t {
  Function,
  Method,
  TensorMethod,
  MethodName,
  Class,
  ClassName,
  Suffix,
  Substring,
  Namespace,
  Enumerator,
  DeviceString,
  Parameter,
  Operator,
  DispatchKey,
  NumMatches
};

struct ApiRow {
  ApiMatch Match;
  llvm::StringRef Name;
  ApiRole Role;
  llvm::StringRef DeviceType = {}; ///< for a row about one device type
};

class ApiTable {
public:
  /// The rows of TorchApi.def.
  static const ApiTable &builtin();
  static llvm::ArrayRef<ApiRow> builtinRows();
  static llvm::StringRef roleName(ApiRole R);
  static llvm::StringRef roleDoc(ApiRole R);
  static llvm::StringRef matchName(ApiMatch M);
  /// The name of the first builtin row with role \p R: how a fix-it spells
  /// what the role names ("cpu" for HostCopyFix).
  static llvm::StringRef spelling(ApiRole R);

  void add(ApiMatch M, llvm::StringRef Name, ApiRole R,
           llvm::StringRef DeviceType = {});
  /// Adds the ';'- or ','-separated qualified function names in \p List
  /// (a check option) with role \p R.
  void addFunctions(llvm::StringRef List, ApiRole R);

  /// Exact look-ups.
  bool is(ApiMatch M, llvm::StringRef Name, ApiRole R) const {
    const auto &Map = Exact[static_cast<unsigned>(M)];
    auto It = Map.find(Name);
    return It != Map.end() && It->second.test(static_cast<unsigned>(R));
  }
  /// The device type a row of kind \p M names ("CUDA" for `.cuda()`), or
  /// empty.
  llvm::StringRef deviceType(ApiMatch M, llvm::StringRef Name) const {
    return DeviceTypes[static_cast<unsigned>(M)].lookup(Name);
  }
  /// The first row of role \p R about device type \p DeviceType ("the call
  /// that synchronises an MPS device"), or empty.
  llvm::StringRef nameFor(ApiRole R, llvm::StringRef DeviceType) const;
  /// A callee by qualified name: a Function or Method row, or a Namespace,
  /// Suffix or Substring row that matches it.
  bool callee(llvm::StringRef QualifiedName, ApiRole R) const;
  /// A class by qualified name: a Class row, or a Suffix row.
  bool classNamed(llvm::StringRef QualifiedName, ApiRole R) const;
  bool tensorMethod(llvm::StringRef Name, ApiRole R) const {
    return is(ApiMatch::TensorMethod, Name, R);
  }
  bool methodName(llvm::StringRef Name, ApiRole R) const {
    return is(ApiMatch::MethodName, Name, R);
  }
  /// The qualified name lies in a namespace with role \p R.
  bool inNamespace(llvm::StringRef QualifiedName, ApiRole R) const;
  /// \p Name ends with a Suffix row of role \p R.
  bool endsWith(llvm::StringRef Name, ApiRole R) const {
    return patterns(ApiMatch::Suffix, Name, R);
  }
  /// \p Text starts with a row of kind \p M (a DeviceString) and role \p R.
  bool startsWith(ApiMatch M, llvm::StringRef Text, ApiRole R) const;

private:
  bool patterns(ApiMatch M, llvm::StringRef Name, ApiRole R) const;
  llvm::StringMap<ApiRoles> Exact[static_cast<unsigned>(ApiMatch::NumMatches)];
  llvm::StringMap<llvm::StringRef>
      DeviceTypes[static_cast<unsigned>(ApiMatch::NumMatches)];
  /// The rows about one device type, in the order they were added.
  struct DeviceRow {
    ApiRole Role;
    llvm::StringRef DeviceType;
    std::string Name;
  };
  std::vector<DeviceRow> DeviceRows;
  /// Suffix and Substring rows, tried one by one (a handful).
  struct Pattern {
    ApiMatch Match;
    std::string Name;
    ApiRole Role;
  };
  std::vector<Pattern> Patterns;
};

} // namespace clang::devplace

#endif

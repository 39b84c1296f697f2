//===--- Provenance.cpp - the notes that tell how a value got there -------===//

#include "devplace/model/DeviceModel.h"

namespace clang::devplace {

std::string deviceNoun(const Step *Why) {
  llvm::StringRef Type = Why ? Why->DeviceType : "";
  if (Type.empty())
    return "a device";
  // Spelt-out initialisms whose first letter sounds like a vowel ("an MPS
  // device", "an XPU device"); CUDA, HIP and METAL are said as words.
  bool Vowel = Type == Type.upper() &&
               llvm::StringRef("AEFHILMNORSX").contains(Type.front()) &&
               Type != "HIP" && Type != "METAL" && Type != "META" &&
               Type != "LAZY";
  return (Vowel ? "an " : "a ") + Type.str() + " device";
}

std::string describe(const Step &S) {
  std::string Subject = S.Subject.empty() ? "" : "'" + S.Subject.str() + "' ";
  std::string Noun = deviceNoun(&S);
  std::string Msg;
  switch (S.K) {
  case Step::DeviceConstant: {
    std::string Be = (S.SubjectIsDevice ? "is " : "is on ") + Noun;
    if (S.Detail.starts_with("depending on"))
      Msg = (Subject.empty()
                 ? Noun + " may be chosen here, "
                 : Subject + (S.SubjectIsDevice ? "may be " : "may be on ") +
                       Noun + ", ") +
            S.Detail.str();
    else if (S.Detail.contains(" is true") || S.Detail.contains(" is false"))
      Msg = Subject.empty() ? Noun + " is chosen here when " + S.Detail.str()
                            : Subject + Be + " when " + S.Detail.str();
    else
      Msg = Subject.empty() ? S.Detail.str() + " is chosen here"
                            : Subject + "is set to " + S.Detail.str() + " here";
    break;
  }
  case Step::MovedTo:
  case Step::CreatedOn:
    Msg = (!Subject.empty()    ? Subject
           : !S.Object.empty() ? "'" + S.Object.str() + "' "
                               : std::string("the tensor ")) +
          (S.K == Step::MovedTo ? "is moved to " : "is created on ") +
          (S.Detail.empty() ? Noun : S.Detail.str()) + " here";
    break;
  case Step::Assigned:
    Msg = Subject + "is assigned here";
    break;
  case Step::Inserted:
    Msg = "an element is added to " + Subject + "here";
    break;
  case Step::ElementAssigned:
    Msg = "an element of " + Subject + "is assigned here";
    break;
  case Step::PointsInto:
    Msg = (Subject.empty() ? std::string("a pointer ") : Subject) +
          "points into the memory of '" + S.Detail.str() + "'";
    break;
  case Step::Returned:
    // A configured source function has no chain behind it; a summarised
    // helper has the chain of its own return value.
    Msg = (Subject.empty() ? std::string("the tensor ") : Subject) +
          "comes from '" + S.Detail.str() + "', which returns " +
          (S.Prev ? "a result that may be on " + Noun : "a tensor on " + Noun);
    break;
  case Step::MovedByCall:
    Msg = Subject + "is moved by '" + S.Detail.str() + "' here";
    break;
  case Step::UnknownOrigin:
    Msg = Subject + "comes from outside this function; its device is unknown";
    break;
  case Step::KernelArgument:
    Msg = Subject + "is on " + Noun + ": " + S.Detail.str() + " here";
    break;
  }
  if (!S.When.empty())
    Msg += ", when " + S.When.str();
  return Msg;
}

} // namespace clang::devplace

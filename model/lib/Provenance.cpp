//===--- Provenance.cpp - the notes that tell how a value got there -------===//

#include "devplace/model/DeviceModel.h"

namespace clang::devplace {

std::string describe(const Step &S) {
  std::string Subject = S.Subject.empty() ? "" : "'" + S.Subject.str() + "' ";
  std::string Msg;
  switch (S.K) {
  case Step::DeviceConstant: {
    const char *Be =
        S.SubjectIsDevice ? "is a CUDA device" : "is on a CUDA device";
    if (S.Detail.starts_with("depending on"))
      Msg = (Subject.empty() ? std::string("a CUDA device may be chosen here, ")
                             : Subject + (S.SubjectIsDevice
                                              ? "may be a CUDA device, "
                                              : "may be on a CUDA device, ")) +
            S.Detail.str();
    else if (S.Detail.contains(" is true") || S.Detail.contains(" is false"))
      Msg = Subject.empty()
                ? "a CUDA device is chosen here when " + S.Detail.str()
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
          (S.Detail.empty() ? std::string("a CUDA device") : S.Detail.str()) +
          " here";
    break;
  case Step::Assigned:
    Msg = Subject + "is assigned here";
    break;
  case Step::Inserted:
    Msg = "an element is added to " + Subject + "here";
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
          (S.Prev ? "a result that may be on a CUDA device" : "a CUDA tensor");
    break;
  case Step::MovedByCall:
    Msg = Subject + "is moved by '" + S.Detail.str() + "' here";
    break;
  case Step::UnknownOrigin:
    Msg = Subject + "comes from outside this function; its device is unknown";
    break;
  }
  if (!S.When.empty())
    Msg += ", when " + S.When.str();
  return Msg;
}

} // namespace clang::devplace

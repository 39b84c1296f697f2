//===--- Catalogue.cpp - device sources, host sinks, sanitizers -----------===//

#include "analysis/Catalogue.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::devplace {

Catalogue Catalogue::builtin() {
  Catalogue C;
  // C library calls are declared in the global namespace and re-exported
  // into std, so both spellings resolve to the global name; list both for
  // standard libraries that declare them in std.
  for (const char *N :
       {"memcpy", "memmove", "memset", "memcmp", "std::memcpy", "std::memmove",
        "std::memset", "std::memcmp", "fwrite", "fread", "std::fwrite",
        "std::fread", "write", "read",
        // <algorithm> and <numeric> over raw pointers
        "std::copy", "std::copy_n", "std::copy_if", "std::copy_backward",
        "std::move", "std::fill", "std::fill_n", "std::transform",
        "std::accumulate", "std::reduce", "std::inner_product",
        "std::partial_sum", "std::max_element", "std::min_element",
        "std::minmax_element", "std::sort", "std::stable_sort",
        "std::nth_element", "std::partial_sort", "std::find", "std::find_if",
        "std::count", "std::count_if", "std::equal", "std::iota",
        "std::uninitialized_copy", "std::all_of", "std::any_of",
        "std::none_of", "std::for_each",
        // plotting calls that take raw host memory
        "matplotlibcpp::imshow", "matplotlibcpp::plot", "matplotlibcpp::bar",
        "matplotlibcpp::hist", "matplotlibcpp::scatter",
        "matplot::imshow", "matplot::image", "matplot::plot",
        "matplot::bar", "matplot::hist", "matplot::scatter"})
    C.HostMemoryFunctions.insert(N);
  for (const char *N :
       {"std::vector", "std::span", "std::basic_string", "std::basic_string_view",
        "std::valarray", "cv::Mat", "cv::Mat_", "Eigen::Map", "QImage"})
    C.HostMemoryClasses.insert(N);
  for (const char *N :
       {"std::vector::assign", "std::vector::insert", "std::basic_string::assign",
        "std::basic_string::append", "std::basic_istream::read",
        "std::basic_ostream::write", "std::basic_streambuf::sputn",
        "std::basic_streambuf::sgetn"})
    C.HostMemoryMethods.insert(N);
  // The runtime shim (runtime/include/devplace): host copies that stay alive.
  for (const char *N : {"devplace::to_host", "devplace::host_copy"})
    C.HostSanitizers.insert(N);
  return C;
}

void Catalogue::extend(llvm::StringSet<> &Set, llvm::StringRef List) {
  while (!List.empty()) {
    auto [Head, Tail] = List.split(';');
    for (llvm::StringRef Name : llvm::split(Head, ',')) {
      Name = Name.trim();
      Name.consume_front("::"); // "::mylib::f" names the same function
      if (!Name.empty())
        Set.insert(Name);
    }
    List = Tail;
  }
}

} // namespace clang::tidy::devplace

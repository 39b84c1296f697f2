// The one way the fake CUDA device declines to start: a one-line message on
// stderr and exit status 85, before the program runs on a device it cannot
// have (a CUDA LibTorch, a late load, a setting it cannot read).
#pragma once

#include <string>

namespace devplace::fakecuda {

constexpr int kRefusedStatus = 85;

[[noreturn]] void refuse(const std::string &why);

} // namespace devplace::fakecuda

#include "Refusal.h"

#include <cstdio>
#include <unistd.h>

namespace devplace::fakecuda {

void refuse(const std::string &why) {
  std::fprintf(stderr, "devplace fakecuda: %s\n", why.c_str());
  std::fflush(stderr);
  _exit(kRefusedStatus);
}

} // namespace devplace::fakecuda

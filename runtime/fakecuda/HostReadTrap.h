// Stops the program when host code touches the fake device's memory.
//
// The device range has no access, so such a read or write faults. The
// handler says what happened on stderr (the address, the device and size
// of the allocation it falls in, a backtrace with source lines where the
// program has debug information, through addr2line) and exits with status
// 86. A fault anywhere else goes to the handler that was there before.
#pragma once

namespace devplace::fakecuda {

class HostReadTrap {
public:
  static constexpr int kExitStatus = 86;
  static void install();
};

} // namespace devplace::fakecuda

#include "HostReadTrap.h"

#include "DeviceMemory.h"

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace devplace::fakecuda {

namespace {

struct sigaction previous_segv;
bool with_backtrace = true;
struct sigaction previous_bus;

void say(const char *text) {
  ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// One frame through addr2line: function and file:line where the module has
// debug information, else the module and offset.
void printFrame(int number, void *address) {
  Dl_info info;
  char line[512];
  if (!dladdr(address, &info) || !info.dli_fname) {
    std::snprintf(line, sizeof line, "  #%d %p\n", number, address);
    say(line);
    return;
  }
  // Return addresses point after the call: the call's line is one byte
  // back. Shared objects and position-independent executables are looked up
  // by offset, fixed executables by address.
  auto *base = static_cast<const char *>(info.dli_fbase);
  bool fixed = reinterpret_cast<const Elf64_Ehdr *>(base)->e_type == ET_EXEC;
  uintptr_t lookup = reinterpret_cast<uintptr_t>(address) -
                     (number > 0 ? 1 : 0) -
                     (fixed ? 0 : reinterpret_cast<uintptr_t>(base));
  char where[64];
  std::snprintf(where, sizeof where, "%#lx",
                static_cast<unsigned long>(lookup));
  std::snprintf(line, sizeof line, "  #%d ", number);
  say(line);
  pid_t child = fork();
  if (child == 0) {
    dup2(STDERR_FILENO, STDOUT_FILENO);
    const char *argv[] = {"addr2line", "-C",           "-f",  "-i",   "-p",
                          "-e",        info.dli_fname, where, nullptr};
    execvp("addr2line", const_cast<char *const *>(argv));
    std::snprintf(line, sizeof line, "%s+%s\n", info.dli_fname, where);
    say(line);
    _exit(0);
  }
  if (child > 0) {
    int status = 0;
    waitpid(child, &status, 0);
  }
}

void onFault(int signal, siginfo_t *info, void *context) {
  auto &memory = DeviceMemory::instance();
  void *address = info->si_addr;
  if (!memory.inDeviceRange(address)) {
    const struct sigaction &previous =
        signal == SIGBUS ? previous_bus : previous_segv;
    if (previous.sa_flags & SA_SIGINFO && previous.sa_sigaction) {
      previous.sa_sigaction(signal, info, context);
      return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
        previous.sa_handler) {
      previous.sa_handler(signal);
      return;
    }
    struct sigaction fallback{};
    fallback.sa_handler = SIG_DFL;
    sigaction(signal, &fallback, nullptr);
    raise(signal);
    return;
  }
  bool wrote = false;
#if defined(__x86_64__)
  // The page-fault error code's bit 1 is set for a write.
  wrote =
      (static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#endif
  char line[512];
  DeviceMemory::Block block;
  if (memory.blockAt(address, &block)) {
    std::snprintf(
        line, sizeof line,
        "devplace fakecuda: host code %s memory of a CUDA tensor: address %p "
        "is byte %zu of a "
        "cuda:%d allocation of %zu bytes at %p. On a GPU this %s crashes or %s "
        "garbage; copy the "
        "tensor to the host first (.cpu(), .item()).\n",
        wrote ? "wrote" : "read", address,
        static_cast<size_t>(static_cast<char *>(address) - block.device),
        int(block.index), block.size, static_cast<const void *>(block.device),
        wrote ? "write" : "read", wrote ? "corrupts" : "returns");
  } else {
    std::snprintf(line, sizeof line,
                  "devplace fakecuda: host code %s fake CUDA memory at %p that "
                  "no tensor holds (freed, or "
                  "past the end of an allocation). On a GPU this crashes or %s "
                  "garbage.\n",
                  wrote ? "wrote" : "read", address,
                  wrote ? "corrupts" : "returns");
  }
  say(line);
  if (!with_backtrace)
    _exit(HostReadTrap::kExitStatus);
  say("backtrace:\n");
  void *frames[64];
  int count = backtrace(frames, 64);
  // Frame 0 is this handler and frame 1 the kernel's signal return; with a
  // signal's context, the faulting instruction is the program counter.
  void *pc = nullptr;
#if defined(__x86_64__)
  pc = reinterpret_cast<void *>(
      static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RIP]);
#endif
  int number = 0;
  if (pc)
    printFrame(number++, pc);
  for (int i = 2; i < count; ++i) {
    if (pc && i == 2 && frames[i] == pc)
      continue;
    printFrame(number++, frames[i]);
  }
  _exit(HostReadTrap::kExitStatus);
}

} // namespace

void HostReadTrap::install() {
  // DEVPLACE_FAKE_CUDA_BACKTRACE=0: the message alone (a harness that runs
  // many failing programs need not wait for addr2line each time).
  const char *text = std::getenv("DEVPLACE_FAKE_CUDA_BACKTRACE");
  with_backtrace = !(text && std::string_view(text) == "0");
  // backtrace() loads libgcc on its first call: not in a signal handler.
  void *warm[1];
  backtrace(warm, 1);
  static char stack[1 << 16];
  stack_t alternate{};
  alternate.ss_sp = stack;
  alternate.ss_size = sizeof stack;
  sigaltstack(&alternate, nullptr);
  struct sigaction action{};
  action.sa_sigaction = &onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous_segv);
  sigaction(SIGBUS, &action, &previous_bus);
}

} // namespace devplace::fakecuda

// Copies from the fake device to pinned host memory made with
// non_blocking=true. On a GPU such a copy is queued and lands later; until
// the next synchronisation (a blocking copy, item(), synchronize()) the
// destination holds whatever it held. Here the source is read when the copy
// is made, the destination is filled with a poison pattern (0xFF bytes: NaN
// in floating types, -1 in integers), and the values land at the next
// synchronisation, so a program that reads the destination too early sees
// the poison rather than, by luck, the right numbers.
#pragma once

#include <ATen/core/Tensor.h>

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace devplace::fakecuda {

class PendingCopies {
public:
  static PendingCopies &instance();

  // Queues a copy of `values` (host memory, read now) into `destination`.
  void queue(const at::Tensor &destination, at::Tensor values);
  // Lands every queued copy, as any wait for the device does.
  void land();
  // The host waits for the device (a blocking copy between them, item(),
  // synchronize()): the queued copies land, and it counts.
  void synchronise();
  bool empty() const { return count_.load() == 0; }

  // Host synchronisations so far (blocking copies between the device and the
  // host, item(), synchronize()), for tests and benchmarks.
  long synchronisations() const { return synchronisations_.load(); }

private:
  std::mutex mutex_;
  std::vector<std::pair<at::Tensor, at::Tensor>> queued_;
  std::atomic<long> count_{0};
  std::atomic<long> synchronisations_{0};
};

} // namespace devplace::fakecuda

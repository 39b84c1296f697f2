#include "FakeCudaGuard.h"

#include "PendingCopies.h"
#include "Refusal.h"

#include <c10/util/Exception.h>

#include <cstdlib>

namespace devplace::fakecuda {

namespace {

thread_local c10::DeviceIndex current_index = 0;

c10::DeviceIndex countFromEnvironment() {
  const char *text = std::getenv("DEVPLACE_FAKE_CUDA_DEVICES");
  if (!text)
    return 1;
  char *end = nullptr;
  long n = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || n < 0 || n > 16)
    refuse(std::string("DEVPLACE_FAKE_CUDA_DEVICES must be a number of devices "
                       "from 0 to 16, not '") +
           text + "'");
  return static_cast<c10::DeviceIndex>(n);
}

} // namespace

c10::DeviceIndex FakeCudaGuard::currentIndex() { return current_index; }

c10::DeviceIndex
FakeCudaGuard::checkedIndex(const c10::optional<c10::Device> &device) {
  c10::DeviceIndex index =
      device && device->has_index() ? device->index() : current_index;
  TORCH_CHECK(
      index >= 0 && index < devices(),
      "CUDA error: invalid device ordinal (device ", int(index), " of ",
      int(devices()),
      " fake CUDA devices; DEVPLACE_FAKE_CUDA_DEVICES sets their number)");
  return index;
}

FakeCudaGuard::IndexScope::IndexScope(c10::DeviceIndex index)
    : previous_(current_index) {
  current_index = index;
}
FakeCudaGuard::IndexScope::~IndexScope() { current_index = previous_; }

c10::DeviceIndex FakeCudaGuard::devices() {
  static const c10::DeviceIndex count = countFromEnvironment();
  return count;
}

c10::DeviceType FakeCudaGuard::type() const { return c10::DeviceType::CUDA; }

c10::Device FakeCudaGuard::exchangeDevice(c10::Device device) const {
  c10::Device old = getDevice();
  setDevice(device);
  return old;
}

c10::Device FakeCudaGuard::getDevice() const {
  return {c10::DeviceType::CUDA, current_index};
}

void FakeCudaGuard::setDevice(c10::Device device) const {
  current_index = checkedIndex(
      device.has_index() ? device : c10::Device(c10::DeviceType::CUDA, 0));
}

void FakeCudaGuard::uncheckedSetDevice(c10::Device device) const noexcept {
  current_index = device.has_index() ? device.index() : 0;
}

c10::Stream FakeCudaGuard::getStream(c10::Device device) const noexcept {
  return c10::Stream(c10::Stream::DEFAULT, device);
}

c10::Stream FakeCudaGuard::getDefaultStream(c10::Device device) const {
  return c10::Stream(c10::Stream::DEFAULT, device);
}

c10::Stream FakeCudaGuard::getStreamFromGlobalPool(c10::Device device,
                                                   bool) const {
  return c10::Stream(c10::Stream::DEFAULT, device);
}

c10::Stream FakeCudaGuard::exchangeStream(c10::Stream stream) const noexcept {
  return c10::Stream(c10::Stream::DEFAULT, stream.device());
}

c10::DeviceIndex FakeCudaGuard::deviceCount() const noexcept {
  return devices();
}

// Events mark points in a stream's work; the fake device's work is done when
// it returns, so an event is complete as soon as it is recorded.
void FakeCudaGuard::record(void **event, const c10::Stream &,
                           const c10::DeviceIndex, const c10::EventFlag) const {
  if (event && !*event)
    *event = reinterpret_cast<void *>(1);
}

void FakeCudaGuard::block(void *, const c10::Stream &) const {}

bool FakeCudaGuard::queryEvent(void *) const { return true; }

void FakeCudaGuard::destroyEvent(void *,
                                 const c10::DeviceIndex) const noexcept {}

bool FakeCudaGuard::queryStream(const c10::Stream &) const {
  return PendingCopies::instance().empty();
}

void FakeCudaGuard::synchronizeStream(const c10::Stream &) const {
  PendingCopies::instance().land();
}

} // namespace devplace::fakecuda

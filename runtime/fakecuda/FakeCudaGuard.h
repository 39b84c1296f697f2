// The device guard of the fake CUDA device: the current device per thread,
// one default stream per device. Streams and events are there for the code
// of LibTorch that asks for them (the autograd engine); work on the fake
// device is done when its call returns, so every stream is always idle.
#pragma once

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/Optional.h>

namespace devplace::fakecuda {

class FakeCudaGuard final : public c10::impl::DeviceGuardImplInterface {
public:
  static c10::DeviceIndex currentIndex();
  static c10::DeviceIndex devices();
  // The index `device` names (the current one when it names none), checked
  // against the number of devices with CUDA's error.
  static c10::DeviceIndex
  checkedIndex(const c10::optional<c10::Device> &device);

  // Makes `index` the thread's current fake device while it lives, as a
  // kernel runs under a device guard on a GPU.
  class IndexScope {
  public:
    explicit IndexScope(c10::DeviceIndex index);
    ~IndexScope();
    IndexScope(const IndexScope &) = delete;
    IndexScope &operator=(const IndexScope &) = delete;

  private:
    c10::DeviceIndex previous_;
  };

  c10::DeviceType type() const override;
  c10::Device exchangeDevice(c10::Device device) const override;
  c10::Device getDevice() const override;
  void setDevice(c10::Device device) const override;
  void uncheckedSetDevice(c10::Device device) const noexcept override;
  c10::Stream getStream(c10::Device device) const noexcept override;
  c10::Stream getDefaultStream(c10::Device device) const override;
  c10::Stream
  getStreamFromGlobalPool(c10::Device device,
                          bool high_priority = false) const override;
  c10::Stream exchangeStream(c10::Stream stream) const noexcept override;
  c10::DeviceIndex deviceCount() const noexcept override;
  void record(void **event, const c10::Stream &stream,
              const c10::DeviceIndex device_index,
              const c10::EventFlag flag) const override;
  void block(void *event, const c10::Stream &stream) const override;
  bool queryEvent(void *event) const override;
  void
  destroyEvent(void *event,
               const c10::DeviceIndex device_index) const noexcept override;
  bool queryStream(const c10::Stream &stream) const override;
  void synchronizeStream(const c10::Stream &stream) const override;
};

} // namespace devplace::fakecuda

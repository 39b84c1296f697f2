// devplace runtime shim: host transfers that cannot go wrong, checked host
// views, a metric history for training loops and a curve writer.
//
// Header-only; depends on LibTorch alone (the curve writer runs gnuplot when
// it is installed). devplace's checks know these functions: to_host and
// host_copy yield host data, and checked_span is not a host sink.
#pragma once

#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace devplace {

namespace detail {
template <typename T> at::ScalarType scalarTypeOf() {
  return c10::CppTypeToScalarType<T>::value;
}
} // namespace detail

/// A one-element tensor as a host number (wherever the tensor lives).
template <typename T> T to_scalar(const at::Tensor &t) {
  TORCH_CHECK(t.defined(), "devplace::to_scalar: the tensor is undefined");
  TORCH_CHECK(t.numel() == 1, "devplace::to_scalar: expected one element, the tensor has ",
              t.numel(), " (shape ", t.sizes(), ")");
  return t.item<T>();
}

/// A contiguous host copy of \p t (the tensor itself when it already is one).
inline at::Tensor host_copy(const at::Tensor &t) {
  TORCH_CHECK(t.defined(), "devplace::host_copy: the tensor is undefined");
  return t.to(at::kCPU).contiguous();
}

/// The elements of \p t as an owning vector of T: moved to the host, made
/// contiguous and converted to T. With \p expected_numel >= 0, the element
/// count is checked.
template <typename T>
std::vector<T> to_vector(const at::Tensor &t, int64_t expected_numel = -1) {
  TORCH_CHECK(t.defined(), "devplace::to_vector: the tensor is undefined");
  TORCH_CHECK(expected_numel < 0 || t.numel() == expected_numel,
              "devplace::to_vector: expected ", expected_numel, " elements, the tensor has ",
              t.numel());
  at::Tensor host = host_copy(t).to(detail::scalarTypeOf<T>());
  const T *p = host.data_ptr<T>();
  return std::vector<T>(p, p + host.numel());
}

/// A host copy that stays alive as long as this object: pointers and views
/// taken from it never dangle.
class HostTensor {
public:
  explicit HostTensor(const at::Tensor &t) : tensor_(host_copy(t)) {}
  const at::Tensor &tensor() const { return tensor_; }
  template <typename T> const T *data() const {
    TORCH_CHECK(tensor_.scalar_type() == detail::scalarTypeOf<T>(),
                "devplace::HostTensor::data: the tensor holds ", tensor_.scalar_type());
    return tensor_.data_ptr<T>();
  }
  int64_t numel() const { return tensor_.numel(); }

private:
  at::Tensor tensor_;
};

/// A host copy of \p t that outlives the statement (see HostTensor).
inline HostTensor to_host(const at::Tensor &t) { return HostTensor(t); }

/// A view of contiguous host memory.
template <typename T> class HostSpan {
public:
  HostSpan(T *data, size_t size) : data_(data), size_(size) {}
  T *begin() const { return data_; }
  T *end() const { return data_ + size_; }
  T &operator[](size_t i) const { return data_[i]; }
  size_t size() const { return size_; }
  T *data() const { return data_; }

private:
  T *data_;
  size_t size_;
};

/// A view of \p t's memory that refuses, with a clear error instead of a
/// segfault, a tensor that is not a contiguous host tensor of T. \p purpose
/// names the call site in the message ("plotting accuracy").
template <typename T> HostSpan<T> checked_span(const at::Tensor &t, const char *purpose) {
  TORCH_CHECK(t.defined(), "devplace::checked_span(", purpose, "): the tensor is undefined");
  TORCH_CHECK(t.is_cpu(), "devplace::checked_span(", purpose, "): the tensor is on ",
              t.device(), ", not on the host; read it through devplace::to_host(t) or t.cpu()");
  TORCH_CHECK(t.is_contiguous(), "devplace::checked_span(", purpose,
              "): the tensor is not contiguous; use devplace::host_copy(t)");
  TORCH_CHECK(t.scalar_type() == detail::scalarTypeOf<T>(), "devplace::checked_span(",
              purpose, "): the tensor holds ", t.scalar_type(), ", not ",
              detail::scalarTypeOf<T>());
  return HostSpan<T>(t.data_ptr<T>(), static_cast<size_t>(t.numel()));
}

/// Losses and accuracies of a training loop. Values given as tensors are
/// summed on their own device, so recording a batch never waits for the GPU;
/// end_epoch() reads each sum to the host once and appends the epoch's mean
/// to the metric's series.
class MetricHistory {
public:
  /// Adds a batch's value (a one-element tensor, e.g. a loss or a count of
  /// correct predictions) with a weight (e.g. the batch size).
  void add(const std::string &name, const at::Tensor &value, double weight = 1.0) {
    TORCH_CHECK(value.numel() == 1, "devplace::MetricHistory::add(", name,
                "): expected a one-element tensor, got shape ", value.sizes());
    Running &r = running_[name];
    at::Tensor v = value.detach().reshape({}).to(at::kDouble) * weight;
    r.sum = r.sum.defined() ? r.sum + v : v;
    r.weight += weight;
  }
  /// Adds a value that already is a host number.
  void add(const std::string &name, double value, double weight = 1.0) {
    Running &r = running_[name];
    r.host += value * weight;
    r.weight += weight;
  }
  /// Closes the epoch: one host read per metric, whatever the batch count.
  void end_epoch() {
    for (auto &[name, r] : running_) {
      double sum = r.host;
      if (r.sum.defined()) {
        sum += r.sum.item<double>();
        ++host_syncs_;
      }
      series_[name].push_back(r.weight > 0 ? sum / r.weight : 0.0);
    }
    running_.clear();
    ++epochs_;
  }
  /// The per-epoch host values of \p name (empty when never recorded).
  const std::vector<double> &series(const std::string &name) const {
    static const std::vector<double> none;
    auto it = series_.find(name);
    return it == series_.end() ? none : it->second;
  }
  /// The last epoch's value of \p name; throws when there is none.
  double last(const std::string &name) const {
    const std::vector<double> &s = series(name);
    TORCH_CHECK(!s.empty(), "devplace::MetricHistory::last: no epoch recorded for '", name, "'");
    return s.back();
  }
  size_t epochs() const { return epochs_; }
  /// Device-to-host reads done so far (one per tensor metric and epoch).
  size_t host_syncs() const { return host_syncs_; }

private:
  struct Running {
    at::Tensor sum;
    double host = 0;
    double weight = 0;
  };
  std::map<std::string, Running> running_;
  std::map<std::string, std::vector<double>> series_;
  size_t host_syncs_ = 0;
  size_t epochs_ = 0;
};

/// Writes the two panels of the training curves (loss and accuracy, train
/// against validation, per epoch) as curves.csv and, when gnuplot is
/// installed, curves.png in \p out_dir. Call after every epoch: a person can
/// watch the PNG while training runs.
class CurveWriter {
public:
  explicit CurveWriter(std::string out_dir) : out_(std::move(out_dir)) {}

  /// Writes the metrics train_loss, valid_loss, train_acc and valid_acc of
  /// \p h; returns true when the PNG was (re)written.
  bool write(const MetricHistory &h) const {
    return write_series(h.series("train_loss"), h.series("valid_loss"),
                        h.series("train_acc"), h.series("valid_acc"));
  }

  /// The same from host series, one value per epoch each.
  bool write_series(const std::vector<double> &train_loss,
                    const std::vector<double> &valid_loss,
                    const std::vector<double> &train_acc,
                    const std::vector<double> &valid_acc) const {
    const std::string csv = out_ + "/curves.csv";
    {
      std::ofstream f(csv);
      TORCH_CHECK(f.good(), "devplace::CurveWriter: cannot write ", csv);
      f << "epoch,train_loss,valid_loss,train_acc,valid_acc\n";
      for (size_t e = 0; e < train_loss.size(); ++e)
        f << e + 1 << ',' << at(train_loss, e) << ',' << at(valid_loss, e) << ','
          << at(train_acc, e) << ',' << at(valid_acc, e) << '\n';
    }
    const std::string png = out_ + "/curves.png";
    std::remove(png.c_str());
    FILE *gp = popen("gnuplot 2>/dev/null", "w");
    if (!gp)
      return false;
    std::fprintf(gp,
                 "set terminal pngcairo size 1200,400\n"
                 "set output '%s'\n"
                 "set datafile separator ','\n"
                 "set multiplot layout 1,2\n"
                 "set xlabel 'Epoch'\nset grid\n"
                 "set ylabel 'Loss'\n"
                 "plot '%s' every ::1 using 1:2 with linespoints title 'Train loss', "
                 "'' every ::1 using 1:3 with linespoints title 'Validation loss'\n"
                 "set ylabel 'Accuracy'\n"
                 "plot '%s' every ::1 using 1:4 with linespoints title 'Train acc.', "
                 "'' every ::1 using 1:5 with linespoints title 'Validation acc.'\n"
                 "unset multiplot\n",
                 png.c_str(), csv.c_str(), csv.c_str());
    int status = pclose(gp);
    std::ifstream check(png);
    return status == 0 && check.good();
  }

private:
  static double at(const std::vector<double> &s, size_t epoch) {
    return epoch < s.size() ? s[epoch] : 0.0;
  }
  std::string out_;
};

} // namespace devplace

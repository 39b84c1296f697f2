// Mock of LibTorch 1.13's public C++ API for devplace's lit tests.
// Namespaces, class names and the signatures devplace reads mirror
// /usr/include/{c10,ATen,torch} of Debian's libtorch-dev 1.13.1; bodies are
// omitted. mutable_data_ptr/const_data_ptr come from LibTorch 2.1+.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace c10 {
template <typename T> using optional = std::optional<T>;
using std::nullopt;

enum class DeviceType : int8_t {
  CPU = 0, CUDA = 1, MKLDNN = 2, OPENGL = 3, OPENCL = 4, IDEEP = 5, HIP = 6,
  FPGA = 7, ORT = 8, XLA = 9, Vulkan = 10, Metal = 11, XPU = 12, MPS = 13,
  Meta = 14, HPU = 15, VE = 16, Lazy = 17, IPU = 18, PrivateUse1 = 19,
};
// The legacy spelling of a device (and layout): Tensor::toBackend.
enum class Backend { CPU, CUDA, HIP, SparseCPU, SparseCUDA, QuantizedCPU, MkldnnCPU };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kXPU = DeviceType::XPU;
using DeviceIndex = int8_t;

struct Device final {
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1);
  /* implicit */ Device(const std::string &device_string);
  bool operator==(const Device &other) const noexcept;
  bool operator!=(const Device &other) const noexcept;
  DeviceType type() const noexcept;
  DeviceIndex index() const noexcept;
  bool has_index() const noexcept;
  bool is_cuda() const noexcept;
  bool is_cpu() const noexcept;
  bool is_mps() const noexcept;
  bool is_xpu() const noexcept;
  std::string str() const;
};

enum class ScalarType : int8_t {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf,
  ComplexFloat, ComplexDouble, Bool,
};
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
enum class Layout : int8_t { Strided, Sparse };
constexpr Layout kStrided = Layout::Strided;
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast };

template <typename T> class IListRef {
public:
  IListRef(std::initializer_list<T> il);
  IListRef(const std::vector<T> &v);
};
template <typename T> class ArrayRef {
public:
  ArrayRef();
  ArrayRef(const T &one);
  ArrayRef(const T *data, size_t length);
  ArrayRef(const std::vector<T> &v);
  ArrayRef(const std::initializer_list<T> &il);
  const T *begin() const;
  const T *end() const;
  size_t size() const;
  const T &operator[](size_t i) const;
};
using IntArrayRef = ArrayRef<int64_t>;

class Scalar {
public:
  Scalar(double v);
  Scalar(float v);
  Scalar(int v);
  Scalar(int64_t v);
  Scalar(bool v);
  template <typename T> T to() const;
  double toDouble() const;
  int64_t toLong() const;
};

struct TensorOptions {
  TensorOptions();
  /* implicit */ TensorOptions(Device device);
  /* implicit */ TensorOptions(DeviceType device_type);
  /* implicit */ TensorOptions(ScalarType dtype);
  /* implicit */ TensorOptions(Layout layout);
  /* implicit */ TensorOptions(MemoryFormat memory_format);
  TensorOptions device(optional<Device> device) const noexcept;
  // device(kCUDA, 1): builds the Device from its arguments, as LibTorch's.
  template <typename... Args>
  TensorOptions device(Args &&...args) const noexcept;
  TensorOptions device_index(DeviceIndex device_index) const noexcept;
  TensorOptions dtype(optional<ScalarType> dtype) const noexcept;
  template <typename T> TensorOptions dtype() const noexcept;
  TensorOptions layout(optional<Layout> layout) const noexcept;
  TensorOptions requires_grad(optional<bool> requires_grad) const noexcept;
  TensorOptions pinned_memory(optional<bool> pinned_memory) const noexcept;
  TensorOptions memory_format(optional<MemoryFormat> memory_format) const noexcept;
  Device device() const noexcept;
  bool has_device() const noexcept;
};
TensorOptions device(Device device);
TensorOptions dtype(ScalarType dtype);
TensorOptions requires_grad(bool r = true);
} // namespace c10

namespace at {
// The legacy type of a tensor: a dtype with its backend (toType's argument).
struct DeprecatedTypeProperties {};
DeprecatedTypeProperties &CUDA(c10::ScalarType s);
DeprecatedTypeProperties &CPU(c10::ScalarType s);
using c10::ArrayRef;
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::kCPU;
using c10::kCUDA;
using c10::kHIP;
using c10::kMPS;
using c10::kXPU;
using c10::kByte;
using c10::kInt;
using c10::kLong;
using c10::kFloat;
using c10::kFloat32;
using c10::kDouble;
using c10::kBool;
using c10::Layout;
using c10::MemoryFormat;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;
using c10::device;
using c10::dtype;
using c10::requires_grad;

template <typename T, size_t N> class TensorAccessor {
public:
  TensorAccessor<T, N - 1> operator[](int64_t i);
  int64_t size(int64_t i) const;
  int64_t stride(int64_t i) const;
};
template <typename T> class TensorAccessor<T, 1> {
public:
  T &operator[](int64_t i);
  int64_t size(int64_t i) const;
};
template <typename T> struct DefaultPtrTraits { typedef T *PtrType; };
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessor {};
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;

class TensorBase {
public:
  TensorBase();
  int64_t dim() const;
  int64_t numel() const;
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  bool defined() const;
  bool is_contiguous() const;
  Device device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_mps() const;
  bool is_xpu() const;
  bool is_hip() const;
  ScalarType scalar_type() const;
  TensorOptions options() const;
  void *data_ptr() const;
  template <typename T> T *data_ptr() const;
  template <typename T> T *mutable_data_ptr() const;
  template <typename T> const T *const_data_ptr() const;
  template <typename T, size_t N> TensorAccessor<T, N> accessor() const &;
  template <typename T, size_t N> TensorAccessor<T, N> accessor() && = delete;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const &;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const &;
};

class Tensor : public TensorBase {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&);
  Tensor &operator=(const TensorBase &x) &;
  Tensor &operator=(TensorBase &&x) &;
  Tensor &operator=(const Tensor &x) &;
  Tensor &operator=(Tensor &&x) &;
  Tensor &operator=(Scalar v) &&;
  Tensor &operator=(const Tensor &) &&;

  template <typename T> T *data() const;
  template <typename T> T item() const;
  Scalar item() const;
  Tensor cpu() const;
  Tensor toBackend(c10::Backend b) const;
  Tensor toType(const DeprecatedTypeProperties &t) const;
  Tensor toType(c10::ScalarType t) const;
  Tensor type_as(const Tensor &other) const;
  Tensor cuda() const;
  Tensor hip() const;
  Tensor to(TensorOptions options = {}, bool non_blocking = false, bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(c10::optional<ScalarType> dtype, c10::optional<Layout> layout,
            c10::optional<Device> device, c10::optional<bool> pin_memory,
            bool non_blocking, bool copy, c10::optional<MemoryFormat> memory_format) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false,
            c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor pin_memory(c10::optional<Device> device = c10::nullopt) const;
  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  Tensor detach() const;
  Tensor clone(c10::optional<MemoryFormat> memory_format = c10::nullopt) const;
  Tensor sum(c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false, c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor mean(c10::optional<ScalarType> dtype = c10::nullopt) const;
  Tensor argmax(c10::optional<int64_t> dim = c10::nullopt, bool keepdim = false) const;
  Tensor argmax(int64_t dim, bool keepdim = false) const;
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor squeeze() const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor operator[](int64_t index) const;
  Tensor operator[](const Tensor &index) const;
  Tensor relu() const;
  Tensor sigmoid() const;
  Tensor eq(const Tensor &other) const;
  Tensor ge(const Scalar &other) const;
  Tensor add(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor matmul(const Tensor &other) const;
  Tensor masked_fill(const Tensor &mask, const Scalar &value) const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false) const;
  Tensor &fill_(const Scalar &value) const;
  Tensor &add_(const Tensor &other, const Scalar &alpha = 1) const;
  Tensor &zero_() const;
  Tensor &operator+=(const Tensor &other) const;
  Tensor &operator+=(const Scalar &other) const;
  Tensor &operator/=(const Scalar &other) const;
  bool is_nonzero() const;
  void backward() const;
  Tensor grad() const;
};

Tensor operator+(const Tensor &self, const Tensor &other);
Tensor operator+(const Tensor &self, const Scalar &other);
Tensor operator-(const Tensor &self, const Tensor &other);
Tensor operator*(const Tensor &self, const Tensor &other);
Tensor operator*(const Tensor &self, const Scalar &other);
Tensor operator/(const Tensor &self, const Tensor &other);
Tensor operator/(const Tensor &self, const Scalar &other);
Tensor operator==(const Tensor &self, const Tensor &other);
Tensor operator>=(const Tensor &self, const Scalar &other);
Tensor operator>(const Tensor &self, const Scalar &other);
std::ostream &operator<<(std::ostream &out, const Tensor &t);
using TensorList = ArrayRef<Tensor>;
// As in LibTorch 1.13 and 2.x: cat takes its tensors as a list reference.
using ITensorListRef = c10::IListRef<Tensor>;
// A list type devplace's table does not name (another version's).
template <typename T> class TensorBundle {
public:
  TensorBundle(std::initializer_list<T> il);
};
Tensor concat_bundle(const TensorBundle<Tensor> &tensors, int64_t dim = 0);

Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor cat(const ITensorListRef &tensors, int64_t dim = 0);
Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor matmul(const Tensor &self, const Tensor &other);
Tensor sigmoid(const Tensor &self);
Tensor &add_out(Tensor &out, const Tensor &self, const Tensor &other, const Scalar &alpha = 1);
Tensor where(const Tensor &condition, const Tensor &self, const Tensor &other);

namespace cuda {
bool is_available();
} // namespace cuda
bool hasCUDA();
bool hasMPS();
} // namespace at

namespace c10 {
// As in c10/util/intrusive_ptr.h: how IValue hands out its tuples.
template <class T> class intrusive_ptr {
public:
  T *operator->() const noexcept;
  T &operator*() const noexcept;
  T *get() const noexcept;
};
template <class T> class List {
public:
  T get(size_t pos) const;
  size_t size() const;
};
class IValue;
namespace ivalue {
// As in ATen/core/ivalue_inl.h.
struct TupleElements {
  const IValue &operator[](size_t i) const;
  size_t size() const;
};
struct Tuple {
  const TupleElements &elements() const &;
};
} // namespace ivalue
class IValue {
public:
  IValue(const at::Tensor &t);
  IValue(const std::vector<at::Tensor> &v);
  IValue(double d);
  at::Tensor toTensor() const &;
  bool isTensor() const;
  intrusive_ptr<ivalue::Tuple> toTuple() const &;
  ivalue::Tuple &toTupleRef() const;
  List<at::Tensor> toTensorList() const &;
  std::vector<at::Tensor> toTensorVector() const;
  double toDouble() const;
};

} // namespace c10
namespace at { using c10::IValue; }

namespace torch {
using namespace at; // as in torch/types.h
namespace detail {
class TensorDataContainer {
public:
  TensorDataContainer(double v);
  TensorDataContainer(float v);
  TensorDataContainer(int v);
  TensorDataContainer(std::initializer_list<double> v);
  TensorDataContainer(std::initializer_list<float> v);
  TensorDataContainer(const std::vector<float> &v);
};
} // namespace detail
namespace autograd { using Variable = at::Tensor; }

at::Tensor tensor(detail::TensorDataContainer data, const at::TensorOptions &options = {});
at::Tensor from_blob(void *data, at::IntArrayRef sizes, const at::TensorOptions &options = at::TensorOptions());
at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {},
                        c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor full(at::IntArrayRef size, const at::Scalar &fill_value, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor randint(int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong);
at::Tensor arange(const at::Scalar &end, at::TensorOptions options = {});
at::Tensor hann_window(int64_t window_length, at::TensorOptions options = {});
at::Tensor relu(const at::Tensor &self);
at::Tensor log_softmax(const at::Tensor &self, int64_t dim);
at::Tensor nll_loss(const at::Tensor &self, const at::Tensor &target);
at::Tensor zeros_like(const at::Tensor &self, at::TensorOptions options = {},
                             c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor ones_like(const at::Tensor &self, at::TensorOptions options = {},
                            c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor empty_like(const at::Tensor &self, at::TensorOptions options = {},
                             c10::optional<at::MemoryFormat> memory_format = c10::nullopt);

namespace cuda {
size_t device_count();
bool is_available();
bool cudnn_is_available();
void synchronize(int64_t device_index = -1);
} // namespace cuda
// Newer LibTorch (2.x) than Debian's 1.13 has torch/mps.h and torch/xpu.h.
namespace mps {
bool is_available();
void synchronize();
} // namespace mps
namespace xpu {
bool is_available();
} // namespace xpu
void manual_seed(uint64_t seed);

// As in torch/ordered_dict.h.
template <typename Key, typename Value> class OrderedDict {
public:
  class Item {
  public:
    Value &value();
    const Value &value() const;
    const Key &key() const;
  };
  Item *begin();
  Item *end();
  const Item *begin() const;
  const Item *end() const;
  Value &operator[](const Key &key);
  size_t size() const;
};

namespace nn {
template <typename Contained> class ModuleHolder;
class Module {
public:
  virtual ~Module();
  void to(at::Device device, bool non_blocking = false);
  void to(at::ScalarType dtype, bool non_blocking = false);
  std::vector<at::Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, at::Tensor> named_parameters(bool recurse = true) const;
  std::vector<at::Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, at::Tensor> named_buffers(bool recurse = true) const;
  void train(bool on = true);
  bool is_training() const;
  void eval();
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, ModuleHolder<ModuleType> module_holder);
  at::Tensor &register_parameter(std::string name, at::Tensor tensor, bool requires_grad = true);
  at::Tensor &register_buffer(std::string name, at::Tensor tensor);
};
template <typename Contained> class ModuleHolder {
public:
  ModuleHolder(std::nullptr_t);
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module);
  template <typename... Args> explicit ModuleHolder(Args &&...args);
  Contained *operator->();
  const Contained *operator->() const;
  template <typename... Args> auto operator()(Args &&...args)
      -> decltype(std::declval<Contained>().forward(std::forward<Args>(args)...));
};
struct LinearOptions { LinearOptions(int64_t in, int64_t out); };
class LinearImpl : public Module {
public:
  explicit LinearImpl(const LinearOptions &options);
  LinearImpl(int64_t in, int64_t out);
  at::Tensor forward(const at::Tensor &input);
  at::Tensor weight;
  at::Tensor bias;
};
class Linear : public ModuleHolder<LinearImpl> {
public:
  using ModuleHolder<LinearImpl>::ModuleHolder;
};
namespace functional {
at::Tensor relu(const at::Tensor &input);
at::Tensor binary_cross_entropy(const at::Tensor &input, const at::Tensor &target);
} // namespace functional
} // namespace nn

// As in torch/serialize.h: load() fills a module (or tensor) in place.
template <typename Value> void save(const Value &value, const std::string &path);
template <typename Value> void load(Value &value, const std::string &path);

namespace jit {
using c10::IValue;
// As in torch/csrc/jit/api/method.h and object.h.
struct Method {
  IValue operator()(std::vector<IValue> stack);
};
struct Object {
  Method get_method(const std::string &name) const;
  template <typename... Types> IValue run_method(const std::string &method_name, Types &&...args);
};
struct Module : public Object {
  IValue forward(std::vector<IValue> inputs);
  void to(at::Device device, bool non_blocking = false);
  void eval();
};
namespace script {
using Module = ::torch::jit::Module;
} // namespace script
Module load(const std::string &filename, c10::optional<at::Device> device = c10::nullopt);
} // namespace jit

struct NoGradGuard { NoGradGuard(); ~NoGradGuard(); };
} // namespace torch


namespace torch::nn {
class ReLUImpl : public Module {
public:
  at::Tensor forward(at::Tensor input);
};
class ReLU : public ModuleHolder<ReLUImpl> {
public:
  using ModuleHolder<ReLUImpl>::ModuleHolder;
  ReLU();
};
} // namespace torch::nn

namespace torch::nn {
// As in torch/nn/modules/container/sequential.h: forward is a template.
class SequentialImpl : public Module {
public:
  template <typename... Modules> explicit SequentialImpl(Modules &&...modules);
  template <typename ReturnType = at::Tensor, typename... InputTypes>
  ReturnType forward(InputTypes &&...inputs);
  template <typename ModuleType> void push_back(std::shared_ptr<ModuleType> module);
  template <typename M> void push_back(ModuleHolder<M> module_holder);
};
class Sequential : public ModuleHolder<SequentialImpl> {
public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
  Sequential();
};
// Modules with no parameters: dropout depends on train()/eval(), Flatten not.
class DropoutImpl : public Module {
public:
  explicit DropoutImpl(double p = 0.5);
  at::Tensor forward(at::Tensor input);
};
class Dropout : public ModuleHolder<DropoutImpl> {
public:
  using ModuleHolder<DropoutImpl>::ModuleHolder;
  Dropout();
};
class FlattenImpl : public Module {
public:
  at::Tensor forward(const at::Tensor &input);
};
class Flatten : public ModuleHolder<FlattenImpl> {
public:
  using ModuleHolder<FlattenImpl>::ModuleHolder;
  Flatten();
};
// Parameters, buffers, and a train()/eval() behaviour.
class BatchNorm2dImpl : public Module {
public:
  explicit BatchNorm2dImpl(int64_t num_features);
  at::Tensor forward(const at::Tensor &input);
};
class BatchNorm2d : public ModuleHolder<BatchNorm2dImpl> {
public:
  using ModuleHolder<BatchNorm2dImpl>::ModuleHolder;
};
} // namespace torch::nn

namespace torch::data {
// As in torch/data/example.h.
template <typename Data = at::Tensor, typename Target = at::Tensor> struct Example {
  Data data;
  Target target;
};
} // namespace torch::data

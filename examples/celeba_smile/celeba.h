// The parts of the smile-classifier example that the buggy and the fixed
// training programs share: command line, CelebA loader with the original
// transforms, the CNN, a progress bar and the curve plot.
#pragma once

#include <torch/torch.h>

#include "image.h"

#include <cstdio>
#include <devplace/host.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace celeba {

struct Options {
  std::string data = "./celeba";
  std::string out = "./out";
  std::string device = "auto";
  int epochs = 30;
  int64_t train_size = 16000;
  int64_t valid_size = 1000;
  int64_t batch_size = 32;
  int threads = 0; ///< LibTorch intra-op threads; 0: one per core
};

inline void usage(const char *prog) {
  std::cerr << "usage: " << prog
            << " [--data DIR] [--out DIR] [--device auto|cpu|cuda] [--epochs N]\n"
               "       [--train-size N] [--valid-size N] [--batch-size N] [--threads N]\n";
}

/// Parses the command line; throws std::invalid_argument with a message.
inline Options parseArgs(int argc, char **argv) {
  Options O;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw std::invalid_argument("missing value for " + a);
      return argv[++i];
    };
    auto number = [&](const std::string &v) -> int64_t {
      try {
        size_t used = 0;
        long long n = std::stoll(v, &used);
        if (used != v.size() || n <= 0)
          throw std::invalid_argument("");
        return n;
      } catch (const std::exception &) {
        throw std::invalid_argument(a + " needs a positive whole number, got '" + v + "'");
      }
    };
    if (a == "--data") O.data = value();
    else if (a == "--out") O.out = value();
    else if (a == "--device") O.device = value();
    else if (a == "--epochs") O.epochs = static_cast<int>(number(value()));
    else if (a == "--train-size") O.train_size = number(value());
    else if (a == "--valid-size") O.valid_size = number(value());
    else if (a == "--batch-size") O.batch_size = number(value());
    else if (a == "--threads") O.threads = static_cast<int>(number(value()));
    else if (a == "--help" || a == "-h") { usage(argv[0]); std::exit(0); }
    else throw std::invalid_argument("unknown option '" + a + "'");
  }
  if (O.device != "auto" && O.device != "cpu" && O.device != "cuda")
    throw std::invalid_argument("--device must be auto, cpu or cuda");
  // Debian's LibTorch starts with one intra-op thread; use the machine.
  torch::set_num_threads(O.threads > 0 ? O.threads
                                       : std::max(1u, std::thread::hardware_concurrency()));
  std::error_code ec;
  std::filesystem::create_directories(O.out, ec);
  if (ec)
    throw std::invalid_argument("cannot create --out folder '" + O.out + "': " + ec.message());
  return O;
}

/// Parses the command line, or prints the error and the usage and exits
/// with status 2.
Options parseOrExit(int argc, char **argv);

/// Prints a failure and returns the exit status for it.
inline int fail(const std::exception &e) {
  std::cerr << "error: " << e.what() << "\n";
  return 1;
}

enum class Split { Train = 0, Valid = 1, Test = 2 };

/// One CelebA split: image paths and the "Smiling" label (attribute 31).
struct Index {
  std::vector<std::string> files;
  std::vector<int64_t> smiling;
};

/// Reads list_attr_celeba.txt and list_eval_partition.txt from the standard
/// layout; throws std::runtime_error naming the file and line on bad input.
inline Index readIndex(const std::string &root, Split split, int64_t limit) {
  const std::string attrPath = root + "/list_attr_celeba.txt";
  const std::string partPath = root + "/list_eval_partition.txt";
  std::ifstream attr(attrPath), part(partPath);
  if (!attr)
    throw std::runtime_error("cannot open " + attrPath + " (is --data a CelebA folder?)");
  if (!part)
    throw std::runtime_error("cannot open " + partPath);

  std::map<std::string, int> partition;
  std::string line;
  for (int n = 1; std::getline(part, line); ++n) {
    if (line.empty()) continue;
    std::istringstream ss(line);
    std::string file;
    int p = -1;
    if (!(ss >> file >> p) || p < 0 || p > 2)
      throw std::runtime_error(partPath + ":" + std::to_string(n) + ": expected 'FILE 0|1|2'");
    partition[file] = p;
  }

  Index idx;
  int64_t count = 0;
  if (!std::getline(attr, line) || !(std::istringstream(line) >> count))
    throw std::runtime_error(attrPath + ":1: expected the number of images");
  if (!std::getline(attr, line))
    throw std::runtime_error(attrPath + ":2: expected the attribute names");
  std::istringstream names(line);
  std::vector<std::string> attrs{std::istream_iterator<std::string>(names), {}};
  if (attrs.size() != 40 || attrs[31] != "Smiling")
    throw std::runtime_error(attrPath + ":2: expected 40 attributes with 'Smiling' 32nd");
  for (int n = 3; std::getline(attr, line); ++n) {
    if (line.empty()) continue;
    std::istringstream ss(line);
    std::string file;
    std::vector<int> v(40);
    ss >> file;
    for (int &x : v)
      if (!(ss >> x) || (x != 1 && x != -1))
        throw std::runtime_error(attrPath + ":" + std::to_string(n) + ": expected 40 values of 1 or -1");
    auto it = partition.find(file);
    if (it == partition.end())
      throw std::runtime_error(partPath + ": no partition for " + file);
    if (it->second != static_cast<int>(split))
      continue;
    idx.files.push_back(root + "/img_align_celeba/" + file);
    idx.smiling.push_back(v[31] == 1 ? 1 : 0);
    if (static_cast<int64_t>(idx.files.size()) == limit)
      break;
  }
  if (idx.files.empty())
    throw std::runtime_error(attrPath + ": no images in the requested split");
  return idx;
}

/// The original transforms. Train: random 178x178 crop, random horizontal
/// flip, resize to 64x64; valid/test: centre 178x178 crop, resize to 64x64.
/// Both end as a float CHW tensor in [0, 1] (ToTensor).
class Dataset : public torch::data::datasets::Dataset<Dataset> {
public:
  Dataset(Index index, bool train, uint64_t seed)
      : index_(std::move(index)), train_(train), rng_(seed) {}

  torch::data::Example<> get(size_t i) override {
    Image img = readImage(index_.files[i]);
    if (img.width < 178 || img.height < 178)
      throw std::runtime_error(index_.files[i] + ": smaller than 178x178");
    int x = (img.width - 178) / 2, y = (img.height - 178) / 2;
    bool flip = false;
    if (train_) {
      x = std::uniform_int_distribution<int>(0, img.width - 178)(rng_);
      y = std::uniform_int_distribution<int>(0, img.height - 178)(rng_);
      flip = std::bernoulli_distribution(0.5)(rng_);
    }
    // from_blob views the decoded buffer; the crop, resize and division
    // below make a tensor of their own before the buffer goes away.
    torch::Tensor crop =
        torch::from_blob(img.rgb.data(), {img.height, img.width, 3},
                         torch::kUInt8)
            .slice(0, y, y + 178)
            .slice(1, x, x + 178);
    if (flip)
      crop = crop.flip({1});
    namespace F = torch::nn::functional;
    torch::Tensor image =
        F::interpolate(crop.permute({2, 0, 1}).to(torch::kFloat).unsqueeze(0),
                       F::InterpolateFuncOptions()
                           .size(std::vector<int64_t>{64, 64})
                           .mode(torch::kBilinear)
                           .align_corners(false))
            .squeeze(0)
            .div(255.0);
    return {image, torch::tensor(index_.smiling[i], torch::kLong)};
  }

  torch::optional<size_t> size() const override { return index_.files.size(); }

private:
  Index index_;
  bool train_;
  std::mt19937_64 rng_; // the loaders run without worker threads
};

/// The training split, shuffled and stacked into batches, and its size.
inline auto trainLoader(const Options &O) {
  Index index = readIndex(O.data, Split::Train, O.train_size);
  const size_t size = index.files.size();
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Dataset(std::move(index), true, 1).map(torch::data::transforms::Stack<>()),
      O.batch_size);
  return std::make_pair(std::move(loader), size);
}

/// The validation or test split, in order, stacked into batches, and its
/// size.
inline auto evalLoader(const Options &O, Split split, int64_t limit) {
  Index index = readIndex(O.data, split, limit);
  const size_t size = index.files.size();
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Dataset(std::move(index), false, 1).map(torch::data::transforms::Stack<>()),
      O.batch_size);
  return std::make_pair(std::move(loader), size);
}

/// Conv(3->32)-ReLU-MaxPool-Dropout-Conv(32->64)-ReLU-MaxPool-Dropout-
/// Conv(64->128)-ReLU-MaxPool-Conv(128->256)-ReLU-AvgPool(8)-Flatten-
/// Linear(256->1)-Sigmoid, as in the original program.
inline torch::nn::Sequential makeModel() {
  using namespace torch::nn;
  return Sequential(
      Conv2d(Conv2dOptions(3, 32, 3).padding(1)), ReLU(), MaxPool2d(2), Dropout(0.5),
      Conv2d(Conv2dOptions(32, 64, 3).padding(1)), ReLU(), MaxPool2d(2), Dropout(0.5),
      Conv2d(Conv2dOptions(64, 128, 3).padding(1)), ReLU(), MaxPool2d(2),
      Conv2d(Conv2dOptions(128, 256, 3).padding(1)), ReLU(), AvgPool2d(8),
      Flatten(), Linear(256, 1), Sigmoid());
}

inline Options parseOrExit(int argc, char **argv) {
  try {
    return parseArgs(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
    usage(argv[0]);
    std::exit(2);
  }
}

inline torch::Device pickDevice(const std::string &choice) {
  if (choice == "cuda") {
    if (!torch::cuda::is_available())
      throw std::runtime_error("--device cuda: no CUDA device is available");
    return torch::kCUDA;
  }
  if (choice == "cpu")
    return torch::kCPU;
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

/// A one-line progress bar, drawn only when stdout is a terminal.
inline void progress(const char *phase, size_t done, size_t total) {
  if (!isatty(STDOUT_FILENO) || total == 0)
    return;
  const int width = 30;
  int filled = static_cast<int>(width * done / total);
  std::printf("\r%s [%.*s%*s] %zu/%zu", phase, filled,
              "==============================", width - filled, "", done, total);
  if (done == total)
    std::printf("\r%*s\r", width + 40, "");
  std::fflush(stdout);
}

/// Accuracy of \p model on a data loader's batches, as a host number. The
/// count of correct predictions stays on the device until the end.
template <typename Loader>
double evaluate(torch::nn::Sequential &model, Loader &loader, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  torch::Tensor correct = torch::zeros({}, torch::TensorOptions().device(device).dtype(torch::kLong));
  int64_t seen = 0;
  for (auto &batch : loader) {
    auto pred = model->forward(batch.data.to(device)).select(1, 0);
    correct += ((pred >= 0.5).to(torch::kLong) == batch.target.to(device)).sum();
    seen += batch.target.size(0);
  }
  return seen ? correct.item<double>() / static_cast<double>(seen) : 0.0;
}

} // namespace celeba

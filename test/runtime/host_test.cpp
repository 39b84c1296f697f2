// Unit tests of the runtime shim (runtime/include/devplace/host.h). Tensors
// on the "meta" device stand in for device tensors: they are not on the
// host, which is what the error paths are about.
#include <devplace/host.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const c10::Error &e) {
    return e.what_without_backtrace();
  }
  return "";
}

TEST(ToScalar, ReadsOneElement) {
  EXPECT_EQ(devplace::to_scalar<int64_t>(torch::tensor(7, torch::kLong)), 7);
  EXPECT_DOUBLE_EQ(devplace::to_scalar<double>(torch::ones({1, 1}) * 2.5), 2.5);
}

TEST(ToScalar, RefusesSeveralElements) {
  std::string e = errorOf([] { devplace::to_scalar<float>(torch::ones({3})); });
  EXPECT_NE(e.find("expected one element, the tensor has 3"), std::string::npos) << e;
}

TEST(ToVector, ConvertsMovesAndChecksCount) {
  auto t = torch::arange(6, torch::kInt).reshape({2, 3}).t(); // not contiguous
  std::vector<double> v = devplace::to_vector<double>(t, 6);
  EXPECT_EQ(v, (std::vector<double>{0, 3, 1, 4, 2, 5}));
  std::string e = errorOf([&] { devplace::to_vector<float>(t, 5); });
  EXPECT_NE(e.find("expected 5 elements, the tensor has 6"), std::string::npos) << e;
  e = errorOf([] { devplace::to_vector<float>(torch::Tensor()); });
  EXPECT_NE(e.find("undefined"), std::string::npos) << e;
}

TEST(HostTensor, KeepsItsCopyAlive) {
  const float *p = nullptr;
  devplace::HostTensor h = devplace::to_host(torch::arange(4, torch::kFloat) * 2);
  p = h.data<float>();
  EXPECT_FLOAT_EQ(p[3], 6.0f);
  EXPECT_EQ(h.numel(), 4);
  EXPECT_TRUE(h.tensor().is_cpu());
  std::string e = errorOf([&] { h.data<int>(); });
  EXPECT_NE(e.find("the tensor holds Float"), std::string::npos) << e;
}

TEST(HostCopy, IsContiguousAndOnTheHost) {
  auto c = devplace::host_copy(torch::ones({3, 2}).t());
  EXPECT_TRUE(c.is_cpu());
  EXPECT_TRUE(c.is_contiguous());
}

TEST(CheckedSpan, ViewsHostMemory) {
  auto t = torch::arange(5, torch::kFloat);
  auto s = devplace::checked_span<float>(t, "summing");
  float sum = 0;
  for (float x : s)
    sum += x;
  EXPECT_FLOAT_EQ(sum, 10.0f);
  EXPECT_EQ(s.size(), 5u);
  s[0] = 42;
  EXPECT_FLOAT_EQ(t[0].item<float>(), 42.0f);
}

TEST(CheckedSpan, RefusesDeviceMemoryWithAClearMessage) {
  auto device = torch::empty({4}, torch::TensorOptions().device(torch::kMeta));
  std::string e = errorOf([&] { devplace::checked_span<float>(device, "plotting accuracy"); });
  EXPECT_NE(e.find("devplace::checked_span(plotting accuracy): the tensor is on meta, not on "
                   "the host"),
            std::string::npos)
      << e;
}

TEST(CheckedSpan, RefusesStridedAndWrongType) {
  std::string e = errorOf(
      [] { devplace::checked_span<float>(torch::ones({2, 3}).t(), "transposed"); });
  EXPECT_NE(e.find("not contiguous"), std::string::npos) << e;
  e = errorOf([] { devplace::checked_span<float>(torch::ones({2}, torch::kLong), "labels"); });
  EXPECT_NE(e.find("holds Long, not Float"), std::string::npos) << e;
}

TEST(MetricHistory, WeightedMeansOnePerEpochAndOneReadPerMetric) {
  devplace::MetricHistory h;
  for (int batch = 0; batch < 50; ++batch) {
    h.add("train_loss", torch::tensor(batch < 25 ? 1.0 : 3.0), 2.0);
    h.add("train_acc", torch::tensor(0.5f), 2.0);
  }
  h.add("valid_loss", 0.25, 4.0);
  EXPECT_EQ(h.host_syncs(), 0u); // nothing read during the epoch
  h.end_epoch();
  EXPECT_EQ(h.host_syncs(), 2u); // one read per tensor metric, not per batch
  EXPECT_DOUBLE_EQ(h.last("train_loss"), 2.0);
  EXPECT_DOUBLE_EQ(h.last("train_acc"), 0.5);
  EXPECT_DOUBLE_EQ(h.last("valid_loss"), 0.25);
  h.add("train_loss", torch::tensor(4.0));
  h.end_epoch();
  EXPECT_EQ(h.series("train_loss"), (std::vector<double>{2.0, 4.0}));
  EXPECT_EQ(h.epochs(), 2u);
  EXPECT_TRUE(h.series("unknown").empty());
}

TEST(MetricHistory, RefusesNonScalarsAndMissingMetrics) {
  devplace::MetricHistory h;
  std::string e = errorOf([&] { h.add("loss", torch::ones({2})); });
  EXPECT_NE(e.find("expected a one-element tensor"), std::string::npos) << e;
  e = errorOf([&] { h.last("loss"); });
  EXPECT_NE(e.find("no epoch recorded for 'loss'"), std::string::npos) << e;
}

TEST(CurveWriter, WritesCsvAndPng) {
  std::string dir = ::testing::TempDir() + "/devplace-curves";
  std::filesystem::create_directories(dir);
  devplace::MetricHistory h;
  for (int epoch = 0; epoch < 3; ++epoch) {
    h.add("train_loss", 1.0 / (epoch + 1));
    h.add("valid_loss", 1.5 / (epoch + 1));
    h.add("train_acc", 0.5 + 0.1 * epoch);
    h.add("valid_acc", 0.4 + 0.1 * epoch);
    h.end_epoch();
  }
  bool png = devplace::CurveWriter(dir).write(h);
  std::ifstream csv(dir + "/curves.csv");
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(header, "epoch,train_loss,valid_loss,train_acc,valid_acc");
  int rows = 0;
  while (std::getline(csv, line))
    ++rows;
  EXPECT_EQ(rows, 3);
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    EXPECT_TRUE(png);
    std::ifstream f(dir + "/curves.png", std::ios::binary);
    char magic[4] = {};
    f.read(magic, 4);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  }
}

TEST(CurveWriter, ReportsAnUnwritableFolder) {
  devplace::MetricHistory h;
  std::string e = errorOf([&] { devplace::CurveWriter("/nonexistent/dir").write(h); });
  EXPECT_NE(e.find("cannot write /nonexistent/dir/curves.csv"), std::string::npos) << e;
}

} // namespace

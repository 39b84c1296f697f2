//===--- ApiTableTest.cpp - the table of API knowledge --------------------===//

#include "devplace/model/ApiTable.h"
#include "gtest/gtest.h"

namespace clang::devplace {
namespace {

TEST(ApiTable, BuiltinRowsAreIndexedByHowTheyMatch) {
  const ApiTable &T = ApiTable::builtin();
  EXPECT_TRUE(T.tensorMethod("cpu", ApiRole::MovesToHost));
  EXPECT_TRUE(T.tensorMethod("cpu", ApiRole::HostSync));
  EXPECT_FALSE(T.tensorMethod("cuda", ApiRole::MovesToHost));
  EXPECT_TRUE(T.tensorMethod("type_as", ApiRole::MovesToDeviceOf));
  EXPECT_TRUE(T.callee("std::memcpy", ApiRole::HostMemoryCall));
  EXPECT_TRUE(T.callee("std::basic_string::append", ApiRole::HostMemoryCall));
  // A container's range methods read only a [first, last) pair of pointers.
  EXPECT_FALSE(T.callee("std::vector::insert", ApiRole::HostMemoryCall));
  EXPECT_TRUE(T.methodName("emplace_back", ApiRole::ReadsPointerRange));
  EXPECT_TRUE(T.callee("stbi_write_png", ApiRole::HostMemoryCall));
  EXPECT_TRUE(T.classNamed("cv::Mat", ApiRole::NonOwningView));
  EXPECT_FALSE(T.classNamed("std::vector", ApiRole::NonOwningView));
  // A method row is not a tensor-method row.
  EXPECT_FALSE(
      T.tensorMethod("std::basic_string::append", ApiRole::HostMemoryCall));
}

TEST(ApiTable, NamespacesSuffixesAndSubstrings) {
  const ApiTable &T = ApiTable::builtin();
  EXPECT_TRUE(T.inNamespace("torch::zeros", ApiRole::LibraryNamespace));
  EXPECT_TRUE(T.inNamespace("c10::Device", ApiRole::LibraryNamespace));
  EXPECT_FALSE(T.inNamespace("torchvision::models", ApiRole::LibraryNamespace));
  EXPECT_FALSE(T.inNamespace("zeros", ApiRole::LibraryNamespace));
  EXPECT_TRUE(T.callee("torch::zeros_like", ApiRole::CreatesLike));
  EXPECT_TRUE(T.callee("torch::from_blob", ApiRole::WrapsPointer));
  EXPECT_TRUE(T.callee("spdlog::info_log", ApiRole::LogCall));
  EXPECT_TRUE(T.callee("puts", ApiRole::LogCall));
  EXPECT_FALSE(T.callee("put", ApiRole::LogCall));
  EXPECT_TRUE(T.callee("matplot::plot", ApiRole::ReadsOnly));
  EXPECT_TRUE(T.endsWith("BCELoss", ApiRole::ParameterlessModule));
  EXPECT_TRUE(
      T.startsWith(ApiMatch::DeviceString, "cpu:0", ApiRole::HostDeviceString));
  EXPECT_FALSE(T.startsWith(ApiMatch::DeviceString, "cuda:0",
                            ApiRole::HostDeviceString));
}

TEST(ApiTable, OptionsAddFunctionRows) {
  ApiTable T = ApiTable::builtin();
  T.addFunctions(" mylib::plot ; ::mylib::dump,other::f;;",
                 ApiRole::HostMemoryCall);
  EXPECT_TRUE(T.callee("mylib::plot", ApiRole::HostMemoryCall));
  EXPECT_TRUE(T.callee("mylib::dump", ApiRole::HostMemoryCall));
  EXPECT_TRUE(T.callee("other::f", ApiRole::HostMemoryCall));
  EXPECT_FALSE(T.callee("mylib::plot", ApiRole::DeviceSource));
  // The builtin table is untouched.
  EXPECT_FALSE(
      ApiTable::builtin().callee("mylib::plot", ApiRole::HostMemoryCall));
  // A copy keeps the patterns it was copied with.
  ApiTable Copy = T;
  EXPECT_TRUE(Copy.callee("torch::ones_like", ApiRole::CreatesLike));
}

TEST(ApiTable, EveryRoleHasANameAndADoc) {
  for (unsigned R = 0; R < static_cast<unsigned>(ApiRole::NumRoles); ++R) {
    EXPECT_FALSE(ApiTable::roleName(static_cast<ApiRole>(R)).empty());
    EXPECT_FALSE(ApiTable::roleDoc(static_cast<ApiRole>(R)).empty());
  }
  EXPECT_GT(ApiTable::builtinRows().size(), 200u);
}

} // namespace
} // namespace clang::devplace

// Mock of matplotlib-cpp's pointer-taking calls for devplace's tests.
#pragma once
#include <map>
#include <string>
#include <vector>
namespace matplotlibcpp {
void imshow(const float *ptr, const int rows, const int columns, const int colors,
            const std::map<std::string, std::string> &keywords = {});
void imshow(const unsigned char *ptr, const int rows, const int columns, const int colors,
            const std::map<std::string, std::string> &keywords = {});
template <typename Numeric> bool plot(const std::vector<Numeric> &y, const std::string &format = "");
template <typename NumericX, typename NumericY>
bool plot(const std::vector<NumericX> &x, const std::vector<NumericY> &y, const std::string &s = "");
void show(bool block = true);
} // namespace matplotlibcpp

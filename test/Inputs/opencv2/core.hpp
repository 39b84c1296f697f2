// Mock of the parts of OpenCV 4.6's cv::Mat that devplace's tests use.
#pragma once
#include <cstddef>
#define CV_8UC1 0
#define CV_8UC3 16
#define CV_32FC1 5
#define CV_32FC3 21
namespace cv {
class Mat {
public:
  Mat();
  Mat(int rows, int cols, int type);
  Mat(int rows, int cols, int type, void *data, size_t step = 0);
  Mat clone() const;
  unsigned char *data;
  int rows, cols;
};
void imwrite(const char *path, const Mat &m);
} // namespace cv

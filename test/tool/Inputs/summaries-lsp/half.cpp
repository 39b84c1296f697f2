#include "helpers.h"

float read_moved(const torch::Tensor &x) {
  auto t = on_gpu(x

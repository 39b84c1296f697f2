#include "model.h"

// A module's forward that returns a host copy: its result is host memory.
float forward_result(Net &net, const torch::Tensor &x) {
  auto y = net->forward(x.cuda());
  return y.data_ptr<float>()[0];
}

// A method that returns a struct: each member as the other file leaves it.
float detect_boxes(Net &net, const torch::Tensor &x) {
  auto out = net->detect(x.cuda());
  return out.boxes.data_ptr<float>()[0];
}

float detect_logits(Net &net, const torch::Tensor &x) {
  auto out = net->detect(x.cuda());
  return out.logits.data_ptr<float>()[0];
}

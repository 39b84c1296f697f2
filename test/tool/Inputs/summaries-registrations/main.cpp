#include "net.h"

float registered_submodule() {
  Tower t;
  t->to(torch::kCUDA);
  return t->fc->weight.data_ptr<float>()[0];
}

float registered_buffer() {
  Tower t;
  t->to(torch::kCUDA);
  return t->mean.data_ptr<float>()[0];
}

float unregistered_submodule() {
  Tower t;
  t->to(torch::kCUDA);
  return t->head->weight.data_ptr<float>()[0];
}

void activation() {
  Activation act;
  act->to(torch::kCUDA);
  auto y = act->forward(torch::zeros({3}));
}

// devplace-unregistered-submodule on a module class declared in a project
// header: it is checked in the file that defines its constructor, and
// reported where the member gets its value, with a note at its declaration.
// RUN: %tidy_load --checks='-*,devplace-unregistered-submodule' %s -- %mock_flags -I%S/Inputs | FileCheck %s -implicit-check-not='{{warning|note}}:'
// RUN: not %devplace --checks='-*,devplace-unregistered-submodule' %s -- %mock_flags -I%S/Inputs | FileCheck %s -implicit-check-not='{{warning|note}}:'
#include "tiny_net.h"

TinyNet::TinyNet(int classes) {
  body = register_module("body", torch::nn::Linear(8, 8));
  norm = torch::nn::BatchNorm2d(8);
  // CHECK: :[[@LINE-1]]:10: warning: submodule 'norm' of 'TinyNet' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved, and it stays in training mode under eval(); register it with register_module [devplace-unregistered-submodule]
  // CHECK: tiny_net.h:13:26: note: 'norm' is declared here
  head = torch::nn::Linear(8, classes);
  // CHECK: :[[@LINE-1]]:10: warning: submodule 'head' of 'TinyNet' is never registered: it will not move with ->to(device), and its parameters will not be trained or saved; register it with register_module [devplace-unregistered-submodule]
  // CHECK: tiny_net.h:14:21: note: 'head' is declared here
}

torch::Tensor TinyNet::forward(torch::Tensor x) {
  return head(norm(body(x)));
}

RegisteredNet::RegisteredNet(int classes) {
  head = register_module("head", torch::nn::Linear(8, classes));
}

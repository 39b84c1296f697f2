// After a fatal compile error clang skips function bodies; the registrations
// in them vanish, and devplace-unregistered-submodule must not report their
// absence (seen on pytorch/examples' dcgan.cpp without its argparse header).
// RUN: not %devplace --checks='-*,devplace-unregistered-submodule' %s -- %mock_flags 2>&1 | FileCheck %s -implicit-check-not='warning:'
#include <torch/torch.h>
#include <missing/header.hpp>
// CHECK: error: 'missing/header.hpp' file not found [clang-diagnostic-error]

struct GeneratorImpl : torch::nn::Module {
  GeneratorImpl() : conv(torch::nn::Linear(2, 2)) { register_module("conv", conv); }
  torch::nn::Linear conv;
};
// CHECK: devplace: 1 file, 0 findings, 1 file failed to parse: {{.*}}unregistered-submodule-broken.cpp, {{[0-9.]+}} s

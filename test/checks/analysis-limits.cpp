// Bounded work, honest limits: when the per-function bound on block visits
// is hit, the function is analysed as far as it got, findings proven so far
// are kept, and (opt-in; on by default in the CLI) a remark names the
// function. A bound of 1 visit per block stands in for a pathological input.
// RUN: %tidy_load --checks='-*,devplace-host-sink' --config="{CheckOptions: {devplace-host-sink.VisitsPerBlockLimit: 1, devplace-host-sink.ReportAnalysisLimits: true}}" %s -- %mock_flags 2>&1 | FileCheck --check-prefixes=CUT,KEPT %s -implicit-check-not='{{warning|note|remark}}:'
// RUN: not %devplace --checks='-*,devplace-host-sink' --config="{CheckOptions: {VisitsPerBlockLimit: 1}}" %s -- %mock_flags 2>&1 | FileCheck --check-prefixes=CUT,CUT-CLI,KEPT %s -implicit-check-not='{{warning|note|remark}}:'
// Without the remark option the plugin stays quiet about it.
// RUN: %tidy_load --checks='-*,devplace-host-sink' --config="{CheckOptions: {devplace-host-sink.VisitsPerBlockLimit: 1}}" %s -- %mock_flags 2>&1 | FileCheck --check-prefixes=QUIET,KEPT %s -implicit-check-not='{{warning|note|remark}}:'
// With the default bound the analysis completes and finds the bug.
// RUN: not %devplace --checks='-*,devplace-host-sink' %s -- %mock_flags 2>&1 | FileCheck --check-prefix=FULL %s -implicit-check-not='{{warning|remark}}:'
#include <torch/torch.h>
#include <vector>

float many_loops(std::vector<torch::Tensor> &xs) {
  torch::Tensor a = torch::zeros({2}), b = torch::zeros({2}), c = torch::zeros({2});
  for (auto &x : xs) {
    for (int i = 0; i < 3; ++i) {
      if (i % 2) a = b; else b = c;
      for (int j = 0; j < 3; ++j) {
        if (i == j) c = x.cuda(); else c = a;
      }
    }
  }
  return a.data_ptr<float>()[0];
}
// CUT: :[[@LINE-12]]:7: remark: analysis of 'many_loops' stopped after 34 block visits (the bound is 1 per block of its 18); findings later in it may be missing [devplace-host-sink]
// QUIET-NOT: remark
// FULL: :[[@LINE-4]]:12: warning: 'a' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]

// Cut short after the device value was seen: the finding is kept, as a
// "may be" (the states are below the fixpoint).
float early(std::vector<torch::Tensor> &xs) {
  torch::Tensor d = torch::ones({2}).cuda();
  float first = d.data_ptr<float>()[0];
  torch::Tensor a = torch::zeros({2}), b = torch::zeros({2}), c = torch::zeros({2});
  for (auto &x : xs) {
    for (int i = 0; i < 3; ++i) {
      if (i % 2) a = b; else b = c;
      for (int j = 0; j < 3; ++j) {
        if (i == j) c = x.cuda(); else c = a;
      }
    }
  }
  return first + a.data_ptr<float>()[0];
}
// CUT: :[[@LINE-14]]:7: remark: analysis of 'early' stopped after {{[0-9]+}} block visits (the bound is 1 per block of its {{[0-9]+}}); findings later in it may be missing [devplace-host-sink]
// KEPT: :[[@LINE-13]]:19: warning: 'd' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
// KEPT: :[[@LINE-15]]:{{[0-9]+}}: note: 'd' is moved to a CUDA device here
// CUT-CLI: devplace: 1 file, 1 finding (host-sink 1), 2 functions cut short (see the remarks)
// FULL: :[[@LINE-16]]:19: warning: 'd' is on a CUDA device when its memory is read on the host here [devplace-host-sink]
// FULL: note: 'd' is moved to a CUDA device here
// FULL: :[[@LINE-8]]:{{[0-9]+}}: warning: 'a' may be on a CUDA device when its memory is read on the host here [devplace-host-sink]
// FULL: devplace: 1 file, 3 findings (host-sink 3)

// The fake CUDA device's rules, one scenario per command-line word, each
// with its twin: the form that fails on a GPU and the fixed form that runs.
// Run under libdevplace_fakecuda.so (LD_PRELOAD, or linked) by the lit tests
// in test/runtime/fakecuda-*.test; on a GPU machine, scripts/gpu-check.sh
// runs the same scenarios without the runtime and compares.
#include <torch/script.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <dlfcn.h>

#ifdef DEVPLACE_HAVE_OPENCV
#include <opencv2/core.hpp>
#endif

namespace {

const torch::Device cuda(torch::kCUDA);

// Prints what an operation threw, or that it ran.
void attempt(const char *what, const std::function<void()> &f) {
  try {
    f();
    std::cout << what << ": ran" << std::endl;
  } catch (const c10::Error &e) {
    std::string message = e.what_without_backtrace();
    std::cout << what << ": threw: " << message.substr(0, message.find('\n'))
              << std::endl;
  } catch (const std::exception &e) {
    // The TorchScript interpreter's error: the operator's message is its
    // last line.
    std::string message = e.what();
    while (!message.empty() && message.back() == '\n')
      message.pop_back();
    std::cout << what << ": threw: " << message.substr(message.rfind('\n') + 1)
              << std::endl;
  }
}

// The parameters of a small network trained for a few steps with Adam on
// `device`, from the same seed: the same numbers on every device.
std::vector<float> trained(torch::Device device) {
  torch::manual_seed(7);
  torch::nn::Sequential net(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 4, 3).padding(1)),
      torch::nn::ReLU(), torch::nn::Flatten(), torch::nn::Linear(4 * 8 * 8, 1));
  net->to(device);
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-2));
  torch::Tensor x = torch::randn({16, 1, 8, 8}).to(device);
  torch::Tensor y = (torch::rand({16, 1}) > 0.5).to(torch::kFloat).to(device);
  for (int step = 0; step < 5; ++step) {
    adam.zero_grad();
    torch::Tensor loss =
        torch::binary_cross_entropy_with_logits(net->forward(x), y);
    loss.backward();
    adam.step();
  }
  std::vector<float> out;
  torch::NoGradGuard no_grad;
  for (const torch::Tensor &p : net->parameters())
    out.push_back(p.sum().item<float>());
  return out;
}

// The outputs and gradients of LibTorch's recurrent layers and cells, run
// forward and backward on `device` from the same seed.
std::vector<float> recurrent(torch::Device device) {
  torch::manual_seed(3);
  torch::nn::LSTM lstm(
      torch::nn::LSTMOptions(5, 6).num_layers(2).bidirectional(true));
  torch::nn::GRU gru(torch::nn::GRUOptions(5, 6));
  torch::nn::LSTMCell lstm_cell(5, 6);
  torch::nn::GRUCell gru_cell(5, 6);
  lstm->to(device);
  gru->to(device);
  lstm_cell->to(device);
  gru_cell->to(device);
  torch::Tensor x = torch::randn({7, 3, 5}).to(device);
  torch::Tensor step = torch::randn({3, 5}).to(device);
  torch::Tensor loss = std::get<0>(lstm->forward(x)).pow(2).sum() +
                       std::get<0>(gru->forward(x)).pow(2).sum() +
                       std::get<1>(lstm_cell->forward(step)).pow(2).sum() +
                       gru_cell->forward(step).pow(2).sum();
  loss.backward();
  std::vector<float> out{loss.item<float>()};
  for (torch::nn::Module *m : std::initializer_list<torch::nn::Module *>{
           lstm.get(), gru.get(), lstm_cell.get(), gru_cell.get()})
    for (const torch::Tensor &p : m->parameters())
      out.push_back(p.grad().abs().sum().item<float>());
  return out;
}

bool same(const std::vector<float> &a, const std::vector<float> &b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > 1e-4f * (1 + std::fabs(a[i])))
      return false;
  return true;
}

const std::map<std::string, std::function<void()>> scenarios = {
    // torch::cuda's questions.
    {"available",
     [] {
       std::cout << "is_available " << torch::cuda::is_available() << "\n";
       std::cout << "device_count " << int(torch::cuda::device_count()) << "\n";
       std::cout << "cudnn_is_available " << torch::cuda::cudnn_is_available()
                 << "\n";
       if (!torch::cuda::is_available())
         return;
       torch::cuda::manual_seed_all(1);
       torch::cuda::synchronize();
       std::cout << "seeded and synchronized" << std::endl;
     }},
    // Tensors on the device: factories, options, indices, transfers.
    {"tensors",
     [] {
       torch::Tensor a =
           torch::arange(
               6, torch::TensorOptions().dtype(torch::kFloat).device(cuda))
               .view({2, 3});
       torch::Tensor b = torch::ones({2, 3}).cuda();
       torch::Tensor c = (a * b + 1).sum(1);
       std::cout << c.device() << " is_cuda " << c.is_cuda() << " sum "
                 << c.sum().item<float>() << "\n";
       std::cout << c.cpu().device() << " "
                 << c.to(torch::kCPU).sum().item<float>() << "\n";
       std::cout << c << std::endl;
       if (torch::cuda::device_count() > 1) {
         torch::Tensor d = torch::zeros({2}, torch::Device("cuda:1"));
         std::cout << d.device() << " " << d.to(cuda).device() << std::endl;
       }
     }},
    // Two devices in one operator: CUDA refuses; a 0-dim CPU tensor is a
    // scalar.
    {"mixed",
     [] {
       torch::Tensor g = torch::ones({3}, cuda);
       torch::Tensor h = torch::ones({3});
       attempt("cuda + cpu", [&] { (g + h).sum(); });
       attempt("cpu + cuda", [&] { (h + g).sum(); });
       attempt("matmul", [&] { torch::matmul(g, h); });
       attempt("cat", [&] { torch::cat({g, h}); });
       attempt("index_select with a cpu index",
               [&] { g.index_select(0, torch::zeros({1}, torch::kLong)); });
     }},
    {"mixed-fixed",
     [] {
       torch::Tensor g = torch::ones({3}, cuda);
       torch::Tensor h = torch::ones({3});
       attempt("cuda + cpu.to(cuda)", [&] { (g + h.to(cuda)).sum(); });
       attempt("cuda * cpu 0-dim", [&] { (g * torch::tensor(2.0f)).sum(); });
       attempt("indexing with a cpu index",
               [&] { g.index({torch::zeros({1}, torch::kLong)}); });
       attempt("index_select with a cuda index", [&] {
         g.index_select(0, torch::zeros({1}, torch::kLong).to(cuda));
       });
     }},
    {"two-devices",
     [] {
       torch::Tensor a = torch::ones({2}, torch::Device("cuda:0"));
       torch::Tensor b = torch::ones({2}, torch::Device("cuda:1"));
       attempt("cuda:0 + cuda:1", [&] { (a + b).sum(); });
       attempt("cuda:0 + cuda:1 moved to cuda:0",
               [&] { (a + b.to(a.device())).sum(); });
       // A model on the rank's device (1) fed a buffer made on device 0.
       torch::nn::Linear fc(2, 2);
       fc->to(torch::Device(torch::kCUDA, 1));
       attempt("module on cuda:1, input on cuda:0",
               [&] { fc->forward(a.view({1, 2})); });
       attempt("module on cuda:1, input moved to cuda:1",
               [&] { fc->forward(a.view({1, 2}).to(b.device())); });
     }},
    // A module moved to CUDA and fed CPU input.
    {"module",
     [] {
       torch::nn::Linear fc(4, 2);
       fc->to(torch::kCUDA);
       attempt("forward(cpu input)", [&] { fc->forward(torch::ones({1, 4})); });
       attempt("forward(input.to(device))",
               [&] { fc->forward(torch::ones({1, 4}).to(cuda)); });
     }},
    // Training: the same numbers on the fake device as on the CPU.
    {"autograd",
     [] {
       std::vector<float> host = trained(torch::kCPU);
       std::vector<float> device = trained(cuda);
       bool same = host.size() == device.size();
       for (std::size_t i = 0; same && i < host.size(); ++i)
         same =
             std::fabs(host[i] - device[i]) <= 1e-4f * (1 + std::fabs(host[i]));
       std::cout << "parameters after 5 Adam steps: "
                 << (same ? "the same as on the CPU" : "DIFFERENT") << "\n";
       torch::Tensor w = torch::ones({2}, cuda).requires_grad_();
       {
         torch::NoGradGuard no_grad;
         std::cout << "under NoGradGuard requires_grad "
                   << (w * 2).requires_grad() << std::endl;
       }
     }},
    // LSTM and GRU layers and cells: LibTorch calls fused cell operators on
    // CUDA tensors, which the fake device computes itself.
    {"recurrent",
     [] {
       bool equal = same(recurrent(torch::kCPU), recurrent(cuda));
       std::cout << "LSTM, GRU, LSTMCell, GRUCell forward and backward: "
                 << (equal ? "the same as on the CPU" : "DIFFERENT")
                 << std::endl;
     }},
    // torch::save and torch::load with a device; a TorchScript module
    // loaded onto the device.
    {"serialize",
     [] {
       std::string dir =
           std::getenv("SCRATCH") ? std::getenv("SCRATCH") : "/tmp";
       torch::Tensor t = torch::arange(
           4, torch::TensorOptions().dtype(torch::kFloat).device(cuda));
       torch::save(t, dir + "/t.pt");
       torch::Tensor back;
       torch::load(back, dir + "/t.pt", cuda);
       std::cout << "loaded " << back.device() << " "
                 << back.sum().item<float>() << "\n";
       torch::jit::Module m("m");
       m.register_parameter("w", torch::full({4}, 2.0f), false);
       m.define("def forward(self, x):\n  return x * self.w\n");
       m.save(dir + "/m.pt");
       torch::jit::Module on_device = torch::jit::load(dir + "/m.pt", cuda);
       attempt("scripted forward(cuda input)", [&] {
         torch::Tensor y =
             on_device.forward({torch::ones({4}).to(cuda)}).toTensor();
         std::cout << y.device() << " " << y.sum().item<float>() << "\n";
       });
       attempt("scripted forward(cpu input)",
               [&] { on_device.forward({torch::ones({4})}); });
     }},
    // Host code reading device memory: stopped at the read.
    {"read-data-ptr",
     [] {
       torch::Tensor acc = torch::full({4}, 0.5f, cuda);
       float *p = acc.data_ptr<float>();
       std::cout << "pointer taken" << std::endl;
       std::printf("%f\n", p[0]); // the read of read-data-ptr
     }},
    {"read-data-ptr-fixed",
     [] {
       torch::Tensor acc = torch::full({4}, 0.5f, cuda).cpu();
       std::printf("%f\n", acc.data_ptr<float>()[0]);
     }},
    {"accessor",
     [] {
       torch::Tensor t = torch::ones({2, 2}, cuda);
       auto a = t.accessor<float, 2>();
       std::printf("%f\n", a[1][1]);
     }},
    {"accessor-fixed",
     [] {
       torch::Tensor t = torch::ones({2, 2}, cuda).cpu();
       auto a = t.accessor<float, 2>();
       std::printf("%f\n", a[1][1]);
     }},
    {"memcpy",
     [] {
       torch::Tensor t = torch::ones({8}, cuda);
       float out[8];
       std::memcpy(out, t.data_ptr<float>(), sizeof out);
       std::printf("%f\n", out[0]);
     }},
    {"memcpy-fixed",
     [] {
       torch::Tensor t = torch::ones({8}, cuda).cpu();
       float out[8];
       std::memcpy(out, t.data_ptr<float>(), sizeof out);
       std::printf("%f\n", out[0]);
     }},
    {"vector",
     [] {
       torch::Tensor t = torch::ones({8}, cuda);
       const float *p = t.data_ptr<float>();
       std::vector<float> v(p, p + t.numel());
       std::printf("%f\n", v[0]);
     }},
    {"vector-fixed",
     [] {
       torch::Tensor t = torch::ones({8}, cuda).to(torch::kCPU);
       const float *p = t.data_ptr<float>();
       std::vector<float> v(p, p + t.numel());
       std::printf("%f\n", v[0]);
     }},
    {"write-data-ptr",
     [] {
       torch::Tensor t = torch::zeros({4}, cuda);
       t.data_ptr<float>()[2] = 1;
     }},
#ifdef DEVPLACE_HAVE_OPENCV
    {"cv-mat",
     [] {
       torch::Tensor image = torch::ones({4, 4}, cuda);
       cv::Mat m(4, 4, CV_32F, image.data_ptr<float>());
       std::printf("%f\n", cv::sum(m)[0]);
     }},
    {"cv-mat-fixed",
     [] {
       torch::Tensor image = torch::ones({4, 4}, cuda).cpu();
       cv::Mat m(4, 4, CV_32F, image.data_ptr<float>());
       std::printf("%f\n", cv::sum(m)[0]);
     }},
#endif
    // A non_blocking copy to the host lands at the next synchronisation.
    {"non-blocking",
     [] {
       torch::Tensor d = torch::full({4}, 3.0f, cuda);
       torch::Tensor h = d.to(torch::kCPU, /*non_blocking=*/true);
       std::cout << "pinned " << h.is_pinned() << " before synchronize "
                 << h.data_ptr<float>()[0] << "\n";
       torch::cuda::synchronize();
       std::cout << "after synchronize " << h.data_ptr<float>()[0] << "\n";
       torch::Tensor h2 = (d * 2).to(torch::kCPU, /*non_blocking=*/true);
       float ignored = d.sum().item<float>();
       (void)ignored;
       std::cout << "after item " << h2.data_ptr<float>()[0] << "\n";
       torch::Tensor pinned =
           torch::empty({4}, torch::TensorOptions().pinned_memory(true));
       pinned.copy_(d * 3, /*non_blocking=*/true);
       torch::Tensor blocking = d.cpu();
       std::cout << "after a blocking copy " << pinned.data_ptr<float>()[0]
                 << "\n";
       torch::Tensor pageable = torch::empty({4});
       pageable.copy_(d, /*non_blocking=*/true);
       std::cout << "pageable destination " << pageable.data_ptr<float>()[0]
                 << std::endl;
     }},
    // Host memory given to LibTorch as device memory.
    {"from-blob",
     [] {
       std::vector<float> host(4, 1.0f);
       attempt("from_blob(host, kCUDA)", [&] {
         torch::from_blob(host.data(), {4}, torch::TensorOptions().device(cuda))
             .sum()
             .item<float>();
       });
       attempt("from_blob(host).to(kCUDA)", [&] {
         torch::from_blob(host.data(), {4}).to(cuda).sum().item<float>();
       });
     }},
    // More than the device holds (DEVPLACE_FAKE_CUDA_MEMORY).
    {"out-of-memory",
     [] {
       attempt("4 MiB on a 1 MiB device", [] {
         torch::empty({1 << 20}, torch::TensorOptions().device(cuda));
       });
     }},
    // An operator a CPU build has for CUDA only: the fake device names it.
    {"cuda-only",
     [] {
       attempt("_fused_dropout",
               [] { at::_fused_dropout(torch::ones({4}, cuda), 0.5); });
     }},
    // Loaded after LibTorch answered that there is no CUDA: refused.
    {"late-load",
     [] {
       std::cout << "is_available " << torch::cuda::is_available() << std::endl;
       dlopen(std::getenv("FAKECUDA"), RTLD_NOW);
       std::cout << "loaded" << std::endl;
     }},
    // Host synchronisations, as the runtime counts them.
    {"syncs",
     [] {
       auto count = reinterpret_cast<long (*)()>(
           dlsym(RTLD_DEFAULT, "devplace_fakecuda_synchronisations"));
       if (!count) {
         std::cout << "no synchronisation count without the fake CUDA device"
                   << std::endl;
         return;
       }
       torch::Tensor loss = torch::ones({1}, cuda);
       long before = count();
       double total = 0;
       for (int i = 0; i < 10; ++i)
         total += (loss * i).item<double>();
       std::cout << "item() in a loop of 10: " << count() - before
                 << " synchronisations\n";
       before = count();
       torch::Tensor sum = torch::zeros({1}, cuda);
       for (int i = 0; i < 10; ++i)
         sum += loss * i;
       total += sum.item<double>();
       std::cout << "summed on the device: " << count() - before
                 << " synchronisation (" << total << ")" << std::endl;
     }},
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2 || !scenarios.count(argv[1])) {
    std::cerr << "usage: fakecuda_rules SCENARIO; scenarios:";
    for (const auto &[name, f] : scenarios)
      std::cerr << " " << name;
    std::cerr << std::endl;
    return 2;
  }
  scenarios.at(argv[1])();
  return 0;
}

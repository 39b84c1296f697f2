// The smile classifier, fixed: every metric becomes a host number once per
// epoch, when it is recorded. devplace::MetricHistory keeps the sums on the
// training device during the epoch, so the loop does not wait for the GPU on
// every batch, and hands host series to the curve writer.
#include "celeba.h"

#include <chrono>
#include <cstdio>
#include <iostream>

int main(int argc, char **argv) {
  const celeba::Options opt = celeba::parseOrExit(argc, argv);
  try {
    torch::manual_seed(1);
    torch::Device device = celeba::pickDevice(opt.device);
    auto [train_dl, train_size] = celeba::trainLoader(opt);
    auto [valid_dl, valid_size] = celeba::evalLoader(opt, celeba::Split::Valid, opt.valid_size);
    const double n_train = static_cast<double>(train_size);

    torch::nn::Sequential model = celeba::makeModel();
    model->to(device);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

    devplace::MetricHistory history;
    devplace::CurveWriter curves(opt.out);

    for (int epoch = 0; epoch < opt.epochs; ++epoch) {
      const size_t syncs_before = history.host_syncs();
      const auto started = std::chrono::steady_clock::now();
      model->train();
      size_t done = 0;
      for (auto &batch : *train_dl) {
        auto x_batch = batch.data.to(device);
        auto y_batch = batch.target.to(device);
        optimizer.zero_grad();
        auto pred = model->forward(x_batch).select(1, 0);
        auto loss = torch::binary_cross_entropy(pred, y_batch.to(torch::kFloat));
        loss.backward();
        optimizer.step();
        const double n = static_cast<double>(y_batch.size(0));
        auto is_correct = ((pred >= 0.5).to(torch::kFloat) == y_batch).to(torch::kFloat);
        history.add("train_loss", loss, n);
        history.add("train_acc", is_correct.mean(), n);
        celeba::progress("train", done += y_batch.size(0), static_cast<size_t>(n_train));
      }

      model->eval();
      {
        torch::NoGradGuard no_grad;
        for (auto &batch : *valid_dl) {
          auto x_batch = batch.data.to(device);
          auto y_batch = batch.target.to(device);
          auto pred = model->forward(x_batch).select(1, 0);
          auto loss = torch::binary_cross_entropy(pred, y_batch.to(torch::kFloat));
          const double n = static_cast<double>(y_batch.size(0));
          auto is_correct = ((pred >= 0.5).to(torch::kFloat) == y_batch).to(torch::kFloat);
          history.add("valid_loss", loss, n);
          history.add("valid_acc", is_correct.mean(), n);
        }
      }
      history.end_epoch();
      curves.write(history);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::printf("epoch %d accuracy: %.4f validation accuracy: %.4f (%zu host reads, %.3f s)\n",
                  epoch + 1, history.last("train_acc"), history.last("valid_acc"),
                  history.host_syncs() - syncs_before, seconds);
      std::fflush(stdout);
    }
    auto test_dl = celeba::evalLoader(opt, celeba::Split::Test, opt.valid_size).first;
    std::printf("test accuracy: %.4f\n", celeba::evaluate(model, *test_dl, device));
    torch::save(model, opt.out + "/model.pt");
  } catch (const std::exception &e) {
    return celeba::fail(e);
  }
  return 0;
}

// The smile classifier as first ported from Python: it trains on a laptop's
// CPU and crashes on a GPU machine. devplace finds why; train.cpp is fixed.
//
// As in the original, accuracy is accumulated as a tensor on the training
// device (`correct += is_correct.sum()`), the tensors go into the history,
// and the plotting code reads them as host memory.
#include "celeba.h"

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
    const double n_valid = static_cast<double>(valid_size);

    torch::nn::Sequential model = celeba::makeModel();
    model->to(device);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

    std::vector<double> loss_hist_train, loss_hist_valid;
    std::vector<torch::Tensor> accuracy_hist_train, accuracy_hist_valid;

    for (int epoch = 0; epoch < opt.epochs; ++epoch) {
      model->train();
      double loss_tmp = 0;
      torch::Tensor accuracy_tmp = torch::zeros({}, device);
      size_t done = 0;
      for (auto &batch : *train_dl) {
        auto x_batch = batch.data.to(device);
        auto y_batch = batch.target.to(device);
        optimizer.zero_grad();
        auto pred = model->forward(x_batch).select(1, 0);
        auto loss = torch::binary_cross_entropy(pred, y_batch.to(torch::kFloat));
        loss.backward();
        optimizer.step();
        loss_tmp += loss.item<double>() * y_batch.size(0);
        auto is_correct = ((pred >= 0.5).to(torch::kFloat) == y_batch).to(torch::kFloat);
        accuracy_tmp += is_correct.sum();
        celeba::progress("train", done += y_batch.size(0), static_cast<size_t>(n_train));
      }
      loss_hist_train.push_back(loss_tmp / n_train);
      accuracy_hist_train.push_back(accuracy_tmp / n_train);

      model->eval();
      {
        torch::NoGradGuard no_grad;
        loss_tmp = 0;
        accuracy_tmp = torch::zeros({}, device);
        for (auto &batch : *valid_dl) {
          auto x_batch = batch.data.to(device);
          auto y_batch = batch.target.to(device);
          auto pred = model->forward(x_batch).select(1, 0);
          auto loss = torch::binary_cross_entropy(pred, y_batch.to(torch::kFloat));
          loss_tmp += loss.item<double>() * y_batch.size(0);
          auto is_correct = ((pred >= 0.5).to(torch::kFloat) == y_batch).to(torch::kFloat);
          accuracy_tmp += is_correct.sum();
        }
      }
      loss_hist_valid.push_back(loss_tmp / n_valid);
      accuracy_hist_valid.push_back(accuracy_tmp / n_valid);

      // The plotting code wants host numbers: read them out of the history.
      std::vector<double> acc_train, acc_valid;
      for (const torch::Tensor &a : accuracy_hist_train)
        acc_train.push_back(*a.data_ptr<float>());
      for (const torch::Tensor &a : accuracy_hist_valid)
        acc_valid.push_back(a.data_ptr<float>()[0]);
      devplace::CurveWriter(opt.out).write_series(loss_hist_train, loss_hist_valid, acc_train,
                                                  acc_valid);
      std::printf("epoch %d accuracy: %.4f validation accuracy: %.4f\n", epoch + 1,
                  acc_train.back(), acc_valid.back());
    }
    auto test_dl = celeba::evalLoader(opt, celeba::Split::Test, opt.valid_size).first;
    std::printf("test accuracy: %.4f\n", celeba::evaluate(model, *test_dl, device));
    torch::save(model, opt.out + "/model.pt");
  } catch (const std::exception &e) {
    return celeba::fail(e);
  }
  return 0;
}

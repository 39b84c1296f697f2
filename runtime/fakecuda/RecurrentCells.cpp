#include "RecurrentCells.h"

#include "BoxedArguments.h"

#include <ATen/ATen.h>
#include <ATen/core/stack.h>

namespace devplace::fakecuda {

namespace {

using torch::jit::Stack;

// _thnn_fused_lstm_cell(Tensor input_gates, Tensor hidden_gates, Tensor cx,
//     Tensor? input_bias, Tensor? hidden_bias) -> (hy, cy, workspace)
// gates = input_gates + hidden_gates (+ biases), chunked i, f, g, o; the
// workspace holds the activated gates.
void lstmCell(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments a(stack, 5);
  at::Tensor gates = a[0].toTensor() + a[1].toTensor();
  at::Tensor input_bias = a.optionalTensor(3),
             hidden_bias = a.optionalTensor(4);
  if (input_bias.defined())
    gates = gates + input_bias + hidden_bias;
  std::vector<at::Tensor> chunks = gates.chunk(4, 1);
  at::Tensor i = chunks[0].sigmoid(), f = chunks[1].sigmoid(),
             g = chunks[2].tanh(), o = chunks[3].sigmoid();
  at::Tensor cy = f * a[2].toTensor() + i * g;
  at::Tensor hy = o * cy.tanh();
  at::Tensor workspace = at::cat({i, f, g, o}, 1);
  a.returns({hy, cy, workspace});
}

// _thnn_fused_lstm_cell_backward_impl(Tensor? grad_hy, Tensor? grad_cy,
//     Tensor cx, Tensor cy, Tensor workspace, bool has_bias)
//   -> (grad_gates, grad_cx, grad_bias)
void lstmCellBackward(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments a(stack, 6);
  at::Tensor grad_hy = a.optionalTensor(0), grad_cy = a.optionalTensor(1);
  at::Tensor cx = a[2].toTensor(), cy = a[3].toTensor(),
             workspace = a[4].toTensor();
  bool has_bias = a[5].toBool();
  std::vector<at::Tensor> gates = workspace.chunk(4, 1);
  const at::Tensor &i = gates[0], &f = gates[1], &g = gates[2], &o = gates[3];
  at::Tensor tanh_cy = cy.tanh();
  at::Tensor grad_o =
      grad_hy.defined() ? grad_hy * tanh_cy : at::zeros_like(cy);
  at::Tensor grad_c = grad_hy.defined() ? grad_hy * o * (1 - tanh_cy * tanh_cy)
                                        : at::zeros_like(cy);
  if (grad_cy.defined())
    grad_c = grad_c + grad_cy;
  at::Tensor grad_gates =
      at::cat({grad_c * g * i * (1 - i), grad_c * cx * f * (1 - f),
               grad_c * i * (1 - g * g), grad_o * o * (1 - o)},
              1);
  at::Tensor grad_cx = grad_c * f;
  at::Tensor grad_bias = has_bias ? grad_gates.sum(0) : at::Tensor();
  a.returns({grad_gates, grad_cx, grad_bias});
}

// _thnn_fused_gru_cell(Tensor input_gates, Tensor hidden_gates, Tensor hx,
//     Tensor? input_bias, Tensor? hidden_bias) -> (hy, workspace)
// r = σ(ir + hr), z = σ(ii + hi), n = tanh(in + r * hn), hy = n + z (hx - n);
// the workspace holds r, z, n, hn and hx.
void gruCell(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments a(stack, 5);
  at::Tensor input_gates = a[0].toTensor(), hidden_gates = a[1].toTensor(),
             hx = a[2].toTensor();
  at::Tensor input_bias = a.optionalTensor(3),
             hidden_bias = a.optionalTensor(4);
  if (input_bias.defined()) {
    input_gates = input_gates + input_bias;
    hidden_gates = hidden_gates + hidden_bias;
  }
  std::vector<at::Tensor> in = input_gates.chunk(3, 1),
                          hidden = hidden_gates.chunk(3, 1);
  at::Tensor r = (in[0] + hidden[0]).sigmoid();
  at::Tensor z = (in[1] + hidden[1]).sigmoid();
  at::Tensor n = (in[2] + r * hidden[2]).tanh();
  at::Tensor hy = n + z * (hx - n);
  at::Tensor workspace = at::cat({r, z, n, hidden[2], hx}, 1);
  a.returns({hy, workspace});
}

// _thnn_fused_gru_cell_backward(Tensor grad_hy, Tensor workspace,
//     bool has_bias) -> (grad_input_gates, grad_hidden_gates, grad_hx,
//                        grad_input_bias, grad_hidden_bias)
void gruCellBackward(const c10::OperatorHandle &, Stack *stack) {
  BoxedArguments a(stack, 3);
  at::Tensor grad_hy = a[0].toTensor(), workspace = a[1].toTensor();
  bool has_bias = a[2].toBool();
  std::vector<at::Tensor> w = workspace.chunk(5, 1);
  const at::Tensor &r = w[0], &z = w[1], &n = w[2], &hn = w[3], &hx = w[4];
  at::Tensor grad_hx = grad_hy * z;
  at::Tensor grad_n = grad_hy * (1 - z) * (1 - n * n);
  at::Tensor grad_z = grad_hy * (hx - n) * z * (1 - z);
  at::Tensor grad_r = grad_n * hn * r * (1 - r);
  at::Tensor grad_input_gates = at::cat({grad_r, grad_z, grad_n}, 1);
  at::Tensor grad_hidden_gates = at::cat({grad_r, grad_z, grad_n * r}, 1);
  at::Tensor grad_input_bias =
      has_bias ? grad_input_gates.sum(0) : at::Tensor();
  at::Tensor grad_hidden_bias =
      has_bias ? grad_hidden_gates.sum(0) : at::Tensor();
  a.returns({grad_input_gates, grad_hidden_gates, grad_hx, grad_input_bias,
             grad_hidden_bias});
}

} // namespace

void registerRecurrentCells(torch::Library &aten) {
  aten.impl("aten::_thnn_fused_lstm_cell",
            torch::CppFunction::makeFromBoxedFunction<&lstmCell>());
  aten.impl("aten::_thnn_fused_lstm_cell_backward_impl",
            torch::CppFunction::makeFromBoxedFunction<&lstmCellBackward>());
  aten.impl("aten::_thnn_fused_gru_cell",
            torch::CppFunction::makeFromBoxedFunction<&gruCell>());
  aten.impl("aten::_thnn_fused_gru_cell_backward",
            torch::CppFunction::makeFromBoxedFunction<&gruCellBackward>());
}

} // namespace devplace::fakecuda

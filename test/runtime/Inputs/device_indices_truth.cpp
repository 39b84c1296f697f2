// What checks/device-mismatch-indices.cpp does on fake CUDA devices: each
// function runs once, and the line says whether LibTorch threw.
#include "../../checks/device-mismatch-indices.cpp"
#include <cstdio>
#include <functional>
#include <string>

torch::Tensor NetElsewhere::forward(torch::Tensor x) { return fc(x); }

static void attempt(const char *what, const std::function<void()> &run) {
  try {
    run();
    std::printf("%s: ran\n", what);
  } catch (const std::exception &e) {
    std::string message = e.what();
    std::printf("%s: threw: %s\n", what,
                message.substr(0, message.find('\n')).c_str());
  }
}

int main() {
  attempt("two_numbers", [] { two_numbers(); });
  attempt("buffer_on_device_zero(1)", [] { buffer_on_device_zero(1); });
  attempt("buffer_on_device_zero(0)", [] { buffer_on_device_zero(0); });
  attempt("numbers_the_code_fixes", [] { numbers_the_code_fixes(); });
  attempt("through_a_helper", [] { through_a_helper(); });
  attempt("Worker{1}.step", [] { Worker{1}.step(torch::ones({3})); });
  attempt("Worker{0}.step", [] { Worker{0}.step(torch::ones({3})); });
  attempt("current_device_is_unsaid(0)", [] { current_device_is_unsaid(0); });
  attempt("two_variables(1, 1)", [] { two_variables(1, 1); });
  attempt("a_variable_that_changes(1)", [] { a_variable_that_changes(1); });
  attempt("indices_chosen_on_two_paths(false)",
          [] { indices_chosen_on_two_paths(false); });
  attempt("same_number_twice", [] { same_number_twice(); });
  attempt("a_device_type_names_no_index",
          [] { a_device_type_names_no_index(); });
  attempt("output_of_a_module_elsewhere(1)",
          [] { output_of_a_module_elsewhere(1); });
  attempt("output_of_a_module_elsewhere(0)",
          [] { output_of_a_module_elsewhere(0); });
  attempt("index_over_a_returned_type", [] { index_over_a_returned_type(); });
}

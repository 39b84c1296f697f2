# lit configuration for devplace's tests.
import os
import re
import shlex
import sys
import lit.formats

config.name = "devplace"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "host_test.cpp", "fakecuda_rules.cpp", "api_resolve.cpp", "rewrite_sites.cpp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.devplace_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.devplace_tools_dir, config.environment.get("PATH", "")])

inputs = os.path.join(config.test_source_root, "Inputs")
# Flags that compile a test file against the mock LibTorch headers.
mock_flags = "-std=c++17 -I" + inputs
def loading_plugin(clang_tidy):
    """A clang-tidy command line that can load this build's plugin: the
    sanitized plugin needs the ASan runtime in the (uninstrumented) process."""
    if config.sanitize:
        return "env LD_PRELOAD={} {}".format(config.asan_runtime, clang_tidy)
    return clang_tidy


clang_tidy = loading_plugin(config.clang_tidy)
if config.sanitize:
    # LLVM's tools free nothing at exit by design, so leak reports would be
    # noise; every other report fails the test.
    config.available_features.add("sanitize")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
tidy_load = "{} --load={}".format(clang_tidy, config.plugin)
tidy = tidy_load + " --checks=-*,devplace-*"

# The fix-it tests' sequence (copy, --fix, compare the diagnostics and the
# fixed file, compile it): `RUN: %check_fixes devplace-<check> [--also-cli]`.
config.substitutions.append(("%check_fixes", " ".join([
    sys.executable, os.path.join(inputs, "check_fixes.py"),
    "--tidy", shlex.quote(tidy_load),
    "--cli", shlex.quote(os.path.join(config.devplace_tools_dir, "devplace")),
    "--filecheck", os.path.join(config.llvm_tools_dir, "FileCheck"),
    "--clangxx", config.clangxx, "--flags", shlex.quote(mock_flags),
    "--source", "%s", "--scratch", "%t"])))
config.substitutions.append(("%mock_flags", mock_flags))
config.substitutions.append(("%tidy_plugin", tidy))
config.substitutions.append(("%tidy_load", tidy_load))
config.substitutions.append(("%plugin_path", config.plugin))
config.substitutions.append(("%clang_tidy", clang_tidy))
config.substitutions.append(("%devplace", os.path.join(config.devplace_tools_dir, "devplace")))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%torch_flags", config.torch_flags))

# The LLVM the build uses: `REQUIRES: llvm-22`, and `FileCheck -DLLVM=%llvm_major`
# where a line names the version. Where clang itself prints something
# differently in one version, the test says so with a check prefix per
# version (`--check-prefixes=CHECK,LLVM%llvm_major`).
config.available_features.add("llvm-" + config.llvm_major)
config.substitutions.append(("%llvm_major", config.llvm_major))
if config.clangd:
    config.available_features.add("clangd")
# The LibTorch whose real headers the integration tests parse (the build's,
# DEVPLACE_LIBTORCH): `REQUIRES: libtorch`, `libtorch-2`, `libtorch-2.13`,
# and `FileCheck -DLIBTORCH=%libtorch_version` where a line names it.
if config.have_torch:
    config.available_features.add("libtorch")
    if config.libtorch_version:
        config.available_features.add("libtorch-" + config.libtorch_version.split(".")[0])
        config.available_features.add("libtorch-" + config.libtorch_version)
config.substitutions.append(("%libtorch_version", config.libtorch_version or "none"))
# The version as a FileCheck prefix: LIBTORCH1_13.
config.substitutions.append(("%libtorch_prefix", "LIBTORCH" + (config.libtorch_version or "none").replace(".", "_")))
config.substitutions.append(("%api_resolve", config.api_resolve))
config.substitutions.append(("%rewrite_sites", config.rewrite_sites))
# A CUDA build's headers (scripts/setup.sh --cuda-headers): `REQUIRES:
# cuda-headers` and `%cuda_torch_flags`.
if config.cuda_torch_flags:
    config.available_features.add("cuda-headers")
config.substitutions.append(("%cuda_torch_flags", config.cuda_torch_flags or "-DNO_CUDA_HEADERS"))
if config.other_clang_tidy:
    config.available_features.add("other-clang-tidy")
    config.substitutions.append(("%other_clang_tidy", loading_plugin(config.other_clang_tidy)))
if os.path.exists("/usr/include/opencv4/opencv2/core.hpp"):
    config.available_features.add("opencv")
# The fake CUDA device: `REQUIRES: fakecuda`, `%fakecuda` (the library to
# preload), `%fakecuda_rules` (its scenarios, to run under LD_PRELOAD) and
# `%fakecuda_rules_linked` (the same, linked with it).
if config.fakecuda:
    config.available_features.add("fakecuda")
    config.substitutions.append(("%fakecuda_rules_linked", config.fakecuda_rules_linked))
    config.substitutions.append(("%fakecuda_rules", config.fakecuda_rules))
    config.substitutions.append(("%fakecuda", config.fakecuda))
if config.runtime_tests:
    config.available_features.add("runtime-tests")
    config.substitutions.append(("%runtime_tests", config.runtime_tests))
if config.model_tests:
    config.available_features.add("model-tests")
    config.substitutions.append(("%model_tests", config.model_tests))
if os.path.exists(os.path.join(config.examples_dir, "celeba_train")):
    config.available_features.add("example")
config.substitutions.append(("%examples", config.examples_dir))
config.substitutions.append(("%python", sys.executable))
# Linking a program against the build's LibTorch (a check's test file run
# on the fake device): `%torch_link_flags`, from CMake's cache.
def torch_link_flags():
    cache = os.path.join(config.devplace_obj_root, "CMakeCache.txt")
    text = open(cache).read() if os.path.exists(cache) else ""
    m = re.search(r"^c10_LIBRARY:FILEPATH=(.*)$", text, re.M)
    libdir = os.path.dirname(m.group(1)) if m else "/usr/lib/x86_64-linux-gnu"
    return "-L%s -Wl,-rpath,%s -ltorch -ltorch_cpu -lc10" % (libdir, libdir)
config.substitutions.append(("%torch_link_flags", torch_link_flags()))

# Whole-project runs, SARIF, baselines, devplace-clangd and the recipes.
config.substitutions.append(("%clangd_server", config.clangd or "devplace-clangd-not-built"))
config.substitutions.append(("%node_modules", config.node_modules))
config.substitutions.append(("%sarif_multitool", os.path.join(
    config.node_modules, "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%source_root", config.source_root))
config.substitutions.append(("%build_root", config.devplace_obj_root))
config.substitutions.append(("%mutation_time_factor", "10" if config.sanitize else "2"))
# Less of the mutation sample and of the shard counts under the sanitizers,
# where each run costs five times as much: CI runs both and keeps within its
# time.
config.substitutions.append(("%mutation_sample", "60" if config.sanitize else "120"))
config.substitutions.append(("%shard_counts", "2 3" if config.sanitize else "1 2 3 4 11"))
config.substitutions.append(("%shard_prefixes", "CHECK" if config.sanitize else "CHECK,ALL"))
# The SARIF multitool is a .NET program: keep it from writing telemetry
# and first-run files into the user's home.
config.environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1"
config.environment["DOTNET_SYSTEM_GLOBALIZATION_INVARIANT"] = "1"
for var in ["HOME", "TERM"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

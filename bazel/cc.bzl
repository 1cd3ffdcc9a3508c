"""gevo-ml's C++ rules: Bazel's native ones with the C++ standard the code needs.

Bazel 4.2.3's default toolchain compiles with -std=c++0x, and LLVM 22 and
pagmo2 need C++17. The standard is set here, on every target, so that gevo-ml
builds the same inside its own workspace and as an external repository of
another one (`@gevo_ml`) whatever that workspace's flags are. Every BUILD file
of the project loads its cc rules from this file.
"""

# A later -std wins, and copts come after the toolchain's own flags.
GEVO_CXX_COPTS = ["-std=c++17"]

def cc_library(copts = [], **kwargs):
    native.cc_library(copts = GEVO_CXX_COPTS + copts, **kwargs)

def cc_binary(copts = [], **kwargs):
    native.cc_binary(copts = GEVO_CXX_COPTS + copts, **kwargs)

def cc_test(copts = [], **kwargs):
    native.cc_test(copts = GEVO_CXX_COPTS + copts, **kwargs)

"""The repositories gevo-ml needs, for its own WORKSPACE and for a client's.

A workspace that uses gevo-ml (its rules, `@gevo_ml//:apply`, its libraries)
needs exactly:

    local_repository(name = "gevo_ml", path = "/path/to/gevo-ml")
    load("@gevo_ml//bazel:deps.bzl", "gevo_ml_dependencies")
    gevo_ml_dependencies()

Every repository is local (nothing is downloaded), and each is defined only if
the workspace has not defined one of that name already, so a workspace can
bring its own.
"""

def _gevo_vendored_impl(repository_ctx):
    # The directory bazel/<directory> of the gevo-ml checkout this file is in,
    # found through a label so that it works from any workspace.
    root = repository_ctx.path(Label("//:WORKSPACE")).dirname
    source = root.get_child("bazel").get_child(repository_ctx.attr.directory)
    for child in source.readdir():
        repository_ctx.symlink(child, child.basename)

_gevo_vendored_repository = repository_rule(
    implementation = _gevo_vendored_impl,
    doc = "A repository whose files are gevo-ml's bazel/<directory>.",
    attrs = {"directory": attr.string(mandatory = True)},
    local = True,
)

# Debian's bazel-rules-cc/-java need a newer Bazel than Debian's 4.2.3: these
# forward to the native rules instead. `bazel test` asks for
# remote_coverage_tools even without --collect_code_coverage.
_VENDORED = ["rules_cc", "rules_java", "remote_coverage_tools"]

def gevo_ml_dependencies(llvm_path = "/usr/lib/llvm-22"):
    """Defines @llvm (LLVM/MLIR 22 from Debian) and the offline rules.

    Args:
      llvm_path: where llvm-22-dev, libmlir-22-dev and llvm-22-tools are
        installed.
    """
    for name in _VENDORED:
        if not native.existing_rule(name):
            _gevo_vendored_repository(name = name, directory = name)
    if not native.existing_rule("llvm"):
        native.new_local_repository(
            name = "llvm",
            build_file = str(Label("//bazel:llvm.BUILD")),
            path = llvm_path,
        )
    # Open MPI from Debian (libopenmpi-dev, openmpi-bin): only //gevo/mpi
    # (--backend=mpi) uses it, so a workspace without it builds the rest.
    if not native.existing_rule("openmpi"):
        native.new_local_repository(
            name = "openmpi",
            build_file = str(Label("//bazel:openmpi.BUILD")),
            path = "/usr/lib/x86_64-linux-gnu/openmpi",
        )

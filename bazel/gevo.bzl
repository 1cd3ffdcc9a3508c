"""Build rules that put gevo-ml's results into a build.

An evolved variant of a model is an edit script (a `.gevo` patch) over the
model's MLIR. These rules let a build use it:

  - `gevo_patch` applies a patch to an MLIR module (or an ONNX model,
    imported as the patch's `source onnx batch=N` line says) with
    `//replay:apply` and produces the patched module, `<name>.mlir`. A patch that no longer applies
    (an anchor is gone because the model changed) fails the build with
    replay's one-line `file:line: error: ...`; the build never silently gets a
    different program. With `verify = "//path:workload"` the patched module
    also runs once in gevo-ml's sandbox on that workload's data, and any
    outcome but `ok` fails the build (gevo_verify.bzl).
  - `gevo_model_library` lowers an MLIR module (linalg on tensors, e.g. a
    `gevo_patch` output) ahead of time with LLVM/MLIR 22's `mlir-opt`,
    `mlir-translate` and `llc` to an object file, and wraps it in a
    `cc_library` so that a C++ target can link the model and call its entry
    through MLIR's C interface, `_mlir_ciface_<entry>`. An ONNX model
    (`src = "model.onnx"`, with `batch`) is imported first by `//:import`. Only the
    `_mlir_ciface_*` functions stay global in the object: the module's own
    functions (an entry called `main`, helpers) become local symbols, so they
    cannot clash with the program's `main` or other code.

Usage:

    load("//bazel:gevo.bzl", "gevo_model_library", "gevo_patch")

    gevo_patch(
        name = "model_patched",
        src = "model.mlir",
        patch = "best.gevo",
    )

    gevo_model_library(
        name = "model",
        src = ":model_patched",
        header_decl = "void _mlir_ciface_main(StridedMemRefType<float, 1> *result, " +
                      "StridedMemRefType<float, 1> *x);",
    )

  - `gevo_report` analyses a patch on its workload with
    `//analysis:analyze` (ddmin minimisation, ablation, effect labels, the
    canonicalize + cse + -O3 check) and produces the report as build
    artifacts: `<name>.html` (self-contained, inline SVG), `<name>.md`,
    `<name>.json`, and the minimal patch `<name>.min.gevo`.

The C interface of an entry takes a pointer to a memref descriptor
(`StridedMemRefType<T, rank>` from mlir/ExecutionEngine/CRunnerUtils.h) for
every memref argument. With one memref result, a pointer to the result
descriptor comes FIRST, before the arguments; several results come back in one
struct (first argument too); a scalar result is the C return value.
"""

load(":gevo_report.bzl", _gevo_report = "gevo_report")
load(":gevo_import.bzl", "gevo_onnx_import")
load(":gevo_verify.bzl", "VERIFY_ATTRS", "gevo_verify_action")

# gevo_report lives in gevo_report.bzl; this file is where users load it.
gevo_report = _gevo_report

# The default lowering: bufferize the tensors (function boundaries included,
# identity layouts so the C interface gets plain descriptors), free buffers,
# linalg to loops, everything to the LLVM dialect. `llvm-request-c-wrappers`
# runs first, on every func.func (it is anchored on func.func), so that
# `convert-to-llvm` also emits `_mlir_ciface_<name>` for each of them.
GEVO_DEFAULT_PIPELINE = ", ".join([
    "func.func(llvm-request-c-wrappers)",
    "inline",
    "canonicalize",
    "one-shot-bufferize{bufferize-function-boundaries=1 " +
    "function-boundary-type-conversion=identity-layout-map " +
    "allow-return-allocs-from-loops=1}",
    "buffer-deallocation-pipeline",
    "convert-bufferization-to-memref",
    "convert-linalg-to-loops",
    "convert-scf-to-cf",
    "expand-strided-metadata",
    "lower-affine",
    "convert-to-llvm",
    "reconcile-unrealized-casts",
])

def _gevo_patch_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".mlir")

    # With `verify`, apply writes a module that only becomes the output once
    # it has run ok in the sandbox (gevo_verify.bzl).
    applied = out
    if ctx.attr.verify:
        applied = ctx.actions.declare_file(ctx.label.name + ".unverified.mlir")
    args = ctx.actions.args()
    args.add("--patch=" + ctx.file.patch.path)
    args.add("--input=" + ctx.file.src.path)
    args.add("-o", applied)
    args.add("--on-mismatch=" + ctx.attr.on_mismatch)
    if not ctx.attr.allow_reanchor:
        args.add("--exact")
        args.add("--quiet")
    # An edit the static check cannot prove safe (it depends on a dynamic
    # shape or a caller's scalar) fails the build unless the rule allows it;
    # apply's warning line names it either way.
    if not ctx.attr.allow_unproven:
        args.add("--unproven=error")
    # else re-anchoring is allowed but never quiet: apply's summary (shown
    # with the action's output) says which edits moved.
    ctx.actions.run(
        executable = ctx.executable._apply,
        arguments = [args],
        inputs = [ctx.file.src, ctx.file.patch],
        outputs = [applied],
        mnemonic = "GevoPatch",
        progress_message = "Applying patch %s to %s" % (
            ctx.file.patch.short_path,
            ctx.file.src.short_path,
        ),
    )
    if ctx.attr.verify:
        gevo_verify_action(ctx, applied, out)
    return [DefaultInfo(files = depset([out]))]

gevo_patch = rule(
    implementation = _gevo_patch_impl,
    doc = "Applies a gevo-ml patch (edit script) to an MLIR module with " +
          "//replay:apply; produces <name>.mlir. The build fails with " +
          "replay's error if the patch no longer applies, and, with " +
          "`verify`, when the patched module's sandboxed run on the " +
          "workload's data is not ok.",
    attrs = dict(VERIFY_ATTRS, **{
        "src": attr.label(
            doc = "The MLIR module to patch (a file or a rule with one " +
                  "output), or an ONNX model (.onnx): replay imports it with " +
                  "the batch and entry of the patch's `source onnx` line.",
            allow_single_file = [".mlir", ".onnx"],
            mandatory = True,
        ),
        "patch": attr.label(
            doc = "The patch, a .gevo file (e.g. written by //gevo:mutate).",
            allow_single_file = [".gevo"],
            mandatory = True,
        ),
        "on_mismatch": attr.string(
            doc = "An edit that does not apply: 'error' (default) fails the " +
                  "build; 'skip' leaves the edit out (replay:apply " +
                  "--on-mismatch=skip).",
            default = "error",
            values = ["error", "skip"],
        ),
        "allow_reanchor": attr.bool(
            doc = "Replay onto a module other than the one the patch was " +
                  "made for, re-anchoring edits by fingerprint (apply " +
                  "prints which); by default the module must be that very " +
                  "model and every edit must apply where it points " +
                  "(replay:apply --exact).",
            default = False,
        ),
        "allow_unproven": attr.bool(
            doc = "Build a patch with edits whose accesses or loops the " +
                  "static check cannot decide (they depend on a dynamic " +
                  "shape or a caller's scalar); apply names each in a " +
                  "warning line. By default such an edit fails the build " +
                  "(replay:apply --unproven=error): a patch from someone " +
                  "else must be proven in bounds before it is linked.",
            default = False,
        ),
        "_apply": attr.label(
            default = Label("//replay:apply"),
            executable = True,
            cfg = "exec",
        ),
    }),
)

def _gevo_lowered_object_impl(ctx):
    src = ctx.file.src
    name = ctx.label.name
    llvm_dialect = ctx.actions.declare_file(name + ".llvm.mlir")
    llvm_ir = ctx.actions.declare_file(name + ".ll")
    obj = ctx.outputs.out

    pipeline = ctx.attr.pipeline
    if not pipeline.startswith("builtin.module("):
        pipeline = "builtin.module(%s)" % pipeline

    ctx.actions.run(
        executable = ctx.file._mlir_opt,
        arguments = [
            "--pass-pipeline=" + pipeline,
            src.path,
            "-o",
            llvm_dialect.path,
        ],
        inputs = [src],
        outputs = [llvm_dialect],
        mnemonic = "GevoMlirOpt",
        progress_message = "Lowering %s to the LLVM dialect" % src.short_path,
    )
    ctx.actions.run(
        executable = ctx.file._mlir_translate,
        arguments = ["--mlir-to-llvmir", llvm_dialect.path, "-o", llvm_ir.path],
        inputs = [llvm_dialect],
        outputs = [llvm_ir],
        mnemonic = "GevoMlirTranslate",
        progress_message = "Translating %s to LLVM IR" % src.short_path,
    )

    # llc, after checking that the entry's C interface is there (a missing
    # entry would otherwise only show up as an undefined symbol at link time).
    # Then every symbol the object defines except the C interface functions
    # becomes local: the entry itself is often called `main`, and a global
    # `main` (or any other helper's name) in a library would take the place of
    # the program's own.
    symbol = "_mlir_ciface_" + ctx.attr.entry
    ctx.actions.run_shell(
        command = """
set -e
if ! grep -q '^define [^@]*@{symbol}(' "$2"; then
  echo "$1: error: no C interface '{symbol}' after lowering: is there a" \\
       "func.func @{entry}, and does the pipeline run" \\
       "llvm-request-c-wrappers?" >&2
  exit 1
fi
"$3" -O2 -filetype=obj -relocation-model=pic "$2" -o "$5"
"$4" --wildcard --keep-global-symbol='_mlir_ciface_*' "$5"
""".format(symbol = symbol, entry = ctx.attr.entry),
        arguments = [
            src.short_path,
            llvm_ir.path,
            ctx.file._llc.path,
            ctx.file._llvm_objcopy.path,
            obj.path,
        ],
        inputs = [llvm_ir],
        tools = [ctx.file._llc, ctx.file._llvm_objcopy],
        outputs = [obj],
        mnemonic = "GevoLlc",
        progress_message = "Compiling %s to %s" % (src.short_path, obj.short_path),
    )
    return [DefaultInfo(files = depset([obj]))]

_gevo_lowered_object = rule(
    implementation = _gevo_lowered_object_impl,
    doc = "Lowers an MLIR module to an object file (mlir-opt, " +
          "mlir-translate --mlir-to-llvmir, llc -O2) whose only global " +
          "definitions are the _mlir_ciface_* functions.",
    attrs = {
        "src": attr.label(allow_single_file = [".mlir"], mandatory = True),
        "entry": attr.string(mandatory = True),
        "pipeline": attr.string(mandatory = True),
        "out": attr.output(mandatory = True),
        "_mlir_opt": attr.label(
            default = Label("@llvm//:mlir-opt"),
            allow_single_file = True,
            cfg = "exec",
        ),
        "_mlir_translate": attr.label(
            default = Label("@llvm//:mlir-translate"),
            allow_single_file = True,
            cfg = "exec",
        ),
        "_llc": attr.label(
            default = Label("@llvm//:llc"),
            allow_single_file = True,
            cfg = "exec",
        ),
        "_llvm_objcopy": attr.label(
            default = Label("@llvm//:llvm-objcopy"),
            allow_single_file = True,
            cfg = "exec",
        ),
    },
)

_HEADER_TEMPLATE = """\
// Generated by gevo_model_library({label}) in //bazel:gevo.bzl: the C
// interface of the lowered MLIR module {src}.
#ifndef {guard}
#define {guard}

#include "mlir/ExecutionEngine/CRunnerUtils.h"

extern "C" {{
{decl}
}}

#endif // {guard}
"""

def _gevo_header_impl(ctx):
    guard = ""
    out = ctx.outputs.out
    for c in (ctx.label.package + "_" + out.basename).elems():
        guard += c.upper() if c.isalnum() else "_"
    ctx.actions.write(out, _HEADER_TEMPLATE.format(
        label = "//%s:%s" % (ctx.label.package, ctx.attr.library),
        src = ctx.attr.src,
        guard = guard,
        decl = ctx.attr.decl,
    ))
    return [DefaultInfo(files = depset([out]))]

_gevo_header = rule(
    implementation = _gevo_header_impl,
    doc = "Writes the header of a gevo_model_library: the declarations " +
          "given, inside extern \"C\", after CRunnerUtils.h.",
    attrs = {
        "src": attr.string(mandatory = True),
        "library": attr.string(mandatory = True),
        "decl": attr.string(mandatory = True),
        "out": attr.output(mandatory = True),
    },
)

def gevo_model_library(
        name,
        src,
        entry = "main",
        pipeline = GEVO_DEFAULT_PIPELINE,
        header_decl = None,
        batch = 0,
        **kwargs):
    """Lowers an MLIR module ahead of time and exposes it as a cc_library.

    Targets:
      <name>_lowered: the object file <name>.o; the intermediates,
        <name>_lowered.llvm.mlir and <name>_lowered.ll, stay in bazel-bin for
        inspection.
      <name>_header: <name>.h, only when header_decl is given.
      <name>: a cc_library with <name>.o (and <name>.h; only _mlir_ciface_*
        are global symbols in <name>.o), depending on
        @llvm//:mlir_c_runner_utils (CRunnerUtils.h for StridedMemRefType;
        links libmlir_c_runner_utils.so with an rpath, since lowered code may
        call memrefCopy and friends).

    Args:
      name: the cc_library's name.
      src: the MLIR module, a .mlir file or a rule with one (e.g. gevo_patch),
        or an ONNX model (a .onnx file), imported first by //:import with
        `batch` and `entry` (the intermediate <name>_imported.mlir stays in
        bazel-bin).
      entry: the function a caller uses; the build fails if
        _mlir_ciface_<entry> is not defined after lowering.
      pipeline: the MLIR pass pipeline, mlir-opt syntax, with or without the
        enclosing builtin.module(...). It must request C wrappers (see
        GEVO_DEFAULT_PIPELINE) and lower everything to the LLVM dialect.
      header_decl: C++ declaration(s) of the C interface, written to <name>.h
        inside extern "C" { } after including CRunnerUtils.h, e.g.
        "void _mlir_ciface_main(StridedMemRefType<float, 1> *result,
        StridedMemRefType<float, 1> *x);". The argument and result types
        follow from the module's entry signature, which a Starlark macro cannot
        read; omit it to declare the function yourself.
      batch: an ONNX src's batch, the size of its symbolic dimension; needed
        for, and only for, an ONNX src.
      **kwargs: attributes common to all rules (visibility, testonly, tags,
        ...), passed to every target.
    """
    header_src = src
    if type(src) == "string" and src.endswith(".onnx"):
        if batch < 1:
            fail("gevo_model_library(%s): an ONNX src needs batch = N " % name +
                 "(the size of its symbolic dimension)")
        gevo_onnx_import(
            name = name + "_imported",
            src = src,
            batch = batch,
            entry = entry,
            **kwargs
        )
        src = ":" + name + "_imported"
    elif batch:
        fail("gevo_model_library(%s): batch is for an ONNX src only" % name)
    _gevo_lowered_object(
        name = name + "_lowered",
        src = src,
        entry = entry,
        pipeline = pipeline,
        out = name + ".o",
        **kwargs
    )
    hdrs = []
    if header_decl != None:
        _gevo_header(
            name = name + "_header",
            src = header_src,
            library = name,
            decl = header_decl,
            out = name + ".h",
            **kwargs
        )
        hdrs = [name + ".h"]
    native.cc_library(
        name = name,
        srcs = [name + ".o"],
        hdrs = hdrs,
        deps = [Label("@llvm//:mlir_c_runner_utils")],
        **kwargs
    )

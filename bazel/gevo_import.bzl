"""An ONNX model imported by //:import as a build step.

gevo_model_library (gevo.bzl) imports an ONNX src with it before lowering.
"""

def _gevo_onnx_import_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".mlir")
    ctx.actions.run(
        executable = ctx.executable._import,
        arguments = [
            ctx.file.src.path,
            "--batch=%d" % ctx.attr.batch,
            "--entry=" + ctx.attr.entry,
            "-o",
            out.path,
        ],
        inputs = [ctx.file.src],
        outputs = [out],
        mnemonic = "GevoImport",
        progress_message = "Importing %s" % ctx.file.src.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

gevo_onnx_import = rule(
    implementation = _gevo_onnx_import_impl,
    doc = "Imports an ONNX model with //:import; produces <name>.mlir.",
    attrs = {
        "src": attr.label(allow_single_file = [".onnx"], mandatory = True),
        "batch": attr.int(mandatory = True),
        "entry": attr.string(mandatory = True),
        "_import": attr.label(
            default = Label("//gevo/frontend:import"),
            executable = True,
            cfg = "exec",
        ),
    },
)

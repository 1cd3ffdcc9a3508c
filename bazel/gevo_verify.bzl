"""gevo_patch's `verify`: the patched module run once in gevo-ml's sandbox.

`gevo_patch(..., verify = "//path:workload")` runs the patched module on the
workload's data with //gevo:evaluate (sandboxed: a forked child with guard
pages, fresh memory filled twice, the input-write check and the time limit
the search uses) and fails the build on any outcome but `ok`, printing
evaluate's report (its `outcome` line says how). The patched module is only
declared once that run passed. Loaded by //bazel:gevo.bzl.
"""

VERIFY_ATTRS = {
    "verify": attr.label(
        doc = "A workload's files (its workload.json, module and data, e.g. " +
              "//testdata:digits_mlp_predict): run the patched module once " +
              "in the sandbox on its data and fail the build unless the " +
              "outcome is ok.",
        allow_files = True,
    ),
    "_evaluate": attr.label(
        default = Label("//gevo:evaluate"),
        executable = True,
        cfg = "exec",
    ),
}

def gevo_verify_action(ctx, unverified, out):
    """Declares the action that evaluates `unverified` and copies it to `out` when ok."""
    specs = [f for f in ctx.files.verify if f.basename == "workload.json"]
    if len(specs) != 1:
        fail("gevo_patch: `verify` must hold exactly one workload.json, found %d" % len(specs))
    ctx.actions.run_shell(
        command = """
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if "$1" --workload="$2" --module="$3" --warmup=0 --repeats=1 >"$log" 2>&1; then
  cp "$3" "$4"
else
  echo "gevo_patch $5: the patched module is not ok on $2 (//gevo:evaluate, sandboxed):" >&2
  cat "$log" >&2
  exit 1
fi
""",
        arguments = [
            ctx.executable._evaluate.path,
            specs[0].dirname,
            unverified.path,
            out.path,
            str(ctx.label),
        ],
        inputs = ctx.files.verify + [unverified],
        tools = [ctx.executable._evaluate],
        outputs = [out],
        mnemonic = "GevoVerify",
        progress_message = "Running %s on %s in the sandbox" % (
            ctx.file.patch.short_path,
            specs[0].dirname,
        ),
    )

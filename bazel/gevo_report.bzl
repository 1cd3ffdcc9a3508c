"""gevo_report: a patch's analysis as build artifacts.

Runs //analysis:analyze on one patch and its workload and declares the report
(`<name>.html`, `<name>.md`, `<name>.json`) and the minimal patch
(`<name>.min.gevo`) as outputs. Load it from //bazel:gevo.bzl with the other
rules.
"""

def _gevo_report_impl(ctx):
    specs = [f for f in ctx.files.workload if f.basename == "workload.json"]
    if len(specs) != 1:
        fail("gevo_report: `workload` must hold exactly one workload.json, found %d" % len(specs))
    name = ctx.label.name
    outputs = [
        ctx.actions.declare_file(name + ".html"),
        ctx.actions.declare_file(name + ".md"),
        ctx.actions.declare_file(name + ".json"),
        ctx.actions.declare_file(name + ".min.gevo"),
    ]
    flags = [
        "--patch=" + ctx.file.patch.path,
        "--workload=" + specs[0].path,
        "--pairs=%d" % ctx.attr.pairs,
        "--optimized-check=" + ("true" if ctx.attr.optimized_check else "false"),
        "--quiet",
    ]
    if ctx.attr.objectives:
        flags.append("--objectives=" + ",".join(ctx.attr.objectives))
    ctx.actions.run_shell(
        command = """
set -e
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$1" "${@:6}" --out="$out" >/dev/null
cp "$out/report.html" "$2"
cp "$out/report.md" "$3"
cp "$out/report.json" "$4"
cp "$out"/*.min.gevo "$5"
""",
        arguments = [ctx.executable._analyze.path] + [o.path for o in outputs] + flags,
        inputs = ctx.files.workload + [ctx.file.patch],
        tools = [ctx.executable._analyze],
        outputs = outputs,
        mnemonic = "GevoReport",
        progress_message = "Analysing patch %s" % ctx.file.patch.short_path,
    )
    return [DefaultInfo(
        files = depset(outputs),
        runfiles = ctx.runfiles(files = outputs),
    )]

gevo_report = rule(
    implementation = _gevo_report_impl,
    doc = "Analyses a gevo-ml patch on its workload with //analysis:analyze " +
          "and produces <name>.html, <name>.md, <name>.json and the minimal " +
          "patch <name>.min.gevo. The action evaluates variants (forked, " +
          "sandboxed children), so it takes seconds, not milliseconds.",
    attrs = {
        "workload": attr.label_list(
            doc = "The workload's files: its workload.json, module and data " +
                  "(e.g. //testdata:digits_mlp_train).",
            allow_files = True,
            mandatory = True,
        ),
        "patch": attr.label(
            doc = "The patch to analyse, a .gevo file.",
            allow_single_file = [".gevo"],
            mandatory = True,
        ),
        "objectives": attr.string_list(
            doc = "Objectives the minimal patch must keep (default: the " +
                  "workload's). Deterministic ones (static_cost, error) make " +
                  "the report reproducible.",
        ),
        "pairs": attr.int(
            doc = "Interleaved runs per measurement when run time is an objective.",
            default = 3,
        ),
        "optimized_check": attr.bool(
            doc = "Check the gain again after canonicalize, cse and LLVM -O3.",
            default = True,
        ),
        "_analyze": attr.label(
            default = Label("//analysis:analyze"),
            executable = True,
            cfg = "exec",
        ),
    },
)

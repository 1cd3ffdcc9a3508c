#!/usr/bin/python3
"""Writes scale.onnx, the ONNX spelling of scale.mlir (y = x * 2 + 1 over a batch of floats, the batch symbolic).

The build rules' example of an ONNX source (gevo_model_library and gevo_patch import it). Run by hand with Debian's
python3-onnx, not by the build:

    /usr/bin/python3 testdata/example/make_scale_onnx.py
"""
import os

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    graph = helper.make_graph(
        [helper.make_node("Mul", ["x", "scale"], ["scaled"], name="times_scale"),
         helper.make_node("Add", ["scaled", "shift"], ["y"], name="plus_shift")],
        "scale",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch"])],
        [helper.make_tensor("scale", TensorProto.FLOAT, [1], [2.0]),
         helper.make_tensor("shift", TensorProto.FLOAT, [1], [1.0])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_scale_onnx.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(HERE, "scale.onnx"))


if __name__ == "__main__":
    main()

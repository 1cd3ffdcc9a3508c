#!/usr/bin/python3
"""Fine-tunes fashion_cnn_train_generated's model by hand in PyTorch (not CI).

The CNN of testdata/fashion_cnn_onnx with the weights of its model.onnx, the
first 6 000 Fashion-MNIST training rows (/ 255) in the generated program's
seeded order, and training.json's SGD settings; prints validation (t10k rows
0-999) and test (1000-1999) accuracy. Run:

    /usr/bin/python3 testdata/fashion_cnn_train_generated/reference_pytorch.py
"""
import importlib.util
import json
import os

import onnx
import torch
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def images(rows):
    """Flat 784-pixel rows as the model's NCHW input."""
    return rows.reshape(-1, 1, 28, 28)


def main():
    cnn = load("make_model", os.path.join(ROOT, "fashion_cnn_onnx", "make_model.py"))
    mlp = load("mlp_reference", os.path.join(ROOT, "fashion_mlp_train", "reference_pytorch.py"))
    spec = json.load(open(os.path.join(HERE, "training.json")))
    t = spec["training"]
    model = cnn.FashionCnn()
    weights = {w.name: numpy_helper.to_array(w) for w in
               onnx.load(os.path.join(ROOT, "fashion_cnn_onnx", "model.onnx")).graph.initializer}
    state = model.state_dict()
    for name in state:
        state[name] = torch.from_numpy(weights[name].copy())
    model.load_state_dict(state)
    x, y = mlp.split(spec, "train")
    rows = len(y)
    mul, step = mlp.permutation_constants(t["shuffle"]["seed"], rows)
    opt = torch.optim.SGD(model.parameters(), lr=t["optimizer"]["learning_rate"],
                          momentum=t["optimizer"].get("momentum", 0),
                          weight_decay=t["optimizer"].get("weight_decay", 0))
    batch = t["batch"]
    for epoch in range(t["epochs"]):
        for b in range(rows // batch):
            order = (torch.arange(b * batch, (b + 1) * batch) * mul + epoch * step) % rows
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(images(x[order])), y[order]).backward()
            opt.step()
    with torch.no_grad():
        for name in ["validation", "test"]:
            xs, ys = mlp.split(spec, name)
            correct = (model(images(xs)).argmax(1) == ys).sum().item()
            print(f"{name} accuracy {correct / len(ys):.4f} ({correct}/{len(ys)})")


if __name__ == "__main__":
    main()

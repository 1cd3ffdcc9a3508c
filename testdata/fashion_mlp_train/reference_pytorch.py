#!/usr/bin/python3
"""Trains fashion_mlp_train's model by hand in PyTorch (not CI).

The same model (784 -> 128 ReLU -> 10), initial weights (the generator's hash,
computed here in float32), data (the first 6 000 training rows, validation
t10k[0:1000], test t10k[1000:2000], pixels / 255), row order (the seeded
permutation per epoch) and hyper-parameters (read from training.json) as the
generated program, then prints both accuracies. Run:

    /usr/bin/python3 testdata/fashion_mlp_train/reference_pytorch.py
"""
import gzip
import json
import math
import os
import re

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def idx(path):
    with gzip.open(path) as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * dims).reshape(shape)


def split(spec, name):
    part = spec["data"][name]
    x = idx(part["images"]).reshape(-1, 784).astype(np.float32) / np.float32(255)
    y = idx(part["labels"]).astype(np.int64)
    begin, end = part.get("rows", [0, part.get("limit", len(y))])
    return torch.from_numpy(x[begin:end]), torch.from_numpy(y[begin:end])


def hash_init(rows, cols, seed, scale):
    """W[i, j] = (fract(sin(i*12.9898 + j*78.233 + seed) * 43758.5453) - 0.5) * scale,
    every step rounded to float32 as the IR computes it (sin correctly rounded)."""
    f = np.float32
    i = np.arange(rows, dtype=f)[:, None]
    j = np.arange(cols, dtype=f)[None, :]
    arg = (i * f(12.9898) + j * f(78.233)).astype(f) + f(seed)
    s = np.sin(arg.astype(np.float64)).astype(f)
    v = s * f(43758.5453)
    return ((v - np.floor(v)) - f(0.5)) * f(scale)


def permutation_constants(seed, rows):
    mul = (seed * 2654435761 + 7919) % rows
    while rows > 1 and (mul < 2 or math.gcd(mul, rows) != 1):
        mul = (mul + 1) % rows
    return mul, (seed * 40503 + 104729) % rows


def main():
    spec = json.load(open(os.path.join(HERE, "training.json")))
    t = spec["training"]
    lr, batch, epochs = t["optimizer"]["learning_rate"], t["batch"], t["epochs"]
    seed = t["init"]["seed"]
    x, y = split(spec, "train")
    rows = len(y)
    mul, step = permutation_constants(t["shuffle"]["seed"], rows)
    module = open(os.path.join(HERE, "model.mlir")).read()
    assert f"%shuffle_mul = arith.constant {mul} : index" in module
    assert f"%shuffle_step = arith.constant {step} : index" in module

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(784, 128), torch.nn.ReLU(),
                                torch.nn.Linear(128, 10))
    with torch.no_grad():
        for layer, (fan_in, fan_out) in enumerate([(784, 128), (128, 10)]):
            w = hash_init(fan_in, fan_out, seed + layer, 2 * math.sqrt(1 / fan_in))
            model[2 * layer].weight.copy_(torch.from_numpy(w.T.copy()))
            model[2 * layer].bias.zero_()
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    loss_fn = torch.nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for b in range(rows // batch):
            p = torch.arange(b * batch, (b + 1) * batch)
            order = (p * mul + epoch * step) % rows
            opt.zero_grad()
            loss_fn(model(x[order]), y[order]).backward()
            opt.step()
    with torch.no_grad():
        for name in ["validation", "test"]:
            xs, ys = split(spec, name)
            correct = (model(xs).argmax(1) == ys).sum().item()
            print(f"{name} accuracy {correct / len(ys):.4f} ({correct}/{len(ys)})")


if __name__ == "__main__":
    main()

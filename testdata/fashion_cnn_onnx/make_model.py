#!/usr/bin/python3
"""Trains testdata/fashion_cnn_onnx's CNN on Debian's Fashion-MNIST and exports it as ONNX.

A model as a user brings it: written and trained in PyTorch, exported by torch.onnx. Run by hand, not by the build
(it needs python3-torch, python3-onnx and dataset-fashion-mnist):

    /usr/bin/python3 testdata/fashion_cnn_onnx/make_model.py   # Debian's python, where python3-torch is

It writes model.onnx beside itself and prints PyTorch's accuracy on the workload's validation and test rows (t10k
rows 0-999 and 1000-1999, features / 255, each row given as a 1x28x28 image), which gevo-ml's evaluator must
reproduce to the row.
"""
import gzip
import os
import struct

import numpy as np
import torch
from torch import nn

DATA = "/usr/share/datasets/fashion-mnist"
HERE = os.path.dirname(os.path.abspath(__file__))
TRAIN_ROWS = 12000
EVAL_ROWS = 1000


def read_idx(name):
    with gzip.open(os.path.join(DATA, name), "rb") as f:
        magic = struct.unpack(">I", f.read(4))[0]
        dims = [struct.unpack(">I", f.read(4))[0] for _ in range(magic & 0xFF)]
        return np.frombuffer(f.read(), dtype=np.uint8).reshape(dims)


def features(images, rows):
    """The rows as NCHW images [N, 1, 28, 28], bytes / 255: what the workload's shape binding gives the model."""
    return torch.tensor(images[rows].reshape(len(images[rows]), 1, 28, 28), dtype=torch.float32) / 255


class FashionCnn(nn.Module):
    """Two 3x3 convolutions with 2x2 max-pooling, then two dense layers; takes NCHW images [N, 1, 28, 28]."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(16 * 7 * 7, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.body(x)


def accuracy(model, x, y):
    with torch.no_grad():
        return int((model(x).argmax(1) == y).sum())


def main():
    torch.manual_seed(20231018)
    torch.set_num_threads(1)
    train_x = features(read_idx("train-images-idx3-ubyte.gz"), slice(0, TRAIN_ROWS))
    train_y = torch.tensor(read_idx("train-labels-idx1-ubyte.gz")[:TRAIN_ROWS], dtype=torch.long)
    test_images = read_idx("t10k-images-idx3-ubyte.gz")
    test_labels = torch.tensor(read_idx("t10k-labels-idx1-ubyte.gz"), dtype=torch.long)
    val_x, val_y = features(test_images, slice(0, EVAL_ROWS)), test_labels[:EVAL_ROWS]
    test_x, test_y = features(test_images, slice(EVAL_ROWS, 2 * EVAL_ROWS)), test_labels[EVAL_ROWS:2 * EVAL_ROWS]

    model = FashionCnn()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(3):
        order = torch.randperm(TRAIN_ROWS)
        for start in range(0, TRAIN_ROWS, 64):
            batch = order[start:start + 64]
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(train_x[batch]), train_y[batch]).backward()
            optimizer.step()
        print(f"epoch {epoch + 1}: validation {accuracy(model, val_x, val_y)}/{EVAL_ROWS}")
    model.eval()
    torch.onnx.export(model, val_x, os.path.join(HERE, "model.onnx"), opset_version=13,
                      input_names=["features"], output_names=["logits"],
                      dynamic_axes={"features": {0: "batch"}, "logits": {0: "batch"}})
    print(f"PyTorch: validation {accuracy(model, val_x, val_y)}/{EVAL_ROWS}, "
          f"test {accuracy(model, test_x, test_y)}/{EVAL_ROWS}")


if __name__ == "__main__":
    main()

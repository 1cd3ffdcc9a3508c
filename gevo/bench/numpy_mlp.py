#!/usr/bin/env python3
"""NumPy reference for the scaling bench: the same MLP, the same shapes.

    numpy_mlp.py FACTOR [ROWS] [REPEATS]

Computes 64 -> 256*FACTOR -> 128*FACTOR -> 10 (ReLU between layers, no bias)
over ROWS inputs with the weights drawn as the bench's module draws them
(W[i,j] = (fract(sin(i*12.9898 + j*78.233 + layer) * 43758.5453) - 0.5) *
2/sqrt(fan_in), float32), and prints one JSON line: the median time of the
forward pass alone (`forward_ms`, weights ready: what a deployed model does)
and of drawing the weights plus the forward pass (`with_weights_ms`: what the
module does on every run). BLAS runs on one thread (OPENBLAS_NUM_THREADS=1,
set before NumPy loads) unless the caller set otherwise.
"""
import json
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402  (after the thread settings)


def weights(rows, cols, layer):
    i = np.arange(rows, dtype=np.float32)[:, None]
    j = np.arange(cols, dtype=np.float32)[None, :]
    s = i * np.float32(12.9898) + j * np.float32(78.233) + np.float32(layer)
    m = np.sin(s) * np.float32(43758.5453)
    scale = np.float32(2.0 / np.sqrt(rows))
    return ((m - np.floor(m)) - np.float32(0.5)) * scale


def forward(x, ws):
    h = x
    for layer, w in enumerate(ws):
        h = h @ w
        if layer < len(ws) - 1:
            h = np.maximum(h, np.float32(0))
    return h


def median_ms(fn, repeats):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return times[len(times) // 2]


def main():
    factor = int(sys.argv[1])
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 360
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    widths = [64, 256 * factor, 128 * factor, 10]
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 16, size=(rows, 64)).astype(np.float32)
    shapes = list(zip(widths[:-1], widths[1:]))
    ws = [weights(r, c, l + 1) for l, (r, c) in enumerate(shapes)]
    print(json.dumps({
        "forward_ms": median_ms(lambda: forward(x, ws), repeats),
        "with_weights_ms": median_ms(
            lambda: forward(x, [weights(r, c, l + 1)
                                for l, (r, c) in enumerate(shapes)]),
            repeats),
        "numpy": np.__version__,
        "blas_threads": os.environ["OPENBLAS_NUM_THREADS"],
    }))


if __name__ == "__main__":
    main()

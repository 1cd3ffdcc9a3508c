// Returns a buffer nobody wrote: its logits are whatever fresh memory holds.
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %e = tensor.empty() : tensor<360x10xf32>
  return %e : tensor<360x10xf32>
}

// Returns 5 rows of logits where 360 are expected (the type is dynamic).
func.func @main(%x: tensor<360x64xf32>) -> tensor<?x10xf32> {
  %s = tensor.extract_slice %x[0, 0] [5, 10] [1, 1] : tensor<360x64xf32> to tensor<5x10xf32>
  %d = tensor.cast %s : tensor<5x10xf32> to tensor<?x10xf32>
  return %d : tensor<?x10xf32>
}

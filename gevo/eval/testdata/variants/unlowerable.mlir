// A TOSA op, which the default CPU pipeline does not lower.
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %s = tensor.extract_slice %x[0, 0] [360, 10] [1, 1] : tensor<360x64xf32> to tensor<360x10xf32>
  %a = tosa.abs %s : (tensor<360x10xf32>) -> tensor<360x10xf32>
  return %a : tensor<360x10xf32>
}

// 0 / 0 in every logit.
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %zero = arith.constant 0.0 : f32
  %nan = arith.divf %zero, %zero : f32
  %e = tensor.empty() : tensor<360x10xf32>
  %f = linalg.fill ins(%nan : f32) outs(%e : tensor<360x10xf32>) -> tensor<360x10xf32>
  return %f : tensor<360x10xf32>
}

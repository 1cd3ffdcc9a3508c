// A module with a syntax error: the fill's operand list is never closed.
func.func @main(%x: tensor<1077x64xf32>, %y: tensor<1077x10xf32>,
                %e: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<360x10xf32>
  %out = linalg.fill ins(%zero : f32 outs(%init : tensor<360x10xf32>) -> tensor<360x10xf32>
  return %out : tensor<360x10xf32>
}

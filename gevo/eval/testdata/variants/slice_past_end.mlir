// Sums 32-row batches of the input, one batch more than fits (as a variant
// whose batch count was edited upward does): the last batch reads 24 rows
// past the end of the input.
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<32x64xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %acc = scf.for %b = %c0 to %c12 step %c1 iter_args(%a = %acc0) -> (tensor<32x64xf32>) {
    %row = arith.muli %b, %c32 : index
    %s = tensor.extract_slice %x[%row, 0] [32, 64] [1, 1] : tensor<360x64xf32> to tensor<32x64xf32>
    %e = tensor.empty() : tensor<32x64xf32>
    %n = linalg.add ins(%a, %s : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
    scf.yield %n : tensor<32x64xf32>
  }
  %v = tensor.extract %acc[%c0, %c0] : tensor<32x64xf32>
  %out = tensor.empty() : tensor<360x10xf32>
  %f = linalg.fill ins(%v : f32) outs(%out : tensor<360x10xf32>) -> tensor<360x10xf32>
  return %f : tensor<360x10xf32>
}

// Allocates a buffer of 2^40 floats (4 TiB), writes to it where the data says
// and reads it back (so that no folding removes it).
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %c0 = arith.constant 0 : index
  %huge = arith.constant 1099511627776 : index
  %one = arith.constant 1.0 : f32
  %p = tensor.extract %x[%c0, %c0] : tensor<360x64xf32>
  %pi = arith.fptosi %p : f32 to i64
  %i = arith.index_cast %pi : i64 to index
  %big = tensor.empty(%huge) : tensor<?xf32>
  %filled = tensor.insert %one into %big[%i] : tensor<?xf32>
  %v = tensor.extract %filled[%c0] : tensor<?xf32>
  %e = tensor.empty() : tensor<360x10xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<360x10xf32>) -> tensor<360x10xf32>
  return %f : tensor<360x10xf32>
}

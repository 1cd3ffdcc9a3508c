// Logits = the first 10 pixels of each row plus pixel [%far, 0] (always 0 in
// the digits data). The MPI tests edit two constants: %far to 4000000000000
// reads far outside the input (a crash), %spin to true loops forever (a hang).
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %spin = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = scf.while (%i = %c0) : (index) -> index {
    scf.condition(%spin) %i : index
  } do {
  ^bb0(%j: index):
    %k = arith.addi %j, %c1 : index
    scf.yield %k : index
  }
  %s = tensor.extract_slice %x[%n, 0] [360, 10] [1, 1] : tensor<360x64xf32> to tensor<360x10xf32>
  %far = arith.constant 0 : index
  %v = tensor.extract %x[%far, %c0] : tensor<360x64xf32>
  %e = tensor.empty() : tensor<360x10xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<360x10xf32>) -> tensor<360x10xf32>
  %out = linalg.add ins(%s, %f : tensor<360x10xf32>, tensor<360x10xf32>) outs(%e : tensor<360x10xf32>) -> tensor<360x10xf32>
  return %out : tensor<360x10xf32>
}

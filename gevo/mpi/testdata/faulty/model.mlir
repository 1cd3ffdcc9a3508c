// Logits = the first 10 pixels of each row, plus 0 times a value the MPI tests
// edit into a crash and a hang that replay's static check cannot refuse (they
// depend on the data, not on an index or a loop bound): %div to 0 divides an
// integer by min(0, pixel + 1) = 0 at run time (SIGFPE; the data keeps LLVM
// from folding it away), %spin to 100.0 makes the while loop's condition
// (pixel [0, 0] < %spin; pixels are 0..16) true forever.
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %spin = arith.constant -1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tensor.extract %x[%c0, %c0] : tensor<360x64xf32>
  %n = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpf olt, %p, %spin : f32
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %k = arith.addi %j, %c1 : index
    scf.yield %k : index
  }
  %div = arith.constant 1 : i64
  %one = arith.constant 1 : i64
  %pi = arith.fptosi %p : f32 to i64
  %pi1 = arith.addi %pi, %one : i64
  %den = arith.minsi %div, %pi1 : i64
  %q = arith.divsi %pi, %den : i64
  %ni = arith.index_cast %n : index to i64
  %sum = arith.addi %q, %ni : i64
  %sf = arith.sitofp %sum : i64 to f32
  %zero = arith.constant 0.0 : f32
  %v = arith.mulf %sf, %zero : f32
  %s = tensor.extract_slice %x[0, 0] [360, 10] [1, 1] : tensor<360x64xf32> to tensor<360x10xf32>
  %e = tensor.empty() : tensor<360x10xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<360x10xf32>) -> tensor<360x10xf32>
  %out = linalg.add ins(%s, %f : tensor<360x10xf32>, tensor<360x10xf32>) outs(%e : tensor<360x10xf32>) -> tensor<360x10xf32>
  return %out : tensor<360x10xf32>
}

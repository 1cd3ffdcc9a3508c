// An scf.while whose condition never turns false.
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = scf.while (%i = %c0) : (index) -> index {
    scf.condition(%true) %i : index
  } do {
  ^bb0(%j: index):
    %k = arith.addi %j, %c1 : index
    scf.yield %k : index
  }
  %s = tensor.extract_slice %x[%n, 0] [360, 10] [1, 1] : tensor<360x64xf32> to tensor<360x10xf32>
  return %s : tensor<360x10xf32>
}

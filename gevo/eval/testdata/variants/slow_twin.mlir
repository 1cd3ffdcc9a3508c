// The logits of ok.mlir after a loop of 3 000 000 float additions whose sum,
// times 0.0, is added to each: the same error, some milliseconds slower (a
// front member that a variant beats head to head).
func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3000000 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %next = arith.addf %acc, %one : f32
    scf.yield %next : f32
  }
  %nothing = arith.mulf %sum, %zero : f32
  %s = tensor.extract_slice %x[0, 0] [360, 10] [1, 1] : tensor<360x64xf32> to tensor<360x10xf32>
  %init = tensor.empty() : tensor<360x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<360x10xf32>) outs(%init : tensor<360x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.addf %a, %nothing : f32
    linalg.yield %v : f32
  } -> tensor<360x10xf32>
  return %r : tensor<360x10xf32>
}

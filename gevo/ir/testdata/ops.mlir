// A small module for the operator and repair golden tests.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %n: i32,
                %b: tensor<6xf32>, %t: tensor<2x4x8xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %init = tensor.empty() : tensor<4x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<4x6xf32>) -> tensor<4x6xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<4x6xf32>) outs(%init : tensor<4x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %two : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  return %out : tensor<4x6xf32>
}

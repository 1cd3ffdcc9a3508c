// The client's model: y = max(x * w + 0.5, 0), elementwise over tensor<4xf32>.
// faster.gevo, a patch as gevo-ml writes them, changes the 0.5 to 0.25.
#map = affine_map<(d0) -> (d0)>
module {
  func.func @main(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
    %bias = arith.constant 0.5 : f32
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [#map, #map, #map],
                         iterator_types = ["parallel"]}
        ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %m, %bias : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

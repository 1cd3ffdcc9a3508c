// Example model for the gevo_patch / gevo_model_library build rules:
// y = x * 2.0 + 1.0, elementwise over a tensor<4xf32>, as one linalg.generic.
// double_to_triple.gevo changes the 2.0 to 3.0; scale_model_test checks it.
#map = affine_map<(d0) -> (d0)>
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %scale = arith.constant 2.0 : f32
    %bias = arith.constant 1.0 : f32
    %init = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [#map, #map],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<4xf32>) outs(%init : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %scale : f32
      %a = arith.addf %m, %bias : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

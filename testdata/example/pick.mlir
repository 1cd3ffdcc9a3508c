// Example model for a strided crop repair: y = x[0..3] + 0.5, elementwise,
// from an 8-element input. odd_elements.gevo feeds the add x's odd elements
// (a crop from offset 1 with stride 2); strided_crop_test checks the numbers.
#map = affine_map<(d0) -> (d0)>
module {
  func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
    %half = arith.constant 0.5 : f32
    %head = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %init = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [#map, #map],
                         iterator_types = ["parallel"]}
        ins(%head : tensor<4xf32>) outs(%init : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %in, %half : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// fashion_mlp_train/forward.mlir
//
// A 784 -> 128 ReLU -> 10 MLP for Fashion-MNIST, written as the ONNX importer
// writes two Gemms (matmul into zeros, broadcast bias add). The weights are
// placeholders (zeros): training.json re-initialises them from the hash.
#id    = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%x: tensor<1000x784xf32>) -> tensor<1000x10xf32> {
    %zero = arith.constant 0.0 : f32
    %W1 = arith.constant dense<0.0> : tensor<784x128xf32>
    %b1 = arith.constant dense<0.0> : tensor<128xf32>
    %W2 = arith.constant dense<0.0> : tensor<128x10xf32>
    %b2 = arith.constant dense<0.0> : tensor<10xf32>
    %eh = tensor.empty() : tensor<1000x128xf32>
    %zh = linalg.fill ins(%zero : f32) outs(%eh : tensor<1000x128xf32>) -> tensor<1000x128xf32>
    %xW1 = linalg.matmul ins(%x, %W1 : tensor<1000x784xf32>, tensor<784x128xf32>)
                         outs(%zh : tensor<1000x128xf32>) -> tensor<1000x128xf32>
    %hpre = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xW1, %b1 : tensor<1000x128xf32>, tensor<128xf32>) outs(%eh : tensor<1000x128xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<1000x128xf32>
    %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%hpre : tensor<1000x128xf32>) outs(%eh : tensor<1000x128xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.maximumf %a, %zero : f32
      linalg.yield %r : f32
    } -> tensor<1000x128xf32>
    %eo = tensor.empty() : tensor<1000x10xf32>
    %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1000x10xf32>) -> tensor<1000x10xf32>
    %hW2 = linalg.matmul ins(%h, %W2 : tensor<1000x128xf32>, tensor<128x10xf32>)
                         outs(%zo : tensor<1000x10xf32>) -> tensor<1000x10xf32>
    %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
        ins(%hW2, %b2 : tensor<1000x10xf32>, tensor<10xf32>) outs(%eo : tensor<1000x10xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<1000x10xf32>
    return %logits : tensor<1000x10xf32>
  }
}

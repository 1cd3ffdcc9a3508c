// digits_mlp_train_generated/forward.mlir
//
// The forward pass of testdata/digits_mlp_train's MLP (64 -> 32 ReLU -> 10),
// written as the ONNX importer writes a Gemm: matmul into zeros, then a
// broadcast bias add. The weights here are placeholders (zeros): the
// training spec re-initialises them from the digits workload's hash.
#id    = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%x: tensor<360x64xf32>) -> tensor<360x10xf32> {
    %zero = arith.constant 0.0 : f32
    %W1 = arith.constant dense<0.0> : tensor<64x32xf32>
    %b1 = arith.constant dense<0.0> : tensor<32xf32>
    %W2 = arith.constant dense<0.0> : tensor<32x10xf32>
    %b2 = arith.constant dense<0.0> : tensor<10xf32>
    %e32 = tensor.empty() : tensor<360x32xf32>
    %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<360x32xf32>) -> tensor<360x32xf32>
    %xW1 = linalg.matmul ins(%x, %W1 : tensor<360x64xf32>, tensor<64x32xf32>)
                         outs(%z32 : tensor<360x32xf32>) -> tensor<360x32xf32>
    %hpre = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xW1, %b1 : tensor<360x32xf32>, tensor<32xf32>) outs(%e32 : tensor<360x32xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<360x32xf32>
    %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%hpre : tensor<360x32xf32>) outs(%e32 : tensor<360x32xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.maximumf %a, %zero : f32
      linalg.yield %r : f32
    } -> tensor<360x32xf32>
    %e10 = tensor.empty() : tensor<360x10xf32>
    %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<360x10xf32>) -> tensor<360x10xf32>
    %hW2 = linalg.matmul ins(%h, %W2 : tensor<360x32xf32>, tensor<32x10xf32>)
                         outs(%z10 : tensor<360x10xf32>) -> tensor<360x10xf32>
    %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
        ins(%hW2, %b2 : tensor<360x10xf32>, tensor<10xf32>) outs(%e10 : tensor<360x10xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<360x10xf32>
    return %logits : tensor<360x10xf32>
  }
}

// analysis/testdata/corpus/while_calls_mlp.mlir: a 64-32-10 MLP trained by
// SGD in a style unlike the shipped workloads (issue #36's Fashion program,
// on the digits data): epochs in an scf.while with an i32 counter, batches
// in an scf.for, the step, forward pass, softmax, update and prediction in
// private functions reached by func.call, the weights initialised by a
// helper from a sine hash times a scale, a learning rate per layer.
//
//   @main(train_x 1077x64, train_y 1077x10 one-hot, eval_x 360x64)
//     -> 360x10 logits. 3 epochs x 33 batches of 32, lr 0.01 (both layers),
//   W1 = hash(i,j,1) * 0.25, W2 = hash(i,j,2) * 1/sqrt(32), biases 0.

#id     = affine_map<(d0, d1) -> (d0, d1)>
#bcast  = affine_map<(d0, d1) -> (d1)>
#rowvec = affine_map<(d0, d1) -> (d0)>
#id1    = affine_map<(d0) -> (d0)>

// hash(i, j, seed) = fract(sin(i*12.9898 + j*78.233 + seed) * 43758.5453) - 0.5
func.func private @hash(%i: index, %j: index, %seed: f32) -> f32 {
  %ci = arith.constant 12.9898 : f32
  %cj = arith.constant 78.233 : f32
  %mul = arith.constant 43758.5453 : f32
  %half = arith.constant 0.5 : f32
  %i64 = arith.index_cast %i : index to i64
  %j64 = arith.index_cast %j : index to i64
  %fi = arith.sitofp %i64 : i64 to f32
  %fj = arith.sitofp %j64 : i64 to f32
  %ti = arith.mulf %fi, %ci : f32
  %tj = arith.mulf %fj, %cj : f32
  %tij = arith.addf %ti, %tj : f32
  %arg = arith.addf %tij, %seed : f32
  %sn = math.sin %arg : f32
  %v = arith.mulf %sn, %mul : f32
  %fl = math.floor %v : f32
  %fract = arith.subf %v, %fl : f32
  %h = arith.subf %fract, %half : f32
  return %h : f32
}

func.func private @init_w1(%seed: f32, %scale: f32) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %h = func.call @hash(%i, %j, %seed) : (index, index, f32) -> f32
    %s = arith.mulf %h, %scale : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %w : tensor<64x32xf32>
}

func.func private @init_w2(%seed: f32, %scale: f32) -> tensor<32x10xf32> {
  %e = tensor.empty() : tensor<32x10xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<32x10xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %h = func.call @hash(%i, %j, %seed) : (index, index, f32) -> f32
    %s = arith.mulf %h, %scale : f32
    linalg.yield %s : f32
  } -> tensor<32x10xf32>
  return %w : tensor<32x10xf32>
}

// hpre = x W1 + b1, h = relu(hpre), logits = h W2 + b2
func.func private @forward(%x: tensor<32x64xf32>, %W1: tensor<64x32xf32>,
                           %b1: tensor<32xf32>, %W2: tensor<32x10xf32>,
                           %b2: tensor<10xf32>)
    -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %e32x32 = tensor.empty() : tensor<32x32xf32>
  %z32x32 = linalg.fill ins(%zero : f32) outs(%e32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %xW1 = linalg.matmul ins(%x, %W1 : tensor<32x64xf32>, tensor<64x32xf32>)
                       outs(%z32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %hpre = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xW1, %b1 : tensor<32x32xf32>, tensor<32xf32>) outs(%e32x32 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%hpre : tensor<32x32xf32>) outs(%e32x32 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  %e32x10 = tensor.empty() : tensor<32x10xf32>
  %z32x10 = linalg.fill ins(%zero : f32) outs(%e32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
  %hW2 = linalg.matmul ins(%h, %W2 : tensor<32x32xf32>, tensor<32x10xf32>)
                       outs(%z32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
  %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%hW2, %b2 : tensor<32x10xf32>, tensor<10xf32>) outs(%e32x10 : tensor<32x10xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<32x10xf32>
  return %hpre, %h, %logits : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>
}

// Row softmax; the running max starts at -inf.
func.func private @softmax(%logits: tensor<32x10xf32>) -> tensor<32x10xf32> {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<32xf32>
  %e32x10 = tensor.empty() : tensor<32x10xf32>
  %ninf = linalg.fill ins(%neg_inf : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
  %row_max = linalg.generic {indexing_maps = [#id, #rowvec], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<32x10xf32>) outs(%ninf : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<32xf32>
  %exps = linalg.generic {indexing_maps = [#id, #rowvec, #id], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %row_max : tensor<32x10xf32>, tensor<32xf32>) outs(%e32x10 : tensor<32x10xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<32x10xf32>
  %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
  %row_sum = linalg.generic {indexing_maps = [#id, #rowvec], iterator_types = ["parallel", "reduction"]}
      ins(%exps : tensor<32x10xf32>) outs(%z32 : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %p = linalg.generic {indexing_maps = [#id, #rowvec, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exps, %row_sum : tensor<32x10xf32>, tensor<32xf32>) outs(%e32x10 : tensor<32x10xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<32x10xf32>
  return %p : tensor<32x10xf32>
}

// SGD: each parameter minus its layer's learning rate times its gradient.
func.func private @update(%W1: tensor<64x32xf32>, %b1: tensor<32xf32>,
                          %W2: tensor<32x10xf32>, %b2: tensor<10xf32>,
                          %dW1: tensor<64x32xf32>, %db1: tensor<32xf32>,
                          %dW2: tensor<32x10xf32>, %db2: tensor<10xf32>,
                          %lr1: f32, %lr2: f32) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {
  %e_W1 = tensor.empty() : tensor<64x32xf32>
  %W1_n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%W1, %dW1 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e_W1 : tensor<64x32xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %lr1, %gv : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<64x32xf32>
  %e_b1 = tensor.empty() : tensor<32xf32>
  %b1_n = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%b1, %db1 : tensor<32xf32>, tensor<32xf32>) outs(%e_b1 : tensor<32xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %lr1, %gv : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<32xf32>
  %e_W2 = tensor.empty() : tensor<32x10xf32>
  %W2_n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%W2, %dW2 : tensor<32x10xf32>, tensor<32x10xf32>) outs(%e_W2 : tensor<32x10xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %lr2, %gv : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<32x10xf32>
  %e_b2 = tensor.empty() : tensor<10xf32>
  %b2_n = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%b2, %db2 : tensor<10xf32>, tensor<10xf32>) outs(%e_b2 : tensor<10xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %lr2, %gv : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<10xf32>
  return %W1_n, %b1_n, %W2_n, %b2_n : tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
}

// One minibatch: forward, softmax, mean cross-entropy gradient, backward,
// update.
func.func private @train_step(%xb: tensor<32x64xf32>, %yb: tensor<32x10xf32>,
                              %W1: tensor<64x32xf32>, %b1: tensor<32xf32>,
                              %W2: tensor<32x10xf32>, %b2: tensor<10xf32>,
                              %lr1: f32, %lr2: f32) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {
  %zero = arith.constant 0.0 : f32
  %batch_f = arith.constant 32.0 : f32
  %hpre, %h, %logits = func.call @forward(%xb, %W1, %b1, %W2, %b2)
      : (tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>)
      -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x10xf32>)
  %p = func.call @softmax(%logits) : (tensor<32x10xf32>) -> tensor<32x10xf32>
  %e32x10 = tensor.empty() : tensor<32x10xf32>
  %dl = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %yb : tensor<32x10xf32>, tensor<32x10xf32>) outs(%e32x10 : tensor<32x10xf32>) {
  ^bb0(%pv: f32, %yv: f32, %out: f32):
    %d = arith.subf %pv, %yv : f32
    %g = arith.divf %d, %batch_f : f32
    linalg.yield %g : f32
  } -> tensor<32x10xf32>
  %e32x32 = tensor.empty() : tensor<32x32xf32>
  %z32x32 = linalg.fill ins(%zero : f32) outs(%e32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z32x10 = linalg.fill ins(%zero : f32) outs(%e32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
  %hT = linalg.transpose ins(%h : tensor<32x32xf32>) outs(%e32x32 : tensor<32x32xf32>) permutation = [1, 0]
  %dW2 = linalg.matmul ins(%hT, %dl : tensor<32x32xf32>, tensor<32x10xf32>)
                       outs(%z32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
  %e10 = tensor.empty() : tensor<10xf32>
  %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<10xf32>) -> tensor<10xf32>
  %db2 = linalg.generic {indexing_maps = [#id, #bcast], iterator_types = ["reduction", "parallel"]}
      ins(%dl : tensor<32x10xf32>) outs(%z10 : tensor<10xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  %e10x32 = tensor.empty() : tensor<10x32xf32>
  %W2T = linalg.transpose ins(%W2 : tensor<32x10xf32>) outs(%e10x32 : tensor<10x32xf32>) permutation = [1, 0]
  %dh_lin = linalg.matmul ins(%dl, %W2T : tensor<32x10xf32>, tensor<10x32xf32>)
                          outs(%z32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh_lin, %hpre : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e32x32 : tensor<32x32xf32>) {
  ^bb0(%g: f32, %pre: f32, %out: f32):
    %active = arith.cmpf ogt, %pre, %zero : f32
    %r = arith.select %active, %g, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  %e64x32 = tensor.empty() : tensor<64x32xf32>
  %z64x32 = linalg.fill ins(%zero : f32) outs(%e64x32 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %xbT = linalg.transpose ins(%xb : tensor<32x64xf32>) outs(%e64x32 : tensor<64x32xf32>) permutation = [1, 0]
  %dW1 = linalg.matmul ins(%xbT, %dh : tensor<64x32xf32>, tensor<32x32xf32>)
                       outs(%z64x32 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e32 = tensor.empty() : tensor<32xf32>
  %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
  %db1 = linalg.generic {indexing_maps = [#id, #bcast], iterator_types = ["reduction", "parallel"]}
      ins(%dh : tensor<32x32xf32>) outs(%z32 : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %W1n, %b1n, %W2n, %b2n = func.call @update(%W1, %b1, %W2, %b2, %dW1, %db1, %dW2, %db2, %lr1, %lr2)
      : (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>, f32, f32) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>)
  return %W1n, %b1n, %W2n, %b2n : tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
}

// The trained model on the evaluated inputs.
func.func private @predict(%x: tensor<360x64xf32>, %W1: tensor<64x32xf32>,
                           %b1: tensor<32xf32>, %W2: tensor<32x10xf32>,
                           %b2: tensor<10xf32>) -> tensor<360x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<360x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<360x32xf32>) -> tensor<360x32xf32>
  %xW1 = linalg.matmul ins(%x, %W1 : tensor<360x64xf32>, tensor<64x32xf32>)
                       outs(%z1 : tensor<360x32xf32>) -> tensor<360x32xf32>
  %h = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xW1, %b1 : tensor<360x32xf32>, tensor<32xf32>) outs(%e1 : tensor<360x32xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<360x32xf32>
  %e2 = tensor.empty() : tensor<360x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %hW2 = linalg.matmul ins(%h, %W2 : tensor<360x32xf32>, tensor<32x10xf32>)
                       outs(%z2 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%hW2, %b2 : tensor<360x10xf32>, tensor<10xf32>) outs(%e2 : tensor<360x10xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<360x10xf32>
  return %logits : tensor<360x10xf32>
}

func.func @main(%train_x: tensor<1077x64xf32>, %train_y: tensor<1077x10xf32>,
                %eval_x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %lr1 = arith.constant 0.01 : f32
  %lr2 = arith.constant 0.01 : f32
  %seed1 = arith.constant 1.0 : f32
  %seed2 = arith.constant 2.0 : f32
  %scale1 = arith.constant 0.25 : f32
  %scale2 = arith.constant 0.176776695 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %batch = arith.constant 32 : index
  %num_batches = arith.constant 33 : index
  %epoch0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %num_epochs = arith.constant 3 : i32
  %W1_0 = func.call @init_w1(%seed1, %scale1) : (f32, f32) -> tensor<64x32xf32>
  %W2_0 = func.call @init_w2(%seed2, %scale2) : (f32, f32) -> tensor<32x10xf32>
  %eb1 = tensor.empty() : tensor<32xf32>
  %b1_0 = linalg.fill ins(%zero : f32) outs(%eb1 : tensor<32xf32>) -> tensor<32xf32>
  %eb2 = tensor.empty() : tensor<10xf32>
  %b2_0 = linalg.fill ins(%zero : f32) outs(%eb2 : tensor<10xf32>) -> tensor<10xf32>
  %fin:5 = scf.while (%e = %epoch0, %W1 = %W1_0, %b1 = %b1_0, %W2 = %W2_0, %b2 = %b2_0)
      : (i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) -> (i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {
    %go = arith.cmpi slt, %e, %num_epochs : i32
    scf.condition(%go) %e, %W1, %b1, %W2, %b2 : i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
  } do {
  ^bb0(%e: i32, %W1: tensor<64x32xf32>, %b1: tensor<32xf32>, %W2: tensor<32x10xf32>, %b2: tensor<10xf32>):
    %p:4 = scf.for %b = %c0 to %num_batches step %c1
        iter_args(%W1b = %W1, %b1b = %b1, %W2b = %W2, %b2b = %b2) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {
      %row0 = arith.muli %b, %batch : index
      %xb = tensor.extract_slice %train_x[%row0, 0] [32, 64] [1, 1]
          : tensor<1077x64xf32> to tensor<32x64xf32>
      %yb = tensor.extract_slice %train_y[%row0, 0] [32, 10] [1, 1]
          : tensor<1077x10xf32> to tensor<32x10xf32>
      %n:4 = func.call @train_step(%xb, %yb, %W1b, %b1b, %W2b, %b2b, %lr1, %lr2)
          : (tensor<32x64xf32>, tensor<32x10xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>, f32, f32) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>)
      scf.yield %n#0, %n#1, %n#2, %n#3 : tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
    }
    %e_next = arith.addi %e, %one : i32
    scf.yield %e_next, %p#0, %p#1, %p#2, %p#3 : i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
  }
  %logits = func.call @predict(%eval_x, %fin#1, %fin#2, %fin#3, %fin#4)
      : (tensor<360x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) -> tensor<360x10xf32>
  return %logits : tensor<360x10xf32>
}

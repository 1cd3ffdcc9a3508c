// analysis/testdata/corpus_heldout/tanh_sle_mlp.mlir: a 64-32-10 tanh MLP
// on the digits in a style of its own: epochs counted 1..3 inclusive in an
// scf.while (<=), batches as an scf.for over row offsets stepping by the
// batch size, one update helper called once per parameter with that layer's
// learning rate, weights drawn by a helper from a sine hash and a scale.
// Kept apart: used only to measure the labeller, never to tune it.

#id     = affine_map<(d0, d1) -> (d0, d1)>
#bcast  = affine_map<(d0, d1) -> (d1)>
#rowvec = affine_map<(d0, d1) -> (d0)>
#id1    = affine_map<(d0) -> (d0)>

func.func private @draw64x32(%seed: f32, %scale: f32) -> tensor<64x32xf32> {
  %k = arith.constant 91.7 : f32
  %mul = arith.constant 1000.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %n = arith.muli %i, %i : index
    %m = arith.addi %n, %j : index
    %m64 = arith.index_cast %m : index to i64
    %f = arith.sitofp %m64 : i64 to f32
    %a = arith.mulf %f, %k : f32
    %b = arith.addf %a, %seed : f32
    %sn = math.sin %b : f32
    %v = arith.mulf %sn, %mul : f32
    %fl = math.floor %v : f32
    %fr = arith.subf %v, %fl : f32
    %c = arith.subf %fr, %half : f32
    %r = arith.mulf %c, %scale : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %w : tensor<64x32xf32>
}

func.func private @draw32x10(%seed: f32, %scale: f32) -> tensor<32x10xf32> {
  %k = arith.constant 91.7 : f32
  %mul = arith.constant 1000.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<32x10xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<32x10xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %n = arith.muli %i, %i : index
    %m = arith.addi %n, %j : index
    %m64 = arith.index_cast %m : index to i64
    %f = arith.sitofp %m64 : i64 to f32
    %a = arith.mulf %f, %k : f32
    %b = arith.addf %a, %seed : f32
    %sn = math.sin %b : f32
    %v = arith.mulf %sn, %mul : f32
    %fl = math.floor %v : f32
    %fr = arith.subf %v, %fl : f32
    %c = arith.subf %fr, %half : f32
    %r = arith.mulf %c, %scale : f32
    linalg.yield %r : f32
  } -> tensor<32x10xf32>
  return %w : tensor<32x10xf32>
}

func.func private @sgd_64_32(%w: tensor<64x32xf32>, %g: tensor<64x32xf32>, %lr: f32) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w, %g : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %gv, %lr : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<64x32xf32>
  return %n : tensor<64x32xf32>
}

func.func private @sgd_32(%w: tensor<32xf32>, %g: tensor<32xf32>, %lr: f32) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %n = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %gv, %lr : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<32xf32>
  return %n : tensor<32xf32>
}

func.func private @sgd_32_10(%w: tensor<32x10xf32>, %g: tensor<32x10xf32>, %lr: f32) -> tensor<32x10xf32> {
  %e = tensor.empty() : tensor<32x10xf32>
  %n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w, %g : tensor<32x10xf32>, tensor<32x10xf32>) outs(%e : tensor<32x10xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %gv, %lr : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<32x10xf32>
  return %n : tensor<32x10xf32>
}

func.func private @sgd_10(%w: tensor<10xf32>, %g: tensor<10xf32>, %lr: f32) -> tensor<10xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %n = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%wv: f32, %gv: f32, %out: f32):
    %step = arith.mulf %gv, %lr : f32
    %nw = arith.subf %wv, %step : f32
    linalg.yield %nw : f32
  } -> tensor<10xf32>
  return %n : tensor<10xf32>
}

func.func @main(%train_x: tensor<1077x64xf32>, %train_y: tensor<1077x10xf32>,
                %eval_x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %lr_hidden = arith.constant 0.02 : f32
  %lr_out = arith.constant 0.01 : f32
  %seed_a = arith.constant 3.0 : f32
  %seed_b = arith.constant 4.0 : f32
  %scale_a = arith.constant 0.2 : f32
  %scale_b = arith.constant 0.3 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %rows_f = arith.constant 32.0 : f32
  %first_epoch = arith.constant 1 : i32
  %last_epoch = arith.constant 3 : i32
  %epoch_step = arith.constant 1 : i32
  %r0 = arith.constant 0 : index
  %rows_end = arith.constant 1056 : index
  %batch = arith.constant 32 : index
  %W1_0 = func.call @draw64x32(%seed_a, %scale_a) : (f32, f32) -> tensor<64x32xf32>
  %W2_0 = func.call @draw32x10(%seed_b, %scale_b) : (f32, f32) -> tensor<32x10xf32>
  %e32 = tensor.empty() : tensor<32xf32>
  %b1_0 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
  %e10 = tensor.empty() : tensor<10xf32>
  %b2_0 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<10xf32>) -> tensor<10xf32>
  %fin:5 = scf.while (%ep = %first_epoch, %W1 = %W1_0, %b1 = %b1_0, %W2 = %W2_0, %b2 = %b2_0)
      : (i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) -> (i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {
    %go = arith.cmpi sle, %ep, %last_epoch : i32
    scf.condition(%go) %ep, %W1, %b1, %W2, %b2 : i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
  } do {
  ^bb0(%ep: i32, %W1: tensor<64x32xf32>, %b1: tensor<32xf32>, %W2: tensor<32x10xf32>, %b2: tensor<10xf32>):
    %p:4 = scf.for %row = %r0 to %rows_end step %batch
        iter_args(%V1 = %W1, %c1 = %b1, %V2 = %W2, %c2 = %b2) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {
      %xb = tensor.extract_slice %train_x[%row, 0] [32, 64] [1, 1] : tensor<1077x64xf32> to tensor<32x64xf32>
      %yb = tensor.extract_slice %train_y[%row, 0] [32, 10] [1, 1] : tensor<1077x10xf32> to tensor<32x10xf32>
      %e32x32 = tensor.empty() : tensor<32x32xf32>
      %z32x32 = linalg.fill ins(%zero : f32) outs(%e32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
      %xW = linalg.matmul ins(%xb, %V1 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%z32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
      %h = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
          ins(%xW, %c1 : tensor<32x32xf32>, tensor<32xf32>) outs(%e32x32 : tensor<32x32xf32>) {
      ^bb0(%a: f32, %bias: f32, %out: f32):
        %s = arith.addf %a, %bias : f32
        %t = math.tanh %s : f32
        linalg.yield %t : f32
      } -> tensor<32x32xf32>
      %e32x10 = tensor.empty() : tensor<32x10xf32>
      %z32x10 = linalg.fill ins(%zero : f32) outs(%e32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
      %hW = linalg.matmul ins(%h, %V2 : tensor<32x32xf32>, tensor<32x10xf32>) outs(%z32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
      %l = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
          ins(%hW, %c2 : tensor<32x10xf32>, tensor<10xf32>) outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%a: f32, %bias: f32, %out: f32):
        %s = arith.addf %a, %bias : f32
        linalg.yield %s : f32
      } -> tensor<32x10xf32>
      %er = tensor.empty() : tensor<32xf32>
      %ninf = linalg.fill ins(%neg_inf : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
      %mx = linalg.generic {indexing_maps = [#id, #rowvec], iterator_types = ["parallel", "reduction"]}
          ins(%l : tensor<32x10xf32>) outs(%ninf : tensor<32xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %r = arith.maximumf %a, %acc : f32
        linalg.yield %r : f32
      } -> tensor<32xf32>
      %ex = linalg.generic {indexing_maps = [#id, #rowvec, #id], iterator_types = ["parallel", "parallel"]}
          ins(%l, %mx : tensor<32x10xf32>, tensor<32xf32>) outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%a: f32, %m: f32, %out: f32):
        %d = arith.subf %a, %m : f32
        %r = math.exp %d : f32
        linalg.yield %r : f32
      } -> tensor<32x10xf32>
      %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
      %sm = linalg.generic {indexing_maps = [#id, #rowvec], iterator_types = ["parallel", "reduction"]}
          ins(%ex : tensor<32x10xf32>) outs(%zr : tensor<32xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %r = arith.addf %a, %acc : f32
        linalg.yield %r : f32
      } -> tensor<32xf32>
      %dl = linalg.generic {indexing_maps = [#id, #rowvec, #id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%ex, %sm, %yb : tensor<32x10xf32>, tensor<32xf32>, tensor<32x10xf32>) outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%a: f32, %sv: f32, %yv: f32, %out: f32):
        %p = arith.divf %a, %sv : f32
        %d = arith.subf %p, %yv : f32
        %g = arith.divf %d, %rows_f : f32
        linalg.yield %g : f32
      } -> tensor<32x10xf32>
      %hT = linalg.transpose ins(%h : tensor<32x32xf32>) outs(%e32x32 : tensor<32x32xf32>) permutation = [1, 0]
      %dW2 = linalg.matmul ins(%hT, %dl : tensor<32x32xf32>, tensor<32x10xf32>) outs(%z32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
      %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<10xf32>) -> tensor<10xf32>
      %db2 = linalg.generic {indexing_maps = [#id, #bcast], iterator_types = ["reduction", "parallel"]}
          ins(%dl : tensor<32x10xf32>) outs(%z10 : tensor<10xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %r = arith.addf %a, %acc : f32
        linalg.yield %r : f32
      } -> tensor<10xf32>
      %e10x32 = tensor.empty() : tensor<10x32xf32>
      %V2T = linalg.transpose ins(%V2 : tensor<32x10xf32>) outs(%e10x32 : tensor<10x32xf32>) permutation = [1, 0]
      %dh_lin = linalg.matmul ins(%dl, %V2T : tensor<32x10xf32>, tensor<10x32xf32>) outs(%z32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
      %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%dh_lin, %h : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e32x32 : tensor<32x32xf32>) {
      ^bb0(%g: f32, %t: f32, %out: f32):
        %t2 = arith.mulf %t, %t : f32
        %d = arith.subf %one, %t2 : f32
        %r = arith.mulf %g, %d : f32
        linalg.yield %r : f32
      } -> tensor<32x32xf32>
      %e64x32 = tensor.empty() : tensor<64x32xf32>
      %z64x32 = linalg.fill ins(%zero : f32) outs(%e64x32 : tensor<64x32xf32>) -> tensor<64x32xf32>
      %xT = linalg.transpose ins(%xb : tensor<32x64xf32>) outs(%e64x32 : tensor<64x32xf32>) permutation = [1, 0]
      %dW1 = linalg.matmul ins(%xT, %dh : tensor<64x32xf32>, tensor<32x32xf32>) outs(%z64x32 : tensor<64x32xf32>) -> tensor<64x32xf32>
      %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
      %db1 = linalg.generic {indexing_maps = [#id, #bcast], iterator_types = ["reduction", "parallel"]}
          ins(%dh : tensor<32x32xf32>) outs(%z32 : tensor<32xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %r = arith.addf %a, %acc : f32
        linalg.yield %r : f32
      } -> tensor<32xf32>
      %n1 = func.call @sgd_64_32(%V1, %dW1, %lr_hidden) : (tensor<64x32xf32>, tensor<64x32xf32>, f32) -> tensor<64x32xf32>
      %n2 = func.call @sgd_32(%c1, %db1, %lr_hidden) : (tensor<32xf32>, tensor<32xf32>, f32) -> tensor<32xf32>
      %n3 = func.call @sgd_32_10(%V2, %dW2, %lr_out) : (tensor<32x10xf32>, tensor<32x10xf32>, f32) -> tensor<32x10xf32>
      %n4 = func.call @sgd_10(%c2, %db2, %lr_out) : (tensor<10xf32>, tensor<10xf32>, f32) -> tensor<10xf32>
      scf.yield %n1, %n2, %n3, %n4 : tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
    }
    %ep_next = arith.addi %ep, %epoch_step : i32
    scf.yield %ep_next, %p#0, %p#1, %p#2, %p#3 : i32, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
  }
  %e360x32 = tensor.empty() : tensor<360x32xf32>
  %z360x32 = linalg.fill ins(%zero : f32) outs(%e360x32 : tensor<360x32xf32>) -> tensor<360x32xf32>
  %exW = linalg.matmul ins(%eval_x, %fin#1 : tensor<360x64xf32>, tensor<64x32xf32>) outs(%z360x32 : tensor<360x32xf32>) -> tensor<360x32xf32>
  %eh = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exW, %fin#2 : tensor<360x32xf32>, tensor<32xf32>) outs(%e360x32 : tensor<360x32xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<360x32xf32>
  %e360x10 = tensor.empty() : tensor<360x10xf32>
  %z360x10 = linalg.fill ins(%zero : f32) outs(%e360x10 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %ehW = linalg.matmul ins(%eh, %fin#3 : tensor<360x32xf32>, tensor<32x10xf32>) outs(%z360x10 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ehW, %fin#4 : tensor<360x10xf32>, tensor<10xf32>) outs(%e360x10 : tensor<360x10xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<360x10xf32>
  return %logits : tensor<360x10xf32>
}

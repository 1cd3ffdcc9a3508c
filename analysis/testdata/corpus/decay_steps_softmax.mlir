// analysis/testdata/corpus/decay_steps_softmax.mlir: softmax regression
// (64 -> 10) on the digits trained in yet another style: epochs in an
// scf.for over i64, batches in an scf.while with an index counter, two SGD
// steps per batch in a loop inside a called function, L2 weight decay, the
// pixels scaled by a helper called for both the training and the evaluated
// inputs.
//
//   @main(train_x 1077x64, train_y 1077x10 one-hot, eval_x 360x64)
//     -> 360x10 logits. 4 epochs x 33 batches of 32 x 2 steps, lr 0.05,
//   decay 1e-4, pixels x 0.0625, W = b = 0.

#id     = affine_map<(d0, d1) -> (d0, d1)>
#bcast  = affine_map<(d0, d1) -> (d1)>
#rowvec = affine_map<(d0, d1) -> (d0)>
#id1    = affine_map<(d0) -> (d0)>

func.func private @pixel(%v: f32, %scale: f32) -> f32 {
  %s = arith.mulf %v, %scale : f32
  return %s : f32
}

func.func private @affine(%x: tensor<32x64xf32>, %W: tensor<64x10xf32>,
                          %b: tensor<10xf32>) -> tensor<32x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x10xf32>) -> tensor<32x10xf32>
  %xW = linalg.matmul ins(%x, %W : tensor<32x64xf32>, tensor<64x10xf32>)
                      outs(%z : tensor<32x10xf32>) -> tensor<32x10xf32>
  %l = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xW, %b : tensor<32x10xf32>, tensor<10xf32>) outs(%e : tensor<32x10xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<32x10xf32>
  return %l : tensor<32x10xf32>
}

// `steps` SGD steps on one batch: W <- W - lr * (dW + decay * W).
func.func private @steps(%x: tensor<32x64xf32>, %y: tensor<32x10xf32>,
                         %W0: tensor<64x10xf32>, %b0: tensor<10xf32>,
                         %lr: f32, %decay: f32) -> (tensor<64x10xf32>, tensor<10xf32>) {
  %zero = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %rows = arith.constant 32.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %num_steps = arith.constant 2 : index
  %W, %b = scf.for %s = %c0 to %num_steps step %c1
      iter_args(%Wi = %W0, %bi = %b0) -> (tensor<64x10xf32>, tensor<10xf32>) {
    %l = func.call @affine(%x, %Wi, %bi) : (tensor<32x64xf32>, tensor<64x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
    %e32 = tensor.empty() : tensor<32xf32>
    %e32x10 = tensor.empty() : tensor<32x10xf32>
    %ninf = linalg.fill ins(%neg_inf : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
    %m = linalg.generic {indexing_maps = [#id, #rowvec], iterator_types = ["parallel", "reduction"]}
        ins(%l : tensor<32x10xf32>) outs(%ninf : tensor<32xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    } -> tensor<32xf32>
    %ex = linalg.generic {indexing_maps = [#id, #rowvec, #id], iterator_types = ["parallel", "parallel"]}
        ins(%l, %m : tensor<32x10xf32>, tensor<32xf32>) outs(%e32x10 : tensor<32x10xf32>) {
    ^bb0(%a: f32, %mv: f32, %out: f32):
      %d = arith.subf %a, %mv : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
    } -> tensor<32x10xf32>
    %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
    %sum = linalg.generic {indexing_maps = [#id, #rowvec], iterator_types = ["parallel", "reduction"]}
        ins(%ex : tensor<32x10xf32>) outs(%z32 : tensor<32xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    } -> tensor<32xf32>
    %dl = linalg.generic {indexing_maps = [#id, #rowvec, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ex, %sum, %y : tensor<32x10xf32>, tensor<32xf32>, tensor<32x10xf32>) outs(%e32x10 : tensor<32x10xf32>) {
    ^bb0(%a: f32, %sv: f32, %yv: f32, %out: f32):
      %p = arith.divf %a, %sv : f32
      %d = arith.subf %p, %yv : f32
      %g = arith.divf %d, %rows : f32
      linalg.yield %g : f32
    } -> tensor<32x10xf32>
    %e64x32 = tensor.empty() : tensor<64x32xf32>
    %xT = linalg.transpose ins(%x : tensor<32x64xf32>) outs(%e64x32 : tensor<64x32xf32>) permutation = [1, 0]
    %e64x10 = tensor.empty() : tensor<64x10xf32>
    %z64x10 = linalg.fill ins(%zero : f32) outs(%e64x10 : tensor<64x10xf32>) -> tensor<64x10xf32>
    %dW = linalg.matmul ins(%xT, %dl : tensor<64x32xf32>, tensor<32x10xf32>)
                        outs(%z64x10 : tensor<64x10xf32>) -> tensor<64x10xf32>
    %e10 = tensor.empty() : tensor<10xf32>
    %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<10xf32>) -> tensor<10xf32>
    %db = linalg.generic {indexing_maps = [#id, #bcast], iterator_types = ["reduction", "parallel"]}
        ins(%dl : tensor<32x10xf32>) outs(%z10 : tensor<10xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    } -> tensor<10xf32>
    %Wn = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%Wi, %dW : tensor<64x10xf32>, tensor<64x10xf32>) outs(%e64x10 : tensor<64x10xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %shrink = arith.mulf %decay, %w : f32
      %full = arith.addf %g, %shrink : f32
      %step = arith.mulf %lr, %full : f32
      %nw = arith.subf %w, %step : f32
      linalg.yield %nw : f32
    } -> tensor<64x10xf32>
    %bn = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
        ins(%bi, %db : tensor<10xf32>, tensor<10xf32>) outs(%e10 : tensor<10xf32>) {
    ^bb0(%w: f32, %g: f32, %out: f32):
      %step = arith.mulf %lr, %g : f32
      %nw = arith.subf %w, %step : f32
      linalg.yield %nw : f32
    } -> tensor<10xf32>
    scf.yield %Wn, %bn : tensor<64x10xf32>, tensor<10xf32>
  }
  return %W, %b : tensor<64x10xf32>, tensor<10xf32>
}

func.func @main(%train_x: tensor<1077x64xf32>, %train_y: tensor<1077x10xf32>,
                %eval_x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  %lr = arith.constant 0.05 : f32
  %decay = arith.constant 0.0001 : f32
  %scale = arith.constant 0.0625 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = arith.constant 0 : i64
  %e1 = arith.constant 1 : i64
  %num_epochs = arith.constant 4 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %batch = arith.constant 32 : index
  %num_batches = arith.constant 33 : index
  %ex = tensor.empty() : tensor<1077x64xf32>
  %xs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%train_x : tensor<1077x64xf32>) outs(%ex : tensor<1077x64xf32>) {
  ^bb0(%v: f32, %out: f32):
    %s = func.call @pixel(%v, %scale) : (f32, f32) -> f32
    linalg.yield %s : f32
  } -> tensor<1077x64xf32>
  %eW = tensor.empty() : tensor<64x10xf32>
  %W0 = linalg.fill ins(%zero : f32) outs(%eW : tensor<64x10xf32>) -> tensor<64x10xf32>
  %eb = tensor.empty() : tensor<10xf32>
  %b0 = linalg.fill ins(%zero : f32) outs(%eb : tensor<10xf32>) -> tensor<10xf32>
  %W, %b = scf.for %epoch = %e0 to %num_epochs step %e1
      iter_args(%We = %W0, %be = %b0) -> (tensor<64x10xf32>, tensor<10xf32>) : i64 {
    %i_end, %Wb, %bb = scf.while (%i = %c0, %Wi = %We, %bi = %be)
        : (index, tensor<64x10xf32>, tensor<10xf32>) -> (index, tensor<64x10xf32>, tensor<10xf32>) {
      %go = arith.cmpi slt, %i, %num_batches : index
      scf.condition(%go) %i, %Wi, %bi : index, tensor<64x10xf32>, tensor<10xf32>
    } do {
    ^bb0(%i: index, %Wi: tensor<64x10xf32>, %bi: tensor<10xf32>):
      %row0 = arith.muli %i, %batch : index
      %xb = tensor.extract_slice %xs[%row0, 0] [32, 64] [1, 1] : tensor<1077x64xf32> to tensor<32x64xf32>
      %yb = tensor.extract_slice %train_y[%row0, 0] [32, 10] [1, 1] : tensor<1077x10xf32> to tensor<32x10xf32>
      %Wn, %bn = func.call @steps(%xb, %yb, %Wi, %bi, %lr, %decay)
          : (tensor<32x64xf32>, tensor<32x10xf32>, tensor<64x10xf32>, tensor<10xf32>, f32, f32)
          -> (tensor<64x10xf32>, tensor<10xf32>)
      %i_next = arith.addi %i, %c1 : index
      scf.yield %i_next, %Wn, %bn : index, tensor<64x10xf32>, tensor<10xf32>
    }
    scf.yield %Wb, %bb : tensor<64x10xf32>, tensor<10xf32>
  }
  %eev = tensor.empty() : tensor<360x64xf32>
  %es = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%eval_x : tensor<360x64xf32>) outs(%eev : tensor<360x64xf32>) {
  ^bb0(%v: f32, %out: f32):
    %s = func.call @pixel(%v, %scale) : (f32, f32) -> f32
    linalg.yield %s : f32
  } -> tensor<360x64xf32>
  %el = tensor.empty() : tensor<360x10xf32>
  %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<360x10xf32>) -> tensor<360x10xf32>
  %xW = linalg.matmul ins(%es, %W : tensor<360x64xf32>, tensor<64x10xf32>)
                      outs(%zl : tensor<360x10xf32>) -> tensor<360x10xf32>
  %logits = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xW, %b : tensor<360x10xf32>, tensor<10xf32>) outs(%el : tensor<360x10xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<360x10xf32>
  return %logits : tensor<360x10xf32>
}

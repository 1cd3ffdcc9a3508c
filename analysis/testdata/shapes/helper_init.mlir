// analysis/testdata/shapes/helper_init.mlir: digits_mlp_train with W2's
// initialisation moved into a function that @main calls.
// digits_mlp_train/model.mlir
//
// A 2-layer MLP (64 -> 32 ReLU -> 10) trained on the 8x8 "digits" data set
// with softmax cross-entropy and plain minibatch SGD. The backward pass is
// written out by hand.
//
//   @main(train_x : 1077x64  raw pixel values 0..16 (NOT normalised),
//         train_y : 1077x10  one-hot labels,
//         eval_x  :  360x64  raw pixel values 0..16)
//     -> 360x10 logits for eval_x after training.
//
// Hyper-parameters (all arith.constant below):
//   learning rate 0.01 (one constant, used for every update), batch 32,
//   5 epochs x 33 batches; batch b uses rows b*32 .. b*32+31 in order (no
//   shuffling; the last 1077 - 33*32 = 21 rows are never visited).
//
// Initialisation (deterministic, computed inside the IR):
//   h(i,j,s) = fract(sin(i*12.9898 + j*78.233 + s) * 43758.5453) - 0.5
//   fract(v) = v - floor(v)
//   W1[i,j] = h(i,j,1.0) * 2*sqrt(1/64)   (= 0.25)
//   W2[i,j] = h(i,j,2.0) * 2*sqrt(1/32)   (= 0.35355339)
//   b1 = 0, b2 = 0
//
// Only linalg-on-tensors + tensor/arith/math/scf/func; no memref.

// Elementwise / broadcast / reduction maps for 2-D iteration spaces.
#id     = affine_map<(d0, d1) -> (d0, d1)>
#bcast  = affine_map<(d0, d1) -> (d1)>      // row vector broadcast over rows
#rowvec = affine_map<(d0, d1) -> (d0)>      // one value per row
#id1    = affine_map<(d0) -> (d0)>

// ---------------------------------------------------------------------------
// Training + evaluation.
// ---------------------------------------------------------------------------
func.func @main(%train_x: tensor<1077x64xf32>, %train_y: tensor<1077x10xf32>,
                %eval_x: tensor<360x64xf32>) -> tensor<360x10xf32> {
  // ----- hyper-parameters ---------------------------------------------------
  %lr          = arith.constant 0.01 : f32        // SGD learning rate
  %batch_f     = arith.constant 32.0 : f32        // batch size as f32 (loss mean)
  %c0          = arith.constant 0 : index
  %c1          = arith.constant 1 : index
  %batch       = arith.constant 32 : index        // batch size
  %num_epochs  = arith.constant 5 : index
  %num_batches = arith.constant 33 : index        // floor(1077 / 32)

  %zero    = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32      // -inf, identity of max

  // ----- parameter initialisation ------------------------------------------
  %seed1  = arith.constant 1.0 : f32
  %seed2  = arith.constant 2.0 : f32
  %scale1 = arith.constant 0.25 : f32             // 2*sqrt(1/64)
  %scale2 = arith.constant 0.353553390593 : f32   // 2*sqrt(1/32)
  %hash_ci  = arith.constant 12.9898 : f32
  %hash_cj  = arith.constant 78.233 : f32
  %hash_mul = arith.constant 43758.5453 : f32
  %half     = arith.constant 0.5 : f32
  // W1[i,j] = h(i,j,1.0) * 2*sqrt(1/64)
  %W1_empty = tensor.empty() : tensor<64x32xf32>
  %W1_init = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%W1_empty : tensor<64x32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i_i64 = arith.index_cast %i : index to i64
    %j_i64 = arith.index_cast %j : index to i64
    %fi = arith.sitofp %i_i64 : i64 to f32
    %fj = arith.sitofp %j_i64 : i64 to f32
    // arg = i*12.9898 + j*78.233 + seed
    %ti = arith.mulf %fi, %hash_ci : f32
    %tj = arith.mulf %fj, %hash_cj : f32
    %tij = arith.addf %ti, %tj : f32
    %arg = arith.addf %tij, %seed1 : f32
    // h = fract(sin(arg) * 43758.5453) - 0.5 ; w = h * scale
    %sn = math.sin %arg : f32
    %v = arith.mulf %sn, %hash_mul : f32
    %fl = math.floor %v : f32
    %fract = arith.subf %v, %fl : f32
    %hv = arith.subf %fract, %half : f32
    %w = arith.mulf %hv, %scale1 : f32
    linalg.yield %w : f32
  } -> tensor<64x32xf32>
  // W2 comes from a helper function.
  %W2_init = func.call @init_w2() : () -> tensor<32x10xf32>
  // b1 = 0, b2 = 0
  %b1_empty = tensor.empty() : tensor<32xf32>
  %b1_init = linalg.fill ins(%zero : f32) outs(%b1_empty : tensor<32xf32>) -> tensor<32xf32>
  %b2_empty = tensor.empty() : tensor<10xf32>
  %b2_init = linalg.fill ins(%zero : f32) outs(%b2_empty : tensor<10xf32>) -> tensor<10xf32>

  // ----- training loop: epochs x batches, parameters carried as iter_args ---
  %W1_fin, %b1_fin, %W2_fin, %b2_fin =
    scf.for %epoch = %c0 to %num_epochs step %c1
        iter_args(%W1_e = %W1_init, %b1_e = %b1_init, %W2_e = %W2_init, %b2_e = %b2_init)
        -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {
    %W1_n, %b1_n, %W2_n, %b2_n =
      scf.for %b = %c0 to %num_batches step %c1
          iter_args(%W1 = %W1_e, %b1 = %b1_e, %W2 = %W2_e, %b2 = %b2_e)
          -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) {

      // ----- minibatch: rows b*32 .. b*32+31 --------------------------------
      %row0 = arith.muli %b, %batch : index
      %xb = tensor.extract_slice %train_x[%row0, 0] [32, 64] [1, 1]
          : tensor<1077x64xf32> to tensor<32x64xf32>
      %yb = tensor.extract_slice %train_y[%row0, 0] [32, 10] [1, 1]
          : tensor<1077x10xf32> to tensor<32x10xf32>

      // ===== forward pass ===================================================
      // hpre = xb @ W1 + b1
      %e32x32 = tensor.empty() : tensor<32x32xf32>
      %z32x32 = linalg.fill ins(%zero : f32) outs(%e32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
      %xW1 = linalg.matmul ins(%xb, %W1 : tensor<32x64xf32>, tensor<64x32xf32>)
                           outs(%z32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
      %hpre = linalg.generic {indexing_maps = [#id, #bcast, #id],
                              iterator_types = ["parallel", "parallel"]}
          ins(%xW1, %b1 : tensor<32x32xf32>, tensor<32xf32>)
          outs(%e32x32 : tensor<32x32xf32>) {
      ^bb0(%a: f32, %bias: f32, %out: f32):
        %s = arith.addf %a, %bias : f32
        linalg.yield %s : f32
      } -> tensor<32x32xf32>

      // h = relu(hpre)
      %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%hpre : tensor<32x32xf32>) outs(%e32x32 : tensor<32x32xf32>) {
      ^bb0(%a: f32, %out: f32):
        %r = arith.maximumf %a, %zero : f32
        linalg.yield %r : f32
      } -> tensor<32x32xf32>

      // logits = h @ W2 + b2
      %e32x10 = tensor.empty() : tensor<32x10xf32>
      %z32x10 = linalg.fill ins(%zero : f32) outs(%e32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
      %hW2 = linalg.matmul ins(%h, %W2 : tensor<32x32xf32>, tensor<32x10xf32>)
                           outs(%z32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
      %logits = linalg.generic {indexing_maps = [#id, #bcast, #id],
                                iterator_types = ["parallel", "parallel"]}
          ins(%hW2, %b2 : tensor<32x10xf32>, tensor<10xf32>)
          outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%a: f32, %bias: f32, %out: f32):
        %s = arith.addf %a, %bias : f32
        linalg.yield %s : f32
      } -> tensor<32x10xf32>

      // p = softmax(logits): subtract row max, exp, divide by row sum
      %e32 = tensor.empty() : tensor<32xf32>
      %ninf32 = linalg.fill ins(%neg_inf : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
      %row_max = linalg.generic {indexing_maps = [#id, #rowvec],
                                 iterator_types = ["parallel", "reduction"]}
          ins(%logits : tensor<32x10xf32>) outs(%ninf32 : tensor<32xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.maximumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<32xf32>
      %exps = linalg.generic {indexing_maps = [#id, #rowvec, #id],
                              iterator_types = ["parallel", "parallel"]}
          ins(%logits, %row_max : tensor<32x10xf32>, tensor<32xf32>)
          outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%a: f32, %m: f32, %out: f32):
        %d = arith.subf %a, %m : f32
        %ex = math.exp %d : f32
        linalg.yield %ex : f32
      } -> tensor<32x10xf32>
      %z32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
      %row_sum = linalg.generic {indexing_maps = [#id, #rowvec],
                                 iterator_types = ["parallel", "reduction"]}
          ins(%exps : tensor<32x10xf32>) outs(%z32 : tensor<32xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<32xf32>
      %p = linalg.generic {indexing_maps = [#id, #rowvec, #id],
                           iterator_types = ["parallel", "parallel"]}
          ins(%exps, %row_sum : tensor<32x10xf32>, tensor<32xf32>)
          outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%a: f32, %s: f32, %out: f32):
        %q = arith.divf %a, %s : f32
        linalg.yield %q : f32
      } -> tensor<32x10xf32>

      // ===== loss gradient ==================================================
      // d(mean CE)/d logits: dl = (p - yb) / 32
      %dl = linalg.generic {indexing_maps = [#id, #id, #id],
                            iterator_types = ["parallel", "parallel"]}
          ins(%p, %yb : tensor<32x10xf32>, tensor<32x10xf32>)
          outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%pv: f32, %yv: f32, %out: f32):
        %d = arith.subf %pv, %yv : f32
        %g = arith.divf %d, %batch_f : f32
        linalg.yield %g : f32
      } -> tensor<32x10xf32>

      // ===== backward pass ==================================================
      // dW2 = h^T @ dl
      %hT = linalg.transpose ins(%h : tensor<32x32xf32>)
                             outs(%e32x32 : tensor<32x32xf32>) permutation = [1, 0]
      %dW2 = linalg.matmul ins(%hT, %dl : tensor<32x32xf32>, tensor<32x10xf32>)
                           outs(%z32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>

      // db2 = sum over batch rows of dl
      %e10 = tensor.empty() : tensor<10xf32>
      %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<10xf32>) -> tensor<10xf32>
      %db2 = linalg.generic {indexing_maps = [#id, #bcast],
                             iterator_types = ["reduction", "parallel"]}
          ins(%dl : tensor<32x10xf32>) outs(%z10 : tensor<10xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<10xf32>

      // dh = (dl @ W2^T) * (hpre > 0)
      %e10x32 = tensor.empty() : tensor<10x32xf32>
      %W2T = linalg.transpose ins(%W2 : tensor<32x10xf32>)
                              outs(%e10x32 : tensor<10x32xf32>) permutation = [1, 0]
      %dh_lin = linalg.matmul ins(%dl, %W2T : tensor<32x10xf32>, tensor<10x32xf32>)
                              outs(%z32x32 : tensor<32x32xf32>) -> tensor<32x32xf32>
      %dh = linalg.generic {indexing_maps = [#id, #id, #id],
                            iterator_types = ["parallel", "parallel"]}
          ins(%dh_lin, %hpre : tensor<32x32xf32>, tensor<32x32xf32>)
          outs(%e32x32 : tensor<32x32xf32>) {
      ^bb0(%g: f32, %pre: f32, %out: f32):
        %active = arith.cmpf ogt, %pre, %zero : f32
        %r = arith.select %active, %g, %zero : f32
        linalg.yield %r : f32
      } -> tensor<32x32xf32>

      // dW1 = xb^T @ dh
      %e64x32 = tensor.empty() : tensor<64x32xf32>
      %z64x32 = linalg.fill ins(%zero : f32) outs(%e64x32 : tensor<64x32xf32>) -> tensor<64x32xf32>
      %xbT = linalg.transpose ins(%xb : tensor<32x64xf32>)
                              outs(%e64x32 : tensor<64x32xf32>) permutation = [1, 0]
      %dW1 = linalg.matmul ins(%xbT, %dh : tensor<64x32xf32>, tensor<32x32xf32>)
                           outs(%z64x32 : tensor<64x32xf32>) -> tensor<64x32xf32>

      // db1 = sum over batch rows of dh
      %z32b = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32xf32>) -> tensor<32xf32>
      %db1 = linalg.generic {indexing_maps = [#id, #bcast],
                             iterator_types = ["reduction", "parallel"]}
          ins(%dh : tensor<32x32xf32>) outs(%z32b : tensor<32xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<32xf32>

      // ===== SGD update: param -= lr * grad =================================
      %W1_new = linalg.generic {indexing_maps = [#id, #id, #id],
                                iterator_types = ["parallel", "parallel"]}
          ins(%W1, %dW1 : tensor<64x32xf32>, tensor<64x32xf32>)
          outs(%e64x32 : tensor<64x32xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<64x32xf32>
      %b1_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                                iterator_types = ["parallel"]}
          ins(%b1, %db1 : tensor<32xf32>, tensor<32xf32>)
          outs(%e32 : tensor<32xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<32xf32>
      %W2_new = linalg.generic {indexing_maps = [#id, #id, #id],
                                iterator_types = ["parallel", "parallel"]}
          ins(%W2, %dW2 : tensor<32x10xf32>, tensor<32x10xf32>)
          outs(%e32x10 : tensor<32x10xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<32x10xf32>
      %b2_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                                iterator_types = ["parallel"]}
          ins(%b2, %db2 : tensor<10xf32>, tensor<10xf32>)
          outs(%e10 : tensor<10xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<10xf32>

      scf.yield %W1_new, %b1_new, %W2_new, %b2_new
          : tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
    }
    scf.yield %W1_n, %b1_n, %W2_n, %b2_n
        : tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
  }

  // ----- evaluation: logits = relu(eval_x @ W1 + b1) @ W2 + b2 ------------
  %ee360x32 = tensor.empty() : tensor<360x32xf32>
  %ez360x32 = linalg.fill ins(%zero : f32) outs(%ee360x32 : tensor<360x32xf32>) -> tensor<360x32xf32>
  %eval_xW1 = linalg.matmul ins(%eval_x, %W1_fin : tensor<360x64xf32>, tensor<64x32xf32>)
                            outs(%ez360x32 : tensor<360x32xf32>) -> tensor<360x32xf32>
  %eval_h = linalg.generic {indexing_maps = [#id, #bcast, #id],
                            iterator_types = ["parallel", "parallel"]}
      ins(%eval_xW1, %b1_fin : tensor<360x32xf32>, tensor<32xf32>)
      outs(%ee360x32 : tensor<360x32xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<360x32xf32>
  %ee360x10 = tensor.empty() : tensor<360x10xf32>
  %ez360x10 = linalg.fill ins(%zero : f32) outs(%ee360x10 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %eval_hW2 = linalg.matmul ins(%eval_h, %W2_fin : tensor<360x32xf32>, tensor<32x10xf32>)
                            outs(%ez360x10 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %eval_logits = linalg.generic {indexing_maps = [#id, #bcast, #id],
                                 iterator_types = ["parallel", "parallel"]}
      ins(%eval_hW2, %b2_fin : tensor<360x10xf32>, tensor<10xf32>)
      outs(%ee360x10 : tensor<360x10xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<360x10xf32>
  return %eval_logits : tensor<360x10xf32>
}

// W2's initial values, computed in a helper the training loop's function
// calls (roles must follow the call).
func.func @init_w2() -> tensor<32x10xf32> {
  %seed2 = arith.constant 2.0 : f32
  %scale2 = arith.constant 0.353553390593 : f32
  %hash_ci = arith.constant 12.9898 : f32
  %hash_cj = arith.constant 78.233 : f32
  %hash_mul = arith.constant 43758.5453 : f32
  %half = arith.constant 0.5 : f32
  // W2[i,j] = h(i,j,2.0) * 2*sqrt(1/32)
  %W2_empty = tensor.empty() : tensor<32x10xf32>
  %W2_init = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%W2_empty : tensor<32x10xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i_i64 = arith.index_cast %i : index to i64
    %j_i64 = arith.index_cast %j : index to i64
    %fi = arith.sitofp %i_i64 : i64 to f32
    %fj = arith.sitofp %j_i64 : i64 to f32
    // arg = i*12.9898 + j*78.233 + seed
    %ti = arith.mulf %fi, %hash_ci : f32
    %tj = arith.mulf %fj, %hash_cj : f32
    %tij = arith.addf %ti, %tj : f32
    %arg = arith.addf %tij, %seed2 : f32
    // h = fract(sin(arg) * 43758.5453) - 0.5 ; w = h * scale
    %sn = math.sin %arg : f32
    %v = arith.mulf %sn, %hash_mul : f32
    %fl = math.floor %v : f32
    %fract = arith.subf %v, %fl : f32
    %hv = arith.subf %fract, %half : f32
    %w = arith.mulf %hv, %scale2 : f32
    linalg.yield %w : f32
  } -> tensor<32x10xf32>
  return %W2_init : tensor<32x10xf32>
}

// digits_mlp_predict/train_weights.mlir
//
// Trains a 3-layer MLP (64 -> 256 ReLU -> 128 ReLU -> 10) on the 8x8
// "digits" data set (softmax cross-entropy, plain minibatch SGD, hand-written
// backward pass) and returns the trained weights, so that a C++ tool can bake
// them into a prediction module.
//
//   @main(train_x : 1077x64  raw pixel values 0..16,
//         train_y : 1077x10  one-hot labels,
//         eval_x  :  360x64  raw pixel values 0..16)
//     -> (eval logits 360x10, W1 64x256, b1 256, W2 256x128, b2 128,
//         W3 128x10, b3 10)
//
// INPUT NORMALISATION (must be reproduced by any prediction module that uses
// the returned weights):
//   x_norm = x_raw * 0.0625        (= 1/16, maps pixel values 0..16 to 0..1)
//   input_scale = 0.0625
// It is applied inside this IR to every training batch and to eval_x; the
// weights expect normalised inputs:
//   logits = relu(relu(x_norm @ W1 + b1) @ W2 + b2) @ W3 + b3
//
// Hyper-parameters (all arith.constant below):
//   learning rate 0.1 (one constant, used for every update), batch 32,
//   30 epochs x 33 batches; batch b uses rows b*32 .. b*32+31 in order (no
//   shuffling; the last 1077 - 33*32 = 21 rows are never visited).
//
// Initialisation (deterministic, computed inside the IR):
//   h(i,j,s) = fract(sin(i*12.9898 + j*78.233 + s) * 43758.5453) - 0.5
//   fract(v) = v - floor(v)
//   W1[i,j] = h(i,j,1.0) * 2*sqrt(1/64)    (= 0.25)
//   W2[i,j] = h(i,j,2.0) * 2*sqrt(1/256)   (= 0.125)
//   W3[i,j] = h(i,j,3.0) * 2*sqrt(1/128)   (= 0.1767767)
//   b1 = b2 = b3 = 0
//
// Only linalg-on-tensors + tensor/arith/math/scf/func; no memref.

// Elementwise / broadcast / reduction maps for 2-D iteration spaces.
#id     = affine_map<(d0, d1) -> (d0, d1)>
#bcast  = affine_map<(d0, d1) -> (d1)>      // row vector broadcast over rows
#rowvec = affine_map<(d0, d1) -> (d0)>      // one value per row
#id1    = affine_map<(d0) -> (d0)>

func.func @main(%train_x: tensor<1077x64xf32>, %train_y: tensor<1077x10xf32>,
                %eval_x: tensor<360x64xf32>)
    -> (tensor<360x10xf32>, tensor<64x256xf32>, tensor<256xf32>,
        tensor<256x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>) {
  // ----- hyper-parameters ---------------------------------------------------
  %lr          = arith.constant 0.1 : f32         // SGD learning rate
  %input_scale = arith.constant 0.0625 : f32      // x_norm = x_raw * 0.0625
  %batch_f     = arith.constant 32.0 : f32        // batch size as f32 (loss mean)
  %c0          = arith.constant 0 : index
  %c1          = arith.constant 1 : index
  %batch       = arith.constant 32 : index        // batch size
  %num_epochs  = arith.constant 30 : index
  %num_batches = arith.constant 33 : index        // floor(1077 / 32)

  %zero    = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32      // -inf, identity of max

  // ----- parameter initialisation ------------------------------------------
  %seed1  = arith.constant 1.0 : f32
  %seed2  = arith.constant 2.0 : f32
  %seed3  = arith.constant 3.0 : f32
  %scale1 = arith.constant 0.25 : f32             // 2*sqrt(1/64)
  %scale2 = arith.constant 0.125 : f32            // 2*sqrt(1/256)
  %scale3 = arith.constant 0.176776695297 : f32   // 2*sqrt(1/128)
  %hash_ci  = arith.constant 12.9898 : f32
  %hash_cj  = arith.constant 78.233 : f32
  %hash_mul = arith.constant 43758.5453 : f32
  %half     = arith.constant 0.5 : f32

  // W1[i,j] = h(i,j,1.0) * 2*sqrt(1/64)
  %W1_empty = tensor.empty() : tensor<64x256xf32>
  %W1_init = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%W1_empty : tensor<64x256xf32>) {
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
  } -> tensor<64x256xf32>

  // W2[i,j] = h(i,j,2.0) * 2*sqrt(1/256)
  %W2_empty = tensor.empty() : tensor<256x128xf32>
  %W2_init = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%W2_empty : tensor<256x128xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i_i64 = arith.index_cast %i : index to i64
    %j_i64 = arith.index_cast %j : index to i64
    %fi = arith.sitofp %i_i64 : i64 to f32
    %fj = arith.sitofp %j_i64 : i64 to f32
    %ti = arith.mulf %fi, %hash_ci : f32
    %tj = arith.mulf %fj, %hash_cj : f32
    %tij = arith.addf %ti, %tj : f32
    %arg = arith.addf %tij, %seed2 : f32
    %sn = math.sin %arg : f32
    %v = arith.mulf %sn, %hash_mul : f32
    %fl = math.floor %v : f32
    %fract = arith.subf %v, %fl : f32
    %hv = arith.subf %fract, %half : f32
    %w = arith.mulf %hv, %scale2 : f32
    linalg.yield %w : f32
  } -> tensor<256x128xf32>

  // W3[i,j] = h(i,j,3.0) * 2*sqrt(1/128)
  %W3_empty = tensor.empty() : tensor<128x10xf32>
  %W3_init = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%W3_empty : tensor<128x10xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i_i64 = arith.index_cast %i : index to i64
    %j_i64 = arith.index_cast %j : index to i64
    %fi = arith.sitofp %i_i64 : i64 to f32
    %fj = arith.sitofp %j_i64 : i64 to f32
    %ti = arith.mulf %fi, %hash_ci : f32
    %tj = arith.mulf %fj, %hash_cj : f32
    %tij = arith.addf %ti, %tj : f32
    %arg = arith.addf %tij, %seed3 : f32
    %sn = math.sin %arg : f32
    %v = arith.mulf %sn, %hash_mul : f32
    %fl = math.floor %v : f32
    %fract = arith.subf %v, %fl : f32
    %hv = arith.subf %fract, %half : f32
    %w = arith.mulf %hv, %scale3 : f32
    linalg.yield %w : f32
  } -> tensor<128x10xf32>

  // b1 = 0, b2 = 0, b3 = 0
  %b1_empty = tensor.empty() : tensor<256xf32>
  %b1_init = linalg.fill ins(%zero : f32) outs(%b1_empty : tensor<256xf32>) -> tensor<256xf32>
  %b2_empty = tensor.empty() : tensor<128xf32>
  %b2_init = linalg.fill ins(%zero : f32) outs(%b2_empty : tensor<128xf32>) -> tensor<128xf32>
  %b3_empty = tensor.empty() : tensor<10xf32>
  %b3_init = linalg.fill ins(%zero : f32) outs(%b3_empty : tensor<10xf32>) -> tensor<10xf32>

  // ----- training loop: epochs x batches, parameters carried as iter_args ---
  %W1_fin, %b1_fin, %W2_fin, %b2_fin, %W3_fin, %b3_fin =
    scf.for %epoch = %c0 to %num_epochs step %c1
        iter_args(%W1_e = %W1_init, %b1_e = %b1_init, %W2_e = %W2_init,
                  %b2_e = %b2_init, %W3_e = %W3_init, %b3_e = %b3_init)
        -> (tensor<64x256xf32>, tensor<256xf32>, tensor<256x128xf32>,
            tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>) {
    %W1_n, %b1_n, %W2_n, %b2_n, %W3_n, %b3_n =
      scf.for %b = %c0 to %num_batches step %c1
          iter_args(%W1 = %W1_e, %b1 = %b1_e, %W2 = %W2_e,
                    %b2 = %b2_e, %W3 = %W3_e, %b3 = %b3_e)
          -> (tensor<64x256xf32>, tensor<256xf32>, tensor<256x128xf32>,
              tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>) {

      // ----- minibatch: rows b*32 .. b*32+31, normalised by 0.0625 ----------
      %row0 = arith.muli %b, %batch : index
      %xb_raw = tensor.extract_slice %train_x[%row0, 0] [32, 64] [1, 1]
          : tensor<1077x64xf32> to tensor<32x64xf32>
      %yb = tensor.extract_slice %train_y[%row0, 0] [32, 10] [1, 1]
          : tensor<1077x10xf32> to tensor<32x10xf32>
      %e32x64 = tensor.empty() : tensor<32x64xf32>
      %xb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%xb_raw : tensor<32x64xf32>) outs(%e32x64 : tensor<32x64xf32>) {
      ^bb0(%a: f32, %out: f32):
        %s = arith.mulf %a, %input_scale : f32
        linalg.yield %s : f32
      } -> tensor<32x64xf32>

      // ===== forward pass ===================================================
      // h1pre = xb @ W1 + b1 ; h1 = relu(h1pre)
      %e32x256 = tensor.empty() : tensor<32x256xf32>
      %z32x256 = linalg.fill ins(%zero : f32) outs(%e32x256 : tensor<32x256xf32>) -> tensor<32x256xf32>
      %xW1 = linalg.matmul ins(%xb, %W1 : tensor<32x64xf32>, tensor<64x256xf32>)
                           outs(%z32x256 : tensor<32x256xf32>) -> tensor<32x256xf32>
      %h1pre = linalg.generic {indexing_maps = [#id, #bcast, #id],
                               iterator_types = ["parallel", "parallel"]}
          ins(%xW1, %b1 : tensor<32x256xf32>, tensor<256xf32>)
          outs(%e32x256 : tensor<32x256xf32>) {
      ^bb0(%a: f32, %bias: f32, %out: f32):
        %s = arith.addf %a, %bias : f32
        linalg.yield %s : f32
      } -> tensor<32x256xf32>
      %h1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%h1pre : tensor<32x256xf32>) outs(%e32x256 : tensor<32x256xf32>) {
      ^bb0(%a: f32, %out: f32):
        %r = arith.maximumf %a, %zero : f32
        linalg.yield %r : f32
      } -> tensor<32x256xf32>

      // h2pre = h1 @ W2 + b2 ; h2 = relu(h2pre)
      %e32x128 = tensor.empty() : tensor<32x128xf32>
      %z32x128 = linalg.fill ins(%zero : f32) outs(%e32x128 : tensor<32x128xf32>) -> tensor<32x128xf32>
      %h1W2 = linalg.matmul ins(%h1, %W2 : tensor<32x256xf32>, tensor<256x128xf32>)
                            outs(%z32x128 : tensor<32x128xf32>) -> tensor<32x128xf32>
      %h2pre = linalg.generic {indexing_maps = [#id, #bcast, #id],
                               iterator_types = ["parallel", "parallel"]}
          ins(%h1W2, %b2 : tensor<32x128xf32>, tensor<128xf32>)
          outs(%e32x128 : tensor<32x128xf32>) {
      ^bb0(%a: f32, %bias: f32, %out: f32):
        %s = arith.addf %a, %bias : f32
        linalg.yield %s : f32
      } -> tensor<32x128xf32>
      %h2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%h2pre : tensor<32x128xf32>) outs(%e32x128 : tensor<32x128xf32>) {
      ^bb0(%a: f32, %out: f32):
        %r = arith.maximumf %a, %zero : f32
        linalg.yield %r : f32
      } -> tensor<32x128xf32>

      // logits = h2 @ W3 + b3
      %e32x10 = tensor.empty() : tensor<32x10xf32>
      %z32x10 = linalg.fill ins(%zero : f32) outs(%e32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
      %h2W3 = linalg.matmul ins(%h2, %W3 : tensor<32x128xf32>, tensor<128x10xf32>)
                            outs(%z32x10 : tensor<32x10xf32>) -> tensor<32x10xf32>
      %logits = linalg.generic {indexing_maps = [#id, #bcast, #id],
                                iterator_types = ["parallel", "parallel"]}
          ins(%h2W3, %b3 : tensor<32x10xf32>, tensor<10xf32>)
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
      // --- layer 3 ---
      // dW3 = h2^T @ dl
      %e128x32 = tensor.empty() : tensor<128x32xf32>
      %h2T = linalg.transpose ins(%h2 : tensor<32x128xf32>)
                              outs(%e128x32 : tensor<128x32xf32>) permutation = [1, 0]
      %e128x10 = tensor.empty() : tensor<128x10xf32>
      %z128x10 = linalg.fill ins(%zero : f32) outs(%e128x10 : tensor<128x10xf32>) -> tensor<128x10xf32>
      %dW3 = linalg.matmul ins(%h2T, %dl : tensor<128x32xf32>, tensor<32x10xf32>)
                           outs(%z128x10 : tensor<128x10xf32>) -> tensor<128x10xf32>
      // db3 = sum over batch rows of dl
      %e10 = tensor.empty() : tensor<10xf32>
      %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<10xf32>) -> tensor<10xf32>
      %db3 = linalg.generic {indexing_maps = [#id, #bcast],
                             iterator_types = ["reduction", "parallel"]}
          ins(%dl : tensor<32x10xf32>) outs(%z10 : tensor<10xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<10xf32>
      // dh2 = (dl @ W3^T) * (h2pre > 0)
      %e10x128 = tensor.empty() : tensor<10x128xf32>
      %W3T = linalg.transpose ins(%W3 : tensor<128x10xf32>)
                              outs(%e10x128 : tensor<10x128xf32>) permutation = [1, 0]
      %dh2_lin = linalg.matmul ins(%dl, %W3T : tensor<32x10xf32>, tensor<10x128xf32>)
                               outs(%z32x128 : tensor<32x128xf32>) -> tensor<32x128xf32>
      %dh2 = linalg.generic {indexing_maps = [#id, #id, #id],
                             iterator_types = ["parallel", "parallel"]}
          ins(%dh2_lin, %h2pre : tensor<32x128xf32>, tensor<32x128xf32>)
          outs(%e32x128 : tensor<32x128xf32>) {
      ^bb0(%g: f32, %pre: f32, %out: f32):
        %active = arith.cmpf ogt, %pre, %zero : f32
        %r = arith.select %active, %g, %zero : f32
        linalg.yield %r : f32
      } -> tensor<32x128xf32>

      // --- layer 2 ---
      // dW2 = h1^T @ dh2
      %e256x32 = tensor.empty() : tensor<256x32xf32>
      %h1T = linalg.transpose ins(%h1 : tensor<32x256xf32>)
                              outs(%e256x32 : tensor<256x32xf32>) permutation = [1, 0]
      %e256x128 = tensor.empty() : tensor<256x128xf32>
      %z256x128 = linalg.fill ins(%zero : f32) outs(%e256x128 : tensor<256x128xf32>) -> tensor<256x128xf32>
      %dW2 = linalg.matmul ins(%h1T, %dh2 : tensor<256x32xf32>, tensor<32x128xf32>)
                           outs(%z256x128 : tensor<256x128xf32>) -> tensor<256x128xf32>
      // db2 = sum over batch rows of dh2
      %e128 = tensor.empty() : tensor<128xf32>
      %z128 = linalg.fill ins(%zero : f32) outs(%e128 : tensor<128xf32>) -> tensor<128xf32>
      %db2 = linalg.generic {indexing_maps = [#id, #bcast],
                             iterator_types = ["reduction", "parallel"]}
          ins(%dh2 : tensor<32x128xf32>) outs(%z128 : tensor<128xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<128xf32>
      // dh1 = (dh2 @ W2^T) * (h1pre > 0)
      %e128x256 = tensor.empty() : tensor<128x256xf32>
      %W2T = linalg.transpose ins(%W2 : tensor<256x128xf32>)
                              outs(%e128x256 : tensor<128x256xf32>) permutation = [1, 0]
      %dh1_lin = linalg.matmul ins(%dh2, %W2T : tensor<32x128xf32>, tensor<128x256xf32>)
                               outs(%z32x256 : tensor<32x256xf32>) -> tensor<32x256xf32>
      %dh1 = linalg.generic {indexing_maps = [#id, #id, #id],
                             iterator_types = ["parallel", "parallel"]}
          ins(%dh1_lin, %h1pre : tensor<32x256xf32>, tensor<32x256xf32>)
          outs(%e32x256 : tensor<32x256xf32>) {
      ^bb0(%g: f32, %pre: f32, %out: f32):
        %active = arith.cmpf ogt, %pre, %zero : f32
        %r = arith.select %active, %g, %zero : f32
        linalg.yield %r : f32
      } -> tensor<32x256xf32>

      // --- layer 1 ---
      // dW1 = xb^T @ dh1   (xb is the normalised batch)
      %e64x32 = tensor.empty() : tensor<64x32xf32>
      %xbT = linalg.transpose ins(%xb : tensor<32x64xf32>)
                              outs(%e64x32 : tensor<64x32xf32>) permutation = [1, 0]
      %e64x256 = tensor.empty() : tensor<64x256xf32>
      %z64x256 = linalg.fill ins(%zero : f32) outs(%e64x256 : tensor<64x256xf32>) -> tensor<64x256xf32>
      %dW1 = linalg.matmul ins(%xbT, %dh1 : tensor<64x32xf32>, tensor<32x256xf32>)
                           outs(%z64x256 : tensor<64x256xf32>) -> tensor<64x256xf32>
      // db1 = sum over batch rows of dh1
      %e256 = tensor.empty() : tensor<256xf32>
      %z256 = linalg.fill ins(%zero : f32) outs(%e256 : tensor<256xf32>) -> tensor<256xf32>
      %db1 = linalg.generic {indexing_maps = [#id, #bcast],
                             iterator_types = ["reduction", "parallel"]}
          ins(%dh1 : tensor<32x256xf32>) outs(%z256 : tensor<256xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<256xf32>

      // ===== SGD update: param -= lr * grad =================================
      %W1_new = linalg.generic {indexing_maps = [#id, #id, #id],
                                iterator_types = ["parallel", "parallel"]}
          ins(%W1, %dW1 : tensor<64x256xf32>, tensor<64x256xf32>)
          outs(%e64x256 : tensor<64x256xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<64x256xf32>
      %b1_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                                iterator_types = ["parallel"]}
          ins(%b1, %db1 : tensor<256xf32>, tensor<256xf32>)
          outs(%e256 : tensor<256xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<256xf32>
      %W2_new = linalg.generic {indexing_maps = [#id, #id, #id],
                                iterator_types = ["parallel", "parallel"]}
          ins(%W2, %dW2 : tensor<256x128xf32>, tensor<256x128xf32>)
          outs(%e256x128 : tensor<256x128xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<256x128xf32>
      %b2_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                                iterator_types = ["parallel"]}
          ins(%b2, %db2 : tensor<128xf32>, tensor<128xf32>)
          outs(%e128 : tensor<128xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<128xf32>
      %W3_new = linalg.generic {indexing_maps = [#id, #id, #id],
                                iterator_types = ["parallel", "parallel"]}
          ins(%W3, %dW3 : tensor<128x10xf32>, tensor<128x10xf32>)
          outs(%e128x10 : tensor<128x10xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<128x10xf32>
      %b3_new = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                                iterator_types = ["parallel"]}
          ins(%b3, %db3 : tensor<10xf32>, tensor<10xf32>)
          outs(%e10 : tensor<10xf32>) {
      ^bb0(%w: f32, %g: f32, %out: f32):
        %step = arith.mulf %lr, %g : f32
        %nw = arith.subf %w, %step : f32
        linalg.yield %nw : f32
      } -> tensor<10xf32>

      scf.yield %W1_new, %b1_new, %W2_new, %b2_new, %W3_new, %b3_new
          : tensor<64x256xf32>, tensor<256xf32>, tensor<256x128xf32>,
            tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>
    }
    scf.yield %W1_n, %b1_n, %W2_n, %b2_n, %W3_n, %b3_n
        : tensor<64x256xf32>, tensor<256xf32>, tensor<256x128xf32>,
          tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>
  }

  // ----- evaluation: x_norm = eval_x * 0.0625 ------------------------------
  //   logits = relu(relu(x_norm @ W1 + b1) @ W2 + b2) @ W3 + b3
  %ee360x64 = tensor.empty() : tensor<360x64xf32>
  %eval_xn = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%eval_x : tensor<360x64xf32>) outs(%ee360x64 : tensor<360x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.mulf %a, %input_scale : f32
    linalg.yield %s : f32
  } -> tensor<360x64xf32>

  // eval_h1 = relu(x_norm @ W1 + b1)
  %ee360x256 = tensor.empty() : tensor<360x256xf32>
  %ez360x256 = linalg.fill ins(%zero : f32) outs(%ee360x256 : tensor<360x256xf32>) -> tensor<360x256xf32>
  %eval_xW1 = linalg.matmul ins(%eval_xn, %W1_fin : tensor<360x64xf32>, tensor<64x256xf32>)
                            outs(%ez360x256 : tensor<360x256xf32>) -> tensor<360x256xf32>
  %eval_h1 = linalg.generic {indexing_maps = [#id, #bcast, #id],
                             iterator_types = ["parallel", "parallel"]}
      ins(%eval_xW1, %b1_fin : tensor<360x256xf32>, tensor<256xf32>)
      outs(%ee360x256 : tensor<360x256xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<360x256xf32>

  // eval_h2 = relu(eval_h1 @ W2 + b2)
  %ee360x128 = tensor.empty() : tensor<360x128xf32>
  %ez360x128 = linalg.fill ins(%zero : f32) outs(%ee360x128 : tensor<360x128xf32>) -> tensor<360x128xf32>
  %eval_h1W2 = linalg.matmul ins(%eval_h1, %W2_fin : tensor<360x256xf32>, tensor<256x128xf32>)
                             outs(%ez360x128 : tensor<360x128xf32>) -> tensor<360x128xf32>
  %eval_h2 = linalg.generic {indexing_maps = [#id, #bcast, #id],
                             iterator_types = ["parallel", "parallel"]}
      ins(%eval_h1W2, %b2_fin : tensor<360x128xf32>, tensor<128xf32>)
      outs(%ee360x128 : tensor<360x128xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<360x128xf32>

  // eval_logits = eval_h2 @ W3 + b3
  %ee360x10 = tensor.empty() : tensor<360x10xf32>
  %ez360x10 = linalg.fill ins(%zero : f32) outs(%ee360x10 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %eval_h2W3 = linalg.matmul ins(%eval_h2, %W3_fin : tensor<360x128xf32>, tensor<128x10xf32>)
                             outs(%ez360x10 : tensor<360x10xf32>) -> tensor<360x10xf32>
  %eval_logits = linalg.generic {indexing_maps = [#id, #bcast, #id],
                                 iterator_types = ["parallel", "parallel"]}
      ins(%eval_h2W3, %b3_fin : tensor<360x10xf32>, tensor<10xf32>)
      outs(%ee360x10 : tensor<360x10xf32>) {
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<360x10xf32>

  // ----- results: eval logits, then the trained parameters -----------------
  // The parameters are copied into fresh tensors before being returned. The
  // loop-carried buffers have only a dynamically known ownership after the
  // scf.for, so returning them directly makes buffer-deallocation-pipeline
  // insert bufferization.clone ops, which convert-to-llvm does not lower.
  // (An identity linalg.generic would be folded away by canonicalize, so
  // linalg.copy is used.)
  %W1_oe = tensor.empty() : tensor<64x256xf32>
  %W1_out = linalg.copy ins(%W1_fin : tensor<64x256xf32>) outs(%W1_oe : tensor<64x256xf32>) -> tensor<64x256xf32>
  %b1_oe = tensor.empty() : tensor<256xf32>
  %b1_out = linalg.copy ins(%b1_fin : tensor<256xf32>) outs(%b1_oe : tensor<256xf32>) -> tensor<256xf32>
  %W2_oe = tensor.empty() : tensor<256x128xf32>
  %W2_out = linalg.copy ins(%W2_fin : tensor<256x128xf32>) outs(%W2_oe : tensor<256x128xf32>) -> tensor<256x128xf32>
  %b2_oe = tensor.empty() : tensor<128xf32>
  %b2_out = linalg.copy ins(%b2_fin : tensor<128xf32>) outs(%b2_oe : tensor<128xf32>) -> tensor<128xf32>
  %W3_oe = tensor.empty() : tensor<128x10xf32>
  %W3_out = linalg.copy ins(%W3_fin : tensor<128x10xf32>) outs(%W3_oe : tensor<128x10xf32>) -> tensor<128x10xf32>
  %b3_oe = tensor.empty() : tensor<10xf32>
  %b3_out = linalg.copy ins(%b3_fin : tensor<10xf32>) outs(%b3_oe : tensor<10xf32>) -> tensor<10xf32>
  return %eval_logits, %W1_out, %b1_out, %W2_out, %b2_out, %W3_out, %b3_out
      : tensor<360x10xf32>, tensor<64x256xf32>, tensor<256xf32>,
        tensor<256x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>
}

//===- scaled_mlp.cc - The scaling benchmark's generated model ------------===//

#include "gevo/bench/scaled_mlp.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace gevo {
namespace {

/// One dense ReLU (or, for the last, linear) layer: %out = act(%in @ W + b)
/// with W[i,j] = (fract(sin(i*12.9898 + j*78.233 + seed) * 43758.5453) -
/// 0.5) * 2 * sqrt(1/in).
std::string layer(int index, const std::string &in, int rows, int inWidth,
                  int outWidth, bool relu) {
  std::string w = absl::StrCat("%W", index), t = absl::StrCat("%t", index);
  std::string wType = absl::StrFormat("tensor<%dx%dxf32>", inWidth, outWidth);
  std::string oType = absl::StrFormat("tensor<%dx%dxf32>", rows, outWidth);
  return absl::StrFormat(
      R"(  %%scale%1$d = arith.constant %2$.9g : f32
  %%seed%1$d = arith.constant %1$d.0 : f32
  %%We%1$d = tensor.empty() : %3$s
  %6$s = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%%We%1$d : %3$s) {
  ^bb0(%%o: f32):
    %%i = linalg.index 0 : index
    %%j = linalg.index 1 : index
    %%ii = arith.index_cast %%i : index to i32
    %%jj = arith.index_cast %%j : index to i32
    %%fi = arith.sitofp %%ii : i32 to f32
    %%fj = arith.sitofp %%jj : i32 to f32
    %%a = arith.mulf %%fi, %%ci : f32
    %%b = arith.mulf %%fj, %%cj : f32
    %%ab = arith.addf %%a, %%b : f32
    %%s = arith.addf %%ab, %%seed%1$d : f32
    %%sn = math.sin %%s : f32
    %%m = arith.mulf %%sn, %%cm : f32
    %%fl = math.floor %%m : f32
    %%fr = arith.subf %%m, %%fl : f32
    %%c = arith.subf %%fr, %%half : f32
    %%v = arith.mulf %%c, %%scale%1$d : f32
    linalg.yield %%v : f32
  } -> %3$s
  %%z%1$d = tensor.empty() : %4$s
  %%zf%1$d = linalg.fill ins(%%zero : f32) outs(%%z%1$d : %4$s) -> %4$s
  %%mm%1$d = linalg.matmul ins(%5$s, %6$s : tensor<%7$dx%8$dxf32>, %3$s)
      outs(%%zf%1$d : %4$s) -> %4$s
  %9$s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%%mm%1$d : %4$s) outs(%%z%1$d : %4$s) {
  ^bb0(%%p: f32, %%o: f32):
    %%r = %10$s
    linalg.yield %%r : f32
  } -> %4$s
)",
      index, 2.0 / std::sqrt(double(inWidth)), wType, oType, in, w, rows,
      inWidth, t,
      relu ? "arith.maximumf %p, %zero : f32" : "arith.addf %p, %zero : f32");
}

} // namespace

std::string scaledModel(int factor, int rows) {
  int widthsOf[] = {64, 256 * factor, 128 * factor, 10};
  std::string body;
  std::string in = "%x";
  for (int l = 0; l < 3; ++l) {
    body += layer(l + 1, in, rows, widthsOf[l], widthsOf[l + 1], l < 2);
    in = absl::StrCat("%t", l + 1);
  }
  return absl::StrFormat(
      R"(// 64 -> %d -> %d -> 10 MLP, weights drawn in the module (scaling bench).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%%x: tensor<%dx64xf32>) -> tensor<%dx10xf32> {
  %%zero = arith.constant 0.0 : f32
  %%half = arith.constant 0.5 : f32
  %%ci = arith.constant 12.9898 : f32
  %%cj = arith.constant 78.233 : f32
  %%cm = arith.constant 43758.5453 : f32
%s  return %%t3 : tensor<%dx10xf32>
}
)",
      widthsOf[1], widthsOf[2], rows, rows, body, rows);
}

} // namespace gevo

//===- shrink_constants.cc - Slicing and weighing a shrink's constants ----===//

#include "gevo/ir/shrink_constants.h"

namespace gevo {

mlir::DenseElementsAttr gather(mlir::DenseElementsAttr attr,
                               mlir::RankedTensorType to, const DimSet &dims,
                               const Selection &keep) {
  if (attr.isSplat())
    return mlir::DenseElementsAttr::get(to,
                                        attr.getSplatValue<mlir::Attribute>());
  llvm::ArrayRef<int64_t> from = attr.getType().getShape();
  int64_t rank = to.getRank();
  std::vector<int64_t> positions;
  positions.reserve(to.getNumElements());
  llvm::SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < to.getNumElements(); ++n) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat = flat * from[d] + (dims.contains(d) ? keep.at(index[d]) : index[d]);
    positions.push_back(flat);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == to.getDimSize(d); --d)
      index[d] = 0;
  }
  if (llvm::isa<mlir::FloatType>(attr.getElementType())) {
    auto all = attr.getValues<llvm::APFloat>();
    llvm::SmallVector<llvm::APFloat> kept;
    for (int64_t p : positions)
      kept.push_back(all[p]);
    return mlir::DenseElementsAttr::get(to, kept);
  }
  auto all = attr.getValues<llvm::APInt>();
  llvm::SmallVector<llvm::APInt> kept;
  for (int64_t p : positions)
    kept.push_back(all[p]);
  return mlir::DenseElementsAttr::get(to, kept);
}

void addWeights(mlir::DenseElementsAttr attr, const DimSet &dims,
                std::vector<double> &weight) {
  if (attr.isSplat() || !llvm::isa<mlir::FloatType>(attr.getElementType()))
    return;
  llvm::ArrayRef<int64_t> shape = attr.getType().getShape();
  std::vector<double> sums(weight.size(), 0.0);
  double total = 0;
  int64_t n = 0;
  for (const llvm::APFloat &value : attr.getValues<llvm::APFloat>()) {
    double v = value.convertToDouble();
    total += v * v;
    int64_t rest = n++;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (dims.contains(d))
        sums[rest % shape[d]] += v * v;
      rest /= shape[d];
    }
  }
  if (total <= 0)
    return;
  for (size_t i = 0; i < weight.size(); ++i)
    weight[i] += sums[i] / total;
}

} // namespace gevo

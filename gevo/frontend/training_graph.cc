//===- training_graph.cc - Read a forward module into training nodes
//-------===//
//
// Parses the forward module with MLIR and walks its public function: each op
// becomes a node with a gradient rule, or the reading stops with a message
// naming the op that has none.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_graph.h"
#include "gevo/frontend/training_graph_ops.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

namespace gevo::training {
namespace {

class Reader {
public:
  absl::StatusOr<Graph> read(mlir::func::FuncOp func);

private:
  absl::Status visit(mlir::Operation *op);
  absl::Status visitGeneric(mlir::linalg::GenericOp op);
  absl::Status visitReduction(mlir::linalg::GenericOp op);
  /// An elementwise op no specific rule matched: its body, op by op; when
  /// that fails too, the specific reader's message if it had one.
  absl::Status general(mlir::linalg::GenericOp op, Node node,
                       const absl::Status &specific) {
    absl::Status status = readBody(op, node);
    if (!status.ok())
      return specific.ok() ? status : specific;
    add(std::move(node), op->getResult(0));
    return absl::OkStatus();
  }
  absl::StatusOr<NodeKind> unaryKind(mlir::linalg::GenericOp op, Node &node);
  absl::StatusOr<int> operand(mlir::Value value, mlir::Operation *user);
  int add(Node node, mlir::Value result);
  absl::Status unsupported(mlir::Operation *op, const std::string &why = "") {
    return unsupportedOp(op, why);
  }
  void chooseParams();

  Graph graph;
  std::map<const void *, int> nodeOf;
};

int Reader::add(Node node, mlir::Value result) {
  auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
  node.shape.assign(type.getShape().begin(), type.getShape().end());
  for (int o : node.operands)
    node.batched = node.batched || graph.nodes[o].batched;
  graph.nodes.push_back(std::move(node));
  int index = static_cast<int>(graph.nodes.size()) - 1;
  nodeOf[result.getAsOpaquePointer()] = index;
  return index;
}

absl::StatusOr<int> Reader::operand(mlir::Value value, mlir::Operation *user) {
  auto it = nodeOf.find(value.getAsOpaquePointer());
  if (it == nodeOf.end())
    return unsupported(user, "an operand the generator cannot follow");
  return it->second;
}

absl::StatusOr<NodeKind> Reader::unaryKind(mlir::linalg::GenericOp op,
                                           Node &node) {
  std::vector<std::string> names;
  std::map<std::string, double> constantOf; // a constant operand, by op
  bool constantSecond = false;
  for (mlir::Operation &inner : op.getBody()->without_terminator()) {
    if (llvm::isa<mlir::arith::ConstantOp>(inner))
      continue;
    names.push_back(inner.getName().getStringRef().str());
    for (mlir::Value v : inner.getOperands())
      if (std::optional<double> c = scalarConstant(v)) {
        constantOf[names.back()] = *c;
        constantSecond = v == inner.getOperand(inner.getNumOperands() - 1);
      }
  }
  std::sort(names.begin(), names.end());
  std::string body = absl::StrJoin(names, " ");
  if (body == "arith.maximumf" && constantOf.count(body) &&
      constantOf[body] == 0)
    return NodeKind::Relu;
  if (body == "arith.cmpf arith.mulf arith.select" &&
      constantOf.count("arith.mulf")) {
    node.alpha = constantOf["arith.mulf"];
    return NodeKind::LeakyRelu;
  }
  if (body == "arith.addf arith.divf arith.negf math.exp")
    return NodeKind::Sigmoid;
  if (body == "math.tanh")
    return NodeKind::Tanh;
  if ((body == "arith.mulf" || (body == "arith.divf" && constantSecond)) &&
      constantOf.count(body)) {
    node.alpha = constantOf[body];
    node.divide = body == "arith.divf";
    return NodeKind::Scale;
  }
  return unsupported(op, absl::StrCat("body: ", body));
}

absl::Status Reader::visitReduction(mlir::linalg::GenericOp op) {
  auto body = op.getBody()->without_terminator();
  mlir::Block *block = op.getBody();
  mlir::Operation *sum =
      std::distance(body.begin(), body.end()) == 1 ? &*body.begin() : nullptr;
  auto fill = op.getDpsInits()[0].getDefiningOp<mlir::linalg::FillOp>();
  std::optional<double> start =
      fill ? scalarConstant(fill.getDpsInputs()[0]) : std::nullopt;
  if (op.getNumDpsInputs() != 1 || !sum ||
      !llvm::isa<mlir::arith::AddFOp>(sum) || !start || *start != 0 ||
      !op.getIndexingMapsArray()[0].isIdentity() ||
      !op.getIndexingMapsArray()[1].isProjectedPermutation())
    return unsupported(op, "a reduction other than a sum into zeros");
  for (mlir::Value v : sum->getOperands())
    if (v != block->getArgument(0) && v != block->getArgument(1))
      return unsupported(op, "a reduction other than a sum into zeros");
  Node node;
  node.kind = NodeKind::ReduceSum;
  node.where = describe(op);
  node.name = "reduced";
  absl::StatusOr<int> in = operand(op.getDpsInputs()[0], op);
  if (!in.ok())
    return in.status();
  node.operands.push_back(*in);
  node.maps.push_back(
      absl::StrCat("affine_map<", printed(op.getIndexingMapsArray()[1]), ">"));
  mlir::AffineMap out = op.getIndexingMapsArray()[1];
  if (graph.nodes[*in].batched &&
      (out.getNumResults() == 0 || out.getDimPosition(0) != 0))
    return unsupported(op, "sums over the batch");
  add(std::move(node), op->getResult(0));
  return absl::OkStatus();
}

absl::Status Reader::visitGeneric(mlir::linalg::GenericOp op) {
  if (op.getNumDpsInits() == 1 && op.getNumReductionLoops() != 0)
    return visitReduction(op);
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getIndexingMapsArray().back().isIdentity())
    return unsupported(op, "not elementwise");
  Node node;
  node.where = describe(op);
  for (mlir::Value in : op.getDpsInputs()) {
    absl::StatusOr<int> o = operand(in, op);
    if (!o.ok())
      return o.status();
    node.operands.push_back(*o);
  }
  for (mlir::AffineMap map : op.getIndexingMapsArray()) {
    node.maps.push_back(absl::StrCat("affine_map<", printed(map), ">"));
    std::vector<int> results;
    for (mlir::AffineExpr expr : map.getResults()) {
      if (auto dim = llvm::dyn_cast<mlir::AffineDimExpr>(expr))
        results.push_back(static_cast<int>(dim.getPosition()));
      else if (auto c = llvm::dyn_cast<mlir::AffineConstantExpr>(expr);
               c && c.getValue() == 0)
        results.push_back(-1);
      else
        return unsupported(op, "an indexing map that is not a broadcast");
    }
    node.mapResults.push_back(results);
  }
  node.maps.pop_back();
  node.mapResults.pop_back();
  if (node.operands.size() == 1 && op.getIndexingMapsArray()[0].isIdentity()) {
    absl::StatusOr<NodeKind> kind = unaryKind(op, node);
    if (!kind.ok())
      return general(op, std::move(node), kind.status());
    node.kind = *kind;
    node.name = *kind == NodeKind::Relu        ? "relu"
                : *kind == NodeKind::LeakyRelu ? "leaky"
                : *kind == NodeKind::Sigmoid   ? "sigmoid"
                : *kind == NodeKind::Tanh      ? "tanh"
                                               : "scaled";
    add(std::move(node), op->getResult(0));
    return absl::OkStatus();
  }
  auto body = op.getBody()->without_terminator();
  mlir::Block *block = op.getBody();
  if (node.operands.size() != 2 || std::distance(body.begin(), body.end()) != 1)
    return general(op, std::move(node), absl::OkStatus());
  mlir::Operation &inner = *body.begin();
  std::string name = inner.getName().getStringRef().str();
  bool inOrder = inner.getNumOperands() == 2 &&
                 inner.getOperand(0) == block->getArgument(0) &&
                 inner.getOperand(1) == block->getArgument(1);
  bool swapped = inner.getNumOperands() == 2 &&
                 inner.getOperand(1) == block->getArgument(0) &&
                 inner.getOperand(0) == block->getArgument(1);
  if (name == "arith.addf" && (inOrder || swapped))
    node.kind = NodeKind::Add;
  else if (name == "arith.mulf" && (inOrder || swapped))
    node.kind = NodeKind::Mul;
  else if (name == "arith.subf" && inOrder)
    node.kind = NodeKind::Sub;
  else if (name == "arith.divf" && inOrder)
    node.kind = NodeKind::Div;
  else
    return general(op, std::move(node), absl::OkStatus());
  node.name = node.kind == NodeKind::Add   ? "sum"
              : node.kind == NodeKind::Sub ? "diff"
              : node.kind == NodeKind::Mul ? "prod"
                                           : "quot";
  add(std::move(node), op->getResult(0));
  return absl::OkStatus();
}

absl::Status Reader::visit(mlir::Operation *op) {
  if (auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op)) {
    if (!llvm::isa<mlir::RankedTensorType>(constant.getType()))
      return absl::OkStatus();
    Node node;
    node.kind = NodeKind::Const;
    node.literal = printed(constant.getValue());
    node.where = describe(op);
    add(std::move(node), constant.getResult());
    return absl::OkStatus();
  }
  if (llvm::isa<mlir::tensor::EmptyOp, mlir::linalg::FillOp>(op))
    return absl::OkStatus();
  Node node;
  node.where = describe(op);
  if (auto matmul = llvm::dyn_cast<mlir::linalg::MatmulOp>(op)) {
    auto fill = matmul.getDpsInits()[0].getDefiningOp<mlir::linalg::FillOp>();
    std::optional<double> zero =
        fill ? scalarConstant(fill.getDpsInputs()[0]) : std::nullopt;
    if (!zero || *zero != 0 || matmul.hasUserDefinedMaps())
      return unsupported(op, "accumulates into a non-zero tensor");
    node.kind = NodeKind::MatMul;
    node.name = "mm";
  } else if (auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(op)) {
    return visitGeneric(generic);
  } else if (auto collapse =
                 llvm::dyn_cast<mlir::tensor::CollapseShapeOp>(op)) {
    node.kind = NodeKind::Collapse;
    node.reassociation = printed(collapse.getReassociation());
    node.name = "flat";
  } else if (auto expand = llvm::dyn_cast<mlir::tensor::ExpandShapeOp>(op)) {
    node.kind = NodeKind::Expand;
    node.reassociation = printed(expand.getReassociation());
    node.name = "shaped";
  } else if (auto transpose = llvm::dyn_cast<mlir::linalg::TransposeOp>(op)) {
    node.kind = NodeKind::Transpose;
    node.permutation.assign(transpose.getPermutation().begin(),
                            transpose.getPermutation().end());
    node.name = "tr";
  } else if (absl::Status window = readWindowOp(op, node); !window.ok()) {
    return window;
  } else if (node.kind == NodeKind::Input) {
    return unsupported(op);
  }
  int inputs =
      node.kind == NodeKind::MatMul || node.kind == NodeKind::Conv ? 2 : 1;
  for (int i = 0; i < inputs; ++i) {
    absl::StatusOr<int> o = operand(op->getOperand(i), op);
    if (!o.ok())
      return o.status();
    node.operands.push_back(*o);
  }
  if ((node.kind == NodeKind::MatMul || node.kind == NodeKind::Conv) &&
      graph.nodes[node.operands[1]].batched)
    return unsupported(op, "its right operand depends on the input");
  if (node.kind == NodeKind::Transpose &&
      graph.nodes[node.operands[0]].batched && node.permutation[0] != 0)
    return unsupported(op, "moves the batch dimension");
  add(std::move(node), op->getResult(0));
  return absl::OkStatus();
}

void Reader::chooseParams() {
  int layer = 0;
  std::vector<int> weightOf(graph.nodes.size(), -1);
  for (Node &node : graph.nodes) {
    bool weight = node.kind == NodeKind::MatMul || node.kind == NodeKind::Conv;
    bool bias = node.kind == NodeKind::Add || node.kind == NodeKind::Sub;
    if (!weight && !bias)
      continue;
    for (size_t i = weight ? 1 : 0; i < node.operands.size(); ++i) {
      Node &c = graph.nodes[node.operands[i]];
      if (c.kind != NodeKind::Const)
        continue;
      c.kind = NodeKind::Param;
      if (weight) {
        ++layer;
        bool filter = node.kind == NodeKind::Conv; // [F, C, KH, KW]
        int64_t field = filter ? c.shape[2] * c.shape[3] : 1;
        c.fanIn = (filter ? c.shape[1] : c.shape[0]) * field;
        c.fanOut = (filter ? c.shape[0] : c.shape[1]) * field;
      }
      c.name = absl::StrCat(weight ? "W" : "b", std::max(layer, 1));
    }
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    Node &node = graph.nodes[n];
    node.needsGrad = node.kind == NodeKind::Param;
    for (int o : node.operands)
      node.needsGrad = node.needsGrad || graph.nodes[o].needsGrad;
    if (node.kind == NodeKind::Param)
      graph.params.push_back(static_cast<int>(n));
    if (node.kind == NodeKind::Const)
      node.name = "k";
  }
}

absl::StatusOr<Graph> Reader::read(mlir::func::FuncOp func) {
  mlir::FunctionType type = func.getFunctionType();
  auto in = type.getNumInputs() == 1
                ? llvm::dyn_cast<mlir::RankedTensorType>(type.getInput(0))
                : nullptr;
  if (!in || type.getNumResults() != 1 || in.getRank() < 1 ||
      !in.hasStaticShape() ||
      !(in.getElementType().isF32() || in.getElementType().isF64()))
    return absl::InvalidArgumentError(absl::StrCat(
        "the forward function @", func.getName().str(),
        " must take one static f32 or f64 tensor [batch, ...] and return one"));
  graph.elem = in.getElementType().isF32() ? "f32" : "f64";
  graph.batch = in.getShape()[0];
  Node input;
  input.batched = true;
  input.name = "x";
  graph.input = add(input, func.getArgument(0));
  for (mlir::Operation &op : func.getBody().front()) {
    if (auto ret = llvm::dyn_cast<mlir::func::ReturnOp>(op)) {
      absl::StatusOr<int> out = operand(ret.getOperand(0), &op);
      if (!out.ok())
        return out.status();
      graph.output = *out;
      break;
    }
    if (absl::Status status = visit(&op); !status.ok())
      return status;
  }
  chooseParams();
  for (const Node &node : graph.nodes)
    if (node.batched && node.shape[0] % graph.batch != 0)
      return absl::InvalidArgumentError(absl::StrCat(
          node.where, ": its first dimension does not scale with the batch"));
  if (graph.params.empty())
    return absl::InvalidArgumentError(
        "the forward module has no weights to train (no constant feeds a "
        "linalg.matmul or a bias add)");
  return graph;
}

} // namespace

absl::StatusOr<Graph> readForward(const std::string &text,
                                  const std::string &name) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      parseModule(*context, text, name);
  if (!module.ok())
    return module.status();
  if (mlir::failed(mlir::verify(**module)))
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": the forward module does not verify"));
  mlir::func::FuncOp entry;
  for (auto func : (*module)->getOps<mlir::func::FuncOp>())
    if (!func.isPrivate() && !func.isExternal() && !entry)
      entry = func;
  if (!entry)
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": no public function with a body"));
  return Reader().read(entry);
}

Dims Graph::shapeAt(int n, int64_t newBatch) const {
  Dims shape = nodes[n].shape;
  if (nodes[n].batched)
    shape[0] = shape[0] / batch * newBatch;
  return shape;
}

} // namespace gevo::training

//===- status_macros.h - Early-return helpers for absl::Status ------------===//
#ifndef GEVO_SUPPORT_STATUS_MACROS_H
#define GEVO_SUPPORT_STATUS_MACROS_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define GEVO_STATUS_CONCAT_INNER(a, b) a##b
#define GEVO_STATUS_CONCAT(a, b) GEVO_STATUS_CONCAT_INNER(a, b)

/// Returns the status of `expr` from the enclosing function if it is an error.
#define GEVO_RETURN_IF_ERROR(expr)                                             \
  do {                                                                         \
    if (::absl::Status gevo_status_ = (expr); !gevo_status_.ok())              \
      return gevo_status_;                                                     \
  } while (false)

/// `GEVO_ASSIGN_OR_RETURN(auto x, f());` declares x from a StatusOr, or returns
/// its error.
#define GEVO_ASSIGN_OR_RETURN(lhs, expr)                                       \
  GEVO_ASSIGN_OR_RETURN_IMPL(GEVO_STATUS_CONCAT(gevo_or_, __LINE__), lhs, expr)
#define GEVO_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                             \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  lhs = std::move(*tmp)

#endif // GEVO_SUPPORT_STATUS_MACROS_H

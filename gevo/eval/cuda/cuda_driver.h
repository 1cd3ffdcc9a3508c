//===- cuda_driver.h - The CUDA driver API, loaded at run time ------------===//
//
// gevo-ml links no CUDA library: the driver (libcuda.so.1) is opened with
// dlopen the first time the GPU target needs it, so the project builds, and
// every CPU test runs, on machines without one. The driver's types are
// declared here as the opaque handles they are; no CUDA header is needed.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_CUDA_DRIVER_H
#define GEVO_EVAL_CUDA_DRIVER_H

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace gevo {

using CuResult = int;
using CuDevice = int;
using CuDevicePtr = unsigned long long;
using CuContext = struct CuContextOpaque *;
using CuModule = struct CuModuleOpaque *;
using CuFunction = struct CuFunctionOpaque *;
using CuStream = struct CuStreamOpaque *;
using CuEvent = struct CuEventOpaque *;

/// The driver entry points the runtime uses, resolved with dlsym.
struct CudaDriverApi {
  CuResult (*init)(unsigned);
  CuResult (*deviceGet)(CuDevice *, int);
  CuResult (*primaryContextRetain)(CuContext *, CuDevice);
  CuResult (*contextSetCurrent)(CuContext);
  CuResult (*contextSynchronize)();
  CuResult (*getErrorString)(CuResult, const char **);
  CuResult (*moduleLoadData)(CuModule *, const void *);
  CuResult (*moduleUnload)(CuModule);
  CuResult (*moduleGetFunction)(CuFunction *, CuModule, const char *);
  CuResult (*launchKernel)(CuFunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CuStream, void **,
                           void **);
  CuResult (*streamCreate)(CuStream *, unsigned);
  CuResult (*streamDestroy)(CuStream);
  CuResult (*streamSynchronize)(CuStream);
  CuResult (*streamWaitEvent)(CuStream, CuEvent, unsigned);
  CuResult (*eventCreate)(CuEvent *, unsigned);
  CuResult (*eventDestroy)(CuEvent);
  CuResult (*eventRecord)(CuEvent, CuStream);
  CuResult (*eventSynchronize)(CuEvent);
  CuResult (*eventElapsedTime)(float *, CuEvent, CuEvent);
  CuResult (*memAlloc)(CuDevicePtr *, size_t);
  CuResult (*memAllocManaged)(CuDevicePtr *, size_t, unsigned);
  CuResult (*memFree)(CuDevicePtr);
  CuResult (*memcpyAsync)(CuDevicePtr, CuDevicePtr, size_t, CuStream);
  CuResult (*memsetD32Async)(CuDevicePtr, unsigned, size_t, CuStream);
  CuResult (*memsetD16Async)(CuDevicePtr, unsigned short, size_t, CuStream);
  CuResult (*memHostRegister)(void *, size_t, unsigned);
  CuResult (*memHostUnregister)(void *);
};

/// The driver with a current context on device 0.
struct CudaDriver {
  CudaDriverApi api;
  CuDevice device = 0;
  CuContext context = nullptr;
};

/// Opens `library` (dlopen), resolves the entry points, runs cuInit and makes
/// device 0's primary context current. Errors, one line each:
///   "no CUDA driver (libcuda.so.1 not found)"
///   "the CUDA driver libcuda.so.1 lacks cuLaunchKernel"
///   "CUDA driver: cuInit failed: <reason> (error N)"
absl::StatusOr<CudaDriver> openCudaDriver(const char *library = "libcuda.so.1");

/// Whether `library` can be opened, without initialising it (no cuInit): a
/// process that forks children to use the GPU calls this, not cudaDriver(),
/// since a driver initialised before fork() is unusable in the child.
/// Error as openCudaDriver's first.
absl::Status checkCudaDriverPresent(const char *library = "libcuda.so.1");

/// The process's driver, opened once with the default library; the same
/// status on every call.
absl::StatusOr<CudaDriver *> cudaDriver();

/// "cuName failed: <driver's text> (error N)".
std::string describeCudaError(const CudaDriverApi &api, const char *call,
                              CuResult result);

} // namespace gevo

#endif // GEVO_EVAL_CUDA_DRIVER_H

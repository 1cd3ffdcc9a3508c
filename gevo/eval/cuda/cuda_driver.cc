//===- cuda_driver.cc - The CUDA driver API, loaded at run time -----------===//

#include "gevo/eval/cuda/cuda_driver.h"

#include <dlfcn.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace gevo {

namespace {

/// Resolves the first of `names` that `handle` exports into `slot`.
template <typename Function>
bool resolve(void *handle, Function &slot,
             std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (void *address = dlsym(handle, name)) {
      slot = reinterpret_cast<Function>(address);
      return true;
    }
  return false;
}

} // namespace

std::string describeCudaError(const CudaDriverApi &api, const char *call,
                              CuResult result) {
  const char *text = nullptr;
  if (api.getErrorString)
    api.getErrorString(result, &text);
  return absl::StrCat(call, " failed: ", text ? text : "unknown error",
                      " (error ", result, ")");
}

absl::Status checkCudaDriverPresent(const char *library) {
  void *handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
  if (!handle)
    return absl::FailedPreconditionError(
        absl::StrCat("no CUDA driver (", library, " not found)"));
  dlclose(handle);
  return absl::OkStatus();
}

absl::StatusOr<CudaDriver> openCudaDriver(const char *library) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return absl::FailedPreconditionError(
        absl::StrCat("no CUDA driver (", library, " not found)"));
  CudaDriver driver;
  CudaDriverApi &api = driver.api;
  const char *missing = nullptr;
  auto need = [&](auto &slot, std::initializer_list<const char *> names) {
    if (!missing && !resolve(handle, slot, names))
      missing = *names.begin();
  };
  need(api.init, {"cuInit"});
  need(api.deviceGet, {"cuDeviceGet"});
  need(api.primaryContextRetain, {"cuDevicePrimaryCtxRetain"});
  need(api.contextSetCurrent, {"cuCtxSetCurrent"});
  need(api.contextSynchronize, {"cuCtxSynchronize"});
  need(api.getErrorString, {"cuGetErrorString"});
  need(api.moduleLoadData, {"cuModuleLoadData"});
  need(api.moduleUnload, {"cuModuleUnload"});
  need(api.moduleGetFunction, {"cuModuleGetFunction"});
  need(api.launchKernel, {"cuLaunchKernel"});
  need(api.streamCreate, {"cuStreamCreate"});
  need(api.streamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"});
  need(api.streamSynchronize, {"cuStreamSynchronize"});
  need(api.streamWaitEvent, {"cuStreamWaitEvent"});
  need(api.eventCreate, {"cuEventCreate"});
  need(api.eventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  need(api.eventRecord, {"cuEventRecord"});
  need(api.eventSynchronize, {"cuEventSynchronize"});
  need(api.eventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  need(api.memAlloc, {"cuMemAlloc_v2"});
  need(api.memAllocManaged, {"cuMemAllocManaged"});
  need(api.memFree, {"cuMemFree_v2"});
  need(api.memcpyAsync, {"cuMemcpyAsync"});
  need(api.memsetD32Async, {"cuMemsetD32Async"});
  need(api.memsetD16Async, {"cuMemsetD16Async"});
  need(api.memHostRegister, {"cuMemHostRegister_v2", "cuMemHostRegister"});
  need(api.memHostUnregister, {"cuMemHostUnregister"});
  if (missing) {
    dlclose(handle);
    return absl::FailedPreconditionError(
        absl::StrCat("the CUDA driver ", library, " lacks ", missing));
  }
  // The driver stays loaded for the life of the process: code compiled
  // against it may run until exit.
  if (CuResult result = api.init(0))
    return absl::FailedPreconditionError(absl::StrCat(
        "CUDA driver: ", describeCudaError(api, "cuInit", result)));
  if (CuResult result = api.deviceGet(&driver.device, 0))
    return absl::FailedPreconditionError(absl::StrCat(
        "CUDA driver: ", describeCudaError(api, "cuDeviceGet", result)));
  if (CuResult result =
          api.primaryContextRetain(&driver.context, driver.device))
    return absl::FailedPreconditionError(absl::StrCat(
        "CUDA driver: ",
        describeCudaError(api, "cuDevicePrimaryCtxRetain", result)));
  if (CuResult result = api.contextSetCurrent(driver.context))
    return absl::FailedPreconditionError(absl::StrCat(
        "CUDA driver: ", describeCudaError(api, "cuCtxSetCurrent", result)));
  return driver;
}

absl::StatusOr<CudaDriver *> cudaDriver() {
  static absl::StatusOr<CudaDriver> *driver =
      new absl::StatusOr<CudaDriver>(openCudaDriver());
  if (!driver->ok())
    return driver->status();
  return &**driver;
}

} // namespace gevo

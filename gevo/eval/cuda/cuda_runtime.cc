//===- cuda_runtime.cc - The mgpu* functions lowered GPU host code calls --===//

#include "gevo/eval/cuda/cuda_runtime.h"

#include <cstring>
#include <mutex>
#include <set>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "gevo/eval/cuda/cuda_driver.h"

namespace gevo {

namespace {

// CU_MEM_ATTACH_GLOBAL, CU_STREAM_NON_BLOCKING, and
// CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP.
constexpr unsigned kAttachGlobal = 1;
constexpr unsigned kStreamNonBlocking = 1;
constexpr unsigned kRegisterPortableMapped = 1 | 2;

struct RuntimeState {
  std::mutex mutex;
  CudaDriver *driver = nullptr;
  CuStream variantStream = nullptr;
  CuEvent start = nullptr, stop = nullptr;
  int64_t launches = 0;
  absl::Status firstError;
  std::set<uintptr_t> registeredPages;
};

RuntimeState &state() {
  static RuntimeState *runtime = new RuntimeState();
  return *runtime;
}

/// Keeps the first error; later ones are usually its consequences.
void keepError(absl::Status status) {
  RuntimeState &runtime = state();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  if (runtime.firstError.ok())
    runtime.firstError = std::move(status);
}

/// The driver's API, or nullptr (and the error kept) when there is none.
const CudaDriverApi *api() {
  absl::StatusOr<CudaDriver *> driver = cudaDriver();
  if (!driver.ok()) {
    keepError(driver.status());
    return nullptr;
  }
  return &(*driver)->api;
}

/// True when `result` is success; otherwise keeps "call failed: ...".
bool check(CuResult result, const char *call) {
  if (result == 0)
    return true;
  if (const CudaDriverApi *driverApi = api())
    keepError(absl::InternalError(describeCudaError(*driverApi, call, result)));
  return false;
}

CuDevicePtr devicePointer(void *pointer) {
  return reinterpret_cast<CuDevicePtr>(pointer);
}

} // namespace

// The C functions MLIR's GPU-to-LLVM translation calls, with the signatures
// of MLIR's ExecutionEngine/CudaRuntimeWrappers.cpp. The JIT finds them by
// the addresses cudaRuntimeSymbols() registers under their names, so they
// need no C linkage.
namespace {

CuModule mgpuModuleLoad(void *data, size_t /*size*/) {
  CuModule module = nullptr;
  if (const CudaDriverApi *driver = api())
    check(driver->moduleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

// A PTX module: the driver compiles it (optimisation level left to it).
CuModule mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  return mgpuModuleLoad(data, 0);
}

void mgpuModuleUnload(CuModule module) {
  if (const CudaDriverApi *driver = api(); driver && module)
    check(driver->moduleUnload(module), "cuModuleUnload");
}

CuFunction mgpuModuleGetFunction(CuModule module, const char *name) {
  CuFunction function = nullptr;
  if (const CudaDriverApi *driver = api(); driver && module)
    check(driver->moduleGetFunction(&function, module, name),
          "cuModuleGetFunction");
  return function;
}

void mgpuLaunchKernel(CuFunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, CuStream stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  const CudaDriverApi *driver = api();
  if (!driver || !function)
    return;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    ++state().launches;
  }
  check(driver->launchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                             blockZ, smem, stream, params, extra),
        "cuLaunchKernel");
}

// The variant stream stands in for every stream the code asks for, so that
// the timing events see all of its work.
CuStream mgpuStreamCreate() { return state().variantStream; }

void mgpuStreamDestroy(CuStream stream) {
  if (stream == state().variantStream)
    return;
  if (const CudaDriverApi *driver = api())
    check(driver->streamDestroy(stream), "cuStreamDestroy");
}

void mgpuStreamSynchronize(CuStream stream) {
  if (const CudaDriverApi *driver = api())
    check(driver->streamSynchronize(stream), "cuStreamSynchronize");
}

void mgpuStreamWaitEvent(CuStream stream, CuEvent event) {
  if (const CudaDriverApi *driver = api())
    check(driver->streamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

CuEvent mgpuEventCreate() {
  CuEvent event = nullptr;
  if (const CudaDriverApi *driver = api())
    check(driver->eventCreate(&event, 0), "cuEventCreate");
  return event;
}

void mgpuEventDestroy(CuEvent event) {
  if (const CudaDriverApi *driver = api())
    check(driver->eventDestroy(event), "cuEventDestroy");
}

void mgpuEventSynchronize(CuEvent event) {
  if (const CudaDriverApi *driver = api())
    check(driver->eventSynchronize(event), "cuEventSynchronize");
}

void mgpuEventRecord(CuEvent event, CuStream stream) {
  if (const CudaDriverApi *driver = api())
    check(driver->eventRecord(event, stream), "cuEventRecord");
}

// gpu.alloc: device memory, or managed memory when the host shares it.
void *mgpuMemAlloc(uint64_t bytes, CuStream /*stream*/, bool isHostShared) {
  const CudaDriverApi *driver = api();
  CuDevicePtr pointer = 0;
  if (!driver || bytes == 0)
    return nullptr;
  if (isHostShared)
    check(driver->memAllocManaged(&pointer, bytes, kAttachGlobal),
          "cuMemAllocManaged");
  else
    check(driver->memAlloc(&pointer, bytes), "cuMemAlloc");
  return reinterpret_cast<void *>(pointer);
}

void mgpuMemFree(void *pointer, CuStream /*stream*/) {
  if (const CudaDriverApi *driver = api(); driver && pointer)
    check(driver->memFree(devicePointer(pointer)), "cuMemFree");
}

void mgpuMemcpy(void *destination, void *source, size_t bytes,
                CuStream stream) {
  if (const CudaDriverApi *driver = api())
    check(driver->memcpyAsync(devicePointer(destination), devicePointer(source),
                              bytes, stream),
          "cuMemcpyAsync");
}

void mgpuMemset32(void *destination, unsigned value, size_t count,
                  CuStream stream) {
  if (const CudaDriverApi *driver = api())
    check(driver->memsetD32Async(devicePointer(destination), value, count,
                                 stream),
          "cuMemsetD32Async");
}

void mgpuMemset16(void *destination, unsigned short value, size_t count,
                  CuStream stream) {
  if (const CudaDriverApi *driver = api())
    check(driver->memsetD16Async(devicePointer(destination), value, count,
                                 stream),
          "cuMemsetD16Async");
}

void mgpuMemHostRegister(void *pointer, uint64_t bytes) {
  if (const CudaDriverApi *driver = api())
    check(driver->memHostRegister(pointer, bytes, 0), "cuMemHostRegister");
}

void mgpuMemHostUnregister(void *pointer) {
  if (const CudaDriverApi *driver = api())
    check(driver->memHostUnregister(pointer), "cuMemHostUnregister");
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device != 0)
    keepError(absl::InvalidArgumentError(
        absl::StrCat("the CUDA runtime uses device 0 only, not ", device)));
}

// memref.alloc in host code: managed memory, zero-filled (as the CPU
// target's guarded allocations are), so kernels can use it.
void *sharedMalloc(size_t bytes) {
  void *pointer = allocateShared(bytes);
  if (pointer)
    std::memset(pointer, 0, bytes);
  return pointer;
}

void *sharedAlignedAlloc(size_t /*alignment*/, size_t bytes) {
  // Managed allocations are aligned to at least 256 bytes.
  return sharedMalloc(bytes);
}

void sharedFree(void *pointer) { freeShared(pointer); }

} // namespace

void *allocateShared(size_t bytes) {
  const CudaDriverApi *driver = api();
  CuDevicePtr pointer = 0;
  if (!driver || !check(driver->memAllocManaged(&pointer, bytes ? bytes : 1,
                                                kAttachGlobal),
                        "cuMemAllocManaged"))
    return nullptr;
  return reinterpret_cast<void *>(pointer);
}

void freeShared(void *pointer) { mgpuMemFree(pointer, nullptr); }

absl::Status initializeCudaRuntime() {
  absl::StatusOr<CudaDriver *> driver = cudaDriver();
  if (!driver.ok())
    return driver.status();
  RuntimeState &runtime = state();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  if (runtime.variantStream)
    return absl::OkStatus();
  const CudaDriverApi &cu = (*driver)->api;
  if (CuResult result =
          cu.streamCreate(&runtime.variantStream, kStreamNonBlocking))
    return absl::InternalError(describeCudaError(cu, "cuStreamCreate", result));
  if (CuResult result = cu.eventCreate(&runtime.start, 0))
    return absl::InternalError(describeCudaError(cu, "cuEventCreate", result));
  if (CuResult result = cu.eventCreate(&runtime.stop, 0))
    return absl::InternalError(describeCudaError(cu, "cuEventCreate", result));
  runtime.driver = *driver;
  return absl::OkStatus();
}

absl::Status registerHostMemory(const void *pointer, size_t bytes) {
  if (absl::Status status = initializeCudaRuntime(); !status.ok())
    return status;
  RuntimeState &runtime = state();
  const CudaDriverApi &cu = runtime.driver->api;
  const uintptr_t page = sysconf(_SC_PAGESIZE);
  uintptr_t first = reinterpret_cast<uintptr_t>(pointer) / page * page;
  uintptr_t end = reinterpret_cast<uintptr_t>(pointer) + bytes;
  // Register each run of pages not registered before (the driver refuses
  // a range that overlaps an earlier one).
  for (uintptr_t at = first; at < end;) {
    if (runtime.registeredPages.count(at)) {
      at += page;
      continue;
    }
    uintptr_t runEnd = at;
    while (runEnd < end && !runtime.registeredPages.count(runEnd))
      runEnd += page;
    if (CuResult result = cu.memHostRegister(
            reinterpret_cast<void *>(at), runEnd - at, kRegisterPortableMapped))
      return absl::InternalError(
          describeCudaError(cu, "cuMemHostRegister", result));
    for (uintptr_t registered = at; registered < runEnd; registered += page)
      runtime.registeredPages.insert(registered);
    at = runEnd;
  }
  return absl::OkStatus();
}

std::vector<std::pair<const char *, void *>> cudaRuntimeSymbols() {
  auto entry = [](const char *name, auto *function) {
    return std::pair<const char *, void *>(name,
                                           reinterpret_cast<void *>(function));
  };
  return {
      entry("mgpuModuleLoad", &mgpuModuleLoad),
      entry("mgpuModuleLoadJIT", &mgpuModuleLoadJIT),
      entry("mgpuModuleUnload", &mgpuModuleUnload),
      entry("mgpuModuleGetFunction", &mgpuModuleGetFunction),
      entry("mgpuLaunchKernel", &mgpuLaunchKernel),
      entry("mgpuStreamCreate", &mgpuStreamCreate),
      entry("mgpuStreamDestroy", &mgpuStreamDestroy),
      entry("mgpuStreamSynchronize", &mgpuStreamSynchronize),
      entry("mgpuStreamWaitEvent", &mgpuStreamWaitEvent),
      entry("mgpuEventCreate", &mgpuEventCreate),
      entry("mgpuEventDestroy", &mgpuEventDestroy),
      entry("mgpuEventSynchronize", &mgpuEventSynchronize),
      entry("mgpuEventRecord", &mgpuEventRecord),
      entry("mgpuMemAlloc", &mgpuMemAlloc),
      entry("mgpuMemFree", &mgpuMemFree),
      entry("mgpuMemcpy", &mgpuMemcpy),
      entry("mgpuMemset32", &mgpuMemset32),
      entry("mgpuMemset16", &mgpuMemset16),
      entry("mgpuMemHostRegister", &mgpuMemHostRegister),
      entry("mgpuMemHostUnregister", &mgpuMemHostUnregister),
      entry("mgpuSetDefaultDevice", &mgpuSetDefaultDevice),
      entry("malloc", &sharedMalloc),
      entry("aligned_alloc", &sharedAlignedAlloc),
      entry("free", &sharedFree),
  };
}

absl::Status takeCudaRuntimeError() {
  RuntimeState &runtime = state();
  std::lock_guard<std::mutex> lock(runtime.mutex);
  absl::Status error = std::move(runtime.firstError);
  runtime.firstError = absl::OkStatus();
  return error;
}

absl::Status beginCudaTiming() {
  if (absl::Status status = initializeCudaRuntime(); !status.ok())
    return status;
  RuntimeState &runtime = state();
  const CudaDriverApi &cu = runtime.driver->api;
  {
    std::lock_guard<std::mutex> lock(runtime.mutex);
    runtime.launches = 0;
  }
  if (CuResult result = cu.eventRecord(runtime.start, runtime.variantStream))
    return absl::InternalError(describeCudaError(cu, "cuEventRecord", result));
  return absl::OkStatus();
}

absl::StatusOr<CudaRunTiming> endCudaTiming() {
  RuntimeState &runtime = state();
  if (!runtime.driver)
    return absl::FailedPreconditionError(
        "endCudaTiming before beginCudaTiming");
  const CudaDriverApi &cu = runtime.driver->api;
  if (CuResult result = cu.eventRecord(runtime.stop, runtime.variantStream))
    return absl::InternalError(describeCudaError(cu, "cuEventRecord", result));
  if (CuResult result = cu.eventSynchronize(runtime.stop))
    return absl::InternalError(
        describeCudaError(cu, "cuEventSynchronize", result));
  if (absl::Status error = takeCudaRuntimeError(); !error.ok())
    return error;
  float milliseconds = 0;
  if (CuResult result =
          cu.eventElapsedTime(&milliseconds, runtime.start, runtime.stop))
    return absl::InternalError(
        describeCudaError(cu, "cuEventElapsedTime", result));
  std::lock_guard<std::mutex> lock(runtime.mutex);
  return CudaRunTiming{milliseconds, runtime.launches};
}

} // namespace gevo

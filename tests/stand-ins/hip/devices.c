/* devices.c — configuration (STANDIN_HIP_*), the device clocks, the calling thread's current
 * device and last error, the STANDIN_HIP_TRACE lines, error names, and the device-management
 * API: count, properties, attributes, versions, peers. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct sh_config sh_cfg;
struct sh_device sh_devices[SH_MAX_DEVICES];

static _Thread_local int tls_device;               /* hipSetDevice; 0 in every new thread */
static _Thread_local hipError_t tls_last_error;    /* hipGetLastError */

#define SH_VERSION 50221153                         /* HIP 5.2.21153, as Debian's runtime */


/* ------------------------------------------------------------------ configuration */
static double env_double(const char *name, double dflt)
{
	const char *v = getenv(name);
	char *end;
	double d;
	if (!v || !*v)
		return dflt;
	errno = 0;
	d = strtod(v, &end);
	if (errno || *end || d < 0) {
		fprintf(stderr, "standin-hip: ignoring %s=%s (not a number >= 0)\n", name, v);
		return dflt;
	}
	return d;
}

/* "vadd:500,scale:200,default:100": microseconds by kernel-name substring. */
static void parse_kernel_rules(const char *spec)
{
	size_t n = 0, cap = 4;
	char *copy, *save = NULL, *tok;
	sh_cfg.kernel_rules = calloc(cap, sizeof(*sh_cfg.kernel_rules));
	if (!spec || !*spec || !sh_cfg.kernel_rules)
		return;
	copy = strdup(spec);
	if (!copy)
		return;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(tok, ':'), *end;
		double us;
		if (!colon || colon == tok) {
			fprintf(stderr, "standin-hip: STANDIN_HIP_KERNEL_US: ignoring '%s'\n", tok);
			continue;
		}
		*colon = '\0';
		us = strtod(colon + 1, &end);
		if (*end || end == colon + 1 || us < 0) {
			fprintf(stderr, "standin-hip: STANDIN_HIP_KERNEL_US: ignoring '%s'\n", tok);
			continue;
		}
		if (strcmp(tok, "default") == 0) {
			sh_cfg.kernel_default_ns = (uint64_t)(us * 1e3 + 0.5);
			continue;
		}
		if (n + 1 >= cap) {
			struct sh_kernel_rule *r = realloc(sh_cfg.kernel_rules, 2 * cap * sizeof(*r));
			if (!r)
				break;
			memset(r + cap, 0, cap * sizeof(*r));
			sh_cfg.kernel_rules = r;
			cap *= 2;
		}
		sh_cfg.kernel_rules[n].key = strdup(tok);
		sh_cfg.kernel_rules[n].ns = (uint64_t)(us * 1e3 + 0.5);
		if (sh_cfg.kernel_rules[n].key)
			n++;
	}
	free(copy);
}

/* "o0,o1,...": nanoseconds per device; missing entries keep the default. */
static void parse_offsets(const char *spec)
{
	int d;
	for (d = 0; d < SH_MAX_DEVICES; d++)
		sh_cfg.clock_offset_ns[d] = (int64_t)(d + 1) * 1000000000000LL + 12345;
	for (d = 0; spec && *spec && d < SH_MAX_DEVICES; d++) {
		char *end;
		long long v = strtoll(spec, &end, 10);
		if (end == spec || (*end && *end != ',')) {
			fprintf(stderr, "standin-hip: STANDIN_HIP_CLOCK_OFFSET_NS: cannot parse '%s'\n", spec);
			break;
		}
		sh_cfg.clock_offset_ns[d] = v;
		spec = *end ? end + 1 : end;
	}
}

static void read_config(void)
{
	const char *v;
	int d;
	double n = env_double("STANDIN_HIP_DEVICES", 2);
	sh_cfg.ndevices = n > SH_MAX_DEVICES ? SH_MAX_DEVICES : (int)n;
	parse_offsets(getenv("STANDIN_HIP_CLOCK_OFFSET_NS"));
	sh_cfg.kernel_default_ns = 10000;
	parse_kernel_rules(getenv("STANDIN_HIP_KERNEL_US"));
	sh_cfg.copy_gbps = env_double("STANDIN_HIP_COPY_GBPS", 10);
	sh_cfg.graph_ns = (uint64_t)(env_double("STANDIN_HIP_GRAPH_US", 50) * 1e3 + 0.5);
	sh_cfg.trace = (int)env_double("STANDIN_HIP_TRACE", 0);
	sh_cfg.trace_fd = 2;
	v = getenv("STANDIN_HIP_TRACE_FILE");
	if (sh_cfg.trace && v && *v) {
		int fd = open(v, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0)
			sh_cfg.trace_fd = fd;
		else
			fprintf(stderr, "standin-hip: cannot open %s: %s\n", v, strerror(errno));
	}
	for (d = 0; d < SH_MAX_DEVICES; d++) {
		sh_devices[d].id = d;
		pthread_mutex_init(&sh_devices[d].mu, NULL);
		atomic_init(&sh_devices[d].mem_used, 0);
	}
	sh_streams_setup();
}

static pthread_once_t config_once = PTHREAD_ONCE_INIT;

void sh_init(void)
{
	pthread_once(&config_once, read_config);
}

__attribute__((constructor)) static void sh_constructor(void)
{
	sh_init();
}

/* ------------------------------------------------------------------ clocks and durations */
uint64_t sh_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int64_t sh_device_time(int dev, uint64_t host_ns)
{
	return (int64_t)host_ns + sh_cfg.clock_offset_ns[dev];
}

uint64_t sh_kernel_ns(const char *name)
{
	const struct sh_kernel_rule *r;
	for (r = sh_cfg.kernel_rules; r && r->key; r++)
		if (name && strstr(name, r->key))
			return r->ns;
	return sh_cfg.kernel_default_ns;
}

uint64_t sh_copy_ns(size_t bytes)
{
	if (sh_cfg.copy_gbps <= 0)
		return 0;
	return (uint64_t)((double)bytes / sh_cfg.copy_gbps + 0.5); /* GB/s = bytes per ns */
}

int sh_current_device(void)
{
	return tls_device;
}

int sh_valid_device(int dev)
{
	return dev >= 0 && dev < sh_cfg.ndevices;
}

/* ------------------------------------------------------------------ trace and last error */
static void trace_line(const char *fmt, va_list ap)
{
	char buf[1536];
	int n = snprintf(buf, sizeof(buf), "standin-hip[%d.%ld] ", (int)getpid(),
			 (long)syscall(SYS_gettid));
	if (n < 0)
		return;
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(sh_cfg.trace_fd, buf, (size_t)n) < 0) {
		/* nothing sensible to do */
	}
}

void sh_trace(int level, const char *fmt, ...)
{
	va_list ap;
	if (sh_cfg.trace < level)
		return;
	va_start(ap, fmt);
	trace_line(fmt, ap);
	va_end(ap);
}

hipError_t sh_ret(const char *fn, hipError_t e, const char *fmt, ...)
{
	tls_last_error = e;
	if (sh_cfg.trace >= 1) {
		char args[1280];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(args, sizeof(args), fmt, ap);
		va_end(ap);
		sh_trace(1, "%s(%s) = %s", fn, args, sh_error_name(e));
	}
	return e;
}

SH_EXPORT hipError_t hipGetLastError(void)
{
	hipError_t e;
	sh_init();
	e = tls_last_error;
	tls_last_error = hipSuccess;
	sh_trace(1, "hipGetLastError() = %s", sh_error_name(e));
	return e;
}

SH_EXPORT hipError_t hipPeekAtLastError(void)
{
	sh_init();
	SH_RET(tls_last_error, "%s", "");
}

/* ------------------------------------------------------------------ error names */
#define E(x, s) {x, #x, s}
static const struct { hipError_t e; const char *name, *text; } errors[] = {
	E(hipSuccess, "no error"),
	E(hipErrorInvalidValue, "invalid argument"),
	E(hipErrorOutOfMemory, "out of memory"),
	E(hipErrorNotInitialized, "initialization error"),
	E(hipErrorDeinitialized, "driver shutting down"),
	E(hipErrorProfilerDisabled, "profiler disabled while using external profiling tool"),
	E(hipErrorProfilerNotInitialized, "profiler is not initialized"),
	E(hipErrorProfilerAlreadyStarted, "profiler already started"),
	E(hipErrorProfilerAlreadyStopped, "profiler already stopped"),
	E(hipErrorInvalidConfiguration, "invalid configuration argument"),
	E(hipErrorInvalidPitchValue, "invalid pitch argument"),
	E(hipErrorInvalidSymbol, "invalid device symbol"),
	E(hipErrorInvalidDevicePointer, "invalid device pointer"),
	E(hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
	E(hipErrorInsufficientDriver, "driver version is insufficient for runtime version"),
	E(hipErrorMissingConfiguration, "__global__ function call is not configured"),
	E(hipErrorPriorLaunchFailure, "unspecified launch failure in prior launch"),
	E(hipErrorInvalidDeviceFunction, "invalid device function"),
	E(hipErrorNoDevice, "no ROCm-capable device is detected"),
	E(hipErrorInvalidDevice, "invalid device ordinal"),
	E(hipErrorInvalidImage, "device kernel image is invalid"),
	E(hipErrorInvalidContext, "invalid device context"),
	E(hipErrorContextAlreadyCurrent, "context is already current context"),
	E(hipErrorMapFailed, "mapping of buffer object failed"),
	E(hipErrorUnmapFailed, "unmapping of buffer object failed"),
	E(hipErrorArrayIsMapped, "array is mapped"),
	E(hipErrorAlreadyMapped, "resource already mapped"),
	E(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device"),
	E(hipErrorAlreadyAcquired, "resource already acquired"),
	E(hipErrorNotMapped, "resource not mapped"),
	E(hipErrorNotMappedAsArray, "resource not mapped as array"),
	E(hipErrorNotMappedAsPointer, "resource not mapped as pointer"),
	E(hipErrorECCNotCorrectable, "uncorrectable ECC error encountered"),
	E(hipErrorUnsupportedLimit, "limit is not supported on this architecture"),
	E(hipErrorContextAlreadyInUse, "exclusive-thread device already in use by a different thread"),
	E(hipErrorPeerAccessUnsupported, "peer access is not supported between these two devices"),
	E(hipErrorInvalidKernelFile, "invalid kernel file"),
	E(hipErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context"),
	E(hipErrorInvalidSource, "device kernel image is invalid"),
	E(hipErrorFileNotFound, "file not found"),
	E(hipErrorSharedObjectSymbolNotFound, "shared object symbol not found"),
	E(hipErrorSharedObjectInitFailed, "shared object initialization failed"),
	E(hipErrorOperatingSystem, "OS call failed or operation not supported on this OS"),
	E(hipErrorInvalidHandle, "invalid resource handle"),
	E(hipErrorIllegalState, "the operation cannot be performed in the present state"),
	E(hipErrorNotFound, "named symbol not found"),
	E(hipErrorNotReady, "device not ready"),
	E(hipErrorIllegalAddress, "an illegal memory access was encountered"),
	E(hipErrorLaunchOutOfResources, "too many resources requested for launch"),
	E(hipErrorLaunchTimeOut, "the launch timed out and was terminated"),
	E(hipErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
	E(hipErrorPeerAccessNotEnabled, "peer access has not been enabled"),
	E(hipErrorSetOnActiveProcess, "cannot set while device is active in this process"),
	E(hipErrorContextIsDestroyed, "context is destroyed"),
	E(hipErrorAssert, "device-side assert triggered"),
	E(hipErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped"),
	E(hipErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region"),
	E(hipErrorLaunchFailure, "unspecified launch failure"),
	E(hipErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
	E(hipErrorNotSupported, "operation not supported"),
	E(hipErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
	E(hipErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"),
	E(hipErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences"),
	E(hipErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"),
	E(hipErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
	E(hipErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream"),
	E(hipErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream"),
	E(hipErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream"),
	E(hipErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread"),
	E(hipErrorGraphExecUpdateFailure, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"),
	E(hipErrorUnknown, "unknown error"),
	E(hipErrorRuntimeMemory, "runtime memory call returned error"),
	E(hipErrorRuntimeOther, "runtime call other than memory returned error"),
};
#undef E

const char *sh_error_name(hipError_t e)
{
	size_t i;
	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].e == e)
			return errors[i].name;
	return "hipErrorUnknown";
}

SH_EXPORT const char *hipGetErrorName(hipError_t e)
{
	sh_init();
	return sh_error_name(e);
}

SH_EXPORT const char *hipGetErrorString(hipError_t e)
{
	size_t i;
	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].e == e)
			return errors[i].text;
	return "unknown error";
}

/* ------------------------------------------------------------------ device management */
SH_EXPORT hipError_t hipInit(unsigned int flags)
{
	sh_init();
	SH_RET(flags ? hipErrorInvalidValue : hipSuccess, "flags=%u", flags);
}

SH_EXPORT hipError_t hipDriverGetVersion(int *driverVersion)
{
	sh_init();
	if (!driverVersion)
		SH_RET(hipErrorInvalidValue, "NULL");
	*driverVersion = SH_VERSION;
	SH_RET(hipSuccess, "%d", *driverVersion);
}

SH_EXPORT hipError_t hipRuntimeGetVersion(int *runtimeVersion)
{
	sh_init();
	if (!runtimeVersion)
		SH_RET(hipErrorInvalidValue, "NULL");
	*runtimeVersion = SH_VERSION;
	SH_RET(hipSuccess, "%d", *runtimeVersion);
}

SH_EXPORT hipError_t hipGetDeviceCount(int *count)
{
	sh_init();
	if (!count)
		SH_RET(hipErrorInvalidValue, "NULL");
	*count = sh_cfg.ndevices;
	SH_RET(sh_cfg.ndevices ? hipSuccess : hipErrorNoDevice, "%d", *count);
}

SH_EXPORT hipError_t hipSetDevice(int deviceId)
{
	sh_init();
	if (!sh_cfg.ndevices)
		SH_RET(hipErrorNoDevice, "%d", deviceId);
	if (!sh_valid_device(deviceId))
		SH_RET(hipErrorInvalidDevice, "%d", deviceId);
	tls_device = deviceId;
	SH_RET(hipSuccess, "%d", deviceId);
}

SH_EXPORT hipError_t hipGetDevice(int *deviceId)
{
	sh_init();
	if (!deviceId)
		SH_RET(hipErrorInvalidValue, "NULL");
	if (!sh_cfg.ndevices)
		SH_RET(hipErrorNoDevice, "%s", "");
	*deviceId = tls_device;
	SH_RET(hipSuccess, "%d", *deviceId);
}

SH_EXPORT hipError_t hipDeviceGet(hipDevice_t *device, int ordinal)
{
	sh_init();
	if (!device)
		SH_RET(hipErrorInvalidValue, "NULL, %d", ordinal);
	if (!sh_valid_device(ordinal))
		SH_RET(hipErrorInvalidDevice, "%d", ordinal);
	*device = ordinal;
	SH_RET(hipSuccess, "%d", ordinal);
}

SH_EXPORT hipError_t hipSetDeviceFlags(unsigned flags)
{
	sh_init();
	SH_RET(sh_cfg.ndevices ? hipSuccess : hipErrorNoDevice, "flags=%#x", flags);
}

SH_EXPORT hipError_t hipGetDeviceFlags(unsigned int *flags)
{
	sh_init();
	if (!flags)
		SH_RET(hipErrorInvalidValue, "NULL");
	*flags = 0;
	SH_RET(hipSuccess, "%#x", *flags);
}

static void fill_props(hipDeviceProp_t *p, int dev)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "Stand-in GPU %d", dev);
	snprintf(p->gcnArchName, sizeof(p->gcnArchName), "gfx90a:sramecc+:xnack-");
	p->gcnArch = 910;
	p->totalGlobalMem = SH_TOTAL_MEM;
	p->sharedMemPerBlock = 65536;
	p->regsPerBlock = 65536;
	p->warpSize = 64;
	p->maxThreadsPerBlock = 1024;
	p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
	p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = 2147483647;
	p->clockRate = 1700000;
	p->memoryClockRate = 1600000;
	p->memoryBusWidth = 4096;
	p->totalConstMem = 2147483648u;
	p->major = 9;
	p->minor = 0;
	p->multiProcessorCount = 104;
	p->l2CacheSize = 8388608;
	p->maxThreadsPerMultiProcessor = 2048;
	p->computeMode = 0;
	p->clockInstructionRate = 1000000;
	p->concurrentKernels = 1;
	p->pciDomainID = 0;
	p->pciBusID = 0x10 + dev;
	p->pciDeviceID = 0;
	p->maxSharedMemoryPerMultiProcessor = 65536;
	p->canMapHostMemory = 1;
	p->cooperativeLaunch = 1;
	p->cooperativeMultiDeviceLaunch = 1;
	p->memPitch = 2147483647;
	p->textureAlignment = 256;
	p->texturePitchAlignment = 256;
	p->isLargeBar = 1;
	p->managedMemory = 1;
	p->concurrentManagedAccess = 1;
}

SH_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId)
{
	sh_init();
	if (!prop)
		SH_RET(hipErrorInvalidValue, "NULL, %d", deviceId);
	if (!sh_valid_device(deviceId))
		SH_RET(hipErrorInvalidDevice, "%d", deviceId);
	fill_props(prop, deviceId);
	SH_RET(hipSuccess, "%d", deviceId);
}

SH_EXPORT hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device)
{
	sh_init();
	if (!name || len <= 0)
		SH_RET(hipErrorInvalidValue, "%p, %d, %d", (void *)name, len, device);
	if (!sh_valid_device(device))
		SH_RET(hipErrorInvalidDevice, "%d", device);
	snprintf(name, (size_t)len, "Stand-in GPU %d", device);
	SH_RET(hipSuccess, "\"%s\", %d, %d", name, len, device);
}

SH_EXPORT hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	sh_init();
	if (!pciBusId || len <= 0)
		SH_RET(hipErrorInvalidValue, "%p, %d, %d", (void *)pciBusId, len, device);
	if (!sh_valid_device(device))
		SH_RET(hipErrorInvalidDevice, "%d", device);
	snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", 0x10 + device);
	SH_RET(hipSuccess, "\"%s\", %d", pciBusId, device);
}

SH_EXPORT hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int deviceId)
{
	hipDeviceProp_t p;
	sh_init();
	if (!pi)
		SH_RET(hipErrorInvalidValue, "NULL, %d, %d", (int)attr, deviceId);
	if (!sh_valid_device(deviceId))
		SH_RET(hipErrorInvalidDevice, "%d, %d", (int)attr, deviceId);
	fill_props(&p, deviceId);
	switch (attr) {
	case hipDeviceAttributeMultiprocessorCount: *pi = p.multiProcessorCount; break;
	case hipDeviceAttributeClockRate: *pi = p.clockRate; break;
	case hipDeviceAttributeMemoryClockRate: *pi = p.memoryClockRate; break;
	case hipDeviceAttributeMemoryBusWidth: *pi = p.memoryBusWidth; break;
	case hipDeviceAttributeWarpSize: *pi = p.warpSize; break;
	case hipDeviceAttributeMaxThreadsPerBlock: *pi = p.maxThreadsPerBlock; break;
	case hipDeviceAttributeMaxThreadsPerMultiProcessor: *pi = p.maxThreadsPerMultiProcessor; break;
	case hipDeviceAttributeMaxBlockDimX:
	case hipDeviceAttributeMaxBlockDimY:
	case hipDeviceAttributeMaxBlockDimZ: *pi = p.maxThreadsDim[0]; break;
	case hipDeviceAttributeMaxGridDimX:
	case hipDeviceAttributeMaxGridDimY:
	case hipDeviceAttributeMaxGridDimZ: *pi = p.maxGridSize[0]; break;
	case hipDeviceAttributeMaxSharedMemoryPerBlock: *pi = (int)p.sharedMemPerBlock; break;
	case hipDeviceAttributeL2CacheSize: *pi = p.l2CacheSize; break;
	case hipDeviceAttributeComputeCapabilityMajor: *pi = p.major; break;
	case hipDeviceAttributeComputeCapabilityMinor: *pi = p.minor; break;
	case hipDeviceAttributeConcurrentKernels: *pi = p.concurrentKernels; break;
	case hipDeviceAttributeComputeMode: *pi = p.computeMode; break;
	case hipDeviceAttributeIntegrated: *pi = p.integrated; break;
	case hipDeviceAttributeCooperativeLaunch: *pi = p.cooperativeLaunch; break;
	case hipDeviceAttributeManagedMemory: *pi = p.managedMemory; break;
	case hipDeviceAttributePciBusId: *pi = p.pciBusID; break;
	case hipDeviceAttributePciDeviceId: *pi = p.pciDeviceID; break;
	default:
		SH_RET(hipErrorInvalidValue, "attr=%d, %d", (int)attr, deviceId);
	}
	SH_RET(hipSuccess, "%d, attr=%d, %d", *pi, (int)attr, deviceId);
}

SH_EXPORT hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device)
{
	sh_init();
	if (!bytes)
		SH_RET(hipErrorInvalidValue, "NULL, %d", device);
	if (!sh_valid_device(device))
		SH_RET(hipErrorInvalidDevice, "%d", device);
	*bytes = SH_TOTAL_MEM;
	SH_RET(hipSuccess, "%zu, %d", *bytes, device);
}

SH_EXPORT hipError_t hipMemGetInfo(size_t *free_, size_t *total)
{
	int dev = tls_device;
	size_t used;
	sh_init();
	if (!free_ || !total)
		SH_RET(hipErrorInvalidValue, "%p, %p", (void *)free_, (void *)total);
	if (!sh_valid_device(dev))
		SH_RET(hipErrorNoDevice, "%s", "");
	used = atomic_load(&sh_devices[dev].mem_used);
	*total = SH_TOTAL_MEM;
	*free_ = used < SH_TOTAL_MEM ? SH_TOTAL_MEM - used : 0;
	SH_RET(hipSuccess, "free=%zu, total=%zu", *free_, *total);
}

SH_EXPORT hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId)
{
	sh_init();
	if (!canAccessPeer)
		SH_RET(hipErrorInvalidValue, "NULL, %d, %d", deviceId, peerDeviceId);
	if (!sh_valid_device(deviceId) || !sh_valid_device(peerDeviceId))
		SH_RET(hipErrorInvalidDevice, "%d, %d", deviceId, peerDeviceId);
	*canAccessPeer = deviceId != peerDeviceId;
	SH_RET(hipSuccess, "%d, %d, %d", *canAccessPeer, deviceId, peerDeviceId);
}

static _Atomic unsigned peer_enabled[SH_MAX_DEVICES]; /* bit p of [d]: d may access p */

SH_EXPORT hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags)
{
	int dev = tls_device;
	unsigned bit, old;
	sh_init();
	if (flags)
		SH_RET(hipErrorInvalidValue, "%d, %u", peerDeviceId, flags);
	if (!sh_valid_device(peerDeviceId) || peerDeviceId == dev)
		SH_RET(hipErrorInvalidDevice, "%d, %u", peerDeviceId, flags);
	bit = 1u << peerDeviceId;
	old = atomic_fetch_or(&peer_enabled[dev], bit);
	SH_RET(old & bit ? hipErrorPeerAccessAlreadyEnabled : hipSuccess, "%d, %u", peerDeviceId, flags);
}

SH_EXPORT hipError_t hipDeviceDisablePeerAccess(int peerDeviceId)
{
	int dev = tls_device;
	unsigned bit, old;
	sh_init();
	if (!sh_valid_device(peerDeviceId) || peerDeviceId == dev)
		SH_RET(hipErrorInvalidDevice, "%d", peerDeviceId);
	bit = 1u << peerDeviceId;
	old = atomic_fetch_and(&peer_enabled[dev], ~bit);
	SH_RET(old & bit ? hipSuccess : hipErrorPeerAccessNotEnabled, "%d", peerDeviceId);
}

SH_EXPORT hipError_t hipDeviceReset(void)
{
	int dev = tls_device;
	sh_init();
	if (!sh_valid_device(dev))
		SH_RET(hipErrorNoDevice, "%s", "");
	/* Waits for the device; allocations and streams stay (a test has no use for more). */
	sh_device_sync(dev);
	atomic_store(&peer_enabled[dev], 0);
	SH_RET(hipSuccess, "%s", "");
}

/* The profiler's capture range: nothing to do for a runtime with no profiler of its own. */
SH_EXPORT hipError_t hipProfilerStart(void)
{
	sh_init();
	SH_RET(hipSuccess, "%s", "");
}

SH_EXPORT hipError_t hipProfilerStop(void)
{
	sh_init();
	SH_RET(hipSuccess, "%s", "");
}

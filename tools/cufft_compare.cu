#include "cufft_compare.h"

#include <cuda_fp16.h>
#include <cufft.h>
#include <cufftXt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CUDA_CHECK(call)                                                                                   \
    do {                                                                                                   \
        cudaError_t status_ = (call);                                                                      \
        if (status_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
            goto fail;                                                                                     \
        }                                                                                                  \
    } while (0)

#define CUFFT_CHECK(call)                                                                                  \
    do {                                                                                                   \
        cufftResult status_ = (call);                                                                      \
        if (status_ != CUFFT_SUCCESS) {                                                                    \
            fprintf(stderr, "%s:%d: %s failed: cufftResult %d\n", __FILE__, __LINE__, #call, (int)status_); \
            goto fail;                                                                                     \
        }                                                                                                  \
    } while (0)

namespace {

__device__ double uniform(unsigned long long seed, unsigned long long i)
{
    // splitmix64 of (seed, index): independent of launch shape, and never all zeros
    unsigned long long z = seed * 0x9E3779B97F4A7C15ULL + i * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return 2.0 * ((double)(z >> 11) / 9007199254740992.0) - 1.0;
}

__global__ void fill_random(double2 *ref, float2 *f32, __half2 *f16, size_t count, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        const double2 v = make_double2(uniform(seed, 2 * i), uniform(seed, 2 * i + 1));
        ref[i] = v;
        if (f32) f32[i] = make_float2((float)v.x, (float)v.y);
        if (f16) f16[i] = __floats2half2_rn((float)v.x, (float)v.y);
    }
}

// sums[0] += |got - want|^2, sums[1] += |want|^2; a NaN in `got` makes sums[0] NaN
__global__ void error_sums(const float2 *f32, const __half2 *f16, const double2 *want, size_t count, double *sums)
{
    __shared__ double part[2][256];
    double diff = 0.0, norm = 0.0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        const float2 g = f32 ? f32[i] : __half22float2(f16[i]);
        const double dx = (double)g.x - want[i].x, dy = (double)g.y - want[i].y;
        diff += dx * dx + dy * dy;
        norm += want[i].x * want[i].x + want[i].y * want[i].y;
    }
    part[0][threadIdx.x] = diff;
    part[1][threadIdx.x] = norm;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s) {
            part[0][threadIdx.x] += part[0][threadIdx.x + s];
            part[1][threadIdx.x] += part[1][threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(&sums[0], part[0][0]);
        atomicAdd(&sums[1], part[1][0]);
    }
}

struct timing {
    float median, min, max;
};

// The comparison's device buffers, kept from one call to the next and grown only when a call needs
// more: every row of a run then reads and writes the same memory. Allocated afresh per row, the fp16
// rows that followed an fp32 row of the same size measured 5-8% slower on an H200 than the same rows
// run alone (results/notes.md, "the bench's context effect").
struct buffers {
    double2 *ref_in, *ref_out;
    void *in, *out;
    double *sums;
    size_t count; // points each buffer holds (in and out as float2)
};
buffers kept = {};

void release_kept()
{
    cudaFree(kept.ref_in);
    cudaFree(kept.ref_out);
    cudaFree(kept.in);
    cudaFree(kept.out);
    cudaFree(kept.sums);
    kept = buffers{};
}

// Buffers of at least `count` points; on failure none are kept.
int reserve(size_t count)
{
    if (count <= kept.count) return 0;
    release_kept();
    CUDA_CHECK(cudaMalloc(&kept.ref_in, count * sizeof(double2)));
    CUDA_CHECK(cudaMalloc(&kept.ref_out, count * sizeof(double2)));
    CUDA_CHECK(cudaMalloc(&kept.in, count * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&kept.out, count * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&kept.sums, 2 * sizeof(double)));
    kept.count = count;
    return 0;
fail:
    release_kept();
    return -1;
}

// `calls` calls of `run` in a row between two events, the time per call in *ms.
template <typename F>
int timed_call(F run, int calls, cudaEvent_t start, cudaEvent_t stop, float *ms)
{
    CUDA_CHECK(cudaEventRecord(start));
    for (int i = 0; i < calls; ++i)
        if (run() != 0) goto fail;
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(ms, start, stop));
    *ms /= (float)calls;
    return 0;
fail:
    return -1;
}

void summarize(std::vector<float> &ms, timing *t)
{
    std::sort(ms.begin(), ms.end());
    t->median = ms[ms.size() / 2];
    t->min = ms.front();
    t->max = ms.back();
}

// Times the calls (each returns 0 on success) with events around each one: `warmup` untimed rounds,
// then `runs` timed rounds of one call of each, in turns, so that all of them see the same state of
// the GPU (its clocks, what L2 holds) rather than one taking a better stretch of the run than another.
// With back_to_back > 1 each timed round runs that many calls of one in a row between the events and
// takes the time per call: the GPU stays busy, as in an application that runs many transforms.
int time_in_turns(const std::vector<std::function<int()>> &calls, int warmup, int runs, int back_to_back,
                  std::vector<timing> *t)
{
    std::vector<std::vector<float>> ms(calls.size(), std::vector<float>(runs));
    cudaEvent_t start = nullptr, stop = nullptr;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < warmup; ++i)
        for (const auto &call : calls)
            if (call() != 0) goto fail;
    for (int i = 0; i < runs; ++i)
        for (size_t k = 0; k < calls.size(); ++k)
            if (timed_call(calls[k], back_to_back > 1 ? back_to_back : 1, start, stop, &ms[k][i]) != 0) goto fail;
    t->resize(calls.size());
    for (size_t k = 0; k < calls.size(); ++k) summarize(ms[k], &(*t)[k]);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return 0;
fail:
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    return -1;
}

int relative_error(const void *got, int fp16, const double2 *want, size_t count, double *sums_dev, double *error)
{
    double sums[2];
    CUDA_CHECK(cudaMemset(sums_dev, 0, 2 * sizeof(double)));
    error_sums<<<1024, 256>>>(fp16 ? nullptr : (const float2 *)got, fp16 ? (const __half2 *)got : nullptr, want,
                              count, sums_dev);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(sums, sums_dev, sizeof sums, cudaMemcpyDeviceToHost));
    *error = sums[0] == sums[0] ? sqrt(sums[0] / sums[1]) : INFINITY;
    return 0;
fail:
    return -1;
}

} // namespace

extern "C" void release_compare_buffers(void) { release_kept(); }

extern "C" int describe_device(char *name, size_t name_len, int *driver_version, int *runtime_version)
{
    int count = 0;
    cudaDeviceProp prop;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return -1;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    CUDA_CHECK(cudaDriverGetVersion(driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(runtime_version));
    snprintf(name, name_len, "%s", prop.name);
    return 0;
fail:
    return -1;
}

extern "C" int compare_with_cufft(const struct compare_config *c, fftgen_launch_fn launch, struct compare_result *r)
{
    const size_t count = (size_t)c->n * (size_t)c->batch;
    const int rank = c->rank > 1 ? c->rank : 1;
    int shape[3] = {c->n, 0, 0};
    long long shape_ll[3] = {c->n, 0, 0};
    for (int d = 0; rank > 1 && d < rank; ++d) {
        shape[d] = c->shape[d];
        shape_ll[d] = c->shape[d];
    }
    const size_t storage = c->fp16 ? sizeof(__half2) : sizeof(float2);
    const int direction = c->inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
    cufftHandle z2z = 0, plan = 0;
    bool have_z2z = false, have_plan = false;
    long long n = c->n;
    size_t work = 0;
    std::vector<timing> t;

    if (reserve(count) != 0) return -1;
    double2 *const ref_in = kept.ref_in, *const ref_out = kept.ref_out;
    void *const in = kept.in, *const out = kept.out;
    double *const sums = kept.sums;
    fill_random<<<1024, 256>>>(ref_in, c->fp16 ? nullptr : (float2 *)in, c->fp16 ? (__half2 *)in : nullptr, count,
                               c->seed);
    CUDA_CHECK(cudaGetLastError());

    // the double-precision reference, on the unrounded inputs
    CUFFT_CHECK(cufftPlanMany(&z2z, rank, shape, nullptr, 1, c->n, nullptr, 1, c->n, CUFFT_Z2Z, c->batch));
    have_z2z = true;
    CUFFT_CHECK(cufftExecZ2Z(z2z, (cufftDoubleComplex *)ref_in, (cufftDoubleComplex *)ref_out, direction));
    CUDA_CHECK(cudaDeviceSynchronize());
    cufftDestroy(z2z);
    have_z2z = false;

    // fftgen: poisoned output first, so that an unwritten element shows up as NaN
    CUDA_CHECK(cudaMemset(out, 0xFF, count * storage));
    CUDA_CHECK(launch(in, out, c->batch, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    if (relative_error(out, c->fp16, ref_out, count, sums, &r->fftgen_error) != 0) goto fail;

    // cuFFT on the same buffers: cufftPlanMany for fp32, cufftXtMakePlanMany for fp16
    CUFFT_CHECK(cufftCreate(&plan));
    have_plan = true;
    if (c->fp16)
        CUFFT_CHECK(cufftXtMakePlanMany(plan, rank, shape_ll, nullptr, 1, n, CUDA_C_16F, nullptr, 1, n, CUDA_C_16F,
                                        c->batch, &work, CUDA_C_16F));
    else
        CUFFT_CHECK(cufftMakePlanMany(plan, rank, shape, nullptr, 1, c->n, nullptr, 1, c->n, CUFFT_C2C, c->batch,
                                      &work));
    CUDA_CHECK(cudaMemset(out, 0xFF, count * storage));
    CUFFT_CHECK(cufftXtExec(plan, in, out, direction));
    CUDA_CHECK(cudaDeviceSynchronize());
    if (relative_error(out, c->fp16, ref_out, count, sums, &r->cufft_error) != 0) goto fail;

    // both on the same buffers, and a device-to-device copy of the same bytes for scale, in turns
    if (time_in_turns({[&] { return launch(in, out, c->batch, 0) == cudaSuccess ? 0 : -1; },
                       [&] { return cufftXtExec(plan, in, out, direction) == CUFFT_SUCCESS ? 0 : -1; },
                       [&] {
                           return cudaMemcpyAsync(out, in, count * storage, cudaMemcpyDeviceToDevice) == cudaSuccess
                                      ? 0
                                      : -1;
                       }},
                      c->warmup, c->runs, c->back_to_back, &t) != 0)
        goto fail;
    r->fftgen_ms = t[0].median;
    r->fftgen_ms_min = t[0].min;
    r->fftgen_ms_max = t[0].max;
    r->cufft_ms = t[1].median;
    r->cufft_ms_min = t[1].min;
    r->cufft_ms_max = t[1].max;
    r->bytes = 2.0 * (double)(count * storage);
    r->copy_gbps = r->bytes / (t[2].median * 1e6);
    cufftDestroy(plan);
    have_plan = false;

    return 0;
fail:
    if (have_z2z) cufftDestroy(z2z);
    if (have_plan) cufftDestroy(plan);
    return -1;
}

extern "C" void compare_shape_text(const struct compare_config *c, char *text, size_t len)
{
    if (c->rank > 1)
        snprintf(text, len, c->rank == 3 ? "%dx%dx%d" : "%dx%d", c->shape[0], c->shape[1], c->shape[2]);
    else
        snprintf(text, len, "%d", c->n);
}

extern "C" void print_compare_header(void)
{
    printf("%-11s %-12s %-7s %9s | %10s %8s %6s | %10s %8s %6s | %7s | %9s %9s\n", "shape", "prec", "dir", "batch",
           "fftgen ms", "GB/s", "%bw", "cuFFT ms", "GB/s", "%bw", "speedup", "err fftgen", "err cuFFT");
}

extern "C" void print_compare_row(const struct compare_config *c, const struct compare_result *r)
{
    const double ours = r->bytes / (r->fftgen_ms * 1e6), theirs = r->bytes / (r->cufft_ms * 1e6);
    char shape[48];
    compare_shape_text(c, shape, sizeof shape);
    printf("%-11s %-12s %-7s %9d | %10.4f %8.1f %5.1f%% | %10.4f %8.1f %5.1f%% | %6.2fx | %9.2e %9.2e\n", shape,
           c->label ? c->label : c->fp16 ? "fp16" : "fp32", c->inverse ? "inverse" : "forward", c->batch, r->fftgen_ms, ours,
           100.0 * ours / r->copy_gbps, r->cufft_ms, theirs, 100.0 * theirs / r->copy_gbps,
           r->cufft_ms / r->fftgen_ms, r->fftgen_error, r->cufft_error);
}

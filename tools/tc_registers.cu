// fftgen-tc-registers: an experiment that records why fftgen keeps tensor cores off by default. It
// runs a 4096-point fp16 FFT whose radix-16 stages are tensor-core products with their operands kept
// in registers, the design that was expected to make tensor cores pay (results/notes.md, 2026-11-26),
// against fftgen's own plan of the same size (radix 16 on CUDA cores) and a device-to-device copy, in
// one process on the same buffers.
//
// 4096 = 16 x 256, x[n1 + 256 n2] -> X[k2 + 16 k1]:
//   stage A  for 16 columns n1 at a time, Y = F * M with M[n2][n1] = x[n1 + 256 n2] (the B operand,
//            straight from global memory: fp16 inputs are exact), then Z = Y * w4096^(n1 k2) into
//            shared memory, the one exchange;
//   stage B  each warp takes one k2 and computes the 256-point DFT of y[n1] = Z[n1][k2] as two
//            products: P = F * M' (M'[b][a] = y[a + 16 b]) and Q = (T o P) * F, T = w256^(a c), with
//            X[k2 + 16 c + 256 d] = Q[c][d]. The C fragments of P's two 16 x 8 halves are, register
//            for register, the A fragment of T o P, so the second product needs no data movement.
// A complex product is four real mma.sync.m16n8k16 (fp16 operands, fp32 sums). Operands that are not
// fp16 already are split into hi + lo (two products each); --split-dft splits the DFT matrix F too.
// Fragment layouts as in templates/tc16.lua (the PTX ISA's), group = lane / 4, quad = lane % 4.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <fftgen.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int POINTS = 4096;
constexpr int WARPS = 8;                 // a block: one transform, 8 warps (16 measured slower)
constexpr int THREADS = WARPS * 32;
constexpr int UNITS = 16 / WARPS;        // per warp: 16-column groups in stage A, values of k2 in stage B
constexpr int PITCH = 256 + 8;           // float2 row pitch of the exchange buffer S[k2][n1]
constexpr int EXCHANGE_FLOATS = 16 * PITCH * 2;
constexpr int OUTPUT_WORDS = POINTS + POINTS / 16 + POINTS / 512 + 8; // fp16 outputs, padded
constexpr int SHARED_BYTES = (EXCHANGE_FLOATS + OUTPUT_WORDS) * 4;

__device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// D += F X for a DFT matrix F given as A fragments (real, imaginary and negated imaginary parts) and
// data X as B fragments: Re D += Re F Re X + (-Im F) Im X, Im D += Re F Im X + Im F Re X.
__device__ __forceinline__ void dft_times(float (&d_re)[4], float (&d_im)[4], const unsigned (&f_re)[4],
                                          const unsigned (&f_im)[4], const unsigned (&f_neg)[4],
                                          const unsigned (&x_re)[2], const unsigned (&x_im)[2])
{
    mma(d_re, f_re, x_re);
    mma(d_re, f_neg, x_im);
    mma(d_im, f_re, x_im);
    mma(d_im, f_im, x_re);
}

// D += X F for data X as A fragments and a half of F as B fragments.
__device__ __forceinline__ void times_dft(float (&d_re)[4], float (&d_im)[4], const unsigned (&x_re)[4],
                                          const unsigned (&x_im)[4], const unsigned (&f_re)[2],
                                          const unsigned (&f_im)[2], const unsigned (&f_neg)[2])
{
    mma(d_re, x_re, f_re);
    mma(d_re, x_im, f_neg);
    mma(d_im, x_re, f_im);
    mma(d_im, x_im, f_re);
}

// Two fp16 values in one register, the first in the low half.
__device__ __forceinline__ unsigned pack(float first, float second)
{
    const __half2 h = __floats2half2_rn(first, second);
    return *reinterpret_cast<const unsigned *>(&h);
}

// The rounding error of pack(first, second) = hi, itself rounded to fp16: the lo part.
__device__ __forceinline__ unsigned pack_lo(float first, float second, unsigned hi)
{
    const float2 rounded = __half22float2(*reinterpret_cast<const __half2 *>(&hi));
    return pack(first - rounded.x, second - rounded.y);
}

__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// Output k's word in shared memory: padded so that a warp's stores spread over the banks.
__device__ __forceinline__ int output_slot(int k) { return k + (k >> 4) + (k >> 9); }

// F = exp(-2 pi i j k / 16) as A fragments (row j, column k) and as B fragments of its two 16 x 8
// halves: real part, imaginary part and its negative; the lo parts where F is split.
struct DftFragments {
    unsigned a_re[4], a_im[4], a_neg[4], b_re[2][2], b_im[2][2], b_neg[2][2];
    unsigned a_re_lo[4], a_im_lo[4], a_neg_lo[4], b_re_lo[2][2], b_im_lo[2][2], b_neg_lo[2][2];
};

__device__ void make_dft_fragments(DftFragments &f, const float2 *__restrict__ w, int group, int quad)
{
    for (int r = 0; r < 4; ++r) {
        float re[2], im[2];
        for (int e = 0; e < 2; ++e) {
            const int i = 2 * r + e, row = group + 8 * ((i >> 1) & 1), col = 2 * quad + (i & 1) + 8 * (i >> 2);
            const float2 v = w[256 * ((row * col) & 15)];
            re[e] = v.x;
            im[e] = v.y;
        }
        f.a_re[r] = pack(re[0], re[1]);
        f.a_im[r] = pack(im[0], im[1]);
        f.a_neg[r] = pack(-im[0], -im[1]);
        f.a_re_lo[r] = pack_lo(re[0], re[1], f.a_re[r]);
        f.a_im_lo[r] = pack_lo(im[0], im[1], f.a_im[r]);
        f.a_neg_lo[r] = pack_lo(-im[0], -im[1], f.a_neg[r]);
    }
    for (int half = 0; half < 2; ++half)
        for (int r = 0; r < 2; ++r) {
            float re[2], im[2];
            for (int e = 0; e < 2; ++e) {
                const int i = 2 * r + e, row = 2 * quad + (i & 1) + 8 * (i >> 1), col = group + 8 * half;
                const float2 v = w[256 * ((row * col) & 15)];
                re[e] = v.x;
                im[e] = v.y;
            }
            f.b_re[half][r] = pack(re[0], re[1]);
            f.b_im[half][r] = pack(im[0], im[1]);
            f.b_neg[half][r] = pack(-im[0], -im[1]);
            f.b_re_lo[half][r] = pack_lo(re[0], re[1], f.b_re[half][r]);
            f.b_im_lo[half][r] = pack_lo(im[0], im[1], f.b_im[half][r]);
            f.b_neg_lo[half][r] = pack_lo(-im[0], -im[1], f.b_neg[half][r]);
        }
}

// Forward transforms of `batch` x 4096 fp16 points; w[m] = exp(-2 pi i m / 4096). The grid may be
// smaller than the batch: each block takes transforms blockIdx.x, + gridDim.x, ... MIN_BLOCKS asks
// ptxas for that many blocks an SM (fewer registers a thread).
template <bool SPLIT_DFT, int MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
fft4096_tensor_cores(const __half2 *__restrict__ in, __half2 *__restrict__ out, int batch,
                     const float2 *__restrict__ w)
{
    extern __shared__ float shared[];
    float2 *exchange = reinterpret_cast<float2 *>(shared);
    unsigned *outputs = reinterpret_cast<unsigned *>(shared + EXCHANGE_FLOATS);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, group = lane >> 2, quad = lane & 3;
    DftFragments f;
    make_dft_fragments(f, w, group, quad);
    for (int t = blockIdx.x; t < batch; t += gridDim.x) {
        const unsigned *x = reinterpret_cast<const unsigned *>(in + (size_t)t * POINTS);
#pragma unroll
        for (int u = 0; u < UNITS; ++u) {
            const int unit = warp * UNITS + u;
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int n1 = 16 * unit + 8 * half + group;
                unsigned h[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) h[i] = __ldg(x + n1 + 256 * (2 * quad + (i & 1) + 8 * (i >> 1)));
                // each word holds (re, im) of one point; the B fragments want two reals, two imaginaries
                const unsigned m_re[2] = {__byte_perm(h[0], h[1], 0x5410), __byte_perm(h[2], h[3], 0x5410)};
                const unsigned m_im[2] = {__byte_perm(h[0], h[1], 0x7632), __byte_perm(h[2], h[3], 0x7632)};
                float y_re[4] = {0, 0, 0, 0}, y_im[4] = {0, 0, 0, 0};
                dft_times(y_re, y_im, f.a_re, f.a_im, f.a_neg, m_re, m_im);
                if (SPLIT_DFT) dft_times(y_re, y_im, f.a_re_lo, f.a_im_lo, f.a_neg_lo, m_re, m_im);
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int k2 = group + 8 * (i >> 1), c = 16 * unit + 8 * half + 2 * quad + (i & 1);
                    exchange[k2 * PITCH + c] = cmul(make_float2(y_re[i], y_im[i]), __ldg(w + c * k2));
                }
            }
        }
        __syncthreads();
#pragma unroll
        for (int u = 0; u < UNITS; ++u) {
            const int k2 = warp * UNITS + u;
            unsigned p_re[4], p_im[4], p_re_lo[4], p_im_lo[4]; // T o P as A fragments, hi and lo
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int a = group + 8 * half;
                float2 v[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) v[i] = exchange[k2 * PITCH + a + 16 * (2 * quad + (i & 1) + 8 * (i >> 1))];
                unsigned m_re[2], m_im[2], m_re_lo[2], m_im_lo[2];
#pragma unroll
                for (int r = 0; r < 2; ++r) {
                    m_re[r] = pack(v[2 * r].x, v[2 * r + 1].x);
                    m_im[r] = pack(v[2 * r].y, v[2 * r + 1].y);
                    m_re_lo[r] = pack_lo(v[2 * r].x, v[2 * r + 1].x, m_re[r]);
                    m_im_lo[r] = pack_lo(v[2 * r].y, v[2 * r + 1].y, m_im[r]);
                }
                float pr[4] = {0, 0, 0, 0}, pi[4] = {0, 0, 0, 0};
                dft_times(pr, pi, f.a_re, f.a_im, f.a_neg, m_re, m_im);
                dft_times(pr, pi, f.a_re, f.a_im, f.a_neg, m_re_lo, m_im_lo);
                if (SPLIT_DFT) dft_times(pr, pi, f.a_re_lo, f.a_im_lo, f.a_neg_lo, m_re, m_im);
                // P[c][a'] at row c = group + 8 (i / 2), column a' = 2 quad + i % 2 + 8 half, times w256^(a' c)
                float2 z[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int c = group + 8 * (i >> 1), a_col = 2 * quad + (i & 1) + 8 * half;
                    z[i] = cmul(make_float2(pr[i], pi[i]), __ldg(w + 16 * ((a_col * c) & 255)));
                }
                // this half's C fragment is A registers 2 half and 2 half + 1
                p_re[2 * half] = pack(z[0].x, z[1].x);
                p_re[2 * half + 1] = pack(z[2].x, z[3].x);
                p_im[2 * half] = pack(z[0].y, z[1].y);
                p_im[2 * half + 1] = pack(z[2].y, z[3].y);
                p_re_lo[2 * half] = pack_lo(z[0].x, z[1].x, p_re[2 * half]);
                p_re_lo[2 * half + 1] = pack_lo(z[2].x, z[3].x, p_re[2 * half + 1]);
                p_im_lo[2 * half] = pack_lo(z[0].y, z[1].y, p_im[2 * half]);
                p_im_lo[2 * half + 1] = pack_lo(z[2].y, z[3].y, p_im[2 * half + 1]);
            }
            // Q = (T o P) F, column d = 2 quad + i % 2 + 8 half: X[k2 + 16 c + 256 d]
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                float q_re[4] = {0, 0, 0, 0}, q_im[4] = {0, 0, 0, 0};
                times_dft(q_re, q_im, p_re, p_im, f.b_re[half], f.b_im[half], f.b_neg[half]);
                times_dft(q_re, q_im, p_re_lo, p_im_lo, f.b_re[half], f.b_im[half], f.b_neg[half]);
                if (SPLIT_DFT) times_dft(q_re, q_im, p_re, p_im, f.b_re_lo[half], f.b_im_lo[half], f.b_neg_lo[half]);
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int c = group + 8 * (i >> 1), d = 2 * quad + (i & 1) + 8 * half;
                    outputs[output_slot(k2 + 16 * c + 256 * d)] = pack(q_re[i], q_im[i]);
                }
            }
        }
        __syncthreads();
        unsigned *y = reinterpret_cast<unsigned *>(out + (size_t)t * POINTS);
#pragma unroll
        for (int j = 0; j < POINTS / (4 * THREADS); ++j) {
            const int k = 4 * (threadIdx.x + THREADS * j);
            *reinterpret_cast<uint4 *>(y + k) = make_uint4(outputs[output_slot(k)], outputs[output_slot(k + 1)],
                                                           outputs[output_slot(k + 2)], outputs[output_slot(k + 3)]);
        }
        // the next transform writes `exchange` (read only before the barrier above) and `outputs`
        // only after its own first barrier, which every thread reaches after these reads
    }
}

// Points in [-1, 1), fresh for every seed.
__global__ void fill_random(__half2 *p, long long count, unsigned seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed * 0x9e3779b9u;
        h ^= h >> 13;
        h *= 0x5bd1e995u;
        h ^= h >> 15;
        h *= 0x27d4eb2du;
        h ^= h >> 16;
        p[i] = __floats2half2_rn((h & 0xffff) / 32768.0f - 1.0f, (h >> 16) / 32768.0f - 1.0f);
    }
}

bool cuda_ok(cudaError_t status, const char *what)
{
    if (status == cudaSuccess) return true;
    fprintf(stderr, "fftgen-tc-registers: %s failed: %s\n", what, cudaGetErrorString(status));
    return false;
}

bool fftgen_ok(fftgen_result result, const char *what)
{
    if (result == FFTGEN_SUCCESS) return true;
    fprintf(stderr, "fftgen-tc-registers: %s failed: %s (%s)\n", what, fftgen_result_string(result),
            fftgen_last_error());
    return false;
}

// Relative L2 error of `got` against a double-precision DFT of `in`, over the transforms listed.
double error_against_dft(const std::vector<__half2> &in, const std::vector<__half2> &got, const int *transforms,
                         int count)
{
    std::vector<double> c(POINTS), s(POINTS);
    for (int m = 0; m < POINTS; ++m) {
        c[m] = cos(-2 * M_PI * m / POINTS);
        s[m] = sin(-2 * M_PI * m / POINTS);
    }
    double err = 0, ref = 0;
    for (int i = 0; i < count; ++i) {
        const size_t base = (size_t)transforms[i] * POINTS;
        for (int k = 0; k < POINTS; ++k) {
            double re = 0, im = 0;
            for (int j = 0; j < POINTS; ++j) {
                const float2 x = __half22float2(in[base + j]);
                const int m = (int)(((long long)j * k) % POINTS);
                re += x.x * c[m] - x.y * s[m];
                im += x.x * s[m] + x.y * c[m];
            }
            const float2 y = __half22float2(got[base + k]);
            err += (y.x - re) * (y.x - re) + (y.y - im) * (y.y - im);
            ref += re * re + im * im;
        }
    }
    return sqrt(err / ref);
}

void usage(FILE *to)
{
    fprintf(to, "Usage: fftgen-tc-registers [--runs R] [--split-dft] [--blocks-per-sm B]\n"
                "An experiment: a 4096-point fp16 forward FFT whose radix-16 stages run on tensor cores\n"
                "(mma.sync m16n8k16) with their operands kept in registers, against fftgen's own plan of\n"
                "the same size on CUDA cores and a device-to-device copy, on 2^27 points. Prints each one's\n"
                "median time (the three timed in turns, fresh random inputs every round), its %% of the\n"
                "copy, and the relative L2 error of four transforms against a double-precision DFT of\n"
                "the fp16 inputs. Needs sm_80 or newer.\n\n"
                "  --runs R      timed rounds after 3 warm-ups (default 30)\n"
                "  --split-dft   the DFT matrix as fp16 hi + lo (twice its products; otherwise rounded\n"
                "                once to fp16)\n"
                "  --blocks-per-sm B  ask ptxas for B blocks of 256 threads an SM: 1 (no bound, the\n"
                "                default), 2, 3 or 4 (at most 128, 85 or 64 registers a thread)\n"
                "  -h, --help    this text\n\n"
                "Exit status: 0; 1 when there is no suitable GPU, a call fails or an output is not\n"
                "finite; 2 on bad arguments.\n");
}

// The run itself, once the arguments are read; the buffers it allocates are freed by the caller.
struct Buffers {
    __half2 *in = nullptr, *out_fftgen = nullptr, *out_tc = nullptr;
    float2 *twiddles = nullptr;
    fftgen_plan plan = nullptr;
};

int run(Buffers &b, int runs, bool split_dft, int blocks_per_sm)
{
    const long long batch = (1LL << 27) / POINTS, count = batch * POINTS;
    const size_t bytes = (size_t)count * sizeof(__half2);
    int device = 0, sms = 0;
    cudaDeviceProp prop;
    if (!cuda_ok(cudaGetDevice(&device), "cudaGetDevice") ||
        !cuda_ok(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties"))
        return 1;
    if (prop.major < 8) {
        fprintf(stderr, "fftgen-tc-registers: %s is sm_%d%d; mma.sync m16n8k16 needs sm_80 or newer\n", prop.name,
                prop.major, prop.minor);
        return 1;
    }
    sms = prop.multiProcessorCount;
    if (!cuda_ok(cudaMalloc(&b.in, bytes), "cudaMalloc") || !cuda_ok(cudaMalloc(&b.out_fftgen, bytes), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&b.out_tc, bytes), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&b.twiddles, POINTS * sizeof(float2)), "cudaMalloc"))
        return 1;
    std::vector<float2> w(POINTS);
    for (int m = 0; m < POINTS; ++m)
        w[m] = make_float2((float)cos(-2 * M_PI * m / POINTS), (float)sin(-2 * M_PI * m / POINTS));
    if (!cuda_ok(cudaMemcpy(b.twiddles, w.data(), POINTS * sizeof(float2), cudaMemcpyHostToDevice), "cudaMemcpy"))
        return 1;
    if (!fftgen_ok(fftgen_plan_1d(&b.plan, POINTS, FFTGEN_FP16, batch, 0), "fftgen_plan_1d")) return 1;

    using Kernel = void (*)(const __half2 *, __half2 *, int, const float2 *);
    const Kernel kernels[2][4] = {
        {fft4096_tensor_cores<false, 1>, fft4096_tensor_cores<false, 2>, fft4096_tensor_cores<false, 3>,
         fft4096_tensor_cores<false, 4>},
        {fft4096_tensor_cores<true, 1>, fft4096_tensor_cores<true, 2>, fft4096_tensor_cores<true, 3>,
         fft4096_tensor_cores<true, 4>}};
    const Kernel kernel = kernels[split_dft][blocks_per_sm - 1];
    int per_sm = 0;
    if (!cuda_ok(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED_BYTES),
                 "cudaFuncSetAttribute") ||
        !cuda_ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, SHARED_BYTES),
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor"))
        return 1;
    cudaFuncAttributes attributes;
    if (!cuda_ok(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes")) return 1;
    const int grid = (int)std::min<long long>(batch, (long long)sms * std::max(per_sm, 1));
    auto tensor_cores = [&] {
        kernel<<<grid, THREADS, SHARED_BYTES>>>(b.in, b.out_tc, (int)batch, b.twiddles);
        return cudaGetLastError();
    };
    auto on_cuda_cores = [&] {
        return fftgen_exec(b.plan, b.in, b.out_fftgen, FFTGEN_FORWARD) == FFTGEN_SUCCESS ? cudaSuccess
                                                                                         : cudaErrorUnknown;
    };
    auto copy = [&] { return cudaMemcpyAsync(b.out_fftgen, b.in, bytes, cudaMemcpyDeviceToDevice); };
    auto fill = [&](unsigned seed) {
        fill_random<<<1024, 256>>>(b.in, count, seed);
        return cudaGetLastError();
    };

    printf("%s (%d SMs); tensor-core kernel: %d threads, %d registers, %d bytes of local memory, %d bytes of "
           "shared memory, blocks an SM: %d; the DFT matrix %s\n",
           prop.name, sms, THREADS, attributes.numRegs, (int)attributes.localSizeBytes, SHARED_BYTES, per_sm,
           split_dft ? "as hi + lo" : "rounded to fp16");

    // correctness: poisoned outputs, both transforms, every tensor-core output finite, four against a DFT
    if (!cuda_ok(fill(12345u), "fill_random") || !cuda_ok(cudaMemset(b.out_fftgen, 0xff, bytes), "cudaMemset") ||
        !cuda_ok(cudaMemset(b.out_tc, 0xff, bytes), "cudaMemset") || !cuda_ok(on_cuda_cores(), "fftgen_exec") ||
        !cuda_ok(tensor_cores(), "the tensor-core kernel") || !cuda_ok(cudaDeviceSynchronize(), "the first run"))
        return 1;
    std::vector<__half2> in(count), got_fftgen(count), got_tc(count);
    if (!cuda_ok(cudaMemcpy(in.data(), b.in, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy") ||
        !cuda_ok(cudaMemcpy(got_fftgen.data(), b.out_fftgen, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy") ||
        !cuda_ok(cudaMemcpy(got_tc.data(), b.out_tc, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy"))
        return 1;
    long long not_finite = 0;
    for (const __half2 &h : got_tc) {
        const float2 v = __half22float2(h);
        if (!std::isfinite(v.x) || !std::isfinite(v.y)) ++not_finite;
    }
    const int checked[] = {0, 1, (int)batch / 2, (int)batch - 1};
    const double error_fftgen = error_against_dft(in, got_fftgen, checked, 4);
    const double error_tc = error_against_dft(in, got_tc, checked, 4);

    // timing: the three in turns, fresh inputs before every round
    cudaEvent_t start, stop;
    if (!cuda_ok(cudaEventCreate(&start), "cudaEventCreate") || !cuda_ok(cudaEventCreate(&stop), "cudaEventCreate"))
        return 1;
    std::vector<float> times[3];
    bool ok = true;
    for (int r = 0; r < runs + 3 && ok; ++r) {
        ok = cuda_ok(fill(1000u + (unsigned)r), "fill_random");
        for (int k = 0; k < 3 && ok; ++k) { // the copy, fftgen, the tensor cores
            cudaError_t status = cudaEventRecord(start);
            if (status == cudaSuccess) status = k == 0 ? copy() : k == 1 ? on_cuda_cores() : tensor_cores();
            if (status == cudaSuccess) status = cudaEventRecord(stop);
            if (status == cudaSuccess) status = cudaEventSynchronize(stop);
            float ms = 0;
            if (status == cudaSuccess) status = cudaEventElapsedTime(&ms, start, stop);
            ok = cuda_ok(status, k == 0 ? "the copy" : k == 1 ? "fftgen_exec" : "the tensor-core kernel");
            if (ok && r >= 3) times[k].push_back(ms);
        }
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (!ok) return 1;
    float median[3];
    for (int k = 0; k < 3; ++k) {
        std::sort(times[k].begin(), times[k].end());
        median[k] = times[k][times[k].size() / 2];
    }
    printf("%-36s %9s %10s %11s\n", "4096-point fp16, 2^27 points", "ms", "% of copy", "error");
    printf("%-36s %9.4f %9.1f%%\n", "device-to-device copy", median[0], 100.0);
    printf("%-36s %9.4f %9.1f%% %11.3e\n", "fftgen (CUDA cores)", median[1], 100.0 * median[0] / median[1],
           error_fftgen);
    printf("%-36s %9.4f %9.1f%% %11.3e\n", "tensor cores, operands in registers", median[2],
           100.0 * median[0] / median[2], error_tc);
    if (not_finite > 0) {
        fprintf(stderr, "fftgen-tc-registers: %lld tensor-core outputs are not finite\n", not_finite);
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    int runs = 30, blocks_per_sm = 1;
    bool split_dft = false;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--split-dft")) {
            split_dft = true;
            continue;
        }
        if (!strcmp(argv[i], "--blocks-per-sm") && i + 1 < argc) {
            const char *value = argv[++i];
            if (strlen(value) != 1 || value[0] < '1' || value[0] > '4') {
                fprintf(stderr, "fftgen-tc-registers: --blocks-per-sm '%s' is not 1, 2, 3 or 4\n", value);
                return 2;
            }
            blocks_per_sm = value[0] - '0';
            continue;
        }
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            char *end = nullptr;
            const long value = strtol(argv[++i], &end, 10);
            if (*end != '\0' || value < 1 || value > 10000) {
                fprintf(stderr, "fftgen-tc-registers: --runs '%s' is not a count from 1 to 10000\n", argv[i]);
                return 2;
            }
            runs = (int)value;
            continue;
        }
        fprintf(stderr, "fftgen-tc-registers: unknown argument '%s'; see --help\n", argv[i]);
        return 2;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "fftgen-tc-registers: no CUDA device\n");
        return 1;
    }
    Buffers b;
    const int status = run(b, runs, split_dft, blocks_per_sm);
    fftgen_destroy(b.plan);
    cudaFree(b.in);
    cudaFree(b.out_fftgen);
    cudaFree(b.out_tc);
    cudaFree(b.twiddles);
    return status;
}

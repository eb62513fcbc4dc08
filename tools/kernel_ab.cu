// fftgen-kernel-ab: times variants of generated kernels against each other in one process (tools/kernel-ab.sh
// builds it): every entry of entries.inc on 2^27 points, in interleaved rounds, with CUDA events around
// each launch (warm-up first, median of all runs), fresh random inputs of its precision and the copy
// bandwidth of the same bytes; first the relative L2 error of the first and last transform of each
// against a double DFT, with the outputs poisoned before the launch. With --out-at, the output buffer
// starts that many MB after the input in one allocation, for each value given: whether the
// placement of the buffers changes a kernel's speed. A 1D entry may have the layouts of fftgen's --istride,
// --idist, --ostride and --odist (point j of transform b at b*dist + j*stride), so that access patterns
// (strided reads, strided writes) can be timed alone: they must keep within the buffers' 2^27 points.
// With --points P, the timed calls (and the copy beside them) cover P points in all instead of 2^27: small
// calls, whose time is more the blocks' latency than the bandwidth.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>
#include <algorithm>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
typedef cudaError_t (*launch_fn)(const void*, void*, int, cudaStream_t);
typedef cudaError_t (*work_launch_fn)(const void*, void*, int, void*, cudaStream_t); // plans with a work area
// n: points per transform; rows: 1 for a 1D size, a 2D shape of rows x (n / rows) (row-major), or 0
// for a 3D shape. 3D shapes, 2D shapes above LARGEST_CHECKED points and 1D sizes above
// LARGEST_CHECKED_1D are timed, not checked (a DFT in double of their size takes minutes).
// istride, idist, ostride, odist: a 1D entry's layouts (0: dense).
#define ENTRY(name, variant, n, rows, fp16, istride, idist, ostride, odist) \
    extern "C" cudaError_t name(const void*, void*, int, cudaStream_t);
#define WORK_ENTRY(name, variant, n, rows, fp16, istride, idist, ostride, odist) \
    extern "C" cudaError_t name(const void*, void*, int, void*, cudaStream_t);
#include "entries.inc"
#undef ENTRY
#undef WORK_ENTRY
struct entry {
    launch_fn launch; work_launch_fn work_launch; const char* variant; long n; long rows; int fp16;
    long istride, idist, ostride, odist;
};
static entry entries[] = {
#define ENTRY(name, variant, n, rows, fp16, istride, idist, ostride, odist) \
    {name, nullptr, variant, n, rows, fp16, istride, idist, ostride, odist},
#define WORK_ENTRY(name, variant, n, rows, fp16, istride, idist, ostride, odist) \
    {nullptr, name, variant, n, rows, fp16, istride, idist, ostride, odist},
#include "entries.inc"
#undef ENTRY
#undef WORK_ENTRY
};
static const long TOTAL = 1L << 27;
static const long LARGEST_CHECKED = 1L << 20;     // 2D: a DFT of its rows, then of its columns
static const long LARGEST_CHECKED_1D = 1L << 14;  // 1D: one DFT of n^2 products (2^17: minutes)
static void* work_area; // for the plans that pass through one: as large as the data

static cudaError_t launch(const entry& e, const void* in, void* out, int batch) {
    return e.launch ? e.launch(in, out, batch, 0) : e.work_launch(in, out, batch, work_area, 0);
}

static size_t point_bytes(const entry& e) { return e.fp16 ? 4 : 8; }

// where point j of transform b lies in the input and in the output
static long in_index(const entry& e, long b, long j) { return e.istride ? b * e.idist + j * e.istride : b * e.n + j; }
static long out_index(const entry& e, long b, long j) { return e.ostride ? b * e.odist + j * e.ostride : b * e.n + j; }

// point i of a buffer of the entry's precision, in double
static void point_at(const entry& e, const void* points, long i, double* re, double* im) {
    if (e.fp16) {
        const __half2 h = ((const __half2*)points)[i];
        *re = __low2float(h);
        *im = __high2float(h);
    } else {
        const float2 f = ((const float2*)points)[i];
        *re = f.x;
        *im = f.y;
    }
}

// DFT in double of `count` points (a power of two) `stride` apart, in place (xr, xi), with cos/sin
// tables of `count`
static void dft(double* xr, double* xi, long count, long stride) {
    std::vector<double> c(count), sn(count), yr(count), yi(count);
    for (long q = 0; q < count; q++) { c[q] = cos(-2 * M_PI * q / count); sn[q] = sin(-2 * M_PI * q / count); }
    for (long k = 0; k < count; k++) {
        double sr = 0, si = 0;
        for (long j = 0, q = 0; j < count; j++, q = (q + k) & (count - 1)) {
            sr += xr[j * stride] * c[q] - xi[j * stride] * sn[q];
            si += xr[j * stride] * sn[q] + xi[j * stride] * c[q];
        }
        yr[k] = sr; yi[k] = si;
    }
    for (long k = 0; k < count; k++) { xr[k * stride] = yr[k]; xi[k * stride] = yi[k]; }
}

// relative L2 error of transforms first .. first + count - 1 against a DFT in double (a 2D shape: its
// rows, then its columns)
static double check(const entry& e, const void* hin, const void* hout, long first, int count) {
    const long columns = e.n / e.rows;
    std::vector<double> xr(e.n), xi(e.n);
    double err = 0, ref = 0;
    for (long b = first; b < first + count; b++) {
        for (long j = 0; j < e.n; j++) point_at(e, hin, in_index(e, b, j), &xr[j], &xi[j]);
        for (long r = 0; r < e.rows; r++) dft(&xr[r * columns], &xi[r * columns], columns, 1);
        if (e.rows > 1)
            for (long col = 0; col < columns; col++) dft(&xr[col], &xi[col], e.rows, columns);
        for (long k = 0; k < e.n; k++) {
            double yr, yi;
            point_at(e, hout, out_index(e, b, k), &yr, &yi);
            err += (yr - xr[k]) * (yr - xr[k]) + (yi - xi[k]) * (yi - xi[k]);
            ref += xr[k] * xr[k] + xi[k] * xi[k];
        }
    }
    return sqrt(err / ref);
}

// FNV-1a over an output's bytes
static unsigned long long output_hash(const char* bytes, size_t size) {
    unsigned long long h = 14695981039346656037ull;
    for (size_t i = 0; i < size; i++) h = (h ^ (unsigned char)bytes[i]) * 1099511628211ull;
    return h;
}

// entries of one spec: its variants lie next to each other in entries.inc, named "NAME FLAGS"
static bool same_spec(const entry& a, const entry& b) {
    const char* flags_a = strchr(a.variant, ' ');
    const char* flags_b = strchr(b.variant, ' ');
    const bool same_flags = flags_a && flags_b ? !strcmp(flags_a, flags_b) : flags_a == flags_b;
    return same_flags && a.n == b.n && a.rows == b.rows && a.fp16 == b.fp16 && a.istride == b.istride &&
           a.idist == b.idist && a.ostride == b.ostride && a.odist == b.odist;
}

static void usage() {
    fprintf(stderr, "usage: fftgen-kernel-ab [RUNS [ROUNDS]] [--out-at MB[,MB...]] [--points P]\n"
                    "  RUNS, ROUNDS  timed runs per entry and round (default 30 and 3)\n"
                    "  --points      time calls of P points in all (a power of two, at least each entry's\n"
                    "                points and at most 2^27; default 2^27); the check stays at 2^27\n"
                    "  --out-at      the output starts MB after the input, in one allocation (at least 512 MB:\n"
                    "                fp32 entries need 1024 and are skipped below it); one timing per value\n");
    exit(2);
}

int main(int argc, char** argv) {
    int runs = 30, rounds = 3, positional = 0;
    long timed_points = TOTAL;
    std::vector<long> out_at; // MB; empty: two allocations
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out-at") && i + 1 < argc) {
            for (char* t = strtok(argv[++i], ","); t; t = strtok(NULL, ",")) {
                const long mb = atol(t);
                if (mb < 512) usage();
                out_at.push_back(mb);
            }
        } else if (!strcmp(argv[i], "--points") && i + 1 < argc) {
            timed_points = atol(argv[++i]);
            if (timed_points < 1 || timed_points > TOTAL || (timed_points & (timed_points - 1))) usage();
        } else if (positional < 2 && atoi(argv[i]) >= 1) {
            (positional++ ? rounds : runs) = atoi(argv[i]);
        } else {
            usage();
        }
    }
    int wrong = 0;
    const int count = sizeof entries / sizeof entries[0];
    for (int i = 0; i < count; i++) { // layouts must keep within the buffers
        const entry& e = entries[i];
        const long last = TOTAL / e.n - 1;
        if (in_index(e, last, e.n - 1) >= TOTAL || out_index(e, last, e.n - 1) >= TOTAL) {
            fprintf(stderr, "fftgen-kernel-ab: %s %ld: its layouts reach past the buffers' %ld points\n", e.variant, e.n,
                    TOTAL);
            return 2;
        }
        if (e.n > timed_points) {
            fprintf(stderr, "fftgen-kernel-ab: %s %ld: more points than --points %ld\n", e.variant, e.n, timed_points);
            return 2;
        }
    }
    void *in, *out;
    const long max_at = out_at.empty() ? 0 : *std::max_element(out_at.begin(), out_at.end());
    if (out_at.empty()) {
        CHECK(cudaMalloc(&in, TOTAL * 8)); CHECK(cudaMalloc(&out, TOTAL * 8));
    } else {
        CHECK(cudaMalloc(&in, (max_at << 20) + TOTAL * 8));
        out = (char*)in + (out_at[0] << 20);
    }
    CHECK(cudaMalloc(&work_area, TOTAL * 8));
    std::vector<float> host(TOTAL * 2); srand(7);
    for (long i = 0; i < TOTAL * 2; i++) host[i] = (float)rand() / RAND_MAX * 2 - 1;
    std::vector<__half2> hosth(TOTAL);
    for (long i = 0; i < TOTAL; i++) hosth[i] = __floats2half2_rn(host[2 * i], host[2 * i + 1]);
    auto inputs = [&](const entry& e) { return e.fp16 ? (const void*)hosth.data() : (const void*)host.data(); };
    std::vector<char> results(TOTAL * 8);
    cudaEvent_t a, b; CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
    // copy bandwidth for 4- and 8-byte points, between the buffers as placed now
    auto measure_copy = [&](double copy_ms[2]) {
        for (int p = 0; p < 2; p++) {
            std::vector<float> t;
            for (int r = 0; r < runs + 5; r++) {
                CHECK(cudaEventRecord(a)); CHECK(cudaMemcpyAsync(out, in, timed_points * (p ? 8 : 4), cudaMemcpyDeviceToDevice));
                CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b)); float ms; CHECK(cudaEventElapsedTime(&ms, a, b));
                if (r >= 5) t.push_back(ms);
            }
            std::sort(t.begin(), t.end()); copy_ms[p] = t[t.size() / 2];
        }
        printf("copy of %ld points: fp16 bytes %.4f ms (%.0f GB/s), fp32 bytes %.4f ms (%.0f GB/s)\n", timed_points, copy_ms[0],
               2 * timed_points * 4 / copy_ms[0] / 1e6, copy_ms[1], 2 * timed_points * 8 / copy_ms[1] / 1e6);
    };
    // an entry fits the placement if its output does not overlap its input
    auto fits = [&](const entry& e, long at) { return at == 0 || (at << 20) >= (long)(TOTAL * point_bytes(e)); };
    const long first_at = out_at.empty() ? 0 : out_at[0];
    std::vector<unsigned long long> hashes(count, 0);
    for (int i = 0; i < count; i++) { // correctness, with poisoned outputs
        const entry& e = entries[i];
        if (!fits(e, first_at)) continue;
        CHECK(cudaMemcpy(in, inputs(e), TOTAL * point_bytes(e), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(out, 0xff, TOTAL * 8));
        int batch = (int)(TOTAL / e.n);
        CHECK(launch(e, in, out, batch)); CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(results.data(), out, TOTAL * point_bytes(e), cudaMemcpyDeviceToHost));
        if (e.rows == 0 || e.n > (e.rows == 1 ? LARGEST_CHECKED_1D : LARGEST_CHECKED)) {
            // too large for the DFT: the output's bits against the first entry of the same spec, so that a
            // variant meant to compute the same arithmetic is seen to
            const unsigned long long hash = output_hash(results.data(), TOTAL * point_bytes(e));
            int first = i;
            while (first > 0 && same_spec(entries[first - 1], e)) first--;
            const bool differs = first != i && hash != hashes[first];
            hashes[i] = hash;
            printf("%-10s %-4s %8ld  not checked (a %s); output hash %016llx%s\n", e.variant, e.fp16 ? "fp16" : "fp32", e.n,
                   e.rows == 0 ? "3D shape" : e.rows > 1 ? "large 2D shape" : "1D size above 2^14", hash,
                   first == i ? "" : differs ? "  (differs from the first variant's)" : "  (the first variant's, bit for bit)");
            continue;
        }
        double err = check(e, inputs(e), results.data(), 0, e.n <= 1024 ? 4 : 1);
        // the last transform too: it sits in the last block
        double err_last = check(e, inputs(e), results.data(), batch - 1, 1);
        const double bound = e.fp16 ? 1e-3 : 1e-6;
        const bool bad = !(err < bound) || !(err_last < bound); // NaN counts as wrong
        wrong += bad;
        printf("%-10s %-4s %8ld  rel L2 error %.3e (last transform %.3e)%s\n", e.variant, e.fp16 ? "fp16" : "fp32", e.n, err, err_last,
               bad ? "  WRONG" : "");
    }
    if (out_at.empty()) out_at.push_back(0);
    for (long at : out_at) {
        if (at) {
            out = (char*)in + (at << 20);
            printf("-- the output %ld MB after the input\n", at);
        }
        double copy_ms[2];
        measure_copy(copy_ms);
        std::vector<std::vector<float>> times(count);
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < count; i++) {
                const entry& e = entries[i];
                if (!fits(e, at)) continue;
                int batch = (int)(timed_points / e.n);
                if (i == 0 || entries[i - 1].fp16 != e.fp16) // fresh random inputs of this precision
                    CHECK(cudaMemcpy(in, inputs(e), TOTAL * point_bytes(e), cudaMemcpyHostToDevice));
                for (int k = 0; k < 5; k++) CHECK(launch(e, in, out, batch));
                for (int k = 0; k < runs; k++) {
                    CHECK(cudaEventRecord(a)); CHECK(launch(e, in, out, batch)); CHECK(cudaEventRecord(b));
                    CHECK(cudaEventSynchronize(b)); float ms; CHECK(cudaEventElapsedTime(&ms, a, b)); times[i].push_back(ms);
                }
            }
        }
        for (int i = 0; i < count; i++) {
            const entry& e = entries[i];
            if (times[i].empty()) continue;
            std::sort(times[i].begin(), times[i].end());
            double ms = times[i][times[i].size() / 2];
            printf("%-10s %-4s %8ld  %.4f ms  %5.1f%% of copy  (min %.4f, max %.4f)\n", e.variant, e.fp16 ? "fp16" : "fp32", e.n, ms,
                   100 * copy_ms[!e.fp16] / ms, times[i].front(), times[i].back());
        }
    }
    return wrong ? 1 : 0;
}

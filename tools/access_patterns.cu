// fftgen-access-patterns: how fast the global-memory access patterns of fftgen's four-step passes
// move data on this GPU, with no arithmetic: the bound each pattern sets on a pass, in % of a
// device-to-device copy. A block moves a tile of T columns of an L x L matrix, 16 points per thread,
// as the passes do (results/notes.md, "Pass 1 writes its tiles as blocks"). --shared gives each block
// dynamic shared memory it does not use, so that as few blocks share an SM as in the passes, whose
// exchange memory holds them to one or two.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

enum Pattern {
    CONTIGUOUS, // the tile's points one after another (rows, or a block)
    COLUMNS,    // runs of T points, L apart (a tile of columns in place)
    BLOCKS      // runs of T*T points, T*L apart (rows read from the blocks a pass 1 wrote)
};

constexpr int POINTS_PER_THREAD = 16;

// Element e of tile `tile` in `pattern`; L and T are powers of two (log_l, log_t).
__device__ long long element(Pattern pattern, long long tile, int e, int log_l, int log_t)
{
    const int t = 1 << log_t;
    switch (pattern) {
    case CONTIGUOUS: return (tile << (log_l + log_t)) + e;
    case COLUMNS: return ((long long)(e >> log_t) << log_l) + tile * t + (e & (t - 1));
    default: return ((long long)(e >> (2 * log_t)) << (log_t + log_l)) + tile * t * t + (e & (t * t - 1));
    }
}

template <typename Point>
__global__ void move_tiles(const Point *in, Point *out, int log_l, int log_t, Pattern read, Pattern write)
{
    const long long tiles = 1LL << (log_l - log_t); // per matrix
    const long long matrix = blockIdx.x / tiles, tile = blockIdx.x % tiles;
    const size_t base = (size_t)matrix << (2 * log_l);
    Point v[POINTS_PER_THREAD];
#pragma unroll
    for (int u = 0; u < POINTS_PER_THREAD; ++u)
        v[u] = in[base + element(read, tile, threadIdx.x + u * blockDim.x, log_l, log_t)];
#pragma unroll
    for (int u = 0; u < POINTS_PER_THREAD; ++u)
        out[base + element(write, tile, threadIdx.x + u * blockDim.x, log_l, log_t)] = v[u];
}

struct Case {
    const char *what;
    Pattern read, write;
};
const Case CASES[] = {
    {"contiguous -> contiguous (a copy)", CONTIGUOUS, CONTIGUOUS},
    {"columns -> columns (pass 1 in place)", COLUMNS, COLUMNS},
    {"columns -> blocks (pass 1 writing blocks)", COLUMNS, CONTIGUOUS},
    {"rows -> columns (pass 2 written transposed)", CONTIGUOUS, COLUMNS},
    {"blocks -> columns (pass 2 reading blocks)", BLOCKS, COLUMNS},
    {"blocks -> rows (2D rows, columns first)", BLOCKS, CONTIGUOUS},
};

bool check(cudaError_t status, const char *what)
{
    if (status == cudaSuccess) return true;
    fprintf(stderr, "fftgen-access-patterns: %s failed: %s\n", what, cudaGetErrorString(status));
    return false;
}

// Median of `runs` timed calls of `launch` (after three warm-ups), in ms; negative on a CUDA error.
template <typename Launch> float median_ms(int runs, Launch launch)
{
    cudaEvent_t start, stop;
    if (!check(cudaEventCreate(&start), "cudaEventCreate")) return -1;
    if (!check(cudaEventCreate(&stop), "cudaEventCreate")) return -1;
    std::vector<float> times;
    bool ok = true;
    for (int r = 0; r < runs + 3 && ok; ++r) {
        ok = check(cudaEventRecord(start), "cudaEventRecord") && check(launch(), "the launch") &&
             check(cudaEventRecord(stop), "cudaEventRecord") && check(cudaEventSynchronize(stop), "the run");
        float ms = 0;
        if (ok) ok = check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (ok && r >= 3) times.push_back(ms);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (!ok) return -1;
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

template <typename Point>
bool measure(const char *precision, void *a, void *b, long long points, int runs, int log_l, int log_t, int shared)
{
    const int threads = (1 << (log_l + log_t)) / POINTS_PER_THREAD;
    const long long blocks = points >> (log_l + log_t);
    const size_t bytes = (size_t)points * sizeof(Point);
    if (!check(cudaFuncSetAttribute(move_tiles<Point>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared),
               "cudaFuncSetAttribute (--shared beyond this GPU's limit?)"))
        return false;
    const float copy = median_ms(runs, [&] { return cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); });
    if (copy < 0) return false;
    printf("%s, L = %d, T = %d (%d threads a block", precision, 1 << log_l, 1 << log_t, threads);
    if (shared > 0) printf(", %d bytes of shared memory", shared);
    printf("): copy %.4f ms (%.0f GB/s)\n", copy, 2.0 * bytes / copy / 1e6);
    for (const Case &c : CASES) {
        const float ms = median_ms(runs, [&] {
            move_tiles<Point><<<(unsigned)blocks, threads, shared>>>((const Point *)a, (Point *)b, log_l, log_t,
                                                                     c.read, c.write);
            return cudaGetLastError();
        });
        if (ms < 0) return false;
        printf("  %-44s %.4f ms  %5.1f%% of copy\n", c.what, ms, 100.0 * copy / ms);
    }
    return true;
}

int log2_exact(long long v)
{
    int k = 0;
    while ((1LL << k) < v) ++k;
    return (v > 0 && (1LL << k) == v) ? k : -1;
}

void usage(FILE *to)
{
    fprintf(to, "Usage: fftgen-access-patterns [--points TOTAL] [--runs R] [--shared BYTES] [LxT...]\n"
                "Times the global-memory access patterns of fftgen's four-step passes with no arithmetic:\n"
                "a block moves a tile of T columns of an L x L matrix (16 points a thread), reading and\n"
                "writing columns in place, blocks, or rows, as pass 1 and pass 2 did and do (and as the\n"
                "rows of a 2D shape with the columns first: blocks -> rows); fp16 (4-byte)\n"
                "and fp32 (8-byte) points. Each row gives the median time and the %% of a device-to-device\n"
                "copy of the same bytes.\n\n"
                "  LxT             column length and tile width, powers of two with L*T from 512 to 16384\n"
                "                  (default 512x8 1024x8 2048x8 1024x16)\n"
                "  --points TOTAL  points moved per measurement, a power of two (default 2^27)\n"
                "  --runs R        timed runs per pattern, after 3 warm-ups (default 25)\n"
                "  --shared BYTES  dynamic shared memory per block, unused, to hold as few blocks an\n"
                "                  SM as a pass's exchange memory does (e.g. 69632: fftgen's 8192-point\n"
                "                  blocks, two an SM on sm_90; default 0)\n"
                "  -h, --help      this text\n\n"
                "Exit status: 0; 1 when there is no GPU or a CUDA call fails; 2 on bad arguments.\n");
}

} // namespace

int main(int argc, char **argv)
{
    long long points = 1LL << 27;
    int runs = 25, shared = 0;
    std::vector<std::pair<int, int>> shapes;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(arg, "--shared") && i + 1 < argc) {
            char *end = nullptr;
            const long value = strtol(argv[++i], &end, 10);
            if (*end != '\0' || value < 0 || value > 256 * 1024) {
                fprintf(stderr, "fftgen-access-patterns: --shared '%s' is not a byte count from 0 to 262144\n",
                        argv[i]);
                return 2;
            }
            shared = (int)value;
            continue;
        }
        if ((!strcmp(arg, "--points") || !strcmp(arg, "--runs")) && i + 1 < argc) {
            char *end = nullptr;
            const long long value = strtoll(argv[++i], &end, 10);
            const bool is_points = !strcmp(arg, "--points");
            if (*end != '\0' || (is_points ? log2_exact(value) < 14 || value > (1LL << 30) : value < 1 || value > 10000)) {
                fprintf(stderr, "fftgen-access-patterns: %s '%s' is not %s\n", arg, argv[i],
                        is_points ? "a power of two from 2^14 to 2^30" : "a count from 1 to 10000");
                return 2;
            }
            if (is_points) points = value; else runs = (int)value;
            continue;
        }
        long long l = 0, t = 0;
        char rest = 0;
        const int log_l = sscanf(arg, "%lldx%lld%c", &l, &t, &rest) == 2 ? log2_exact(l) : -1;
        const int log_t = log2_exact(t);
        if (log_l < 0 || log_t < 0 || l * t < 512 || l * t > 16384) {
            fprintf(stderr, "fftgen-access-patterns: '%s' is not LxT (powers of two, L*T from 512 to"
                            " 16384); see --help\n", arg);
            return 2;
        }
        shapes.push_back({log_l, log_t});
    }
    if (shapes.empty()) shapes = {{9, 3}, {10, 3}, {11, 3}, {10, 4}};
    for (const auto &s : shapes)
        if (points < (1LL << (2 * s.first))) {
            fprintf(stderr, "fftgen-access-patterns: --points %lld holds no %d x %d matrix\n", points, 1 << s.first,
                    1 << s.first);
            return 2;
        }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "fftgen-access-patterns: no CUDA GPU found\n");
        return 1;
    }
    void *a = nullptr, *b = nullptr;
    bool ok = check(cudaMalloc(&a, points * 8), "cudaMalloc") && check(cudaMalloc(&b, points * 8), "cudaMalloc") &&
              check(cudaMemset(a, 0x3c, points * 8), "cudaMemset") && check(cudaMemset(b, 0, points * 8), "cudaMemset");
    for (const auto &s : shapes) {
        if (ok) ok = measure<unsigned>("fp16", a, b, points, runs, s.first, s.second, shared);
        if (ok) ok = measure<unsigned long long>("fp32", a, b, points, runs, s.first, s.second, shared);
    }
    cudaFree(a);
    cudaFree(b);
    return ok ? 0 : 1;
}

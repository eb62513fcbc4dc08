// fftgen-access-patterns: how fast the global-memory access patterns of fftgen's four-step passes
// move data on this GPU, with no arithmetic: the bound each pattern sets on a pass, in % of a
// device-to-device copy. A block moves a tile of T columns of an L x L matrix, 16 points per thread,
// as the passes do (results/notes.md, "Pass 1 writes its tiles as blocks"). --shared gives each block
// dynamic shared memory it does not use, so that as few blocks share an SM as in the passes, whose
// exchange memory holds them to one or two. Columns -> blocks also runs with loads that ask L2 for the
// 256 bytes around each point and, where a tile's rows are whole 16-byte pieces, with a 16-byte load a
// piece and (sm_90) through the tensor memory accelerator (TMA) into shared memory: other ways a pass
// could read its columns than one load a point.
#include <cuda.h> // CUtensorMap and its enums only: the encoder comes through the runtime
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

// A point loaded with the hint that L2 fetch the 256 bytes around it from DRAM (PTX .L2::256B, sm_80):
// tiles narrower than a sector then find their neighbours' halves of it in L2.
template <typename Point> __device__ __forceinline__ Point load_asking_256(const Point *p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    return *p;
#else
    if constexpr (sizeof(Point) == 4) {
        unsigned v;
        asm("ld.global.L2::256B.b32 %0, [%1];" : "=r"(v) : "l"(p));
        return v;
    } else {
        unsigned long long v;
        asm("ld.global.L2::256B.b64 %0, [%1];" : "=l"(v) : "l"(p));
        return v;
    }
#endif
}

template <typename Point, bool ASK_256 = false>
__global__ void move_tiles(const Point *in, Point *out, int log_l, int log_t, Pattern read, Pattern write)
{
    const long long tiles = 1LL << (log_l - log_t); // per matrix
    const long long matrix = blockIdx.x / tiles, tile = blockIdx.x % tiles;
    const size_t base = (size_t)matrix << (2 * log_l);
    Point v[POINTS_PER_THREAD];
#pragma unroll
    for (int u = 0; u < POINTS_PER_THREAD; ++u) {
        const Point *from = in + base + element(read, tile, threadIdx.x + u * blockDim.x, log_l, log_t);
        v[u] = ASK_256 ? load_asking_256(from) : *from;
    }
#pragma unroll
    for (int u = 0; u < POINTS_PER_THREAD; ++u)
        out[base + element(write, tile, threadIdx.x + u * blockDim.x, log_l, log_t)] = v[u];
}

constexpr int PIECE_BYTES = 16;
constexpr int TMA_BOX_ROWS = 256; // the most rows one TMA copy takes

// Columns -> blocks with one 16-byte load a piece of a row (T * sizeof(Point) a multiple of 16): the
// same bytes and threads as move_tiles, a quarter (fp16) or an eighth (fp32) of its loads.
template <typename Point>
__global__ void move_column_pieces(const Point *in, Point *out, int log_l, int log_t)
{
    constexpr int POINTS_PER_PIECE = PIECE_BYTES / sizeof(Point);
    constexpr int PIECES_PER_THREAD = POINTS_PER_THREAD / POINTS_PER_PIECE;
    const long long tiles = 1LL << (log_l - log_t);
    const long long matrix = blockIdx.x / tiles, tile = blockIdx.x % tiles;
    const size_t base = (size_t)matrix << (2 * log_l);
    const int pieces_per_row = (1 << log_t) / POINTS_PER_PIECE;
    uint4 v[PIECES_PER_THREAD];
#pragma unroll
    for (int u = 0; u < PIECES_PER_THREAD; ++u) {
        const int piece = threadIdx.x + u * blockDim.x;
        const long long row = piece / pieces_per_row, column = tile * (1 << log_t) + (piece % pieces_per_row) *
                                                                   POINTS_PER_PIECE;
        v[u] = *(const uint4 *)(in + base + (row << log_l) + column);
    }
    uint4 *block = (uint4 *)(out + base + (tile << (log_l + log_t)));
#pragma unroll
    for (int u = 0; u < PIECES_PER_THREAD; ++u) block[threadIdx.x + u * blockDim.x] = v[u];
}

// Columns -> blocks through TMA (sm_90): one thread asks for the tile in boxes of T x TMA_BOX_ROWS
// points into shared memory, every thread waits on the copies' mbarrier, then the block writes the
// staged tile out as a block, a 16-byte store a piece. `columns` maps the matrices' rows (see
// encode_columns).
template <typename Point>
__global__ void move_column_tiles_tma(const __grid_constant__ CUtensorMap columns, Point *out, int log_l, int log_t)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(8) unsigned long long staged;
    extern __shared__ __align__(128) unsigned char staging[];
    const long long tiles = 1LL << (log_l - log_t);
    const long long matrix = blockIdx.x / tiles, tile = blockIdx.x % tiles;
    const int l = 1 << log_l, t = 1 << log_t, box_rows = l < TMA_BOX_ROWS ? l : TMA_BOX_ROWS;
    const unsigned barrier = (unsigned)__cvta_generic_to_shared(&staged);
    const unsigned destination = (unsigned)__cvta_generic_to_shared(staging);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier) : "memory");
        // the initialized barrier is visible to the copy engine (the async proxy) before it completes on it
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        unsigned long long state;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
                     : "=l"(state)
                     : "r"(barrier), "r"((unsigned)(l * t * sizeof(Point)))
                     : "memory");
        for (int row = 0; row < l; row += box_rows)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(destination + (unsigned)(row * t * sizeof(Point))),
                         "l"(&columns), "r"((int)(tile * t)), "r"((int)(matrix * l + row)), "r"(barrier)
                         : "memory");
    }
    __syncthreads(); // the barrier is initialized before any thread waits on it
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred ready; mbarrier.try_wait.parity.shared::cta.b64 ready, [%1], 0;"
                     " selp.u32 %0, 1, 0, ready; }"
                     : "=r"(done)
                     : "r"(barrier)
                     : "memory");
    const uint4 *from = (const uint4 *)staging;
    uint4 *block = (uint4 *)(out + ((size_t)matrix << (2 * log_l)) + (tile << (log_l + log_t)));
    const int pieces = (int)(l * t * sizeof(Point) / PIECE_BYTES);
    for (int piece = threadIdx.x; piece < pieces; piece += blockDim.x) block[piece] = from[piece];
#endif
}

// The input's points numbered, so that a misplaced point shows.
template <typename Point> __global__ void number_points(Point *a, long long points)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < points;
         i += (long long)gridDim.x * blockDim.x)
        a[i] = (Point)i;
}

// Counts the points of `out` that are not where columns -> blocks puts them.
template <typename Point>
__global__ void count_misplaced(const Point *in, const Point *out, long long points, int log_l, int log_t,
                                unsigned long long *misplaced)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < points;
         i += (long long)gridDim.x * blockDim.x) {
        const long long base = (i >> (2 * log_l)) << (2 * log_l), within = i - base;
        const long long tile = within >> (log_l + log_t);
        const int e = (int)(within & ((1LL << (log_l + log_t)) - 1));
        if (out[i] != in[base + element(COLUMNS, tile, e, log_l, log_t)]) atomicAdd(misplaced, 1ULL);
    }
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

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The driver's tensor-map encoder, through the runtime (the tool does not link libcuda); null where the
// driver has none.
EncodeTiled tensor_map_encoder()
{
    void *function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
        return nullptr;
    return (EncodeTiled)function;
}

// The rows of all the L x L matrices in `a` as one 2D tensor (points / L rows of L points), copied in
// boxes of T x TMA_BOX_ROWS points: a tile's columns.
template <typename Point>
bool encode_columns(EncodeTiled encode, CUtensorMap *map, void *a, long long points, int log_l, int log_t,
                    CUtensorMapL2promotion promotion)
{
    const cuuint64_t dims[2] = {(cuuint64_t)1 << log_l, (cuuint64_t)(points >> log_l)};
    const cuuint64_t row_bytes[1] = {((cuuint64_t)1 << log_l) * sizeof(Point)};
    const cuuint32_t box[2] = {(cuuint32_t)1 << log_t, (cuuint32_t)std::min(1 << log_l, TMA_BOX_ROWS)};
    const cuuint32_t steps[2] = {1, 1};
    const CUresult status =
        encode(map, sizeof(Point) == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_INT64, 2, a, dims,
               row_bytes, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, promotion,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (status == CUDA_SUCCESS) return true;
    fprintf(stderr, "fftgen-access-patterns: cuTensorMapEncodeTiled failed (CUresult %d)\n", (int)status);
    return false;
}

// Whether `b` holds `a`'s tiles as columns -> blocks moves them; says which case did not.
template <typename Point>
bool moved_right(const void *a, const void *b, long long points, int log_l, int log_t, const char *what)
{
    unsigned long long *misplaced = nullptr, count = 0;
    bool ok = check(cudaMalloc(&misplaced, sizeof *misplaced), "cudaMalloc") &&
              check(cudaMemset(misplaced, 0, sizeof *misplaced), "cudaMemset");
    if (ok) {
        count_misplaced<Point><<<1024, 256>>>((const Point *)a, (const Point *)b, points, log_l, log_t, misplaced);
        ok = check(cudaGetLastError(), "the check's launch") &&
             check(cudaMemcpy(&count, misplaced, sizeof count, cudaMemcpyDeviceToHost), "the check");
    }
    cudaFree(misplaced);
    if (ok && count != 0)
        fprintf(stderr, "fftgen-access-patterns: %s misplaced %llu of %lld points\n", what, count, points);
    return ok && count == 0;
}

void print_case(const char *what, float ms, float copy)
{
    printf("  %-44s %.4f ms  %5.1f%% of copy\n", what, ms, 100.0 * copy / ms);
}

template <typename Point>
bool measure(const char *precision, void *a, void *b, long long points, int runs, int log_l, int log_t, int shared)
{
    const int threads = (1 << (log_l + log_t)) / POINTS_PER_THREAD;
    const long long blocks = points >> (log_l + log_t);
    const size_t bytes = (size_t)points * sizeof(Point);
    if (!check(cudaFuncSetAttribute(move_tiles<Point>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared),
               "cudaFuncSetAttribute (--shared beyond this GPU's limit?)") ||
        !check(cudaFuncSetAttribute(move_tiles<Point, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared),
               "cudaFuncSetAttribute") ||
        !check(cudaFuncSetAttribute(move_column_pieces<Point>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared),
               "cudaFuncSetAttribute"))
        return false;
    number_points<Point><<<1024, 256>>>((Point *)a, points);
    if (!check(cudaGetLastError(), "numbering the input")) return false;
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
        print_case(c.what, ms, copy);
    }
    // each new way of moving the tiles starts from poisoned output and must leave every point in place
    if (!check(cudaMemset(b, 0xff, bytes), "cudaMemset")) return false;
    const float asking_ms = median_ms(runs, [&] {
        move_tiles<Point, true><<<(unsigned)blocks, threads, shared>>>((const Point *)a, (Point *)b, log_l, log_t,
                                                                       COLUMNS, CONTIGUOUS);
        return cudaGetLastError();
    });
    if (asking_ms < 0 || !moved_right<Point>(a, b, points, log_l, log_t, "loads asking L2 for 256 B")) return false;
    print_case("columns -> blocks, loads asking L2 for 256 B", asking_ms, copy);
    if (((size_t)1 << log_t) * sizeof(Point) % PIECE_BYTES != 0) return true; // rows of part of a piece
    if (!check(cudaMemset(b, 0xff, bytes), "cudaMemset")) return false;
    const float pieces_ms = median_ms(runs, [&] {
        move_column_pieces<Point><<<(unsigned)blocks, threads, shared>>>((const Point *)a, (Point *)b, log_l, log_t);
        return cudaGetLastError();
    });
    if (pieces_ms < 0 || !moved_right<Point>(a, b, points, log_l, log_t, "16-byte loads")) return false;
    print_case("columns -> blocks, a 16-byte load a piece", pieces_ms, copy);
    // TMA: sm_90 and newer; the staged tile counts within --shared (a pass's exchange memory would hold it)
    int device = 0, major = 0, most_shared = 0;
    if (!check(cudaGetDevice(&device), "cudaGetDevice") ||
        !check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute") ||
        !check(cudaDeviceGetAttribute(&most_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
               "cudaDeviceGetAttribute"))
        return false;
    const int staged = std::max(shared, (int)(((size_t)1 << (log_l + log_t)) * sizeof(Point)));
    const EncodeTiled encode = major >= 9 ? tensor_map_encoder() : nullptr;
    if (encode == nullptr || staged > most_shared) {
        printf("  %-44s (%s)\n", "columns -> blocks, TMA",
               encode == nullptr ? "needs sm_90 and a driver with TMA" : "the tile does not fit shared memory");
        return true;
    }
    if (!check(cudaFuncSetAttribute(move_column_tiles_tma<Point>, cudaFuncAttributeMaxDynamicSharedMemorySize, staged),
               "cudaFuncSetAttribute"))
        return false;
    const struct {
        const char *what;
        CUtensorMapL2promotion promotion;
    } promotions[] = {{"columns -> blocks, TMA", CU_TENSOR_MAP_L2_PROMOTION_NONE},
                      {"columns -> blocks, TMA, L2 promotion 256 B", CU_TENSOR_MAP_L2_PROMOTION_L2_256B}};
    for (const auto &p : promotions) {
        CUtensorMap map;
        if (!encode_columns<Point>(encode, &map, a, points, log_l, log_t, p.promotion) ||
            !check(cudaMemset(b, 0xff, bytes), "cudaMemset"))
            return false;
        const float ms = median_ms(runs, [&] {
            move_column_tiles_tma<Point><<<(unsigned)blocks, threads, staged>>>(map, (Point *)b, log_l, log_t);
            return cudaGetLastError();
        });
        if (ms < 0 || !moved_right<Point>(a, b, points, log_l, log_t, p.what)) return false;
        print_case(p.what, ms, copy);
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
                "and fp32 (8-byte) points. columns -> blocks also with loads that ask L2 for 256 bytes\n"
                "(PTX .L2::256B, sm_80), and where a tile's rows are whole 16-byte pieces with a 16-byte\n"
                "load a piece and on sm_90 through TMA into shared memory (the tile staged there, within\n"
                "--shared), without and with L2 promotion of 256 bytes. Each row gives the median time\n"
                "and the %% of a device-to-device copy of the same bytes.\n\n"
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
              check(cudaMemset(b, 0, points * 8), "cudaMemset"); // measure numbers a's points
    for (const auto &s : shapes) {
        if (ok) ok = measure<unsigned>("fp16", a, b, points, runs, s.first, s.second, shared);
        if (ok) ok = measure<unsigned long long>("fp32", a, b, points, runs, s.first, s.second, shared);
    }
    cudaFree(a);
    cudaFree(b);
    return ok ? 0 : 1;
}

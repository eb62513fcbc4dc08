-- Renders one file from a transform plan: the CUDA C source (target "cuda"), or through sim.lua
-- the host simulation in plain C (target "sim"). A transform is one kernel, or several passes
-- over global memory. Both targets share the phase bodies that stage.lua writes and the pieces
-- of header.lua, pass_setup.lua and intermediate.lua, so the simulation checks the very indexing
-- the GPU runs.
local code = require("code")
local twiddle = require("twiddle")
local stage = require("stage")
local tc16 = require("tc16")
local plan_facts = require("plan_facts")
local SIGN, uses_shared, multi, fused, clustered, grouped_slices, through_work, any_pass_that, tensor_cores,
  any_cluster, reads_pass_tables, per_block_batch, shuffle_tail, radix32, pad_text, sparse_pad, wide_pad,
  computed_twiddles, shared_exponent, prefetching, any_prefetch, bulk_copies, slice_copies, tile_copies,
  tma_columns, tma_runs, swizzled_tile_copies, swizzled_runs, l2_prefetching, storage_type, groups, kernel_name,
  pass_buffers =
  plan_facts.SIGN, plan_facts.uses_shared, plan_facts.multi, plan_facts.fused, plan_facts.clustered,
  plan_facts.grouped_slices, plan_facts.through_work, plan_facts.any_pass_that, plan_facts.tensor_cores,
  plan_facts.any_cluster, plan_facts.reads_pass_tables, plan_facts.per_block_batch, plan_facts.shuffle_tail,
  plan_facts.radix32, plan_facts.pad_text, plan_facts.sparse_pad, plan_facts.wide_pad,
  plan_facts.computed_twiddles, plan_facts.shared_exponent, plan_facts.prefetching, plan_facts.any_prefetch,
  plan_facts.bulk_copies, plan_facts.slice_copies, plan_facts.tile_copies, plan_facts.tma_columns,
  plan_facts.tma_runs, plan_facts.swizzled_tile_copies, plan_facts.swizzled_runs, plan_facts.l2_prefetching,
  plan_facts.storage_type, plan_facts.groups, plan_facts.kernel_name, plan_facts.pass_buffers
local header = require("header").header
local pass_setup = require("pass_setup")
local pass_constants, tile_indices, tile_input, slice_smem, prologue, tables =
  pass_setup.pass_constants, pass_setup.tile_indices, pass_setup.tile_input, pass_setup.slice_smem,
  pass_setup.prologue, pass_setup.tables
local shared_exponent_helpers = require("intermediate").shared_exponent_helpers
local render_sim = require("sim").render_sim

local M = {}

-- A TMA pass's shared memory (fftgen_kernel_plan.tma_columns), said and checked: the exchanges, then the
-- staging buffer (laid out as `staged` says) and the mbarrier, or the staging buffer inside the exchanges
-- and the mbarrier past them (tma_in_exchanges). A run pass's kernel moves its buffer on to the first 1024
-- bytes of the shared window at or after its offset (the swizzle's period), which takes 1024 bytes more.
local function tma_layout(w, p, staged)
  local skew = tma_runs(p) and "1024 + " or ""
  local from = tma_runs(p) and "the first 1024 bytes of the shared window at or after " or ""
  w:line("// shared memory holds float2 with %s;", pad_text(p))
  if p.tma_in_exchanges then
    w:line("// inside them, from %sbyte 0, the staging buffer", from)
    w:line("// (%s);", staged)
    w:line("// then the mbarrier, past them")
    w:line("static_assert(SHARED_BYTES == SMEM_POINTS * sizeof(float2) + 16 && STAGING_OFFSET == 0 &&")
    w:line("              %sFFTS_PER_BLOCK * POINTS * sizeof(point_t) <= SMEM_POINTS * sizeof(float2), \"inside the exchanges\");", skew)
  else
    w:line("// then, from %sbyte STAGING_OFFSET, the staging buffer", from)
    w:line("// (%s)", staged)
    w:line("// and the mbarrier")
    w:line("static_assert(SHARED_BYTES == STAGING_OFFSET + %sFFTS_PER_BLOCK * POINTS * sizeof(point_t) + 16, \"shared memory size\");", skew)
    w:line("static_assert(STAGING_OFFSET %% 128 == 0 && STAGING_OFFSET >= SMEM_POINTS * (int)sizeof(float2), \"past the exchanges\");")
  end
end

-- The load of a point of a tile of columns that asks L2 for more (stage.asks_l2_around_columns): PTX's
-- .L2::256B has L2 fetch the 256 bytes around the point from DRAM.
local function cuda_load_asking_256(w, f)
  w:line("")
  w:line("// A point of a tile of columns, asking L2 to fetch the 256 bytes around it (sm_80 and newer): the")
  w:line("// tiles beside this one read the rest of those bytes, and find them in L2.")
  w:open("__device__ __forceinline__ float2 load_point_asking_256(const point_t* p, size_t i)")
  w:line("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800")
  if f.precision == "fp16" then
    w:line("half2_bits h;")
    w:line("asm(\"ld.global.L2::256B.v2.b16 {%%0, %%1}, [%%2];\" : \"=h\"(h.x), \"=h\"(h.y) : \"l\"(p + i));")
    w:line("return load_point(&h, 0);")
  else
    w:line("float2 f;")
    w:line("asm(\"ld.global.L2::256B.v2.f32 {%%0, %%1}, [%%2];\" : \"=f\"(f.x), \"=f\"(f.y) : \"l\"(p + i));")
    w:line("return f;")
  end
  w:line("#else")
  w:line("return load_point(p, i);")
  w:line("#endif")
  w:close()
end

-- The mbarrier a block's bulk copies (one-kernel sizes) or TMA boxes (column tiles) complete: its setup,
-- and the wait for a phase.
local function fetch_barrier(w)
  w:open("__device__ __forceinline__ void init_fetch_barrier(unsigned long long* fetched)")
  w:line("asm volatile(\"mbarrier.init.shared::cta.b64 [%%0], 1;\" :: \"r\"(shared_address(fetched)) : \"memory\");")
  w:line("asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");")
  w:close()
end
local function wait_for_fetch(w)
  w:open("__device__ __forceinline__ void wait_fetched(unsigned long long* fetched, unsigned parity)")
  w:line("asm volatile(\"{\\n .reg .pred done;\\n WAIT_%%=:\\n mbarrier.try_wait.parity.shared::cta.b64 done, [%%0], %%1;\\n\"")
  w:line("             \" @!done bra WAIT_%%=;\\n}\" :: \"r\"(shared_address(fetched)), \"r\"(parity) : \"memory\");")
  w:close()
end

local function cuda_helpers(w, f)
  if f.precision == "fp16" then
    w:line("// Bit-compatible with __half2; converted with PTX so that no header is needed under NVRTC.")
    w:line("struct alignas(4) half2_bits { unsigned short x, y; };")
    w:line("typedef half2_bits point_t;")
    w:line("")
    w:open("__device__ __forceinline__ float2 load_point(const point_t* p, size_t i)")
    w:line("const half2_bits h = p[i];")
    w:line("float2 f;")
    w:line("asm(\"cvt.f32.f16 %%0, %%1;\" : \"=f\"(f.x) : \"h\"(h.x));")
    w:line("asm(\"cvt.f32.f16 %%0, %%1;\" : \"=f\"(f.y) : \"h\"(h.y));")
    w:line("return f;")
    w:close()
    w:line("")
    w:open("__device__ __forceinline__ void store_point(point_t* p, size_t i, float2 f)")
    w:line("half2_bits h;")
    w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(h.x) : \"f\"(f.x));")
    w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(h.y) : \"f\"(f.y));")
    w:line("p[i] = h;")
    w:close()
    if shared_exponent(f) then shared_exponent_helpers(w, "cuda") end
  else
    w:line("typedef float2 point_t;")
    w:line("")
    w:line("__device__ __forceinline__ float2 load_point(const point_t* p, size_t i) { return p[i]; }")
    w:line("__device__ __forceinline__ void store_point(point_t* p, size_t i, float2 f) { p[i] = f; }")
  end
  if any_pass_that(f, stage.asks_l2_around_columns) then cuda_load_asking_256(w, f) end
  w:line("")
  w:line("__device__ __forceinline__ float2 load_twiddle(const float2* tw, int i) { return __ldg(tw + i); }")
  w:line("__device__ __forceinline__ float2 scaled(float2 a, float s) { return make_float2(a.x * s, a.y * s); }")
  if computed_twiddles(f) then
    w:line("// exp(-2*pi*i*q/n), 0 <= q < n, from the special function unit: the angle in [-pi, pi], where")
    w:line("// __sincosf errs by about 4e-7, far below fp16's rounding; no table to read.")
    w:open("__device__ __forceinline__ float2 computed_twiddle(int q, int n)")
    w:line("const float turns = (float)q * (1.0f / (float)n); // exact: n is a power of two")
    w:line("float s, c;")
    w:line("__sincosf(-6.283185307f * (turns > 0.5f ? turns - 1.0f : turns), &s, &c);")
    w:line("return make_float2(c, s);")
    w:close()
    w:line("// The same twiddle, and twice its cosine for the recurrence of its powers (stage.lua): from the")
    w:line("// half angle's sine where the angle is within pi/2 of 0, else its cosine, so that the cosine")
    w:line("// errs by its rounding only")
    w:open("__device__ __forceinline__ float2 computed_twiddle_step(int q, int n, float* two_cos)")
    w:line("const float turns = (float)q * (1.0f / (float)n); // exact: n is a power of two")
    w:line("const float t = turns > 0.5f ? turns - 1.0f : turns;")
    w:line("float hs, hc;")
    w:line("__sincosf(-3.141592654f * t, &hs, &hc);")
    w:line("const bool near_zero = fabsf(t) <= 0.25f;")
    w:line("const float h = near_zero ? hs : hc;")
    w:line("const float c = fmaf(-2.0f * h, h, 1.0f);")
    w:line("const float cosine = near_zero ? c : -c;")
    w:line("*two_cos = 2.0f * cosine;")
    w:line("return make_float2(cosine, 2.0f * hs * hc);")
    w:close()
  end
  if f.precision == "fp16" then twiddle.chebyshev_helpers(w, "__device__ __forceinline__") end
  w:line("")
  w:line("// a * w and a * conj(w)")
  w:open("__device__ __forceinline__ float2 twiddle_mul(float2 a, float2 w)")
  w:line("return make_float2(a.x * w.x - a.y * w.y, a.x * w.y + a.y * w.x);")
  w:close()
  w:open("__device__ __forceinline__ float2 twiddle_mul_conj(float2 a, float2 w)")
  w:line("return make_float2(a.x * w.x + a.y * w.y, a.y * w.x - a.x * w.y);")
  w:close()
  w:line("")
  w:line("// One pad element every 16 keeps strided shared-memory accesses off a single bank.")
  w:line("__device__ __forceinline__ int padded(int i) { return i + (i >> 4); }")
  if sparse_pad(f) then
    w:line("// One every 32, where a pass's first stage writes points 32 * 8 (or 32 * 4, ..) apart: the pad")
    w:line("// every 16 would put them on one bank.")
    w:line("__device__ __forceinline__ int padded32(int i) { return i + (i >> 5); }")
  end
  if wide_pad(f) then
    w:line("// One more every 256 in the first exchange of a pass whose lanes read along its runs: its")
    w:line("// first stage writes points 256 apart across lanes, which the pad every 16 puts on one bank.")
    w:line("__device__ __forceinline__ int padded_wide(int i) { return i + (i >> 4) + (i >> 8); }")
  end
  if radix32(f) then
    w:line("// Two neighbouring points in one 16-byte store; i is even.")
    w:open("__device__ __forceinline__ void store_pair(float2* s, int i, float2 a, float2 b)")
    w:line("*reinterpret_cast<float4*>(s + i) = make_float4(a.x, a.y, b.x, b.y);")
    w:close()
  end
  if shuffle_tail(f) then
    w:line("")
    w:line("// The value `mine` of lane ^ 16; `theirs` names it in the partner's registers for the host simulation.")
    w:open("__device__ __forceinline__ float2 lane_xor16(float2 mine, int theirs)")
    w:line("(void)theirs;")
    w:line("return make_float2(__shfl_xor_sync(0xffffffffu, mine.x, 16), __shfl_xor_sync(0xffffffffu, mine.y, 16));")
    w:close()
  end
  if any_pass_that(f, stage.pairs_column_loads) then
    w:line("")
    w:line("// Lanes l and l ^ 1 (l even) hold neighbouring columns c and c + 1 of a tile: lane l loads both")
    w:line("// columns of its row in 8 bytes, lane l ^ 1 both of the row `step` points on (its `pair`), and")
    w:line("// one shuffle hands each lane the other's point of its own column. `step` is the simulation's.")
    w:open("__device__ __forceinline__ float2 point_from_bits(unsigned bits)")
    w:line("float2 f;")
    w:line("asm(\"{ .reg .f16 lo, hi; mov.b32 {lo, hi}, %%2; cvt.f32.f16 %%0, lo; cvt.f32.f16 %%1, hi; }\"")
    w:line("    : \"=f\"(f.x), \"=f\"(f.y) : \"r\"(bits));")
    w:line("return f;")
    w:close()
    w:open("__device__ __forceinline__ void load_point_pair(const point_t* pair, bool odd, long long step, float2* first, float2* second)")
    w:line("(void)step;")
    w:line("const uint2 both = *reinterpret_cast<const uint2*>(pair);")
    w:line("const unsigned taken = __shfl_xor_sync(0xffffffffu, odd ? both.x : both.y, 1);")
    w:line("*first = point_from_bits(odd ? taken : both.x);")
    w:line("*second = point_from_bits(odd ? both.y : taken);")
    w:close()
  end
  if tensor_cores(f) then tc16.helpers(w, "cuda", "__device__ const float2", f.split) end
  if any_prefetch(f) or any_cluster(f) or any_pass_that(f, tma_columns) then
    w:line("")
    w:line("// The 32-bit shared-memory address of `p`, for the PTX of clusters and bulk copies (sm_90).")
    w:open("__device__ __forceinline__ unsigned shared_address(const void* p)")
    w:line("unsigned long long address;")
    w:line("asm(\"cvta.to.shared.u64 %%0, %%1;\" : \"=l\"(address) : \"l\"(p));")
    w:line("return (unsigned)address;")
    w:close()
  end
  if any_pass_that(f, l2_prefetching) then
    w:line("")
    w:line("// Asks L2 for the bytes from `begin` to `end` (a block's input further on), so that DRAM has")
    w:line("// reads in flight beyond the resident blocks' own loads: one bulk prefetch (sm_90), which holds")
    w:line("// no registers and is waited on by nothing. It takes 16-byte aligned ranges, so the pieces at")
    w:line("// the ends of a range that is not are left to the loads of the block that reads them.")
    w:open("__device__ __forceinline__ void prefetch_to_l2(const point_t* begin, const point_t* end)")
    w:line("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900")
    w:line("const size_t first = ((size_t)begin + 15u) & ~(size_t)15u, last = (size_t)end & ~(size_t)15u;")
    w:line("if (last > first) asm volatile(\"cp.async.bulk.prefetch.L2.global [%%0], %%1;\" :: \"l\"(first), \"r\"((unsigned)(last - first)) : \"memory\");")
    w:line("#else")
    w:line("(void)begin; (void)end;")
    w:line("#endif")
    w:close()
  end
  if any_pass_that(f, tma_columns) then
    -- (never in a file with bulk copies, which are one-kernel sizes': that section has these helpers too)
    w:line("")
    w:line("// A tensor map (the driver's CUtensorMap: 128 opaque bytes, 64-byte aligned), which a TMA column")
    w:line("// pass's launch encodes for its input and passes by value.")
    w:line("struct alignas(64) tensor_map { unsigned long long opaque[16]; };")
    w:line("// The TMA's copies of a tile land in shared memory, and the block waits on an mbarrier whose phase")
    w:line("// completes when all their bytes have arrived.")
    fetch_barrier(w)
    wait_for_fetch(w)
  end
  if any_pass_that(f, swizzled_runs) then pass_setup.swizzle_helper(w, "__device__ __forceinline__") end
  if any_pass_that(f, bulk_copies) then
    w:line("")
    w:line("// Bulk copies (sm_90): one thread copies a transform's input into shared memory with the TMA,")
    w:line("// and the block waits on an mbarrier whose phase completes when all its bytes have arrived.")
    fetch_barrier(w)
    w:line("// `bytes` (a multiple of 16) from `start` (point-aligned) into `staging`, laid out from the 16-byte")
    w:line("// boundary at or below `start`: the transform's first point lands at staging + skew, skew = (start")
    w:line("// mod 16) / sizeof(point_t). The bulk copy takes the whole 16-byte pieces within the transform, and")
    w:line("// this thread the points before and after them (where skew > 0), so that nothing outside the")
    w:line("// transform (the caller's buffer, for the first and the last) is read; the arrive releases them to")
    w:line("// the waiting threads, as the bulk copy's bytes are.")
    w:open("__device__ __forceinline__ void fetch_transform(point_t* staging, const point_t* start, unsigned bytes, unsigned long long* fetched)")
    w:line("const unsigned skew = (unsigned)((size_t)start & 15u);")
    w:line("const unsigned points = bytes / (unsigned)sizeof(point_t), tail = skew / (unsigned)sizeof(point_t);")
    w:line("const unsigned head = skew ? (16u - skew) / (unsigned)sizeof(point_t) : 0u; // points before the first piece")
    w:line("const unsigned bulk = skew ? bytes - 16u : bytes;")
    w:line("// the block's earlier reads of `staging` (generic proxy) come before the copy's writes (async proxy)")
    w:line("asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");")
    w:line("for (unsigned i = 0; i < head; ++i) staging[tail + i] = start[i];")
    w:line("for (unsigned i = 0; i < tail; ++i) staging[points + i] = start[points - tail + i];")
    w:line("asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%0], %%1;\" :: \"r\"(shared_address(fetched)), \"r\"(bulk) : \"memory\");")
    w:open("if (bulk > 0)")
    w:line("asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%%0], [%%1], %%2, [%%3];\"")
    w:line("             :: \"r\"(shared_address(staging) + (skew ? 16u : 0u)), \"l\"(start + head), \"r\"(bulk),")
    w:line("                \"r\"(shared_address(fetched)) : \"memory\");")
    w:close()
    w:close()
    wait_for_fetch(w)
  end
  if any_pass_that(f, slice_copies) then
    w:line("")
    w:line("// A slice's input copied ahead by the block's threads, 16 bytes each (cp.async, sm_80): ROWS rows of")
    w:line("// ROW_POINTS points, end to end from `start` (point-aligned), into `staging` with the rows ROW_STRIDE")
    w:line("// points apart (padded off each other's banks). Each row's copies start at the 16-byte boundary at or")
    w:line("// below it, so its first point lands skew = (start mod 16) / sizeof(point_t) points in, and it takes")
    w:line("// one 16-byte piece more where skew > 0; of the first row's first piece and the last row's last, only")
    w:line("// the bytes within the slice are read, so that nothing outside it (the caller's buffer) is. The")
    w:line("// copies land by cp.async.wait_all.")
    w:line("template <int ROW_PIECES, int ROW_STRIDE>")
    w:open("__device__ __forceinline__ void copy_piece(unsigned to, const char* from, int row, int piece)")
    w:line("asm volatile(\"cp.async.cg.shared.global [%%0], [%%1], 16;\"")
    w:line("             :: \"r\"(to + (unsigned)(row * ROW_STRIDE * (int)sizeof(point_t) + 16 * piece)),")
    w:line("                \"l\"(from + ((size_t)row * ROW_PIECES + piece) * 16) : \"memory\");")
    w:close()
    w:line("// the same for the piece's bytes `first` to `end` only, 4 at a time (a 16-byte copy with a smaller")
    w:line("// source size still reads, as compute-sanitizer counts, all 16). Not inlined: inlined, these copies")
    w:line("// of inputs off 16 bytes made the aligned slices 2-3%% slower on an H200 (results/notes.md)")
    w:line("template <int ROW_PIECES, int ROW_STRIDE>")
    w:open("__device__ __noinline__ void copy_piece_part(unsigned to, const char* from, int row, int piece, unsigned first, unsigned end)")
    w:line("const unsigned to_piece = to + (unsigned)(row * ROW_STRIDE * (int)sizeof(point_t) + 16 * piece);")
    w:line("const char* from_piece = from + ((size_t)row * ROW_PIECES + piece) * 16;")
    w:line("for (unsigned b = first; b < end; b += 4)")
    w:line("    asm volatile(\"cp.async.ca.shared.global [%%0], [%%1], 4;\" :: \"r\"(to_piece + b), \"l\"(from_piece + b) : \"memory\");")
    w:close()
    w:line("// Part PART of PARTS of the copies (row pieces in order), so that a block can spread them over its")
    w:line("// barriers.")
    w:line("template <int ROWS, int ROW_POINTS, int ROW_STRIDE, int BLOCK_THREADS, int PARTS, int PART>")
    w:open("__device__ __forceinline__ void fetch_slice(point_t* staging, const point_t* start, int thread)")
    w:line("constexpr int ROW_PIECES = ROW_POINTS * (int)sizeof(point_t) / 16;")
    w:line("const unsigned skew = (unsigned)((size_t)start & 15u);")
    w:line("const char* from = reinterpret_cast<const char*>(start) - skew;")
    w:line("const unsigned to = shared_address(staging);")
    w:line("// (loops kept rolled where blocks have 1024 threads: unrolled, their addresses took registers that")
    w:line("// those slices lack, and spilled; smaller blocks copy the same piece of rows a constant step apart)")
    w:line("constexpr bool EVEN_STEPS = BLOCK_THREADS <= 512 && BLOCK_THREADS %% ROW_PIECES == 0 &&")
    w:line("                            ROWS * ROW_PIECES %% BLOCK_THREADS == 0;")
    w:open("if (EVEN_STEPS && skew == 0)")
    w:line("// rows between one thread's copies (1 where a row has more pieces than the block has threads: that")
    w:line("// branch is never taken there, but its constants are still evaluated)")
    w:line("constexpr int ROW_STEP = EVEN_STEPS ? BLOCK_THREADS / ROW_PIECES : 1;")
    w:line("constexpr int STEPS = ROWS / ROW_STEP;")
    w:line("const unsigned to_piece = to + (unsigned)((thread / ROW_PIECES) * ROW_STRIDE * (int)sizeof(point_t) +")
    w:line("                                          16 * (thread %% ROW_PIECES));")
    w:line("const char* from_piece = from + (size_t)thread * 16;")
    w:line("#pragma unroll")
    w:open("for (int i = PART * STEPS / PARTS; i < (PART + 1) * STEPS / PARTS; ++i)")
    w:line("asm volatile(\"cp.async.cg.shared.global [%%0], [%%1], 16;\"")
    w:line("             :: \"r\"(to_piece + (unsigned)(i * ROW_STEP * ROW_STRIDE * (int)sizeof(point_t))),")
    w:line("                \"l\"(from_piece + (size_t)i * BLOCK_THREADS * 16) : \"memory\");")
    w:close()
    w:reopen("else if (skew == 0)")
    w:line("// (a row's pieces a constant in each loop: no division at run time)")
    w:line("#pragma unroll 1")
    w:line("for (int c = PART * ROWS * ROW_PIECES / PARTS + thread; c < (PART + 1) * ROWS * ROW_PIECES / PARTS; c += BLOCK_THREADS)")
    w:line("    copy_piece<ROW_PIECES, ROW_STRIDE>(to, from, c / ROW_PIECES, c %% ROW_PIECES);")
    w:reopen("else")
    w:line("constexpr int PIECES = ROW_PIECES + 1; // a row's, from the 16-byte boundary below it")
    w:line("#pragma unroll 1")
    w:open("for (int c = PART * ROWS * PIECES / PARTS + thread; c < (PART + 1) * ROWS * PIECES / PARTS; c += BLOCK_THREADS)")
    w:line("if (c == 0) copy_piece_part<ROW_PIECES, ROW_STRIDE>(to, from, 0, 0, skew, 16);")
    w:line("else if (c == ROWS * PIECES - 1) copy_piece_part<ROW_PIECES, ROW_STRIDE>(to, from, ROWS - 1, ROW_PIECES, 0, skew);")
    w:line("else copy_piece<ROW_PIECES, ROW_STRIDE>(to, from, c / PIECES, c %% PIECES);")
    w:close()
    w:close()
    w:line("asm volatile(\"cp.async.commit_group;\" ::: \"memory\");")
    w:close()
  end
  if any_cluster(f) then
    w:line("")
    w:line("// Distributed shared memory (sm_90): the address of `smem` in block `rank` of this cluster, a")
    w:line("// float2 there, and the cluster's two barriers.")
    w:open("__device__ __forceinline__ unsigned cluster_map(const float2* smem, int rank)")
    w:line("unsigned remote;")
    w:line("asm(\"mapa.shared::cluster.u32 %%0, %%1, %%2;\" : \"=r\"(remote) : \"r\"(shared_address(smem)), \"r\"(rank));")
    w:line("return remote;")
    w:close()
    w:open("__device__ __forceinline__ float2 cluster_load(unsigned block_smem, int i)")
    w:line("float2 f;")
    w:line("asm volatile(\"ld.shared::cluster.v2.f32 {%%0, %%1}, [%%2];\" : \"=f\"(f.x), \"=f\"(f.y) : \"r\"(block_smem + 8u * i) : \"memory\");")
    w:line("return f;")
    w:close()
    -- barrier.cluster.arrive's default release orders every prior access GPU-wide (MEMBAR.ALL.GPU in
    -- SASS); fences restricted to shared memory order what the blocks exchange for less (MEMBAR.ALL.CTA,
    -- or a wait for this thread's loads). H200, fftgen-kernel-ab: fp32 256x256 on clusters of 8 -3.6%,
    -- fp16 4096x4096's columns on clusters of 4 -6.5%, fp32 4096x4096's on 8 -6.2%, fp32 2^15 on 4
    -- blocks -4.0%. An arrive right after the loads from the other blocks, waited on at the end,
    -- measured slower than one arrive at the end (256x256 +7.3% against -3.9%).
    w:line("// Every block's results in its shared memory, visible to the cluster's other blocks: this")
    w:line("// block's shared-memory writes released, the other blocks' acquired.")
    w:open("__device__ __forceinline__ void cluster_publish()")
    w:line("asm volatile(\"fence.release.sync_restrict::shared::cta.cluster;\" ::: \"memory\");")
    w:line("asm volatile(\"barrier.cluster.arrive.relaxed.aligned;\" ::: \"memory\");")
    w:line("asm volatile(\"barrier.cluster.wait.acquire.aligned;\" ::: \"memory\");")
    w:close()
    w:line("// No block leaves (freeing its shared memory) while another still reads it: this thread's loads")
    w:line("// from the other blocks done, then the cluster's barrier.")
    w:open("__device__ __forceinline__ void cluster_done()")
    w:line("asm volatile(\"fence.acquire.sync_restrict::shared::cluster.cluster;\" ::: \"memory\");")
    w:line("asm volatile(\"barrier.cluster.arrive.relaxed.aligned;\" ::: \"memory\");")
    w:line("asm volatile(\"barrier.cluster.wait.acquire.aligned;\" ::: \"memory\");")
    w:close()
  end
  if reads_pass_tables(f) then
    w:line("")
    w:line("// exp(-2*pi*i*q/N) as a product of table entries, one per group of `bits` bits of q: a")
    w:line("// rounding more per table than one full table, and a file thousands of times smaller")
    w:open("__device__ __forceinline__ float2 post_twiddle(const float2* t0, const float2* t1, int q, int bits)")
    w:line("return twiddle_mul(__ldg(t0 + (q & ((1 << bits) - 1))), __ldg(t1 + (q >> bits)));")
    w:close()
    w:open("__device__ __forceinline__ float2 post_twiddle(const float2* t0, const float2* t1, const float2* t2, int q, int bits)")
    w:line("const int mask = (1 << bits) - 1;")
    w:line("return twiddle_mul(twiddle_mul(__ldg(t0 + (q & mask)), __ldg(t1 + ((q >> bits) & mask))), __ldg(t2 + (q >> (2 * bits))));")
    w:close()
  end
end

-- Tensor-core passes hold the DFT matrix's fragments beside the points; unbounded, ptxas gives them
-- about 150 registers (one 256-thread block per SM). Asking for blocks of up to 128 registers per
-- thread keeps two such blocks resident, for a few spilled bytes.
local TC_REGISTERS = 128
-- What a twiddled four-step pass may use: two 512-thread blocks per SM.
local PASS_REGISTERS = 64
-- ... for 16 points a thread; 32 points need twice the registers (64 spill hundreds of bytes)
local function pass_registers(p) return PASS_REGISTERS * math.max(p.radix_max, 16) // 16 end
-- Transforms of 32 points a thread: asking for five 128-thread blocks per SM (at most 102 registers)
-- makes ptxas schedule them better, with no spills (H200, in one process: fp16 32 89.1% -> 95.5% of
-- copy, 1024 89.6% -> 97.3%; results/kernel-ab.txt). Left alone it gives 80 to 124 registers.
-- 256-thread blocks (8192 points) of fp16 data ask for three, as many as their shared memory allows:
-- ptxas takes 80 registers and spills 4 bytes (H200, fp16 8192: 68.7% -> 72.6% of copy). With fp32
-- data it spills 12 bytes and ran slower (94.9% -> 86.1%), so those keep two.
local RADIX32_REGISTERS = 102
local function radix32_registers(p)
  if p.radix_max ~= 32 then return nil end
  if p.threads <= 128 then return RADIX32_REGISTERS end
  if p.threads == 256 then return 65536 // (256 * (p.fp16 and 3 or 2)) end
  return nil
end

-- The register cap per thread these kernels ask ptxas for, or nil.
local function register_cap(p)
  if p.tensor_cores and p.threads * TC_REGISTERS < 65536 then return TC_REGISTERS end
  if clustered(p) then return nil end
  -- the pass twiddles' powers take registers; left alone ptxas gives 512-thread passes up to 70, so
  -- only one block per SM
  if p.post_powers and p.threads * pass_registers(p) < 65536 then return pass_registers(p) end
  local radix32 = radix32_registers(p)
  if radix32 then return radix32 end
  -- no cap: asking ptxas for the blocks per SM that shared memory allows (40 registers for the
  -- 256-thread kernels and 8192 points) spills and measured slower at every size (H100, fp16
  -- 8192 0.424 -> 0.501 ms, 32 0.382 -> 0.493 with 85 registers; results/notes.md)
  return nil
end

local function cuda_kernel(w, f, p, direction)
  local cluster = clustered(p) and "__cluster_dims__(CLUSTER, 1, 1) " or ""
  local cap = register_cap(p)
  if cap then
    w:line("// at most %d registers per thread: %d blocks per SM", cap, 65536 // (p.threads * cap))
    w:line("extern \"C\" __global__ void %s__launch_bounds__(THREADS, %d)", cluster, 65536 // (p.threads * cap))
  else
    w:line("extern \"C\" __global__ void %s__launch_bounds__(THREADS)", cluster)
  end
  w:open("%s(const point_t* in, point_t* out, int batch, float scale%s)", kernel_name(f, p, direction),
    tma_columns(p) and ", const __grid_constant__ tensor_map input_map" or "")
  if grouped_slices(p) then
    w:line("extern __shared__ float2 block_smem[];")
    w:line("// the block's slices side by side: each on SLICE_THREADS threads and its own shared memory")
    w:line("const int slice_in_block = threadIdx.x / SLICE_THREADS;")
    w:line("const int thread = threadIdx.x %% SLICE_THREADS;")
    if p.volume_depth > 0 then w:line("const int block_thread = threadIdx.x; // for the columns along dimension 0") end
    slice_smem(w, p)
  else
    if uses_shared(p) then
      w:line("extern __shared__ %sfloat2 smem[];", tma_columns(p) and "__align__(128) " or (p.tile_pairs and "__align__(16) " or ""))
    end
    w:line("const int thread = threadIdx.x;")
  end
  local function fetch_slice(parts, part)
    return string.format("fetch_slice<SLICE_ROWS, SLICE_COLUMNS, STAGED_ROW_POINTS, THREADS, %d, %d>", parts, part)
  end
  if slice_copies(p) then
    w:line("// the next slice's input, copied by the block's threads while they compute the current one")
    w:line("point_t* staging = reinterpret_cast<point_t*>(smem + SMEM_POINTS);")
    w:line("const int staged_skew = (int)(((size_t)in & 15u) / sizeof(point_t));")
    w:line("// the grid has at most `batch` blocks: each takes slices blockIdx.x, + gridDim.x, ..")
    w:line("%s(staging, in + (size_t)blockIdx.x * POINTS, thread);", fetch_slice(1, 0))
    w:open("for (long long block = blockIdx.x; block < batch; block += gridDim.x)")
    w:line("asm volatile(\"cp.async.wait_all;\" ::: \"memory\");")
    w:line("__syncthreads(); // every thread's copies have landed")
  elseif tile_copies(p) then
    w:line("// the next tile's input, copied by the block's threads while they compute the current one")
    w:line("point_t* staging = reinterpret_cast<point_t*>(smem + SMEM_POINTS);")
    w:line("const long long tiles = ((long long)batch + FFTS_PER_BLOCK - 1) / FFTS_PER_BLOCK;")
    w:line("// the grid has at most `tiles` blocks: each takes tiles blockIdx.x, + gridDim.x, ..")
    w:line("fetch_tile(staging, in, blockIdx.x, batch, thread);")
    w:open("for (long long block = blockIdx.x; block < tiles; block += gridDim.x)")
    w:line("asm volatile(\"cp.async.wait_all;\" ::: \"memory\");")
    w:line("__syncthreads(); // every thread's copies have landed")
  elseif prefetching(p) then
    w:line("// the next transform's input, bulk-copied while the block computes the current one")
    w:line("point_t* staging = reinterpret_cast<point_t*>(smem + SMEM_POINTS);")
    w:line("__shared__ unsigned long long fetched; // its phase completes when a copy has arrived")
    w:line("const unsigned bytes = POINTS * sizeof(point_t);")
    w:line("const int staged_skew = (int)(((size_t)in & 15u) / sizeof(point_t));")
    w:line("unsigned parity = 0;")
    w:line("// the grid has at most `batch` blocks: each takes transforms blockIdx.x, + gridDim.x, ..")
    w:open("if (thread == 0)")
    w:line("init_fetch_barrier(&fetched);")
    w:line("fetch_transform(staging, in + (size_t)blockIdx.x * POINTS, bytes, &fetched);")
    w:close()
    w:line("__syncthreads(); // the barrier is set up before any thread waits on it")
    w:open("for (long long block = blockIdx.x; block < batch; block += gridDim.x)")
    w:line("wait_fetched(&fetched, parity);")
    w:line("parity ^= 1u;")
  elseif tma_columns(p) then
    if tma_runs(p) then
      w:line("// the next tile's runs, copied by the TMA while the block computes the current one, from the first")
      w:line("// 1024 bytes of the shared window at or after STAGING_OFFSET (the swizzle's period)")
      w:line("const unsigned staging_skew = (0u - (shared_address(smem) + STAGING_OFFSET)) %% 1024u;")
      w:line("point_t* staging = reinterpret_cast<point_t*>(reinterpret_cast<char*>(smem) + STAGING_OFFSET + staging_skew);")
    else
      w:line("// the next tile's columns, copied by the TMA while the block computes the current one")
      w:line("point_t* staging = reinterpret_cast<point_t*>(reinterpret_cast<char*>(smem) + STAGING_OFFSET);")
    end
    if p.tma_in_exchanges then
      w:line("// (the staging buffer lies inside the exchanges: the next tile is asked for once the last stage")
      w:line("// has read them) its phase completes when a tile has landed; past the exchanges")
      w:line("unsigned long long* fetched = reinterpret_cast<unsigned long long*>(reinterpret_cast<char*>(smem) + SHARED_BYTES - 16);")
    else
      w:line("// its phase completes when a tile has landed")
      w:line("unsigned long long* fetched = reinterpret_cast<unsigned long long*>(staging + FFTS_PER_BLOCK * POINTS);")
    end
    w:line("const bool by_tma = ((size_t)in & 15u) == 0; // else the threads copy each tile (copy_tile)")
    w:line("const long long tiles = ((long long)batch + FFTS_PER_BLOCK - 1) / FFTS_PER_BLOCK;")
    w:line("unsigned parity = 0;")
    w:line("// the grid has at most `tiles` blocks: each takes tiles blockIdx.x, + gridDim.x, ..")
    w:open("if (thread == 0)")
    w:line("init_fetch_barrier(fetched);")
    w:line("if (by_tma && blockIdx.x < tiles) fetch_tile_boxes(staging, &input_map, blockIdx.x, fetched);")
    w:close()
    w:line("__syncthreads(); // the barrier is set up before any thread waits on it")
    w:open("for (long long block = blockIdx.x; block < tiles; block += gridDim.x)")
    w:open("if (by_tma)")
    w:line("wait_fetched(fetched, parity);")
    w:line("parity ^= 1u;")
    w:reopen("else")
    w:line("copy_tile(staging, in, block, batch, thread);")
    w:line("__syncthreads();")
    w:close()
  elseif p.tile_pairs then
    w:line("// the tiles 2 * blockIdx.x and the next in turn; each one's last stage leaves its outputs in")
    w:line("// shared memory (pair_half), and the block stores both together (store_tile_pair)")
    w:open("for (int half = 0; half < 2; ++half)")
    w:line("const long long block = 2 * (long long)blockIdx.x + half;")
    w:line("point_t* pair_half = reinterpret_cast<point_t*>(half == 0 ? reinterpret_cast<char*>(smem) + PAIR_OFFSET")
    w:line("                                                          : reinterpret_cast<char*>(smem));")
  else
    w:line("const long long block = blockIdx.x;")
  end
  w:line("float2 v[RADIX_MAX];")
  prologue(w, p, "cuda")
  if l2_prefetching(p) and p.tiled then
    w:line("prefetch_tile_to_l2(in, block + L2_PREFETCH_BLOCKS, batch, thread);")
  elseif l2_prefetching(p) then
    assert(not prefetching(p) and (fused(p) or clustered(p) or not p.staged_io),
      "an L2 prefetch goes on kernels that read dense transforms or slices (the planner's)")
    w:line("// the input of the block L2_PREFETCH_BLOCKS on, where it exists")
    w:line("const long long ahead = (block + L2_PREFETCH_BLOCKS) * FFTS_PER_BLOCK;")
    -- (a block of small slices numbers each slice's threads from 0: its first thread asks once)
    w:open("if (%s == 0 && ahead < batch)", fused(p) and "threadIdx.x" or "thread")
    w:line("const long long ahead_ffts = batch - ahead < FFTS_PER_BLOCK ? batch - ahead : FFTS_PER_BLOCK;")
    w:line("prefetch_to_l2(in + (size_t)ahead * POINTS, in + (size_t)(ahead + ahead_ffts) * POINTS);")
    w:close()
  end
  if p.tensor_cores then tc16.prologue(w, p, SIGN[direction], "cuda") end
  local phases = stage.phases(p, SIGN[direction])
  -- how the threads wait before each phase (stage.lua): a block's barrier unless the phase says otherwise
  local function sync(i) return i > 1 and (phases[i].sync or "block") or "none" end
  -- the next copy may overwrite the staged input once every thread has read it (phase 1): after the
  -- block's first barrier
  local fetch_at, last_barrier
  if prefetching(p) or tma_columns(p) then
    for i = 2, #phases do
      if sync(i) == "block" then
        fetch_at = fetch_at or i
        last_barrier = i
      end
    end
    assert(fetch_at, "a prefetching kernel has a block barrier after its first phase")
    if p.tma_in_exchanges then
      -- the staging buffer lies inside the exchanges: the phase after the last stage's reads of them
      fetch_at = nil
      for i = 2, #phases do
        if phases[i].frees_exchanges then fetch_at = i end
      end
      assert(fetch_at and sync(fetch_at) == "block", "a pass staging inside its exchanges frees them at a block barrier")
    end
  end
  -- a slice's copies, in parts (fftgen_kernel_plan.split_copies): slice_parts[i], the part at phase i
  local slice_parts, parts = {}, 1
  if slice_copies(p) then
    slice_parts[fetch_at] = 0
    if p.split_copies and last_barrier ~= fetch_at then
      slice_parts[last_barrier] = 1
      parts = 2
    end
  end
  for i, phase in ipairs(phases) do
    if sync(i) == "block" then
      w:line("__syncthreads();")
    elseif sync(i) == "warp" then
      w:line("__syncwarp(); // the transform's threads are lanes of one warp")
    end
    if i == fetch_at and tma_columns(p) then
      w:open("if (thread == 0 && by_tma && block + gridDim.x < tiles)")
      w:line("fetch_tile_boxes(staging, &input_map, block + gridDim.x, fetched);")
      w:close()
    elseif i == fetch_at and tile_copies(p) then
      w:open("if (block + gridDim.x < tiles)")
      w:line("fetch_tile(staging, in, block + gridDim.x, batch, thread);")
      w:close()
    elseif slice_parts[i] then
      w:open("if (block + gridDim.x < batch)")
      w:line("%s(staging, in + (size_t)(block + gridDim.x) * POINTS, thread);", fetch_slice(parts, slice_parts[i]))
      w:close()
    elseif i == fetch_at then
      w:open("if (thread == 0 && block + gridDim.x < batch)")
      w:line("fetch_transform(staging, in + (size_t)(block + gridDim.x) * POINTS, bytes, &fetched);")
      w:close()
    end
    w:open("")
    w:embed(phase)
    for _, steps in ipairs(phase.tensor_cores or {}) do
      for _, step in ipairs(steps) do
        if step.thread then
          w:open("")
          w:embed(step.thread)
          w:close()
        else
          tc16.cuda_step(w, step)
        end
      end
    end
    w:close()
  end
  if clustered(p) then
    w:line("cluster_publish();")
    w:open("")
    w:embed(stage.cluster_phase(p, SIGN[direction]))
    w:close()
  end
  -- whether a phase after the block's last barrier reads shared memory, which the next transform's
  -- first stage overwrites (a last stage's loads, or those of the stage before a shuffle tail)
  local function reads_after_last_barrier()
    for i = #phases, 1, -1 do
      if phases[i].reads_shared_memory then return true end
      if sync(i) == "block" then return false end
    end
    return false
  end
  if prefetching(p) or tma_columns(p) then
    -- (a slice's or a tile's next turn starts at a barrier anyway, where its copies have landed; a TMA
    -- tile's at its mbarrier, which only says that the copy has)
    if reads_after_last_barrier() and not slice_copies(p) and not tile_copies(p) then
      w:line("__syncthreads(); // the next transform's first stage overwrites the shared memory read last")
    end
    w:close()
  end
  if p.tile_pairs then
    -- (the second tile's first stage overwrites no output of the first: those lie past the exchanges)
    w:close()
    w:line("__syncthreads(); // both tiles' outputs are in shared memory")
    w:line("store_tile_pair(out, smem, blockIdx.x, batch, thread);")
  end
  w:close()
end

-- A tiled pass's L2 prefetch (fftgen_can_l2_prefetch): the runs of a tile's input. Tiles of rows
-- whose rows are dense ask for the whole tile at once (one bulk prefetch, as an untiled block does);
-- the others ask for the 128-byte lines that begin in a run, one thread a run: tiles of columns side by
-- side read a run of the tile's width in each of POINTS rows, tiles of rows in runs (from the blocks a
-- pass 1 wrote) POINTS / IN_RUN_POINTS runs of every transform side by side, other tiles of rows one
-- run a row. A bulk prefetch a run measured slower than none (H200, fp16 256^3: 0.93 -> 1.04 ms).
local function tile_l2_prefetch(w, p)
  assert(not clustered(p) and not prefetching(p) and not p.tensor_cores, "the planner's passes (why_no_l2_prefetch)")
  local layout = p.in_layout
  local runs, run_start, run_end
  if layout.elem_stride == 1 and layout.run_points == 0 and layout.fft_stride == p.n then
    runs = nil
  elseif layout.elem_stride == 1 and layout.run_points == 0 then
    runs, run_start, run_end = "tile_ffts", "from + (size_t)run * IN_FFT_STRIDE", "start + POINTS"
  elseif layout.elem_stride == 1 then
    assert(layout.fft_stride == layout.run_points, "runs of every transform side by side")
    runs, run_start, run_end = "POINTS / IN_RUN_POINTS", "from + (size_t)run * IN_RUN_STRIDE",
      "start + tile_ffts * IN_RUN_POINTS"
  else
    assert(layout.fft_stride == 1, "columns side by side")
    runs, run_start, run_end = "POINTS", "from + (size_t)run * IN_ELEM_STRIDE", "start + tile_ffts"
  end
  w:line("")
  w:line("// Asks L2 for the input of tile `tile`, where it exists: the tiles L2_PREFETCH_BLOCKS on are those")
  w:line("// that blocks resident later will read.")
  w:open("__device__ __forceinline__ void prefetch_tile_to_l2(const point_t* in, long long tile, int batch, int thread)")
  w:line("if (tile * FFTS_PER_BLOCK >= batch) return;")
  tile_input(w, "tile * FFTS_PER_BLOCK")
  if runs == nil then
    w:line("if (thread == 0) prefetch_to_l2(from, from + (size_t)tile_ffts * POINTS);")
  else
    w:open("for (int run = thread; run < %s; run += THREADS)", runs)
    w:line("const point_t* start = %s;", run_start)
    w:line("// the lines that begin within the run: a line that begins in a tile's run is asked for by that")
    w:line("// tile only, whole, so tiles narrower than a line ask for each of their lines once (a line may")
    w:line("// reach past the run, into the next tile's, but never past the page of its first byte)")
    w:line("for (size_t line = ((size_t)start + 127) & ~(size_t)127; line < (size_t)(%s); line += 128)", run_end)
    w:line("    asm volatile(\"prefetch.global.L2 [%%0];\" :: \"l\"(line));")
    w:close()
  end
  w:close()
end

-- Before a tile's TMA copies (fetch_tile_boxes): the proxy fence, and the mbarrier told the tile's bytes.
local function expect_tile(w, copies)
  w:line("// the block's earlier reads of `staging` (generic proxy) come before the %s writes (async proxy)", copies)
  w:line("asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");")
  w:line("asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%0], %%1;\" :: \"r\"(shared_address(fetched)),")
  w:line("             \"r\"((unsigned)(FFTS_PER_BLOCK * POINTS * sizeof(point_t))) : \"memory\");")
end

local function cuda_pass(w, f, p)
  for _, c in ipairs(pass_constants(p, "cuda")) do
    -- not every kernel of a file uses every constant
    w:line("[[maybe_unused]] constexpr %s %s = %d; // %s", (c[2] >= 2 ^ 31) and "long long" or "int", c[1], c[2], c[3])
  end
  if slice_copies(p) then
    w:line("// shared memory holds float2 with %s, then the staging", pad_text(p))
    w:line("// buffer: the slice's rows, each padded to STAGED_ROW_POINTS")
    w:line("static_assert(SHARED_BYTES == SMEM_POINTS * sizeof(float2) + SLICE_ROWS * STAGED_ROW_POINTS * sizeof(point_t),")
    w:line("              \"shared memory size\");")
  elseif tile_copies(p) then
    w:line("// shared memory holds float2 with %s, then the staging", pad_text(p))
    w:line("// buffer: one tile's input, run by run")
    w:line("static_assert(SHARED_BYTES == SMEM_POINTS * sizeof(float2) + FFTS_PER_BLOCK * POINTS * sizeof(point_t),")
    w:line("              \"shared memory size\");")
    w:line("static_assert(IN_RUN_POINTS * sizeof(point_t) %% 16 == 0 && IN_FFT_STRIDE == IN_RUN_POINTS,")
    w:line("              \"runs of whole 16-byte pieces, side by side\");")
    w:line("constexpr int RUN_ROW_PIECES = FFTS_PER_BLOCK * IN_RUN_POINTS * (int)sizeof(point_t) / 16; // a run of every transform")
    w:line("constexpr int TILE_PIECES = FFTS_PER_BLOCK * POINTS * (int)sizeof(point_t) / 16;")
    w:line("static_assert(TILE_PIECES %% THREADS == 0, \"whole copies of the block\");")
    local swizzled = swizzled_tile_copies(p)
    if swizzled then
      w:line("static_assert(THREADS_PER_FFT * FFTS_PER_BLOCK * sizeof(point_t) %% 1024 == 0,")
      w:line("              \"a thread's points whole swizzle periods apart\");")
    end
    w:line("")
    w:line("// Tile `tile`'s input copied ahead by the block's threads, 16 bytes each (cp.async, sm_80): run r of")
    w:line("// every transform (FFTS_PER_BLOCK runs side by side) lands at staging + r * FFTS_PER_BLOCK * IN_RUN_POINTS%s",
      swizzled and "," or ".")
    if swizzled then
      w:line("// each 16-byte piece where the TMA's 128-byte swizzle puts it (swizzled), so that a warp's reads of")
      w:line("// its runs fall on 32 banks.")
    end
    w:line("// Transforms past the batch (in a last, partial tile) are not read. The copies land by")
    w:line("// cp.async.wait_all; `in` is 16-byte aligned (the work area), and so is every run.")
    w:open("__device__ __forceinline__ void fetch_tile(point_t* staging, const point_t* in, long long tile, int batch, int thread)")
    w:line("constexpr int PIECE_POINTS = 16 / (int)sizeof(point_t);")
    tile_input(w, "tile * FFTS_PER_BLOCK")
    w:line("const unsigned to = shared_address(staging);")
    w:line("#pragma unroll")
    w:open("for (int i = 0; i < TILE_PIECES / THREADS; ++i)")
    w:line("const int piece = thread + i * THREADS;")
    w:line("const int run = piece / RUN_ROW_PIECES, offset = (piece %% RUN_ROW_PIECES) * PIECE_POINTS;")
    w:open("if (offset / IN_RUN_POINTS < tile_ffts)")
    w:line("asm volatile(\"cp.async.cg.shared.global [%%0], [%%1], 16;\"")
    w:line("             :: \"r\"(to + 16u * (unsigned)%s), \"l\"(from + (size_t)run * IN_RUN_STRIDE + offset) : \"memory\");",
      swizzled and "(swizzled(piece * PIECE_POINTS) / PIECE_POINTS)" or "piece")
    w:close()
    w:close()
    w:line("asm volatile(\"cp.async.commit_group;\" ::: \"memory\");")
    w:close()
  elseif prefetching(p) then
    w:line("// shared memory holds float2 with %s, then the staging", pad_text(p))
    w:line("// buffer: one transform's input and the 16 bytes a bulk copy may start early")
    w:line("static_assert(SHARED_BYTES == SMEM_POINTS * sizeof(float2) + POINTS * sizeof(point_t) + 16, \"shared memory size\");")
  elseif tma_runs(p) then
    tma_layout(w, p, "run r of the tile's rows at staging + r * FFTS_PER_BLOCK * IN_RUN_POINTS, its 128-byte rows swizzled")
    w:line("static_assert(GROUP_COUNT == 1 && IN_FFT_STRIDE == IN_RUN_POINTS && TMA_TILE_ROWS * TMA_ROW_POINTS == FFTS_PER_BLOCK * IN_RUN_POINTS,")
    w:line("              \"runs of the tile's rows side by side, whole 128-byte rows\");")
    w:line("static_assert(THREADS_PER_FFT %% IN_RUN_POINTS == 0 && THREADS_PER_FFT * FFTS_PER_BLOCK * sizeof(point_t) %% 1024 == 0,")
    w:line("              \"a thread's points whole runs and whole swizzle periods apart\");")
    w:line("static_assert(POINTS / IN_RUN_POINTS %% TMA_BOX_RUNS == 0 && TMA_BOX_RUNS * FFTS_PER_BLOCK * IN_RUN_POINTS * sizeof(point_t) %% 1024 == 0,")
    w:line("              \"whole boxes a tile, each whole swizzle periods\");")
    w:line("")
    w:line("// Tile `tile` asked of the TMA by one thread: POINTS / IN_RUN_POINTS / TMA_BOX_RUNS boxes of")
    w:line("// TMA_ROW_POINTS points by TMA_TILE_ROWS rows by TMA_BOX_RUNS runs, from the input's tensor map")
    w:line("// (dimensions: a 128-byte row's points, a run block's rows, runs, batch entries); each box is whole")
    w:line("// swizzle periods, so the boxes' swizzles join up. The mbarrier's phase completes when all of them")
    w:line("// have landed; a last, partial tile's rows past the batch come too (or zeros past the tensor) and are")
    w:line("// never read.")
    w:open("__device__ __forceinline__ void fetch_tile_boxes(point_t* staging, const tensor_map* map, long long tile, unsigned long long* fetched)")
    w:line("const long long first_fft = tile * FFTS_PER_BLOCK;")
    w:line("const int row = (int)(first_fft %% GROUP_SIZE * IN_RUN_POINTS / TMA_ROW_POINTS); // the tile's first, in its run block")
    w:line("const int entry = (int)(first_fft / GROUP_SIZE);")
    expect_tile(w, "copy's")
    w:line("#pragma unroll")
    w:open("for (int box = 0; box < POINTS / IN_RUN_POINTS / TMA_BOX_RUNS; ++box)")
    w:line("asm volatile(\"cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%%0], [%%1, {%%2, %%3, %%4, %%5}], [%%6];\"")
    w:line("             :: \"r\"(shared_address(staging + box * TMA_BOX_RUNS * FFTS_PER_BLOCK * IN_RUN_POINTS)), \"l\"(map),")
    w:line("                \"r\"(0), \"r\"(row), \"r\"(box * TMA_BOX_RUNS), \"r\"(entry), \"r\"(shared_address(fetched)) : \"memory\");")
    w:close()
    w:close()
    w:line("// The same tile copied by the block's threads, point by point, where the swizzle puts each: for an")
    w:line("// input that is not 16-byte aligned, where the TMA cannot start a box (the launch encodes no map then).")
    w:open("__device__ __forceinline__ void copy_tile(point_t* staging, const point_t* in, long long tile, int batch, int thread)")
    pass_setup.run_tile_copy(w, "thread", "THREADS")
    w:close()
  elseif tma_columns(p) then
    tma_layout(w, p, "row j of the tile's columns at staging + j * FFTS_PER_BLOCK")
    w:line("")
    w:line("// Tile `tile` asked of the TMA by one thread: POINTS / TMA_BOX_ROWS boxes of TMA_BOX_ROWS rows of the")
    w:line("// tile's width, from the input's tensor map (dimensions: a group's columns, %s, batch", p.tma_rows_first and "rows, groups" or "groups, rows")
    w:line("// entries). The mbarrier's phase completes when all of them have landed; a last, partial tile's")
    w:line("// columns past the batch come too (or zeros past the tensor) and are never read.")
    w:open("__device__ __forceinline__ void fetch_tile_boxes(point_t* staging, const tensor_map* map, long long tile, unsigned long long* fetched)")
    tile_indices(w, "tile * FFTS_PER_BLOCK")
    expect_tile(w, "copies'")
    w:line("#pragma unroll")
    w:open("for (int box = 0; box < POINTS / TMA_BOX_ROWS; ++box)")
    w:line("asm volatile(\"cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%%0], [%%1, {%%2, %%3, %%4, %%5}], [%%6];\"")
    w:line("             :: \"r\"(shared_address(staging + box * TMA_BOX_ROWS * FFTS_PER_BLOCK)), \"l\"(map),")
    w:line("                \"r\"((int)member), %s, \"r\"((int)entry),", p.tma_rows_first
      and "\"r\"(box * TMA_BOX_ROWS), \"r\"((int)tile_group)" or "\"r\"((int)tile_group), \"r\"(box * TMA_BOX_ROWS)")
    w:line("                \"r\"(shared_address(fetched)) : \"memory\");")
    w:close()
    w:close()
    w:line("// The same tile copied by the block's threads, point by point: for an input that is not 16-byte")
    w:line("// aligned, where the TMA cannot start a box (the launch encodes no map then).")
    w:open("__device__ __forceinline__ void copy_tile(point_t* staging, const point_t* in, long long tile, int batch, int thread)")
    tile_input(w, "tile * FFTS_PER_BLOCK")
    w:open("for (int i = thread; i < FFTS_PER_BLOCK * POINTS; i += THREADS)")
    w:line("const int row = i / FFTS_PER_BLOCK, fft = i %% FFTS_PER_BLOCK;")
    w:line("if (fft < tile_ffts) staging[i] = from[(size_t)row * IN_ELEM_STRIDE + (size_t)fft * IN_FFT_STRIDE];")
    w:close()
    w:close()
  elseif p.tile_pairs then
    w:line("// shared memory holds float2 with %s, then, from byte", pad_text(p))
    w:line("// PAIR_OFFSET, the outputs of the first tile of the block's pair; the second's go over the exchanges")
    w:line("static_assert(SHARED_BYTES == PAIR_OFFSET + FFTS_PER_BLOCK * POINTS * sizeof(point_t), \"shared memory size\");")
    w:line("static_assert(PAIR_OFFSET %% 16 == 0 && PAIR_OFFSET >= SMEM_POINTS * (int)sizeof(float2) &&")
    w:line("              SMEM_POINTS * sizeof(float2) >= FFTS_PER_BLOCK * POINTS * sizeof(point_t), \"the pair's outputs\");")
    w:line("static_assert(OUT_FFT_STRIDE == 1 && GROUP_SIZE %% (2 * FFTS_PER_BLOCK) == 0, \"a pair's transforms side by side\");")
    w:line("")
    w:line("// The outputs of tiles 2 * pair and 2 * pair + 1, kept in shared memory, stored together.")
    w:open("__device__ __forceinline__ void store_tile_pair(point_t* out, const float2* smem, long long pair, int batch, int thread)")
    pass_setup.tile_pair_store(w, p, "cuda", "thread", "THREADS")
    w:close()
  elseif uses_shared(p) then
    w:line("// shared memory holds float2 with %s", pad_text(p, true))
    w:line("static_assert(SHARED_BYTES == %d * sizeof(float2), \"shared memory size\");", p.smem_points)
  end
  if l2_prefetching(p) and p.tiled then tile_l2_prefetch(w, p) end
  tables(w, p, "__device__ const float2")
  for _, d in ipairs(f.directions) do
    w:line("")
    cuda_kernel(w, f, p, d)
  end
end

-- Host code that launches pass p of `direction` from `src` to `dst`.
local function cuda_launch_pass(w, f, p, direction, src, dst, count, scale)
  local ns = multi(f) and string.format("%s::pass%d", f.name, p.index) or f.name
  local kernel = ns .. "::" .. kernel_name(f, p, direction)
  w:open("")
  w:line("const long long ffts = %s;", count)
  w:line("if (ffts > 2147483647LL) return cudaErrorInvalidValue;")
  w:open("if (%s::SHARED_BYTES > 48 * 1024)", ns)
  w:line("cudaError_t status = cudaFuncSetAttribute(%s,", kernel)
  w:line("    cudaFuncAttributeMaxDynamicSharedMemorySize, %s::SHARED_BYTES);", ns)
  w:line("if (status != cudaSuccess) return status;")
  w:close()
  if tma_columns(p) then
    w:line("// the input's tensor map, for the TMA's boxes; an input off 16 bytes is copied by the threads instead")
    w:line("%s::tensor_map input_map = {};", f.name)
    w:open("if (((size_t)%s & 15u) == 0)", src)
    w:line("const long long entries = (ffts + %s::GROUP_SIZE * %s::GROUP_COUNT - 1) / (%s::GROUP_SIZE * %s::GROUP_COUNT);", ns, ns, ns, ns)
    if tma_runs(p) then
      w:line("const cudaError_t status = encode_run_tiles(&input_map, %s, sizeof(%s::point_t), %s::TMA_ROW_POINTS, %s::TMA_GROUP_ROWS,", src, f.name, ns, ns)
      w:line("    %s::POINTS / %s::IN_RUN_POINTS, %s::IN_RUN_STRIDE, entries, %s::IN_BATCH_STRIDE, %s::TMA_TILE_ROWS,", ns, ns, ns, ns, ns)
      w:line("    %s::TMA_BOX_RUNS);", ns)
    else
      w:line("const cudaError_t status = encode_column_tiles(&input_map, %s, sizeof(%s::point_t), %s::GROUP_SIZE, %s::GROUP_COUNT,", src, f.name, ns, ns)
      w:line("    %s::TMA_GROUP_STRIDE, %s::POINTS, %s::IN_ELEM_STRIDE, entries, %s::IN_BATCH_STRIDE, %s::FFTS_PER_BLOCK, %s::TMA_BOX_ROWS,",
        ns, ns, ns, ns, ns, ns)
      w:line("    %s); // %s", p.tma_rows_first and "true" or "false",
        p.tma_rows_first and "the rows before the groups: a pass before wrote its tiles as blocks" or "the groups before the rows")
    end
    w:line("if (status != cudaSuccess) return status;")
    w:close()
    w:line("// as many blocks as fit on the SMs at once, each taking tiles in turn")
    w:line("int device = 0, sms = 0, resident = 0;")
    w:open("")
    w:line("cudaError_t status = cudaGetDevice(&device);")
    w:line("if (status == cudaSuccess) status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);")
    w:line("if (status == cudaSuccess)")
    w:line("    status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, %s, %s::THREADS, %s::SHARED_BYTES);", kernel, ns, ns)
    w:line("if (status != cudaSuccess) return status;")
    w:close()
    w:line("const long long tiles = (ffts + %s::FFTS_PER_BLOCK - 1) / %s::FFTS_PER_BLOCK;", ns, ns)
    w:line("const long long fill = (long long)sms * (resident > 0 ? resident : 1);")
    w:line("const unsigned blocks = (unsigned)(tiles < fill ? tiles : fill);")
    w:line("%s<<<blocks, %s::THREADS, %s::SHARED_BYTES, stream>>>(%s, %s, (int)ffts, %s, input_map);", kernel, ns, ns, src,
      dst, scale)
    w:line("const cudaError_t status = cudaGetLastError();")
    w:line("if (status != cudaSuccess) return status;")
    w:close()
    return
  end
  if prefetching(p) then
    w:line("// %s a block, but a block on every SM where the batch has enough",
      tile_copies(p) and "PREFETCH_TILES tiles" or "PREFETCH_FFTS transforms")
    w:line("int device = 0, sms = 0;")
    w:open("")
    w:line("cudaError_t status = cudaGetDevice(&device);")
    w:line("if (status == cudaSuccess) status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);")
    w:line("if (status != cudaSuccess) return status;")
    w:close()
    -- what the blocks take in turn: transforms, or a tiled pass's tiles
    local units, per_block = "ffts", "PREFETCH_FFTS"
    if tile_copies(p) then
      w:line("if (((size_t)%s & 15u) != 0) return cudaErrorMisalignedAddress; // its tiles are copied 16 bytes at a time", src)
      w:line("const long long tiles = (ffts + %s::FFTS_PER_BLOCK - 1) / %s::FFTS_PER_BLOCK;", ns, ns)
      units, per_block = "tiles", "PREFETCH_TILES"
    end
    w:line("const long long turns = (%s + %s::%s - 1) / %s::%s;", units, ns, per_block, ns, per_block)
    w:line("const long long spread = %s < sms ? %s : sms;", units, units)
    w:line("const unsigned blocks = (unsigned)(turns > spread ? turns : spread);")
  elseif p.tile_pairs then
    w:line("// two tiles a block")
    w:line("const unsigned blocks = (unsigned)(((ffts + %s::FFTS_PER_BLOCK - 1) / %s::FFTS_PER_BLOCK + 1) / 2);", ns, ns)
  else
    w:line("const unsigned blocks = (unsigned)((ffts + %s::FFTS_PER_BLOCK - 1) / %s::FFTS_PER_BLOCK)%s;", ns, ns,
      (p.tiled and clustered(p)) and string.format(" * %s::CLUSTER", ns) or "")
  end
  w:line("%s<<<blocks, %s::THREADS, %s::SHARED_BYTES, stream>>>(%s, %s, (int)ffts, %s);", kernel, ns, ns, src, dst,
    scale)
  w:line("const cudaError_t status = cudaGetLastError();")
  w:line("if (status != cudaSuccess) return status;")
  w:close()
end

local function cuda_launcher(w, f, direction)
  local storage = storage_type(f)
  local point = f.name .. "::point_t"
  if through_work(f) then
    w:line("extern \"C\" cudaError_t %s_%s_launch(const %s* in, %s* out, int batch, void* work, cudaStream_t stream)",
      f.name, direction, storage, storage)
  else
    w:line("extern \"C\" cudaError_t %s_%s_launch(const %s* in, %s* out, int batch, cudaStream_t stream)",
      f.name, direction, storage, storage)
  end
  w:open("")
  w:line("if (batch <= 0 || in == nullptr || out == nullptr%s) return cudaErrorInvalidValue;",
    through_work(f) and " || work == nullptr" or "")
  w:line("const %s* src = reinterpret_cast<const %s*>(in);", point, point)
  w:line("%s* dst = reinterpret_cast<%s*>(out);", point, point)
  if through_work(f) then w:line("%s* tmp = static_cast<%s*>(work);", point, point) end
  for i, p in ipairs(f.passes) do
    local from, to = pass_buffers(f, i, "src", "tmp", "dst")
    local ffts = per_block_batch(f) and string.format("(long long)batch * %d", groups(f, p)) or "batch"
    cuda_launch_pass(w, f, p, direction, from, to, ffts, "1.0f")
  end
  w:line("return cudaSuccess;")
  w:close()
end

-- The host code of a tensor map's encoding, in the generated launch functions: the driver's encoder
-- through the runtime's entry points (nothing links the driver library), then the call on `dims`,
-- `strides`, `box` and `steps` with the swizzle named (NONE or 128B), into `map`; `why`, if given, a
-- comment on the call.
local function encoder_lookup(w)
  w:line("PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;")
  w:line("cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;")
  w:line("const cudaError_t status = cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", reinterpret_cast<void**>(&encode),")
  w:line("    12000, cudaEnableDefault, &found);")
  w:line("if (status != cudaSuccess) return status;")
  w:line("if (found != cudaDriverEntryPointSuccess || encode == nullptr) return cudaErrorNotSupported;")
end
local function encode_call(w, swizzle, why)
  w:line("CUtensorMap encoded;")
  if why then w:line("// %s", why) end
  w:line("if (encode(&encoded, point_bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_UINT64, 4,")
  w:line("           const_cast<void*>(in), dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_%s,", swizzle)
  w:line("           CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)")
  w:line("    return cudaErrorInvalidValue;")
  w:line("static_assert(sizeof encoded == sizeof *map, \"a tensor map is 128 bytes\");")
  w:line("memcpy(map, &encoded, sizeof encoded);")
  w:line("return cudaSuccess;")
end

local function render_cuda(f)
  local w = code.writer()
  local storage = storage_type(f)
  local body = { "Entry points (D = forward or inverse):" }
  for _, d in ipairs(f.directions) do
    for _, p in ipairs(f.passes) do
      body[#body + 1] = string.format(
        "  extern \"C\" __global__ void %s(const point_t* in, point_t* out, int batch, float scale%s);",
        kernel_name(f, p, d), tma_columns(p) and ",\n      const __grid_constant__ tensor_map input_map" or "")
    end
    if through_work(f) then
      body[#body + 1] = string.format("  extern \"C\" cudaError_t %s_%s_launch(const %s* in, %s* out, int batch,",
        f.name, d, storage, storage)
      body[#body + 1] = "                                   void* work, cudaStream_t stream);"
    else
      body[#body + 1] = string.format("  extern \"C\" cudaError_t %s_%s_launch(const %s* in, %s* out, int batch,",
        f.name, d, storage, storage)
      body[#body + 1] = "                                   cudaStream_t stream);"
    end
  end
  if through_work(f) then
    body[#body + 1] = string.format("  extern \"C\" size_t %s_work_bytes(int batch);", f.name)
  end
  if f.columns_first then
    body[#body + 1] = ""
    body[#body + 1] = "The launch function runs the columns from `in` into `work`, a device buffer of"
    body[#body + 1] = string.format("%s_work_bytes(batch) bytes owned by the caller, then the rows from `work`", f.name)
    body[#body + 1] = "into `out`; `in` is left as it was when in != out."
  elseif through_work(f) and f.rank == 1 then
    body[#body + 1] = ""
    body[#body + 1] = "The launch function runs the passes in order through `work`, a device buffer of"
    body[#body + 1] = string.format("%s_work_bytes(batch) bytes owned by the caller.", f.name)
  elseif multi(f) then
    body[#body + 1] = ""
    body[#body + 1] = "The launch function runs the passes in order, the first from `in`, the others in"
    body[#body + 1] = "place on `out`; `in` is left as it was when in != out."
    if through_work(f) then
      body[#body + 1] = string.format("The passes marked `work` go through a device buffer of %s_work_bytes(batch)",
        f.name)
      body[#body + 1] = "bytes owned by the caller."
    end
  end
  local extra = {
    "Every kernel multiplies its outputs by `scale` (1/N in the last pass gives a normalized",
    "inverse); `batch` counts that kernel's transforms. The launch functions pass 1, check their",
    "arguments, raise the dynamic shared-memory limit where a kernel needs more than 48 KB, launch",
    "on `stream` and return the first error.",
    "",
  }
  for _, l in ipairs(extra) do body[#body + 1] = l end
  for _, p in ipairs(f.passes) do
    local label = multi(f) and string.format("Pass %d launch shape", p.index) or "Launch shape"
    if clustered(p) and p.tiled then
      body[#body + 1] = string.format("%s: %d threads per block, clusters of %d blocks (compiled in) with %d", label,
        p.threads, p.cluster, p.ffts_per_block)
      body[#body + 1] = string.format("  transform(s) per cluster, so grid = %d * ceil(transforms / %d) blocks; dynamic",
        p.cluster, p.ffts_per_block)
      body[#body + 1] = string.format("  shared memory %d bytes per block.", p.shared_bytes)
    elseif clustered(p) then
      body[#body + 1] = string.format("%s: %d threads per block, clusters of %d blocks (compiled in), so", label,
        p.threads, p.cluster)
      body[#body + 1] = string.format("  grid = %d * transforms blocks, and the kernel's `batch` is that block count;",
        p.cluster)
      body[#body + 1] = string.format("  dynamic shared memory %d bytes per block.", p.shared_bytes)
    elseif tma_columns(p) then
      body[#body + 1] = string.format("%s: %d threads per block, %d transform(s) per tile, tiles in turn:", label,
        p.threads, p.ffts_per_block)
      body[#body + 1] = "  grid = as many blocks as fit on the SMs at once (the occupancy API), at most one per tile;"
      body[#body + 1] = string.format("  dynamic shared memory %d bytes per block, %d of them from byte %d the staging", p.shared_bytes,
        p.ffts_per_block * p.n * p.point_bytes, p.tma_staging_offset)
      body[#body + 1] = "  buffer that the tensor memory accelerator copies the next tile to (sm_90) while the block"
      body[#body + 1] = "  computes the current one, from `input_map`, a tensor map of the input that the launch"
      body[#body + 1] = "  function encodes (cuTensorMapEncodeTiled, through the runtime's driver entry points)."
    elseif tile_copies(p) then
      body[#body + 1] = string.format("%s: %d threads per block, %d transform(s) per tile, up to %d tiles per block", label,
        p.threads, p.ffts_per_block, p.prefetch)
      body[#body + 1] = string.format("  in turn: grid = ceil(ceil(transforms / %d) / %d) blocks, but at least one per SM (at", p.ffts_per_block, p.prefetch)
      body[#body + 1] = string.format("  most one per tile); dynamic shared memory %d bytes per block, %d of them the", p.shared_bytes,
        p.shared_bytes - 8 * p.smem_points)
      body[#body + 1] = "  staging buffer that the block's threads copy the next tile's input to (cp.async) while they"
      body[#body + 1] = "  compute the current one; `work` 16-byte aligned."
    elseif prefetching(p) then
      body[#body + 1] = string.format("%s: %d threads per block, up to %d transforms per block in turn:", label,
        p.threads, p.prefetch)
      body[#body + 1] = string.format("  grid = ceil(transforms / %d) blocks, but at least one per SM (at most one per", p.prefetch)
      body[#body + 1] = string.format("  transform); dynamic shared memory %d bytes per block,", p.shared_bytes)
      if slice_copies(p) then
        body[#body + 1] = string.format("  %d of them the staging buffer that the block's threads copy the next slice's",
          p.shared_bytes - 8 * p.smem_points)
        body[#body + 1] = "  input to (cp.async) while they compute the current one" .. (p.split_copies and "," or ".")
        if p.split_copies then body[#body + 1] = "  half of it at the block's first barrier and half at its last." end
      else
        body[#body + 1] = string.format("  %d of them the staging buffer that the next transform's input is bulk-copied to",
          p.shared_bytes - 8 * p.smem_points)
        body[#body + 1] = "  (sm_90 and newer) while the block computes the current one."
      end
    elseif p.tile_pairs then
      body[#body + 1] = string.format("%s: %d threads per block, two tiles of %d transform(s) per block in turn, so", label,
        p.threads, p.ffts_per_block)
      body[#body + 1] = string.format("  grid = ceil(ceil(transforms / %d) / 2) blocks; dynamic shared memory %d bytes per", p.ffts_per_block,
        p.shared_bytes)
      body[#body + 1] = string.format("  block, %d of them from byte %d the first tile's outputs, stored with the second's.",
        p.ffts_per_block * p.n * p.point_bytes, p.pair_offset)
    else
      body[#body + 1] = string.format("%s: %d threads per block, %d transform(s) per block, so", label, p.threads,
        p.ffts_per_block)
      body[#body + 1] = string.format("  grid = ceil(transforms / %d) blocks; dynamic shared memory %d bytes per block.",
        p.ffts_per_block, p.shared_bytes)
      if l2_prefetching(p) then
        body[#body + 1] = string.format("  Each block asks L2 for the input of the block %d KB further on (sm_90).",
          p.l2_prefetch_bytes // 1024)
      end
    end
  end
  local most = 0
  for _, p in ipairs(f.passes) do most = math.max(most, p.shared_bytes) end
  -- no architecture in the text: the same plan gives the same file (and kernel-cache key) everywhere
  local tail = {
    string.format("Runs where a block may have %d bytes of shared memory (sm_75: 64 KB,", most),
    "sm_80: 163 KB, sm_86/89/120: 99 KB, sm_90: 227 KB).",
  }
  if any_cluster(f) then
    tail = { string.format("Runs on sm_90 and newer (thread-block clusters), with %d bytes of shared", most),
      "memory per block." }
  elseif any_pass_that(f, bulk_copies) or any_pass_that(f, tma_columns) then
    tail = { string.format("Runs on sm_90 and newer (bulk copies), with %d bytes of shared memory per", most),
      "block." }
  elseif any_prefetch(f) then
    tail = { string.format("Runs on sm_80 and newer (cp.async), with %d bytes of shared memory per block.", most) }
  end
  for _, l in ipairs({
    "",
    "Build: nvcc -c -arch=sm_XY this_file.cu   (or compile it with NVRTC: under",
    "__CUDACC_RTC__ only the kernels are compiled, and no header is included).",
  }) do tail[#tail + 1] = l end
  for _, l in ipairs(tail) do body[#body + 1] = l end
  local kind = multi(f) and string.format("%d-pass", #f.passes) or "single-kernel"
  header(w, f, string.format("fftgen kernel: %s-point %s FFT, %s", f.shape_text, f.precision, kind), body)
  w:line("")
  w:line("#ifndef __CUDACC_RTC__")
  w:line("#include <cuda_runtime.h>")
  if f.precision == "fp16" then w:line("#include <cuda_fp16.h>") end
  if any_pass_that(f, tma_columns) then
    w:line("#include <cuda.h> // CUtensorMap")
    w:line("#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled")
    w:line("#include <string.h>")
  end
  w:line("#endif")
  w:line("")
  w:line("namespace %s {", f.name)
  w:line("")
  cuda_helpers(w, f)
  for _, p in ipairs(f.passes) do
    w:line("")
    if multi(f) then
      w:line("namespace pass%d {", p.index)
      w:line("")
    end
    cuda_pass(w, f, p)
    if multi(f) then
      w:line("")
      w:line("} // namespace pass%d", p.index)
    end
  end
  w:line("")
  w:line("} // namespace %s", f.name)
  w:line("")
  w:line("#ifndef __CUDACC_RTC__")
  if through_work(f) then
    w:line("extern \"C\" size_t %s_work_bytes(int batch)", f.name)
    w:open("")
    w:line("return batch > 0 ? (size_t)batch * %d * sizeof(%s::point_t) : 0;", f.n, f.name)
    w:close()
    w:line("")
  end
  if any_pass_that(f, tma_runs) then
    w:line("// The tensor map of a TMA run pass's input (fftgen_tma_run_map): `in` 16-byte aligned, points of")
    w:line("// `point_bytes` in dimensions a 128-byte row's points, a run block's rows, runs and batch entries,")
    w:line("// copied in boxes of `tile_rows` rows of `box_runs` runs (a tile's, in one box or several), landing")
    w:line("// with the 128-byte swizzle.")
    w:line("static cudaError_t encode_run_tiles(%s::tensor_map* map, const void* in, size_t point_bytes, long long row_points,", f.name)
    w:line("    long long group_rows, long long runs, long long run_stride, long long entries, long long batch_stride,")
    w:line("    unsigned tile_rows, unsigned box_runs)")
    w:open("")
    encoder_lookup(w)
    w:line("const cuuint64_t dims[4] = {(cuuint64_t)row_points, (cuuint64_t)group_rows, (cuuint64_t)runs, (cuuint64_t)entries};")
    w:line("const cuuint64_t strides[3] = {row_points * point_bytes, run_stride * point_bytes, batch_stride * point_bytes};")
    w:line("const cuuint32_t box[4] = {(cuuint32_t)row_points, tile_rows, box_runs, 1}, steps[4] = {1, 1, 1, 1};")
    encode_call(w, "128B")
    w:close()
    w:line("")
  end
  if any_pass_that(f, function(p) return tma_columns(p) and not tma_runs(p) end) then
    local map = f.name .. "::tensor_map"
    w:line("// The tensor map of a TMA column pass's input (fftgen_kernel_plan.tma_columns): `in` 16-byte aligned,")
    w:line("// points of `point_bytes` in dimensions a group's columns, groups, rows and batch entries (rows before")
    w:line("// groups where `rows_first`), copied in boxes of `width` columns by `box_rows` rows. The driver's")
    w:line("// cuTensorMapEncodeTiled comes through the runtime, so that nothing links the driver library.")
    w:line("static cudaError_t encode_column_tiles(%s* map, const void* in, size_t point_bytes, long long group_size,", map)
    w:line("    long long group_count, long long group_stride, long long rows, long long elem_stride, long long entries,")
    w:line("    long long batch_stride, unsigned width, unsigned box_rows, bool rows_first)")
    w:open("")
    encoder_lookup(w)
    w:line("const cuuint64_t groups[2] = {(cuuint64_t)group_count, group_stride * point_bytes};")
    w:line("const cuuint64_t points[2] = {(cuuint64_t)rows, elem_stride * point_bytes};")
    w:line("const cuuint64_t* middle = rows_first ? points : groups;")
    w:line("const cuuint64_t* outer = rows_first ? groups : points;")
    w:line("const cuuint64_t dims[4] = {(cuuint64_t)group_size, middle[0], outer[0], (cuuint64_t)entries};")
    w:line("const cuuint64_t strides[3] = {middle[1], outer[1], batch_stride * point_bytes};")
    w:line("const cuuint32_t box[4] = {width, rows_first ? box_rows : 1u, rows_first ? 1u : box_rows, 1}, steps[4] = {1, 1, 1, 1};")
    encode_call(w, "NONE", "L2 fetches the 128 bytes around each row of a box: the tiles beside read the rest soon after")
    w:close()
    w:line("")
  end
  for i, d in ipairs(f.directions) do
    if i > 1 then w:line("") end
    cuda_launcher(w, f, d)
  end
  w:line("#endif")
  return w:text()
end

-- Index names and offsets for the header's description of the data layout.
local function prepare_shape(f)
  f.shape_list, f.index_names = {}, {}
  for d, size in ipairs(f.shape) do
    f.shape_list[d] = tostring(size)
    f.index_names[d] = "j" .. (d - 1)
  end
  local function offset(embed)
    -- row-major over the embed: ((j0*e1 + j1)*e2 + j2)
    local text = f.index_names[1]
    for d = 2, f.rank do
      text = (d == 2 and text or "(" .. text .. ")") .. "*" .. embed[d] .. " + " .. f.index_names[d]
    end
    return text
  end
  f.dense_offset = offset(f.shape_list)
  f.in_offset = offset(f.in_embed)
  f.out_offset = offset(f.out_embed)
end

-- Fills in what the templates derive from the plan: pass numbers, table prefixes, layout names,
-- and the split of the pass twiddle's exponent.
local function prepare(f)
  prepare_shape(f)
  for i, p in ipairs(f.passes) do
    p.index = i
    p.prefix = multi(f) and string.format("pass%d_", i) or ""
    p.transposed_smem = p.tiled
    p.split = f.split
    p.fp16 = f.precision == "fp16"
    if clustered(p) then
      -- the last stage's twiddles exp(-2*pi*i*q/TRANSFORM_POINTS), q < 2^20: two tables
      p.cluster_bits = (code.log2(p.cluster * p.n) + 1) // 2
      p.cluster_twiddle_call = (f.target == "sim") and "post_twiddle2" or "post_twiddle"
      p.cluster_tables = string.format("%scluster_twiddles_0, %scluster_twiddles_1", p.prefix, p.prefix)
    end
    if p.tiled then
      p.in_layout.name = "IN"
      p.out_layout.name = "OUT"
      assert(p.in_layout.group_size == p.out_layout.group_size, "a pass keeps its groups")
      assert(p.in_layout.group_count == p.out_layout.group_count, "a pass keeps its groups")
      if p.twiddle_n > 0 then
        -- two tables up to 2^20, three above, so that none has more than 1024 entries
        local log_n = code.log2(p.twiddle_n)
        p.post_tables = (log_n > 20) and 3 or 2
        p.post_bits = (log_n + p.post_tables - 1) // p.post_tables
        p.post_twiddle_call = (f.target == "sim") and ("post_twiddle" .. p.post_tables) or "post_twiddle"
        -- pass twiddles as base * ratio^u: fp16 takes Chebyshev's recurrence and, where it does not reach,
        -- squares the ratio (its stores round far above the few fp32 roundings that adds; stage.lua),
        -- fp32 looks each power of two of the ratio up; the split precisions keep one table product per point
        p.post_powers = ({ fp16 = "squared", fp32 = "looked-up" })[f.precision]
        assert(not p.computed_pass_twiddles or p.post_powers == "squared", "computed pass twiddles are fp16's")
      end
    end
  end
end

function M.render(f)
  prepare(f)
  if f.target == "sim" then return render_sim(f) end
  return render_cuda(f)
end

return M

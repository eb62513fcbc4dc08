-- Renders the host simulation of a transform plan: plain C11 that runs each block's threads
-- phase by phase between barriers, for tests on machines without a GPU. It takes the phase
-- bodies from stage.lua, as the CUDA file does (kernel.lua), so it checks the very indexing
-- the GPU runs.
local code = require("code")
local twiddle = require("twiddle")
local stage = require("stage")
local tc16 = require("tc16")
local plan_facts = require("plan_facts")
local SIGN, uses_shared, multi, fused, clustered, grouped_slices, through_work, any_pass_that, tensor_cores,
  on_cluster, any_cluster, reads_pass_tables, volume, shuffle_tail, radix32, sparse_pad, wide_pad,
  computed_twiddles, shared_exponent, prefetching, any_prefetch, tile_copies, tma_columns, swizzled_runs, groups,
  kernel_name, pass_buffers =
  plan_facts.SIGN, plan_facts.uses_shared, plan_facts.multi, plan_facts.fused, plan_facts.clustered,
  plan_facts.grouped_slices, plan_facts.through_work, plan_facts.any_pass_that, plan_facts.tensor_cores,
  plan_facts.on_cluster, plan_facts.any_cluster, plan_facts.reads_pass_tables, plan_facts.volume,
  plan_facts.shuffle_tail, plan_facts.radix32, plan_facts.sparse_pad, plan_facts.wide_pad,
  plan_facts.computed_twiddles, plan_facts.shared_exponent, plan_facts.prefetching, plan_facts.any_prefetch,
  plan_facts.tile_copies, plan_facts.tma_columns, plan_facts.swizzled_runs, plan_facts.groups, plan_facts.kernel_name,
  plan_facts.pass_buffers
local header = require("header").header
local pass_setup = require("pass_setup")
local pass_constants, tile_input, slice_smem, prologue, tables =
  pass_setup.pass_constants, pass_setup.tile_input, pass_setup.slice_smem, pass_setup.prologue,
  pass_setup.tables
local shared_exponent_helpers = require("intermediate").shared_exponent_helpers

local function sim_helpers(w, f)
  w:line("typedef struct { float x, y; } float2;")
  w:line("static inline float2 make_float2(float x, float y) { float2 f = { x, y }; return f; }")
  if f.precision == "fp16" then
    w:line("typedef struct { _Float16 x, y; } point_t; // same bits as __half2")
    w:line("static inline float2 load_point(const point_t* p, size_t i) { return make_float2((float)p[i].x, (float)p[i].y); }")
    w:open("static inline void store_point(point_t* p, size_t i, float2 f)")
    w:line("p[i].x = (_Float16)f.x; // round to nearest even, as cvt.rn.f16.f32")
    w:line("p[i].y = (_Float16)f.y;")
    w:close()
    if shared_exponent(f) then shared_exponent_helpers(w, "sim") end
  else
    w:line("typedef float2 point_t;")
    w:line("static inline float2 load_point(const point_t* p, size_t i) { return p[i]; }")
    w:line("static inline void store_point(point_t* p, size_t i, float2 f) { p[i] = f; }")
  end
  if any_pass_that(f, swizzled_runs) then pass_setup.swizzle_helper(w, "static inline") end
  if any_pass_that(f, stage.asks_l2_around_columns) then
    w:line("// the CUDA kernels' hint to L2 changes no value")
    w:line("static inline float2 load_point_asking_256(const point_t* p, size_t i) { return load_point(p, i); }")
  end
  w:line("static inline float2 scaled(float2 a, float s) { return make_float2(a.x * s, a.y * s); }")
  w:open("static inline float2 twiddle_mul(float2 a, float2 w)")
  w:line("return make_float2(a.x * w.x - a.y * w.y, a.x * w.y + a.y * w.x);")
  w:close()
  w:open("static inline float2 twiddle_mul_conj(float2 a, float2 w)")
  w:line("return make_float2(a.x * w.x + a.y * w.y, a.y * w.x - a.x * w.y);")
  w:close()
  w:line("static inline float2 load_twiddle(const float2* tw, int i) { return tw[i]; }")
  if f.precision == "fp16" then twiddle.chebyshev_helpers(w, "static inline") end
  if computed_twiddles(f) then
    w:open("static inline float2 computed_twiddle(int q, int n) /* the GPU's __sincosf, to about 4e-7 */")
    w:line("const double angle = -6.283185307179586 * q / n;")
    w:line("return make_float2((float)cos(angle), (float)sin(angle));")
    w:close()
    w:open("static inline float2 computed_twiddle_step(int q, int n, float* two_cos) /* kernel.lua's */")
    w:line("const float turns = (float)q * (1.0f / (float)n);")
    w:line("const float t = turns > 0.5f ? turns - 1.0f : turns;")
    w:line("const float hs = (float)sin(-3.141592653589793 * t), hc = (float)cos(-3.141592653589793 * t);")
    w:line("const int near_zero = fabsf(t) <= 0.25f;")
    w:line("const float h = near_zero ? hs : hc;")
    w:line("const float c = fmaf(-2.0f * h, h, 1.0f);")
    w:line("const float cosine = near_zero ? c : -c;")
    w:line("*two_cos = 2.0f * cosine;")
    w:line("return make_float2(cosine, 2.0f * hs * hc);")
    w:close()
  end
  w:line("static inline int padded(int i) { return i + (i >> 4); }")
  if sparse_pad(f) then w:line("static inline int padded32(int i) { return i + (i >> 5); }") end
  if wide_pad(f) then w:line("static inline int padded_wide(int i) { return i + (i >> 4) + (i >> 8); }") end
  if radix32(f) then
    w:line("static inline void store_pair(float2* s, int i, float2 a, float2 b) { s[i] = a; s[i + 1] = b; }")
  end
  if shuffle_tail(f) then
    w:line("/* a warp shuffle: the partner lane's register `theirs`, kept from the previous phase */")
    w:line("#define lane_xor16(mine, theirs) ((void)(mine), registers[thread ^ 16][theirs])")
  end
  if any_pass_that(f, stage.pairs_column_loads) then
    w:line("/* a lane pair's 8-byte loads and shuffle (the CUDA kernel's): each lane reads the two points that")
    w:line(" * lie at its `pair` in memory, and takes one of those its partner reads at the partner's `pair`, which")
    w:line(" * is computed as the kernel computes it: the partner's column lies `neighbour` (IN_FFT_STRIDE) away and")
    w:line(" * the odd lane's pair `step` points on. So a layout whose neighbouring columns are not side by side")
    w:line(" * gives the wrong points here too, as it would on the GPU. */")
    w:line("static inline void load_point_pair_at(const point_t* pair, bool odd, long long step, long long neighbour,")
    w:open("                                      float2* first, float2* second)")
    w:open("if (!odd)")
    w:line("*first = load_point(pair, 0);")
    w:line("*second = load_point(pair + neighbour - 1 + step, 0); /* the odd partner's first point */")
    w:reopen("else")
    w:line("*first = load_point(pair + 1 - step - neighbour, 1); /* the even partner's second point */")
    w:line("*second = load_point(pair, 1);")
    w:close()
    w:close()
    w:line("#define load_point_pair(pair, odd, step, first, second) \\")
    w:line("    load_point_pair_at(pair, odd, step, IN_FFT_STRIDE, first, second)")
  end
  if tensor_cores(f) then tc16.helpers(w, "sim", "static const float2", f.split) end
  if any_cluster(f) then
    w:line("/* distributed shared memory: block `rank` of the cluster is cluster_smem[rank]; the cluster's")
    w:line(" * barriers are the order in which the simulation runs the blocks' phases */")
    w:line("#define cluster_map(smem, rank) ((void)(smem), (unsigned)(rank))")
    w:line("#define cluster_load(block_smem, i) (cluster_smem[block_smem][i])")
    w:line("#define cluster_done() ((void)0)")
  end
  if reads_pass_tables(f) then
    w:open("static inline float2 post_twiddle2(const float2* t0, const float2* t1, int q, int bits)")
    w:line("return twiddle_mul(t0[q & ((1 << bits) - 1)], t1[q >> bits]);")
    w:close()
    w:open("static inline float2 post_twiddle3(const float2* t0, const float2* t1, const float2* t2, int q, int bits)")
    w:line("const int mask = (1 << bits) - 1;")
    w:line("return twiddle_mul(twiddle_mul(t0[q & mask], t1[(q >> bits) & mask]), t2[q >> (2 * bits)]);")
    w:close()
  end
end

local function sim_function(w, f, p, direction, name, qualifier)
  w:line("/* Runs the %s kernel's blocks one after another; within a block, each phase", direction)
  w:line(" * (the code between two __syncthreads) runs for every thread before the next starts.")
  w:line(" * Returns 0, or -1 if memory for the simulated block could not be allocated. */")
  w:open("%sint %s(const void* in_points, void* out_points, int batch, float scale)", qualifier, name)
  w:line("enum {")
  for _, c in ipairs(pass_constants(p, "sim")) do
    w:line("    %s = %d, /* %s */", c[1], c[2], c[3])
  end
  w:line("};")
  w:line("const point_t* in = (const point_t*)in_points;")
  w:line("point_t* out = (point_t*)out_points;")
  if clustered(p) then
    -- `smem` is each block's part, declared in the loops below
    w:line("float2* cluster_smem[CLUSTER]; /* the cluster's blocks' shared memory */")
    w:line("float2* smem_blocks = malloc(sizeof(float2) * SMEM_POINTS * CLUSTER);")
    w:line("for (int rank = 0; rank < CLUSTER; ++rank) cluster_smem[rank] = smem_blocks + (size_t)rank * SMEM_POINTS;")
  elseif grouped_slices(p) then
    w:line("float2* block_smem = malloc(sizeof(float2) * SMEM_POINTS); /* the block's slices, side by side */")
  elseif p.tile_pairs then
    w:line("float2* smem = malloc(SHARED_BYTES); /* the exchanges, then the first tile of a pair's outputs */")
  elseif uses_shared(p) then
    w:line("float2* smem = malloc(sizeof(float2) * SMEM_POINTS);")
  else
    w:line("float2* smem = malloc(sizeof(float2)); /* unused: this kernel needs no shared memory */")
  end
  w:line("float2 (*registers)[RADIX_MAX] = malloc(sizeof(float2) * RADIX_MAX * THREADS);")
  if tma_columns(p) and p.tma_in_exchanges then
    w:line("/* the CUDA kernel's staging buffer, which the TMA (or copy_tile) fills before each tile, inside the")
    w:line(" * exchanges' shared memory */")
    w:line("point_t* staging = (point_t*)smem;")
  elseif tma_columns(p) then
    w:line("/* the CUDA kernel's staging buffer, which the TMA (or copy_tile) fills before each tile */")
    w:line("point_t* staging = calloc((size_t)FFTS_PER_BLOCK * POINTS, sizeof(point_t));")
  elseif prefetching(p) then
    w:line("/* the CUDA kernel's staging buffer, which copies fill before each transform; its copies may")
    w:line(" * start up to 12 bytes early (staged_skew), these are exact */")
    w:line("point_t* staging = malloc(sizeof(point_t) * %s);",
      fused(p) and "SLICE_ROWS * STAGED_ROW_POINTS" or (p.tiled and "FFTS_PER_BLOCK * POINTS" or "POINTS"))
    if not p.tiled then w:line("const int staged_skew = 0;") end
  end
  if p.tensor_cores then
    w:line("tc_fragments* fragments = calloc(THREADS, sizeof *fragments); /* each thread's, between phases */")
  else
    w:line("void* fragments = malloc(1); /* unused: no tensor-core stages */")
  end
  local shared = clustered(p) and "smem_blocks" or (grouped_slices(p) and "block_smem" or "smem")
  local staged = (prefetching(p) or tma_columns(p)) and " || staging == NULL" or ""
  -- the buffers above, freed on both ways out
  local function free_buffers()
    w:line("free(%s);", shared)
    w:line("free(registers);")
    w:line("free(fragments);")
    if prefetching(p) or (tma_columns(p) and not p.tma_in_exchanges) then w:line("free(staging);") end
  end
  w:open("if (%s == NULL || registers == NULL || fragments == NULL%s)", shared, staged)
  free_buffers()
  w:line("return -1;")
  w:close()
  w:line("const long long blocks = ((long long)batch + FFTS_PER_BLOCK - 1) / FFTS_PER_BLOCK%s;",
    (p.tiled and clustered(p)) and " * CLUSTER" or "")
  -- one loop over the block's threads, with the per-thread indices (and fragments) of the kernel
  local function threads(body, in_warp)
    local index = grouped_slices(p) and "block_thread" or "thread"
    if in_warp then
      w:open("for (int %s = warp_first; %s < warp_first + 32 && %s < THREADS; ++%s)", index, index, index, index)
    else
      w:open("for (int %s = 0; %s < THREADS; ++%s)", index, index, index)
    end
    w:line("float2* v = registers[%s];", index)
    if grouped_slices(p) then
      w:line("const int slice_in_block = block_thread / SLICE_THREADS;")
      w:line("const int thread = block_thread %% SLICE_THREADS;")
      slice_smem(w, p)
    end
    prologue(w, p, "sim")
    if p.tensor_cores then tc16.prologue(w, p, SIGN[direction], "sim") end
    w:embed(body)
    if p.tensor_cores then w:line("fragments[thread] = tc;") end
    w:close()
  end
  if clustered(p) then
    w:line("/* the blocks of one cluster at a time: every block's stages, then every block's last stage */")
    w:open("for (long long first = 0; first < blocks; first += CLUSTER)")
    w:open("for (long long block = first; block < first + CLUSTER; ++block)")
    w:line("float2* smem = cluster_smem[block %% CLUSTER];")
  else
    w:open("for (long long block = 0; block < blocks; ++block)")
  end
  if p.tile_pairs then
    w:line("/* the CUDA kernel runs tiles 2b and 2b + 1 in one block, in turn: pair_half is where each keeps its outputs */")
    w:line("point_t* pair_half = (point_t*)((block & 1) ? (char*)smem : (char*)smem + PAIR_OFFSET);")
  end
  if swizzled_runs(p) then
    -- the TMA's box (fetch_tile_boxes), the threads' copy_tile, or their swizzled fetch_tile: the same
    -- points, swizzled
    w:open("")
    w:line("const long long tile = block;")
    pass_setup.run_tile_copy(w, "0", "1")
    w:close()
  elseif tma_columns(p) then
    w:open("") -- the TMA's boxes (fetch_tile_boxes), or the threads' copy_tile: the same points
    tile_input(w, "block * FFTS_PER_BLOCK")
    w:open("for (int i = 0; i < FFTS_PER_BLOCK * POINTS; ++i)")
    w:line("const int row = i / FFTS_PER_BLOCK, fft = i %% FFTS_PER_BLOCK;")
    w:line("if (fft < tile_ffts) staging[i] = from[(size_t)row * IN_ELEM_STRIDE + (size_t)fft * IN_FFT_STRIDE];")
    w:close()
    w:close()
  elseif tile_copies(p) then
    w:open("") -- the threads' copies (fetch_tile)
    tile_input(w, "block * FFTS_PER_BLOCK")
    w:line("/* the runs of every transform in turn, where fetch_tile copies them */")
    w:line("const int row_points = FFTS_PER_BLOCK * IN_RUN_POINTS;")
    w:open("for (int point = 0; point < FFTS_PER_BLOCK * POINTS; point += IN_RUN_POINTS)")
    w:line("const int run = point / row_points, offset = point %% row_points;")
    w:line("if (offset / IN_RUN_POINTS < tile_ffts)")
    w:line("    memcpy(staging + point, from + (size_t)run * IN_RUN_STRIDE + offset, sizeof(point_t) * IN_RUN_POINTS);")
    w:close()
    w:close()
  elseif prefetching(p) then
    if fused(p) then
      w:line("for (int row = 0; row < SLICE_ROWS; ++row) /* the threads' copies */")
      w:line("    memcpy(staging + row * STAGED_ROW_POINTS, in + (size_t)block * POINTS + row * SLICE_COLUMNS,")
      w:line("           sizeof(point_t) * SLICE_COLUMNS);")
    else
      w:line("memcpy(staging, in + (size_t)block * POINTS, sizeof(point_t) * POINTS); /* the bulk copy */")
    end
  end
  -- Phases that start at a warp's sync (or a shuffle's boundary) are ordered within each warp only,
  -- so each warp runs a run of them in turn, before the next warp starts: a phase that reads another
  -- warp's results without a block barrier then reads stale data and fails its test.
  local phases = stage.phases(p, SIGN[direction])
  local function warp_ordered(phase) return (phase.sync == "warp" or phase.sync == "none") and not phase.tensor_cores end
  local i = 1
  while i <= #phases do
    local last = i
    while last < #phases and warp_ordered(phases[last + 1]) and not phases[i].tensor_cores do last = last + 1 end
    if last > i then
      w:line("/* phases %d to %d, warp by warp */", i, last)
      w:open("for (int warp_first = 0; warp_first < THREADS; warp_first += 32)")
      for k = i, last do
        w:line("/* phase %d */", k)
        threads(phases[k], true)
      end
      w:close()
    else
      local phase = phases[i]
      w:line("/* phase %d */", i)
      threads(phase)
      for g, steps in ipairs(phase.tensor_cores or {}) do
        w:line("/* phase %d, tensor cores, group %d: steps per thread and per warp */", i, g)
        for _, step in ipairs(steps) do
          if step.thread then threads(step.thread) else tc16.sim_step(w, step) end
        end
      end
    end
    i = last + 1
  end
  if p.tile_pairs then
    w:open("if ((block & 1) || block == blocks - 1)")
    w:line("/* the pair's store, by the block's threads in turn */")
    w:line("const long long pair = block >> 1;")
    pass_setup.tile_pair_store(w, p, "sim", "0", "1")
    w:close()
  end
  w:close()
  if clustered(p) then
    w:open("for (long long block = first; block < first + CLUSTER; ++block)")
    w:line("float2* smem = cluster_smem[block %% CLUSTER];")
    w:line("/* the last stage, across the cluster */")
    threads(stage.cluster_phase(p, SIGN[direction]))
    w:close()
    w:close()
  end
  free_buffers()
  w:line("return 0;")
  w:close()
end

local function render_sim(f)
  local w = code.writer()
  local body = { "Host simulation of the CUDA kernels of the same plan, in C11, for tests on machines" }
  body[#body + 1] = "without a GPU. Entry points:"
  for _, d in ipairs(f.directions) do
    body[#body + 1] = string.format("  int %s_%s_sim(const void* in, void* out, int batch, float scale);", f.name, d)
  end
  header(w, f, string.format("fftgen host simulation: %s-point %s FFT", f.shape_text, f.precision), body)
  w:line("")
  w:line("#include <stdbool.h>")
  w:line("#include <stddef.h>")
  w:line("#include <stdlib.h>")
  if f.split or f.precision == "fp16" then w:line("#include <math.h>") end -- fmaf, fabsf, sin and cos
  if tensor_cores(f) or shared_exponent(f) or any_prefetch(f) then w:line("#include <string.h>") end
  w:line("")
  sim_helpers(w, f)
  for _, p in ipairs(f.passes) do tables(w, p, "static const float2") end
  for _, d in ipairs(f.directions) do
    if on_cluster(f) or volume(f) then
      local p = f.passes[1]
      w:line("")
      sim_function(w, f, p, d, kernel_name(f, p, d), "static ")
      w:line("")
      if volume(f) then
        w:line("/* %d slices per transform. */", p.volume_depth)
      else
        w:line("/* One cluster of %d blocks per transform. */", p.cluster)
      end
      w:open("int %s_%s_sim(const void* in, void* out, int batch, float scale)", f.name, d)
      w:line("return %s(in, out, batch * %d, scale);", kernel_name(f, p, d), volume(f) and p.volume_depth or p.cluster)
      w:close()
    elseif not multi(f) then
      w:line("")
      sim_function(w, f, f.passes[1], d, string.format("%s_%s_sim", f.name, d), "")
    else
      for _, p in ipairs(f.passes) do
        w:line("")
        sim_function(w, f, p, d, kernel_name(f, p, d), "static ")
      end
      w:line("")
      w:line("/* The passes in order%s. */", through_work(f) and ", through a work buffer of the whole batch" or "")
      w:open("int %s_%s_sim(const void* in, void* out, int batch, float scale)", f.name, d)
      if through_work(f) then
        w:line("point_t* work = malloc(sizeof(point_t) * (size_t)batch * %d);", f.n)
        w:line("if (work == NULL) return -1;")
      end
      local count = #f.passes
      w:line("int status = 0;")
      for i, p in ipairs(f.passes) do
        local from, to = pass_buffers(f, i, "in", "work", "out")
        w:line("if (status == 0) status = %s(%s, %s, batch * %d, %s);", kernel_name(f, p, d), from, to,
          groups(f, p), (i == count) and "scale" or "1.0f")
      end
      if through_work(f) then w:line("free(work);") end
      w:line("return status;")
      w:close()
    end
  end
  return w:text()
end

return {
  render_sim = render_sim,
}

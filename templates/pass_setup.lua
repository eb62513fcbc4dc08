-- Renders what each pass's code starts with, in CUDA and in the host simulation alike: its named
-- constants, each thread's indices, the tile a block works on, and its twiddle tables.
local code = require("code")
local stage = require("stage")
local twiddle = require("twiddle")
local plan_facts = require("plan_facts")
local uses_shared, fused, clustered, grouped_slices, pass_twiddle_tables, prefetching, slice_copies,
  tile_copies, tma_columns, l2_prefetching, rows_side =
  plan_facts.uses_shared, plan_facts.fused, plan_facts.clustered, plan_facts.grouped_slices,
  plan_facts.pass_twiddle_tables, plan_facts.prefetching, plan_facts.slice_copies, plan_facts.tile_copies,
  plan_facts.tma_columns, plan_facts.l2_prefetching, plan_facts.rows_side

local function pass_constants(p, target)
  local constants = {
    { "POINTS", p.n, "points per transform" },
    { "RADIX_MAX", p.radix_max, "points each thread holds in registers" },
    { "THREADS_PER_FFT", p.threads_per_fft, "threads that share one transform" },
    { "FFTS_PER_BLOCK", p.ffts_per_block, "transforms per thread block" },
    { "THREADS", p.threads, "threads per block" },
    { "SHARED_BYTES", p.shared_bytes, "dynamic shared memory per block" },
  }
  local function add(name, value, comment) constants[#constants + 1] = { name, value, comment } end
  if fused(p) then
    constants[1][3] = "points per transform: one 2D slice"
    add("SLICE_ROWS", p.slice_rows, "rows per slice")
    add("SLICE_COLUMNS", p.n // p.slice_rows, "points per row")
    if p.interleaved_slices > 1 then
      add("OUT_SLICES", p.interleaved_slices, "slices per transform, whose output rows interleave (a four-step split)")
      add("OUT_ROW_STRIDE", p.interleaved_slices * (p.n // p.slice_rows), "elements between a slice's output rows")
    end
  end
  if grouped_slices(p) then
    add("SLICE_THREADS", p.threads_per_fft, "threads of one slice (the block runs FFTS_PER_BLOCK side by side)")
    if p.volume_depth > 0 then
      add("VOLUME_SMEM_POINTS", p.smem_points * p.volume_depth // p.ffts_per_block,
        "float2 of shared memory of one volume (its slices at padded(j * POINTS)), with padding")
    else
      add("SLICE_SMEM_POINTS", p.smem_points // p.ffts_per_block, "float2 of shared memory of one slice, with padding")
    end
  end
  if p.column_rounds > 1 then
    add("COLUMN_ROUNDS", p.column_rounds, "columns of a slice a thread transforms in turn")
  end
  if p.row_rounds > 1 then
    add("ROW_ROUNDS", p.row_rounds, "rows of a slice a thread transforms in turn")
  end
  if p.volume_depth > 0 then
    add("VOLUME_DEPTH", p.volume_depth, "slices per transform, all in one block")
    if p.depth_rounds > 1 then
      add("DEPTH_ROUNDS", p.depth_rounds, "columns along dimension 0 a thread transforms in turn")
    end
  end
  if uses_shared(p) and (target == "sim" or prefetching(p) or tma_columns(p) or p.tile_pairs) then
    add("SMEM_POINTS", p.smem_points, "float2 in shared memory, with padding")
  end
  if p.tile_pairs then
    add("PAIR_OFFSET", p.pair_offset, "bytes of shared memory before the first tile's outputs (the exchanges', to 16)")
  end
  if tma_columns(p) then
    add("STAGING_OFFSET", p.tma_staging_offset, "bytes of shared memory before the staging buffer (the exchanges', to 128)")
  end
  if p.tma_runs then
    add("TMA_ROW_POINTS", p.tma_row_points, "points in a 128-byte row of the staging buffer, the swizzle's unit")
    add("TMA_TILE_ROWS", p.tma_box_rows, "128-byte rows of the tile's rows in each run block (the box, in every run)")
    add("TMA_GROUP_ROWS", p.tma_group_rows, "128-byte rows of a run block, every transform's (the tensor map's)")
    add("TMA_BOX_RUNS", p.tma_box_runs, "runs in one TMA box (at most 256: a tile of more is several boxes)")
  elseif tma_columns(p) then
    add("TMA_BOX_ROWS", math.min(p.n, 256), "rows of the tile's columns in one TMA box (at most 256)")
    add("TMA_GROUP_STRIDE", p.tma_group_stride, "elements between groups in the tensor map (a group's columns where there is one)")
  end
  if tile_copies(p) then
    add("PREFETCH_TILES", p.prefetch, "tiles a block runs in turn, each one's input copied in ahead (fewer where a block per SM needs)")
  elseif prefetching(p) then
    add("PREFETCH_FFTS", p.prefetch, "transforms a block runs in turn, each one's input copied in ahead (fewer where a block per SM needs)")
  end
  if l2_prefetching(p) and target == "cuda" then
    local block_bytes = p.ffts_per_block * p.n * p.point_bytes
    add("L2_PREFETCH_BLOCKS", (p.l2_prefetch_bytes + block_bytes - 1) // block_bytes,
      string.format("blocks ahead whose input a block asks L2 for (%d KB)", p.l2_prefetch_bytes // 1024))
  end
  if slice_copies(p) then
    add("STAGED_ROW_POINTS", p.staged_row_points, "points between the staged slice's rows (a row and its pad)")
  end
  if p.tiled then
    add("GROUP_SIZE", p.in_layout.group_size, "transforms per group, side by side")
    add("GROUP_COUNT", p.in_layout.group_count, "groups per transform of the file")
    for _, side in ipairs({ p.in_layout, p.out_layout }) do
      add(side.name .. "_ELEM_STRIDE", side.elem_stride, "elements between points of one transform")
      add(side.name .. "_FFT_STRIDE", side.fft_stride, "elements between transforms of a group")
      add(side.name .. "_GROUP_STRIDE", side.group_stride, "elements between groups")
      add(side.name .. "_BATCH_STRIDE", side.batch_stride, "elements between transforms of the file")
      if side.run_points > 0 then
        add(side.name .. "_RUN_POINTS", side.run_points, "points per run of one transform")
        add(side.name .. "_RUN_STRIDE", side.run_stride, "elements between runs of one transform")
      end
    end
    if p.mixed_target_rows then
      add("MIXED_ROWS", p.mixed_target_rows, "the next pass's rows per run of one format (__half2 in odd runs)")
    end
    if rows_side(p) then add("LOG_POINTS", code.log2(p.n), "log2(POINTS)") end
    if p.computed_pass_twiddles then
      add("TWIDDLE_N", p.twiddle_n, "the pass twiddles are exp(-2*pi*i*q/TWIDDLE_N)")
    elseif p.twiddle_n > 0 then
      add("POST_TWIDDLE_BITS", p.post_bits, "exponent bits per pass-twiddle table")
    end
  end
  if clustered(p) then
    add("CLUSTER", p.cluster, p.tiled and "blocks of a thread-block cluster, one tile per cluster"
      or "blocks of a thread-block cluster, one transform per cluster")
    add("TRANSFORM_POINTS", p.cluster * p.n, "points per transform: CLUSTER * POINTS")
    add("CLUSTER_TWIDDLE_BITS", p.cluster_bits, "exponent bits per twiddle table of the cluster's last stage")
  end
  return constants
end

-- The tile whose first transform is `first` (an expression): that transform, and the tile's group
-- member, group and batch entry (fftgen_layout); `why`, if given, comments the first.
local function tile_indices(w, first, why)
  w:line("const long long first_fft = %s;%s", first, why and (" // " .. why) or "")
  w:line("const long long member = first_fft %% GROUP_SIZE;")
  w:line("const long long tile_group = (first_fft / GROUP_SIZE) %% GROUP_COUNT;")
  w:line("const long long entry = first_fft / ((long long)GROUP_SIZE * GROUP_COUNT);")
end

-- ... and, for a copy of the tile's input ahead (fetch_tile, and the host simulation's), where that
-- starts and how many of its transforms exist.
local function tile_input(w, first)
  tile_indices(w, first)
  w:line("const point_t* from = in + (size_t)(entry * IN_BATCH_STRIDE + tile_group * IN_GROUP_STRIDE + member * IN_FFT_STRIDE);")
  w:line("const int tile_ffts = (int)(batch - first_fft < FFTS_PER_BLOCK ? batch - first_fft : FFTS_PER_BLOCK);")
end

-- The shared memory of a thread's slice, where the block runs several (grouped_slices). A volume's
-- slice j starts at padded(j * POINTS), where its columns along dimension 0 find point j (stage.lua):
-- that is j slices' padded size apart when a slice is whole pads of 16, and keeps slices of 4 or 8
-- points (2x2, 2x4) where the columns look for them.
local function slice_smem(w, p)
  if p.volume_depth > 0 then
    w:line("float2* smem = block_smem + (slice_in_block / VOLUME_DEPTH) * VOLUME_SMEM_POINTS +")
    w:line("               padded((slice_in_block %% VOLUME_DEPTH) * POINTS);")
  else
    w:line("float2* smem = block_smem + slice_in_block * SLICE_SMEM_POINTS;")
  end
end

-- Where slice `slice` writes its outputs where they interleave (fftgen_kernel_plan.interleaved_slices):
-- its row k at row slice % OUT_SLICES + OUT_SLICES * k of its transform (one slice a block or a group).
local function interleaved_base(w, p, slice)
  if not fused(p) or p.interleaved_slices <= 1 then return end
  assert(p.ffts_per_block == 1 or grouped_slices(p), "interleaved outputs: one slice a block, or a group's own")
  w:line("// its output rows interleave with the other slices' of the transform: row k at row %s %% OUT_SLICES", slice)
  w:line("// + OUT_SLICES * k, the order of dimension 0's four-step split")
  w:line("const size_t out_block_base = (size_t)(%s / OUT_SLICES) * OUT_SLICES * POINTS + (size_t)(%s %% OUT_SLICES) * SLICE_COLUMNS;",
    slice, slice)
end

-- Per-thread indices the phases use.
local function prologue(w, p, target)
  if p.tiled then
    w:line("const int fft_in_block = thread %% FFTS_PER_BLOCK;")
    w:line("const int fft_thread = thread / FFTS_PER_BLOCK;")
    if clustered(p) then
      w:line("const int rank = (int)(block %% CLUSTER); // the block's place in its (one-dimensional) cluster")
      tile_indices(w, "(block / CLUSTER) * FFTS_PER_BLOCK", "the cluster's tile")
    else
      tile_indices(w, "block * FFTS_PER_BLOCK")
    end
    -- (a tile copied ahead is read from its staging buffer instead)
    if not tile_copies(p) and not tma_columns(p) then
      w:line("const size_t in_tile = (size_t)(entry * IN_BATCH_STRIDE + tile_group * IN_GROUP_STRIDE + member * IN_FFT_STRIDE);")
    end
    -- (a tile pair's outputs go to shared memory, stored by store_tile_pair, which finds the pair's own)
    if not p.tile_pairs then
      w:line("const size_t out_tile = (size_t)(entry * OUT_BATCH_STRIDE + tile_group * OUT_GROUP_STRIDE + member * OUT_FFT_STRIDE);")
    end
    w:line("// the tile's transforms that exist: fewer than FFTS_PER_BLOCK only in a last, partial tile")
    w:line("const int tile_ffts = (int)(batch - first_fft < FFTS_PER_BLOCK ? batch - first_fft : FFTS_PER_BLOCK);")
    return
  end
  if not fused(p) then
    -- a fused slice's rows and columns declare their own indices (stage.lua); tensor-core stages
    -- find their butterflies from the lane, so only the CUDA-core stages use these
    local maybe = (p.tensor_cores and target == "cuda") and "[[maybe_unused]] " or ""
    w:line("const int fft_in_block = thread / THREADS_PER_FFT;")
    w:line("%sconst int fft_thread = thread %% THREADS_PER_FFT;", maybe)
    if uses_shared(p) then w:line("%sconst int slot = fft_in_block * POINTS;", maybe) end
  end
  if p.staged_io and clustered(p) then
    -- a slice on a cluster: its rows rank + CLUSTER*j (stage.lua)
    w:line("const bool active = block < batch;")
    w:line("const int rank = (int)(block %% CLUSTER); // the block's place in its (one-dimensional) cluster")
    w:line("const size_t fft_base = (size_t)(block / CLUSTER) * TRANSFORM_POINTS;")
  elseif grouped_slices(p) then
    w:line("const long long slice = block * FFTS_PER_BLOCK + slice_in_block; // this thread's slice")
    w:line("const size_t block_base = (size_t)slice * POINTS;")
    interleaved_base(w, p, "slice")
    w:line("const int block_points = slice < batch ? POINTS : 0; // none past the batch's last slice")
  elseif p.staged_io then
    w:line("const size_t block_base = (size_t)block * FFTS_PER_BLOCK * POINTS;")
    interleaved_base(w, p, "block")
    w:line("const long long block_ffts = batch - block * FFTS_PER_BLOCK;")
    w:line("const int block_points = (int)(block_ffts < FFTS_PER_BLOCK ? block_ffts : FFTS_PER_BLOCK) * POINTS;")
  elseif clustered(p) then
    w:line("const long long fft = block; // one part of a transform per block")
    w:line("const bool active = fft < batch;")
    w:line("const int rank = (int)(block %% CLUSTER); // the block's place in its (one-dimensional) cluster")
    w:line("const size_t fft_base = (size_t)(block / CLUSTER) * TRANSFORM_POINTS;")
  else
    w:line("const long long fft = block * FFTS_PER_BLOCK + fft_in_block;")
    w:line("const bool active = fft < batch;")
    w:line("const size_t fft_base = (size_t)fft * POINTS;")
  end
end

-- The stages' twiddle tables and the pass twiddles (split in two tables: exp(-2*pi*i*q/N) is
-- hi[q >> shift] * lo[q & (2^shift - 1)]), all computed in double.
local function tables(w, p, qualifier)
  for _, t in ipairs(stage.twiddle_tables(p)) do
    w:line("")
    twiddle.stage_table(w, qualifier, t.name, t.ns, t.r, t.rows)
  end
  if pass_twiddle_tables(p) then
    local log_n = code.log2(p.twiddle_n)
    for d = 0, p.post_tables - 1 do
      local bits = math.min(p.post_bits, log_n - d * p.post_bits)
      w:line("")
      twiddle.power_table(w, qualifier, string.format("%spost_twiddles_%d", p.prefix, d), p.twiddle_n,
        1 << (d * p.post_bits), 1 << bits)
    end
  end
  if clustered(p) then
    local log_n = code.log2(p.cluster * p.n)
    for d = 0, 1 do
      w:line("")
      twiddle.power_table(w, qualifier, string.format("%scluster_twiddles_%d", p.prefix, d), p.cluster * p.n,
        1 << (d * p.cluster_bits), 1 << math.min(p.cluster_bits, log_n - d * p.cluster_bits))
    end
  end
end

-- Where the TMA's 128-byte swizzle (CU_TENSOR_MAP_SWIZZLE_128B) puts element e of a staged run tile
-- (fftgen_tma_runs) or copied ahead by the threads (plan_facts.swizzled_tile_copies), for the kernel's reads
-- and for its threads' copies (and the host simulation's) alike.
local function swizzle_helper(w, qualifier)
  w:line("// Element e of a run tile's staging buffer where the TMA's 128-byte swizzle puts it: the 16-byte")
  w:line("// piece at bits 4-6 of its byte offset XORed with bits 7-9 (a TMA's buffer starts on 1024 bytes;")
  w:line("// the threads' copies put their pieces there themselves), so that a warp's reads of its rows, a")
  w:line("// run's length apart, fall on different banks.")
  w:open("%s int swizzled(int e)", qualifier)
  w:line("const int byte = e * (int)sizeof(point_t);")
  w:line("return (byte ^ ((byte >> 3) & 0x70)) / (int)sizeof(point_t);")
  w:close()
end

-- The copy of a run tile into its staging buffer where the swizzle puts each point, element by element
-- from `first` on, `step` apart: the threads' copy_tile for an input off 16 bytes, and the host
-- simulation's stand-in for the TMA's box. Rows past the batch (a last, partial tile) are not read.
local function run_tile_copy(w, first, step)
  tile_input(w, "tile * FFTS_PER_BLOCK")
  w:open("for (int i = %s; i < FFTS_PER_BLOCK * POINTS; i += %s)", first, step)
  w:line("const int run = i / (FFTS_PER_BLOCK * IN_RUN_POINTS), offset = i %% (FFTS_PER_BLOCK * IN_RUN_POINTS);")
  w:line("if (offset / IN_RUN_POINTS < tile_ffts) staging[swizzled(i)] = from[(size_t)run * IN_RUN_STRIDE + offset];")
  w:close()
end

-- The store of a tile pair's outputs (fftgen_kernel_plan.tile_pairs), for the CUDA kernel's
-- store_tile_pair and inline in the host simulation: tile 2 * pair's outputs lie at byte PAIR_OFFSET of
-- the shared memory `smem`, tile 2 * pair + 1's at its start, point j of transform f at j * FFTS_PER_BLOCK
-- + f in each. The pair's transforms lie side by side in one group (the planner's OUT_FFT_STRIDE 1, groups
-- of whole pairs), so its point j is a row of 2 * FFTS_PER_BLOCK points: 32-byte sectors whole where a tile
-- of fp16 is 16 bytes wide. The threads take 16-byte pieces (CUDA, a whole pair whose rows are whole
-- pieces), else points, from `first` on, `step` apart. Transforms past the batch are not written.
local function tile_pair_store(w, p, target, first, step)
  tile_indices(w, "pair * 2 * FFTS_PER_BLOCK")
  w:line("const size_t out_tile = (size_t)(entry * OUT_BATCH_STRIDE + tile_group * OUT_GROUP_STRIDE + member * OUT_FFT_STRIDE);")
  w:line("const long long left = batch - first_fft;")
  w:line("const int pair_ffts = (int)(left < 2 * FFTS_PER_BLOCK ? left : 2 * FFTS_PER_BLOCK);")
  w:line("const point_t* first_half = (const point_t*)((const char*)smem + PAIR_OFFSET);")
  w:line("const point_t* second_half = (const point_t*)smem;")
  w:line("point_t* dst = out + out_tile;")
  local tile_bytes = p.ffts_per_block * p.point_bytes
  local pieces = target == "cuda" and tile_bytes % 16 == 0 and (p.out_layout.elem_stride * p.point_bytes) % 16 == 0
  if pieces then
    local per_half = tile_bytes // 16
    local total = 2 * p.n * per_half
    w:open("if (pair_ffts == 2 * FFTS_PER_BLOCK && ((size_t)dst & 15u) == 0)")
    w:line("constexpr int HALF_PIECES = %d; // 16-byte pieces of one tile's row", per_half)
    w:line("constexpr int PIECE_POINTS = 16 / (int)sizeof(point_t);")
    if total % p.threads == 0 then
      w:line("#pragma unroll")
      w:open("for (int i = 0; i < %d; ++i)", total // p.threads)
      w:line("const int c = %s + i * %s;", first, step)
    else
      w:open("for (int c = %s; c < %d; c += %s)", first, total, step)
    end
    w:line("const int row = c / (2 * HALF_PIECES), piece = c %% (2 * HALF_PIECES);")
    w:line("const int half = piece / HALF_PIECES, at = (piece %% HALF_PIECES) * PIECE_POINTS;")
    w:line("const uint4 value = *reinterpret_cast<const uint4*>((half ? second_half : first_half) + row * FFTS_PER_BLOCK + at);")
    w:line("*reinterpret_cast<uint4*>(dst + (size_t)row * OUT_ELEM_STRIDE + half * FFTS_PER_BLOCK + at) = value;")
    w:close()
    w:line("return;")
    w:close()
  end
  w:open("for (int c = %s; c < 2 * FFTS_PER_BLOCK * POINTS; c += %s)", first, step)
  w:line("const int row = c / (2 * FFTS_PER_BLOCK), f = c %% (2 * FFTS_PER_BLOCK);")
  w:line("const point_t* half = f < FFTS_PER_BLOCK ? first_half : second_half;")
  w:line("if (f < pair_ffts) dst[(size_t)row * OUT_ELEM_STRIDE + f] = half[row * FFTS_PER_BLOCK + f %% FFTS_PER_BLOCK];")
  w:close()
end

return {
  tile_pair_store = tile_pair_store,
  swizzle_helper = swizzle_helper,
  run_tile_copy = run_tile_copy,
  pass_constants = pass_constants,
  tile_indices = tile_indices,
  tile_input = tile_input,
  slice_smem = slice_smem,
  prologue = prologue,
  tables = tables,
}

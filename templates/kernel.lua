-- Renders one file from a transform plan: the CUDA C source (target "cuda") or the host simulation
-- in plain C (target "sim"). A transform is one kernel, or several passes over global memory. Both
-- targets share the phase bodies that stage.lua writes, so the simulation checks the very indexing
-- the GPU runs.
local code = require("code")
local stage = require("stage")
local tc16 = require("tc16")
local twiddle = require("twiddle")

local M = {}

local SIGN = { forward = -1, inverse = 1 }

local function chain_text(p)
  local parts = {}
  for _, r in ipairs(p.radices) do parts[#parts + 1] = tostring(r) end
  return table.concat(parts, " x ")
end

local function uses_shared(p) return p.shared_bytes > 0 end
local function multi(f) return #f.passes > 1 end
local function fused(p) return p.slice_rows > 0 end
local function clustered(p) return p.cluster > 1 end
-- Small fused slices run several a block, each on SLICE_THREADS threads and SLICE_SMEM_POINTS of
-- shared memory of its own (the planner's group_small_slices): `thread` and `smem` are the slice's.
local function grouped_slices(p) return fused(p) and not clustered(p) and p.ffts_per_block > 1 end
-- Passes of 1D transforms (and of long 2D/3D rows) go through a work area; the planner says
local function through_work(f)
  for _, p in ipairs(f.passes) do
    if p.source == "work" or p.target == "work" then return true end
  end
  return false
end
-- Whether any pass of the file has `field` set (and so needs its helpers).
-- Whether any pass has `field` set, or equal to `value` when one is given
local function any_pass(f, field, value)
  for _, p in ipairs(f.passes) do
    if (value == nil and p[field]) or (value ~= nil and p[field] == value) then return true end
  end
  return false
end
-- Whether any pass satisfies `test`
local function any_pass_that(f, test)
  for _, p in ipairs(f.passes) do
    if test(p) then return true end
  end
  return false
end
local function tensor_cores(f) return any_pass(f, "tensor_cores") end
-- A 1D transform in one pass on clusters; any_cluster: any pass on clusters (also a 2D shape's
-- tiled columns), which needs the cluster helpers
local function on_cluster(f) return not multi(f) and clustered(f.passes[1]) end
local function any_cluster(f) return any_pass_that(f, clustered) end
-- A tiled pass whose pass twiddles come from tables (not computed: fftgen_computes_pass_twiddles)
local function pass_twiddle_tables(p) return p.tiled and p.twiddle_n > 0 and not p.computed_pass_twiddles end
-- Files that read pass-twiddle tables (post_twiddle): a cluster's last stage, or such a pass
local function reads_pass_tables(f) return any_cluster(f) or any_pass_that(f, pass_twiddle_tables) end
-- Files whose kernels' `batch` counts something else than the file's transforms: passes, and a
-- cluster's blocks (one each of the CLUSTER parts of a transform)
-- A whole small 3D transform in one block (stage.lua's slices of a volume): its kernel counts slices.
local function volume(f) return (f.passes[1].volume_depth or 0) > 0 end
local function per_block_batch(f) return multi(f) or on_cluster(f) or volume(f) end
local function shuffle_tail(f) return any_pass(f, "shuffle_tail") end
-- Files with a radix-32 stage, whose first stage may write pairs of points (stage.lua)
local function radix32(f) return any_pass(f, "radix_max", 32) end
-- How the pass pads its shared memory (fftgen_smem_pad_every), for its comment: the planner sizes it
-- for a pad every 16. `colon`: the form "every 16: N elements" of the comment that has nothing after it.
local function pad_text(p, colon)
  if p.runs_across_lanes then
    return string.format(colon and "one pad element every 16, and one more every 256 in the first exchange: %d elements"
      or "one pad element every 16, and one more every 256 in the first exchange (%d elements)", p.smem_points)
  end
  if p.pad_every == 16 then
    return string.format(colon and "one pad element every 16: %d elements" or "one pad element every 16 (%d elements)",
      p.smem_points)
  end
  local points = p.n * p.ffts_per_block
  return string.format("one pad element every %d (%d of its %d elements)", p.pad_every,
    points + points // p.pad_every, p.smem_points)
end
-- Files with a pass that pads its shared memory every 32 points (padded32)
local function sparse_pad(f) return any_pass(f, "pad_every", 32) end
-- Files with a pass whose lanes read along its runs, and whose first exchange pads every 256 too
local function wide_pad(f) return any_pass(f, "runs_across_lanes") end
-- Files whose stages compute twiddles (fftgen_kernel_plan.computed_twiddles)
local function computed_twiddles(f) return any_pass(f, "computed_twiddles") end
-- Where a layout's transforms interleave (the distance shorter than one transform's span, which
-- fftgen allows only with stride >= 2 * distance): the most transforms a call, stride / distance.
local function interleaved_limit(f, side)
  if not f.strided then return nil end
  local stride = side == "in" and f.istride or f.ostride
  local dist = side == "in" and f.idist or f.odist
  local span = stride
  for d = 1, f.rank do span = span * tonumber(f[side .. "_embed"][d]) end
  if dist >= span then return nil end
  return stride // dist
end

local function shared_exponent(f)
  return any_pass(f, "shared_exponent_source") or any_pass(f, "shared_exponent_target")
end
-- Kernels that run several transforms a block, the next one's input copied ahead
-- (fftgen_kernel_plan.prefetch): by a bulk copy, or a fused slice's or a tile's by the block's threads
-- (cp.async)
local function prefetching(p) return p.prefetch > 1 end
local function any_prefetch(f) return any_pass_that(f, prefetching) end
local function bulk_copies(p) return prefetching(p) and not fused(p) and not p.tiled end
local function slice_copies(p) return prefetching(p) and fused(p) end
local function tile_copies(p) return prefetching(p) and p.tiled end
-- a tiled pass whose column tiles the tensor memory accelerator copies ahead (fftgen_kernel_plan.tma_columns)
local function tma_columns(p) return p.tma_columns end
local function l2_prefetching(p) return p.l2_prefetch_bytes > 0 end
local function storage_type(f) return (f.precision == "fp16") and "__half2" or "float2" end

-- Transforms of pass p per transform of the whole file (an untiled cluster pass counts its blocks, a
-- tiled one its columns).
local function groups(f, p)
  if p.tiled and clustered(p) then return f.n // (p.n * p.cluster) end
  return f.n // p.n
end

local function rows_side(p)
  return p.tiled and (p.in_layout.elem_stride == 1 or p.out_layout.elem_stride == 1)
end

local function header(w, f, title, body)
  local storage = storage_type(f)
  w:line("/*")
  w:line(" * %s", title)
  w:line(" *")
  w:line(" * Generated by fftgen %s: %s", f.version, f.command)
  w:line(" * Do not edit; regenerate instead.")
  w:line(" *")
  if f.rank == 1 then
    w:line(" * Transform: batched 1D complex-to-complex FFT of %d points, unnormalized:", f.n)
    w:line(" *   forward  X[k] = sum_j x[j] * exp(-2*pi*i*j*k/%d)", f.n)
    w:line(" *   inverse  x[j] = sum_k X[k] * exp(+2*pi*i*j*k/%d)   (no 1/%d scaling)", f.n, f.n)
  else
    local js, ks, terms = {}, {}, {}
    for d, size in ipairs(f.shape) do
      js[d], ks[d] = "j" .. (d - 1), "k" .. (d - 1)
      terms[d] = string.format("j%d*k%d/%d", d - 1, d - 1, size)
    end
    local j, k, phase = table.concat(js, ","), table.concat(ks, ","), table.concat(terms, " + ")
    w:line(" * Transform: batched %dD complex-to-complex FFT of %s points (row-major: the last", f.rank,
      table.concat(f.shape_list, " x "))
    w:line(" *   dimension is contiguous), unnormalized:")
    w:line(" *   forward  X[%s] = sum x[%s] * exp(-2*pi*i*(%s))", k, j, phase)
    w:line(" *   inverse  x[%s] = sum X[%s] * exp(+2*pi*i*(%s))   (no 1/%d scaling)", j, k, phase, f.n)
  end
  local precisions = {
    fp16 = { "fp16 storage (__half2), fp32 arithmetic; rounded on each store to global memory" },
    fp32 = { "fp32 storage (float2), fp32 arithmetic" },
    split = { "split: fp32 storage (float2); the radix-16 stages on tensor cores, each butterfly's",
      "  inputs scaled by a power of two and split into fp16 hi + 2^-11 lo (the DFT matrix too),",
      "  hi*hi summed apart from hi*lo + lo*hi in fp32 (lo*lo dropped); twiddles and other stages fp32" },
    ["split-papers"] = { "split-papers: fp32 storage (float2); the radix-16 stages on tensor cores, each",
      "  butterfly's inputs x = s1*hi + s2*lo with s1 = max |x|, s2 = max |x - s1*hi| (papers/000),",
      "  the DFT matrix as fp16 hi + lo, fp32 sums (lo*lo dropped); twiddles and other stages fp32" },
  }
  for i, l in ipairs(precisions[f.precision]) do w:line(" * %s%s", (i == 1) and "Precision: " or "           ", l) end
  if f.precision == "fp16" and multi(f) then
    local between = {}
    for i = 1, #f.passes - 1 do
      local pass = f.passes[i]
      between[i] = string.format("%d-%d %s", i, i + 1, pass.mixed_target_rows and
        string.format("mixed (fp16 in pass %d's rows r with r / %d odd, else shared-exponent)", i + 1, pass.mixed_target_rows)
        or pass.shared_exponent_target and "shared-exponent" or "fp16")
    end
    w:line(" * Between passes: %s%s", table.concat(between, ", "),
      shared_exponent(f) and " (store_shared_exponent below: about half fp16's rounding error)" or "")
  end
  if not f.strided then
    local index = (f.rank == 1) and "j" or ("(" .. table.concat(f.index_names, ", ") .. ")")
    w:line(" * Data layout: interleaved complex %s, transform after transform (element %s of", storage, index)
    w:line(" *   transform b at index b*%d + %s), output in natural order; in place (in == out) is allowed.", f.n,
      (f.rank == 1) and "j" or f.dense_offset)
  elseif f.rank == 1 then
    w:line(" * Data layout: interleaved complex %s; input element j of transform b at b*%d + j*%d,", storage,
      f.idist, f.istride)
    w:line(" *   output element k at b*%d + k*%d, in natural order. Elements between are neither read", f.odist, f.ostride)
    w:line(" *   nor written.%s", (#f.passes == 1) and " In place only where both layouts are the same." or "")
  else
    local index = "(" .. table.concat(f.index_names, ", ") .. ")"
    w:line(" * Data layout: interleaved complex %s; element %s of transform b at", storage, index)
    w:line(" *   input  b*%d + (%s)*%d,", f.idist, f.in_offset, f.istride)
    w:line(" *   output b*%d + (%s)*%d, in natural order.", f.odist, f.out_offset, f.ostride)
    w:line(" *   Elements between are neither read nor written. In place only where both layouts are the same.")
  end
  for _, side in ipairs({ "in", "out" }) do
    local limit = interleaved_limit(f, side)
    if limit then
      w:line(" * The %s transforms interleave (stride >= batch * distance): at most %d a call.",
        side == "in" and "input's" or "output's", limit)
    end
  end
  if f.rank > 1 and f.columns_first then
    local columns, rows = f.passes[1], f.passes[2]
    w:line(" * Passes, the columns first (`in` to `work` to `out`):")
    w:line(" *   1. FFTs of %d points (radix %s) along dimension 0, in tiles of %d columns side by side; each",
      columns.n, chain_text(columns), columns.ffts_per_block)
    w:line(" *      tile written to `work` as one block: point j of column c at j*%d + c mod %d",
      columns.ffts_per_block, columns.ffts_per_block)
    w:line(" *   2. FFTs of %d points (radix %s) along dimension 1, in tiles of %d rows, read from the blocks in",
      rows.n, chain_text(rows), rows.ffts_per_block)
    w:line(" *      runs of %d points and written to `out` as whole rows", rows.in_layout.run_points)
  elseif f.rank > 1 then
    w:line(" * Passes, the dimensions in turn (the first reads `in`; the others run in place on `out`")
    w:line(" * unless they say `work`):")
    for _, p in ipairs(f.passes) do
      if fused(p) and clustered(p) then
        w:line(" *   %d. %d x %d slices on clusters of %d blocks (sm_90 and newer): block c transforms the rows",
          p.index, p.slice_rows * p.cluster, p.n // p.slice_rows, p.cluster)
        w:line(" *      c + %d*j (radix %s, then its columns, radix %s), then a radix-%d stage across the blocks",
          p.cluster, chain_text(p), table.concat(p.col_radices, " x "), p.cluster)
      elseif fused(p) then
        w:line(" *   %d. %d x %d slices in one block: rows (radix %s), then columns (radix %s)%s", p.index,
          p.slice_rows, p.n // p.slice_rows, chain_text(p), table.concat(p.col_radices, " x "),
          p.merged_stage and ";" or "")
        if p.merged_stage then
          w:line(" *      the rows' last stage and the columns' first run in one phase, in registers")
        end
        if p.column_rounds > 1 then
          w:line(" *      each thread transforms %d whole columns in turn", p.column_rounds)
        end
        if p.row_rounds > 1 then
          w:line(" *      each thread transforms %d whole rows in turn", p.row_rounds)
        end
        if p.volume_depth > 0 then
          w:line(" *      a whole transform a block (%d of them): its %d slices, then the columns along", p.ffts_per_block // p.volume_depth,
            p.volume_depth)
          w:line(" *      dimension 0 (radix %s) in the same shared memory%s; the kernel's `batch` counts slices",
            table.concat(p.depth_radices, " x "),
            p.depth_rounds > 1 and string.format(", %d of them a thread in turn", p.depth_rounds) or "")
        end
      elseif (p.source == "work" or p.target == "work") and p.dimension < f.rank - 1 then
        w:line(" *   %d. FFTs of %d points (radix %s), a four-step pass of the %d-point columns (dimension %d)",
          p.index, p.n, chain_text(p), f.shape[p.dimension + 1], p.dimension)
        w:line(" *      in tiles of %d side by side, %s `work`%s", p.ffts_per_block, (p.target == "work") and "into" or "from",
          p.twiddle_by_group and ", times exp(-2*pi*i*r2*k1/N) (r2 the tile's group)" or "")
      elseif p.source == "work" or p.target == "work" then
        w:line(" *   %d. FFTs of %d points (radix %s), a four-step pass of the %d-point rows (dimension %d),",
          p.index, p.n, chain_text(p), f.shape[f.rank], p.dimension)
        w:line(" *      through `work`")
      elseif clustered(p) then
        w:line(" *   %d. FFTs of %d points along dimension %d, in tiles of %d side by side on clusters of %d", p.index,
          p.n * p.cluster, p.dimension, p.ffts_per_block, p.cluster)
        w:line(" *      blocks: block c transforms the rows c + %d*j (radix %s), then a radix-%d stage across", p.cluster,
          chain_text(p), p.cluster)
        w:line(" *      the blocks through distributed shared memory (sm_90 and newer)")
      else
        w:line(" *   %d. FFTs of %d points (radix %s) along dimension %d%s", p.index, p.n, chain_text(p), p.dimension,
          p.tiled and string.format(", in tiles of %d side by side", p.ffts_per_block) or ", contiguous rows")
      end
    end
  elseif multi(f) then
    local sizes = {}
    for _, p in ipairs(f.passes) do sizes[#sizes + 1] = tostring(p.n * p.cluster) end
    w:line(" * Passes (four-step, no transposes; %d = %s):", f.n, table.concat(sizes, " x "))
    for _, p in ipairs(f.passes) do
      local what
      if p.in_layout.run_points > 0 then
        what = string.format("rows, read in runs of %d points from pass %d's blocks%s, written transposed",
          p.in_layout.run_points, p.index - 1, p.runs_across_lanes and " (lanes along the runs)" or "")
      elseif p.in_layout.elem_stride == 1 then
        what = "rows, written transposed"
      else
        what = string.format("columns of stride %d, times exp(-2*pi*i*c*j/%d)", p.in_layout.elem_stride, p.twiddle_n)
      end
      local chain = clustered(p) and "" or string.format(" (radix %s)", chain_text(p))
      w:line(" *   %d. %d FFTs of %d points%s per transform: %s", p.index, groups(f, p), p.n * p.cluster, chain, what)
      if p.twiddle_by_column then
        w:line(" *      each tile of %d columns written as one block: point j of column c at j*%d + c mod %d", p.ffts_per_block,
          p.ffts_per_block, p.ffts_per_block)
      end
      if clustered(p) then
        w:line(" *      on thread-block clusters of %d blocks (sm_90 and newer): block c transforms the rows", p.cluster)
        w:line(" *      c + %d*j (radix %s), then a radix-%d stage across the blocks", p.cluster, chain_text(p), p.cluster)
      end
    end
  elseif on_cluster(f) and f.rank == 1 then
    local p = f.passes[1]
    w:line(" * One pass on thread-block clusters of %d blocks (sm_90 and newer), one transform per cluster:", p.cluster)
    w:line(" *   block c transforms the %d points c + %d*j in its shared memory (radix %s, Stockham", p.n,
      p.cluster, chain_text(p))
    w:line(" *   stages, fully unrolled), then each block reads all blocks' results through distributed")
    w:line(" *   shared memory for the last stage, radix %d, and writes %d of the outputs.", p.cluster, p.n)
  else
    w:line(" * Radix chain: %s (self-sorting Stockham stages, fully unrolled)", chain_text(f.passes[1]))
  end
  w:line(" *")
  for _, l in ipairs(body) do
    if l == "" then w:line(" *") else w:line(" * %s", l) end
  end
  w:line(" */")
end

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
  if uses_shared(p) and (target == "sim" or prefetching(p) or tma_columns(p)) then
    add("SMEM_POINTS", p.smem_points, "float2 in shared memory, with padding")
  end
  if tma_columns(p) then
    add("STAGING_OFFSET", p.tma_staging_offset, "bytes of shared memory before the staging buffer (the exchanges', to 128)")
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
    w:line("const size_t out_tile = (size_t)(entry * OUT_BATCH_STRIDE + tile_group * OUT_GROUP_STRIDE + member * OUT_FFT_STRIDE);")
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
    w:line("const int block_points = slice < batch ? POINTS : 0; // none past the batch's last slice")
  elseif p.staged_io then
    w:line("const size_t block_base = (size_t)block * FFTS_PER_BLOCK * POINTS;")
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
    twiddle.stage_table(w, qualifier, t.name, t.ns, t.r)
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

------------------------------------------------------------------- between passes

-- The data between the passes of an fp16 plan: one complex in 32 bits, as __half2, rounded about
-- half as coarsely (planner.h, fftgen_intermediate). The CUDA and the C versions take the same
-- steps (CUDA finds the larger part with one float max, C with an integer compare of the same bits),
-- so the host simulation stores the very bits the GPU does, but for the mantissas of e = 15: fma
-- passes a NaN's payload on in C and gives the canonical NaN on the GPU, and both read back as NaN.
local function shared_exponent_helpers(w, target)
  local cuda = target == "cuda"
  local fn = cuda and "__device__ __forceinline__ " or "static inline "
  local as_uint = cuda and "__float_as_uint" or "float_bits"
  local as_float = cuda and "__uint_as_float" or "bits_float"
  local fma = cuda and "__fmaf_rn" or "fmaf"
  w:line("")
  w:line("// Between passes: a shared-exponent complex in 32 bits. Bits 31..28 hold e, 27..14 and 13..0 the")
  w:line("// real and imaginary mantissas m, each offset by 2^13 (0..16383); value = (m - 2^13) * 2^(2e - 24).")
  w:line("// e = 15: out of range (131064 and up) or not finite, read back as NaN.")
  w:line("#define SHARED_EXPONENT_NOT_FINITE 15u")
  w:line("#define ROUND_TO_OFFSET_INTEGER 12591104.0f // 1.5 * 2^23 + 2^13: x + this keeps round(x) + 2^13 in the low bits")
  w:line("#define STEP_BITS_AT_0 0x70800000u          // 2^98 as a float: step(e) = 2^(2e + 98), infinity at e = 15")
  w:line("#define MANTISSA_FLOAT_BITS 0x0e000000u     // 2^-99: with m in its low bits, 2^-99 + m * 2^-122")
  w:line("#define OFFSET_FLOAT_BITS 0x0e002000u       // 2^-99 + 2^13 * 2^-122")
  if not cuda then
    w:open("static inline unsigned float_bits(float f)")
    w:line("unsigned u;")
    w:line("memcpy(&u, &f, sizeof u);")
    w:line("return u;")
    w:close()
    w:open("static inline float bits_float(unsigned u)")
    w:line("float f;")
    w:line("memcpy(&f, &u, sizeof f);")
    w:line("return f;")
    w:close()
  end
  w:open(fn .. "void store_shared_exponent(point_t* p, size_t i, float2 f)")
  local function integer_compare()
    w:line("const unsigned re_bits = %s(f.x) & 0x7fffffffu, im_bits = %s(f.y) & 0x7fffffffu;", as_uint, as_uint)
    w:line("const unsigned larger = re_bits > im_bits ? re_bits : im_bits; // NaN above infinity above the rest")
  end
  if cuda then
    -- sm_80 and newer: one FMNMX.NAN |x|, |y| instead of two masks and an integer max (H200, fp16 2^27
    -- in three passes: -1.6%); a NaN gives the canonical NaN instead of its own bits, the same e = 15
    w:line("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800")
    w:line("float larger_part;")
    w:line("asm(\"max.NaN.f32 %%0, %%1, %%2;\" : \"=f\"(larger_part) : \"f\"(fabsf(f.x)), \"f\"(fabsf(f.y)));")
    w:line("const unsigned larger = __float_as_uint(larger_part); // NaN above infinity above the rest")
    w:line("#else")
    integer_compare()
    w:line("#endif")
  else
    integer_compare()
  end
  w:line("// e: the larger part's binary exponent, halved and offset, so that its mantissa has 12 or 13")
  w:line("// bits; + 0x800 moves to the next e the values whose mantissa would round up to 2^13")
  w:line("int e = (int)((larger + 0x800u) >> 24) - 57;")
  w:line("e = e < 0 ? 0 : (e > (int)SHARED_EXPONENT_NOT_FINITE ? (int)SHARED_EXPONENT_NOT_FINITE : e);")
  w:line("const float scale = %s((unsigned)(151 - 2 * e) << 23); // 2^(24 - 2e)", as_float)
  w:line("const unsigned re_q = %s(%s(f.x, scale, ROUND_TO_OFFSET_INTEGER));", as_uint, fma)
  w:line("const unsigned im_q = %s(%s(f.y, scale, ROUND_TO_OFFSET_INTEGER));", as_uint, fma)
  w:line("// re_q << 14 keeps re_q's low 14 bits, and nothing in e's bits but where e = 15, which sets them all")
  w:line("const unsigned bits = (re_q << 14) | (im_q & 0x3fffu) | ((unsigned)e << 28);")
  if cuda then
    w:line("reinterpret_cast<unsigned*>(p)[i] = bits;")
  else
    w:line("memcpy(p + i, &bits, sizeof bits);")
  end
  w:close()
  w:open(fn .. "float2 load_shared_exponent(const point_t* p, size_t i)")
  if cuda then
    w:line("const unsigned bits = reinterpret_cast<const unsigned*>(p)[i];")
  else
    w:line("unsigned bits;")
    w:line("memcpy(&bits, p + i, sizeof bits);")
  end
  w:line("// 2^-99 + m * 2^-122 and 2^(2e + 98), exactly: (that - the offset's 2^-99 + 2^-109) * step is")
  w:line("// exact, and at e = 15 infinity minus infinity, NaN")
  if cuda then
    -- the step as one PTX mad, which ptxas keeps as one LEA (written in C it took a shift, a mask and
    -- an or). A LOP3 a part with the float's bits in a register would save two more, but took some
    -- passes past a register step (fp16 2^26's pass 3: 48 -> 54, one block an SM fewer)
    w:line("unsigned step_bits;")
    w:line("asm(\"mad.lo.u32 %%0, %%1, 16777216, %%2;\" : \"=r\"(step_bits) : \"r\"(bits >> 28), \"n\"(STEP_BITS_AT_0));")
  else
    w:line("const unsigned step_bits = (bits >> 28) * 16777216u + STEP_BITS_AT_0;")
  end
  w:line("const unsigned re_bits = ((bits >> 14) & 0x3fffu) | MANTISSA_FLOAT_BITS;")
  w:line("const unsigned im_bits = (bits & 0x3fffu) | MANTISSA_FLOAT_BITS;")
  w:line("const float step = %s(step_bits), re = %s(re_bits), im = %s(im_bits);", as_float, as_float, as_float)
  w:line("const float offset = %s(OFFSET_FLOAT_BITS) * step;", as_float)
  w:line("return make_float2(%s(re, step, -offset), %s(im, step, -offset));", fma, fma)
  w:close()
end

------------------------------------------------------------------------------ CUDA

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
  end
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

local function kernel_name(f, p, direction)
  if multi(f) then return string.format("%s_pass%d_%s", f.name, p.index, direction) end
  return f.name .. "_" .. direction
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
      w:line("extern __shared__ %sfloat2 smem[];", tma_columns(p) and "__align__(128) " or "")
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
    w:line("// the next tile's columns, copied by the TMA while the block computes the current one")
    w:line("point_t* staging = reinterpret_cast<point_t*>(reinterpret_cast<char*>(smem) + STAGING_OFFSET);")
    w:line("// its phase completes when a tile has landed")
    w:line("unsigned long long* fetched = reinterpret_cast<unsigned long long*>(staging + FFTS_PER_BLOCK * POINTS);")
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
    w:line("")
    w:line("// Tile `tile`'s input copied ahead by the block's threads, 16 bytes each (cp.async, sm_80): run r of")
    w:line("// every transform (FFTS_PER_BLOCK runs side by side) lands at staging + r * FFTS_PER_BLOCK * IN_RUN_POINTS.")
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
    w:line("             :: \"r\"(to + 16u * (unsigned)piece), \"l\"(from + (size_t)run * IN_RUN_STRIDE + offset) : \"memory\");")
    w:close()
    w:close()
    w:line("asm volatile(\"cp.async.commit_group;\" ::: \"memory\");")
    w:close()
  elseif prefetching(p) then
    w:line("// shared memory holds float2 with %s, then the staging", pad_text(p))
    w:line("// buffer: one transform's input and the 16 bytes a bulk copy may start early")
    w:line("static_assert(SHARED_BYTES == SMEM_POINTS * sizeof(float2) + POINTS * sizeof(point_t) + 16, \"shared memory size\");")
  elseif tma_columns(p) then
    w:line("// shared memory holds float2 with %s, then, from byte", pad_text(p))
    w:line("// STAGING_OFFSET, the staging buffer (row j of the tile's columns at staging + j * FFTS_PER_BLOCK)")
    w:line("// and the mbarrier")
    w:line("static_assert(SHARED_BYTES == STAGING_OFFSET + FFTS_PER_BLOCK * POINTS * sizeof(point_t) + 16, \"shared memory size\");")
    w:line("static_assert(STAGING_OFFSET %% 128 == 0 && STAGING_OFFSET >= SMEM_POINTS * (int)sizeof(float2), \"a box lands on 128 bytes\");")
    w:line("")
    w:line("// Tile `tile` asked of the TMA by one thread: POINTS / TMA_BOX_ROWS boxes of TMA_BOX_ROWS rows of the")
    w:line("// tile's width, from the input's tensor map (dimensions: a group's columns, %s, batch", p.tma_rows_first and "rows, groups" or "groups, rows")
    w:line("// entries). The mbarrier's phase completes when all of them have landed; a last, partial tile's")
    w:line("// columns past the batch come too (or zeros past the tensor) and are never read.")
    w:open("__device__ __forceinline__ void fetch_tile_boxes(point_t* staging, const tensor_map* map, long long tile, unsigned long long* fetched)")
    tile_indices(w, "tile * FFTS_PER_BLOCK")
    w:line("// the block's earlier reads of `staging` (generic proxy) come before the copies' writes (async proxy)")
    w:line("asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");")
    w:line("asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%0], %%1;\" :: \"r\"(shared_address(fetched)),")
    w:line("             \"r\"((unsigned)(FFTS_PER_BLOCK * POINTS * sizeof(point_t))) : \"memory\");")
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

-- The names of the buffers pass i reads and writes (the planner chose which).
local function pass_buffers(f, i, input, work, output)
  local names = { input = input, work = work, output = output }
  return names[f.passes[i].source], names[f.passes[i].target]
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
    w:line("const cudaError_t status = encode_column_tiles(&input_map, %s, sizeof(%s::point_t), %s::GROUP_SIZE, %s::GROUP_COUNT,", src, f.name, ns, ns)
    w:line("    %s::TMA_GROUP_STRIDE, %s::POINTS, %s::IN_ELEM_STRIDE, entries, %s::IN_BATCH_STRIDE, %s::FFTS_PER_BLOCK, %s::TMA_BOX_ROWS,",
      ns, ns, ns, ns, ns, ns)
    w:line("    %s); // %s", p.tma_rows_first and "true" or "false",
      p.tma_rows_first and "the rows before the groups: a pass before wrote its tiles as blocks" or "the groups before the rows")
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
  if any_pass_that(f, tma_columns) then
    local map = f.name .. "::tensor_map"
    w:line("// The tensor map of a TMA column pass's input (fftgen_kernel_plan.tma_columns): `in` 16-byte aligned,")
    w:line("// points of `point_bytes` in dimensions a group's columns, groups, rows and batch entries (rows before")
    w:line("// groups where `rows_first`), copied in boxes of `width` columns by `box_rows` rows. The driver's")
    w:line("// cuTensorMapEncodeTiled comes through the runtime, so that nothing links the driver library.")
    w:line("static cudaError_t encode_column_tiles(%s* map, const void* in, size_t point_bytes, long long group_size,", map)
    w:line("    long long group_count, long long group_stride, long long rows, long long elem_stride, long long entries,")
    w:line("    long long batch_stride, unsigned width, unsigned box_rows, bool rows_first)")
    w:open("")
    w:line("PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;")
    w:line("cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;")
    w:line("const cudaError_t status = cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", reinterpret_cast<void**>(&encode),")
    w:line("    12000, cudaEnableDefault, &found);")
    w:line("if (status != cudaSuccess) return status;")
    w:line("if (found != cudaDriverEntryPointSuccess || encode == nullptr) return cudaErrorNotSupported;")
    w:line("const cuuint64_t groups[2] = {(cuuint64_t)group_count, group_stride * point_bytes};")
    w:line("const cuuint64_t points[2] = {(cuuint64_t)rows, elem_stride * point_bytes};")
    w:line("const cuuint64_t* middle = rows_first ? points : groups;")
    w:line("const cuuint64_t* outer = rows_first ? groups : points;")
    w:line("const cuuint64_t dims[4] = {(cuuint64_t)group_size, middle[0], outer[0], (cuuint64_t)entries};")
    w:line("const cuuint64_t strides[3] = {middle[1], outer[1], batch_stride * point_bytes};")
    w:line("const cuuint32_t box[4] = {width, rows_first ? box_rows : 1u, rows_first ? 1u : box_rows, 1}, steps[4] = {1, 1, 1, 1};")
    w:line("CUtensorMap encoded;")
    w:line("// L2 fetches the 256 bytes around each row of a box: the tiles beside read the rest soon after")
    w:line("if (encode(&encoded, point_bytes == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32 : CU_TENSOR_MAP_DATA_TYPE_UINT64, 4,")
    w:line("           const_cast<void*>(in), dims, strides, box, steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,")
    w:line("           CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)")
    w:line("    return cudaErrorInvalidValue;")
    w:line("static_assert(sizeof encoded == sizeof *map, \"a tensor map is 128 bytes\");")
    w:line("memcpy(map, &encoded, sizeof encoded);")
    w:line("return cudaSuccess;")
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

------------------------------------------------------------------------------- sim

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
  if computed_twiddles(f) then
    w:open("static inline float2 computed_twiddle(int q, int n) /* the GPU's __sincosf, to about 4e-7 */")
    w:line("const double angle = -6.283185307179586 * q / n;")
    w:line("return make_float2((float)cos(angle), (float)sin(angle));")
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
  elseif uses_shared(p) then
    w:line("float2* smem = malloc(sizeof(float2) * SMEM_POINTS);")
  else
    w:line("float2* smem = malloc(sizeof(float2)); /* unused: this kernel needs no shared memory */")
  end
  w:line("float2 (*registers)[RADIX_MAX] = malloc(sizeof(float2) * RADIX_MAX * THREADS);")
  if tma_columns(p) then
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
  w:open("if (%s == NULL || registers == NULL || fragments == NULL%s)", shared, staged)
  w:line("free(%s);", shared)
  w:line("free(registers);")
  w:line("free(fragments);")
  if prefetching(p) or tma_columns(p) then w:line("free(staging);") end
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
  if tma_columns(p) then
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
  w:close()
  if clustered(p) then
    w:open("for (long long block = first; block < first + CLUSTER; ++block)")
    w:line("float2* smem = cluster_smem[block %% CLUSTER];")
    w:line("/* the last stage, across the cluster */")
    threads(stage.cluster_phase(p, SIGN[direction]))
    w:close()
    w:close()
  end
  w:line("free(%s);", shared)
  w:line("free(registers);")
  w:line("free(fragments);")
  if prefetching(p) or tma_columns(p) then w:line("free(staging);") end
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
  if f.split or shared_exponent(f) or computed_twiddles(f) then w:line("#include <math.h>") end
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
        -- pass twiddles as base * ratio^u: fp16 squares the ratio (its stores round far above the
        -- few fp32 roundings that adds), fp32 looks each power of two of the ratio up; the split
        -- precisions keep one table product per point
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

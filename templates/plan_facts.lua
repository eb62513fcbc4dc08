-- What the templates read off a transform plan: which passes and helpers a file needs, the
-- names of its kernels and the buffers each pass reads and writes. kernel.lua (the CUDA file),
-- sim.lua (the host simulation) and the pieces they share ask the same questions here.

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
-- ... reading rows in runs from the tiles of a pass before, staged with the TMA's 128-byte swizzle
-- (fftgen_tma_runs)
local function tma_runs(p) return p.tma_runs end
-- ... or copied ahead by the block's threads (tile_copies) into the same swizzle, where a thread's points
-- lie whole swizzle periods apart: unswizzled, a warp's reads of runs of 8 fp16 points fall two to a bank
local function swizzled_tile_copies(p)
  return tile_copies(p) and (p.threads_per_fft * p.ffts_per_block * p.point_bytes) % 1024 == 0
end
local function swizzled_runs(p) return tma_runs(p) or swizzled_tile_copies(p) end
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

local function kernel_name(f, p, direction)
  if multi(f) then return string.format("%s_pass%d_%s", f.name, p.index, direction) end
  return f.name .. "_" .. direction
end

-- The names of the buffers pass i reads and writes (the planner chose which).
local function pass_buffers(f, i, input, work, output)
  local names = { input = input, work = work, output = output }
  return names[f.passes[i].source], names[f.passes[i].target]
end

return {
  SIGN = SIGN,
  chain_text = chain_text,
  uses_shared = uses_shared,
  multi = multi,
  fused = fused,
  clustered = clustered,
  grouped_slices = grouped_slices,
  through_work = through_work,
  any_pass_that = any_pass_that,
  tensor_cores = tensor_cores,
  on_cluster = on_cluster,
  any_cluster = any_cluster,
  pass_twiddle_tables = pass_twiddle_tables,
  reads_pass_tables = reads_pass_tables,
  volume = volume,
  per_block_batch = per_block_batch,
  shuffle_tail = shuffle_tail,
  radix32 = radix32,
  pad_text = pad_text,
  sparse_pad = sparse_pad,
  wide_pad = wide_pad,
  computed_twiddles = computed_twiddles,
  interleaved_limit = interleaved_limit,
  shared_exponent = shared_exponent,
  prefetching = prefetching,
  any_prefetch = any_prefetch,
  bulk_copies = bulk_copies,
  slice_copies = slice_copies,
  tile_copies = tile_copies,
  tma_columns = tma_columns,
  tma_runs = tma_runs,
  swizzled_tile_copies = swizzled_tile_copies,
  swizzled_runs = swizzled_runs,
  l2_prefetching = l2_prefetching,
  storage_type = storage_type,
  groups = groups,
  rows_side = rows_side,
  kernel_name = kernel_name,
  pass_buffers = pass_buffers,
}

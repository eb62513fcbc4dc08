-- Self-sorting (Stockham) radix stages of one block-local FFT, split into phases.
--
-- Stage s has radix r and works on sub-transforms of length ns = r_0 * ... * r_{s-1}.
-- Butterfly j (0 <= j < n/r) reads x[j + m*n/r] for m = 0..r-1, multiplies input m by
-- exp(-2*pi*i*k*m/(ns*r)) with k = j mod ns, and writes its output m to
-- (j - k)*r + k + m*ns. After the last stage the data are in natural order. The first stage's
-- reads and the last stage's writes are unit-stride across threads, so with long enough runs
-- they go straight to global memory; otherwise (small n, "staged" I/O) the block copies its
-- contiguous points between global and shared memory with coalesced accesses. The stages in
-- between exchange data through shared memory.
--
-- A phase is the code between two barriers. Each thread holds radix_max points in v[].
--
-- Shared memory holds a block's transforms either one after another (point j of transform f at
-- slot + j) or side by side ("transposed": point j of transform f at j * FFTS_PER_BLOCK + f), as
-- tiled passes and the columns of a fused 2D slice keep them.
local code = require("code")
local radix = require("radix")
local tc16 = require("tc16")
local plan_facts = require("plan_facts")

local M = {}

-- Shared memory holds float2 with one pad element every pad_every(plan) points, so that strided
-- accesses spread over the banks: 16, or 32 in tiled passes of 32 points a thread whose tiles are
-- narrower than 16 transforms (the planner's fftgen_smem_pad_every), whose first stage writes a
-- warp's butterflies 32 * FFTS_PER_BLOCK points apart, a multiple of 16 * 17 that a pad every 16
-- would put on the same banks.
local function pad_every(plan) return plan.pad_every or 16 end

-- The padded index of a point, as the kernel computes it (padded and padded32: kernel.lua, sim.lua).
local function padded(plan, index)
  return string.format("%s(%s)", pad_every(plan) == 16 and "padded" or "padded32", index)
end

-- index + index / pad: the padded offset of a compile-time index from a multiple of the pad.
local function pad_offset(plan, index) return index + index // pad_every(plan) end

-- Global memory holds the user's points (point_t), or, between the passes of an fp16 plan, the
-- shared-exponent complexes of the same size (intermediate.lua): the helpers that read and write each.
-- (A mixed intermediate takes both, by row: tile_loader and emit_tiled_store.)
local function loader(plan)
  assert(not plan.mixed_source_rows, "a mixed intermediate is read by tile_loader")
  return plan.shared_exponent_source and "load_shared_exponent" or "load_point"
end
local function storer(plan)
  assert(not plan.mixed_target_rows, "a mixed intermediate is written by emit_tiled_store")
  return plan.shared_exponent_target and "store_shared_exponent" or "store_point"
end

-- Whether the tile's column loads ask L2 for the 256 bytes around each point (load_point_asking_256), so
-- the runs of the tiles beside come from L2: the planner's l2_fetch_256, on every column pass of a
-- cluster and where the request names a pass (fftgen_kernel_plan.l2_fetch_256 says what it measured).
function M.asks_l2_around_columns(plan)
  if not plan.l2_fetch_256 then return false end
  local L = plan.in_layout
  assert(plan.tiled and not plan.shared_exponent_source and L.fft_stride == 1 and L.elem_stride > 1,
    "the 256-byte L2 fetch is for tiles of columns side by side")
  return true
end
local function column_loader(plan)
  return M.asks_l2_around_columns(plan) and "load_point_asking_256" or loader(plan)
end

-- A tile's load u reads row fft_thread + u * THREADS_PER_FFT of its transform: in a mixed intermediate
-- (the planner's mixed_source_rows, THREADS_PER_FFT rows at a time), __half2 where u is odd.
local function tile_loader(plan, u)
  if plan.mixed_source_rows then
    assert(plan.mixed_source_rows == plan.threads_per_fft and plan.shared_exponent_source and plan.tiled and
      (plan.cluster or 1) == 1 and not M.pairs_column_loads(plan), "mixed intermediates are read by tiles of columns")
    return (u % 2 == 1) and "load_point" or "load_shared_exponent"
  end
  return column_loader(plan)
end

-- The scale (1/N in a normalized inverse's last pass, else 1). Kernels of 16 points a thread or more
-- that read global memory in their first stage multiply its inputs, behind a test that is uniform
-- over the launch, so that passes with a scale of 1 (all others) spend no multiplications on it; the
-- transform is linear and 1/N a power of two, so the outputs are exactly the scaled ones. The others
-- multiply their outputs as they store them: at 8 points a thread, and in the small transforms that
-- copy their points through shared memory, the test measured 2-3% slower than the multiplications
-- (H200, fp16 16 to 128; results/notes.md). Tensor-core stages round their operands to fp16, where
-- inputs times 1/N would lose their low bits (2^22 points: 2.9e-3 against 4.2e-4), so their kernels
-- scale the outputs too. A fused slice's rows and columns follow the slice.
local function scales_outputs(plan)
  if plan.scale_outputs ~= nil then return plan.scale_outputs end -- a slice's rows or columns
  return plan.radix_max < 16 or (plan.staged_io and not plan.tiled) or plan.tensor_cores or false
end

-- A stored output, times the scale where the kernel scales its outputs.
local function output(plan, value)
  if scales_outputs(plan) then return string.format("scaled(%s, scale)", value) end
  return value
end

local function emit_input_scale(w, plan)
  if scales_outputs(plan) then return end
  w:open("if (scale != 1.0f)")
  for i = 0, plan.radix_max - 1 do w:line("v[%d] = scaled(v[%d], scale);", i, i) end
  w:close()
end

-- padded(base + c) equals padded(base) + c + c/pad when base mod pad never exceeds `bound` and
-- bound + c mod pad < pad; then the access is a base register plus a compile-time offset.
local function smem_index(plan, base_padded, base_expr, bound, c)
  local pad = pad_every(plan)
  if bound + (c % pad) < pad then
    return code.sum(base_padded, pad_offset(plan, c))
  end
  return padded(plan, code.sum(base_expr, c))
end

-- The first exchange of a pass that reads its runs across lanes (plan.runs_across_lanes): one pad element
-- every 16 and one more every 256 (padded_wide), so that the first stage's stores, 256 elements apart
-- across lanes, fall on distinct banks. padded_wide(base + c) is padded_wide(base) + c + c/16 + c/256
-- where base mod 16 never exceeds bound16, nor base mod 256 bound256, and neither sum carries.
local function wide_index(base_padded, base_expr, bound16, bound256, c)
  if bound16 + c % 16 < 16 and bound256 + c % 256 < 256 then
    return code.sum(base_padded, c + c // 16 + c // 256)
  end
  return string.format("padded_wide(%s)", code.sum(base_expr, c))
end

-- Largest value of (slot + fft_thread) mod pad.
local function read_bound(plan)
  return math.min(plan.threads_per_fft, pad_every(plan)) - 1
end

-- Largest value of (slot + (j - k)*r + k) mod pad in a stage of radix r on sub-transforms of ns.
local function write_bound(plan, ns, r)
  local pad = pad_every(plan)
  if ns * r >= pad then return math.min(ns, pad) - 1 end
  return pad - 1
end

-- The same for a tiled pass's transposed shared memory, ((j - k)*r + k) * FFTS_PER_BLOCK + fft_in_block:
-- below ns * FFTS_PER_BLOCK where ns * r * FFTS_PER_BLOCK is a whole number of pads, so that every
-- store is a base plus an offset. fp16 passes, bound by instructions, and those padded every 32 take
-- that; fp32 passes, bound by DRAM, keep the padded index of half their stores, because with offsets
-- NVRTC's pass 1 of fp32 2^22 and 2^23 (1024 threads, 64 registers) spilled two registers and took
-- 1.1% longer (H100, fftgen-kernel-ab; fp16 2^22: 1.5% shorter).
local function transposed_write_bound(plan, ns, r)
  local pad, f = pad_every(plan), plan.ffts_per_block
  if (plan.fp16 or pad > 16) and (ns * r * f) % pad == 0 then return math.min(ns * f, pad) - 1 end
  return pad - 1
end

-- Staged copies move the block's points between global memory and shared memory with coalesced
-- accesses. Untiled: the block's transforms are one contiguous run. Tiled: FFTS_PER_BLOCK transforms
-- side by side, either each contiguous ("rows", elem_stride 1) or interleaved ("columns",
-- fft_stride 1); shared memory holds point j of transform f at j * FFTS_PER_BLOCK + f.
--
-- Every copy u is a per-thread base (pointer and shared-memory slot, set once by tiled_prelude)
-- plus a compile-time offset, and it belongs to transform `fft` of the tile (an int expression
-- compared with tile_ffts): no 64-bit index arithmetic per point.

-- Sides that go straight between global memory and the stages' registers, with no copy through
-- shared memory (fftgen_loads_to_registers, fftgen_stores_from_registers): columns, and in fp16 rows
-- read in runs from a four-step pass 1's blocks. Thread i copies point
-- i / FFTS_PER_BLOCK + u * THREADS_PER_FFT of transform i % FFTS_PER_BLOCK, which is the point the
-- first stage's butterfly reads into v[u] and the last stage's butterflies write as output u.
local function register_side(plan, layout)
  if not plan.tiled then return false end
  if layout == plan.in_layout then return plan.loads_to_registers end
  return layout == plan.out_layout and plan.stores_from_registers
end

local function gcd(a, b)
  while b ~= 0 do a, b = b, a % b end
  return a
end

-- Whether the rows of a tile are copied in runs shorter than one transform (THREADS <= POINTS):
-- then copy u takes point thread + u * THREADS mod POINTS of transform u * THREADS / POINTS.
local function rows_split(plan) return plan.threads <= plan.n end

-- The shuffle tail (plan.shuffle_tail): the radix-16 (or -32) stage before the radix-2 tail gives lanes l
-- and l ^ 16 of a warp its butterflies k and k + THREADS_PER_FFT/2, whose outputs m form the tail's pairs:
-- point k + m*ns and point k + m*ns + POINTS/2 of the tail's input.
-- Lane bit 16 is fft_thread bit 16 in an untiled pass, and bit 16 / FFTS_PER_BLOCK in a tiled one
-- (threads transform-fastest). That bit of fft_thread picks k or k + THREADS_PER_FFT/2; the bits
-- below and above it make k, so a half-warp still reads 16 consecutive points.
local function pair_bit(plan)
  return plan.tiled and 16 // plan.ffts_per_block or 16
end

local function pair_k(plan) -- k, the same in lanes l and l ^ 16
  local bit = pair_bit(plan)
  if bit == 1 then return "(fft_thread >> 1)" end
  local shift = math.floor(math.log(bit, 2) + 0.5) + 1
  return string.format("(fft_thread >> %d) * %d + (fft_thread & %d)", shift, bit, bit - 1)
end

local function pair_upper(plan)
  return string.format("(fft_thread & %d)", pair_bit(plan))
end

local function pair_butterfly(plan)
  return string.format("%s + (%s ? %d : 0)", pair_k(plan), pair_upper(plan), plan.threads_per_fft // 2)
end

-- Output u of a tiled store is point row + step * exponent(u) of its transform, and the pass twiddle's
-- power `exponent(u)` of exp(-+2*pi*i*c*step/TWIDDLE_N) times the one of `row`. After a shuffle tail,
-- outputs u and u + RADIX_MAX/2 of a lane are its tail butterfly u's, POINTS/2 = RADIX_MAX steps apart.
local function tiled_outputs(plan)
  if plan.shuffle_tail then
    assert(register_side(plan, plan.out_layout), "the shuffle tail of a tiled pass stores columns from registers")
    local half, r = plan.radix_max // 2, plan.radix_max
    return { row = "first", step = plan.threads_per_fft // 2,
             exponent = function(u) return u % half + r * (u // half) end }
  end
  return { row = "fft_thread", step = plan.threads_per_fft, exponent = function(u) return u end }
end

-- Whether a warp copies whole runs, transform by transform (whole sectors), rather than
-- transform-fastest (parts of sectors, the rest from L1 a warp later). The first stores to shared
-- memory (point j of transform f at padded(j * FFTS_PER_BLOCK + f), 8 bytes each) with bank
-- conflicts where more than two of a warp's 32 elements share an 8-byte bank pair (runs of 8, tiles
-- of 8); fp16 passes, bound by instructions and shared memory, then copy transform-fastest, while
-- fp32 passes, bound by DRAM, keep whole sectors. H100, 2^27 points, the rows pass alone, runs of 8
-- and tiles of 8, by transform against transform-fastest: fp16 2^20 0.465 against 0.456 ms, 2^21
-- 0.559 against 0.547; fp32 2^22 0.785 against 0.826.
local function runs_by_transform(plan, layout)
  if not plan.fp16 then return true end
  local f, r = plan.ffts_per_block, layout.run_points
  local per_pair = {}
  for t = 0, 31 do
    local run, offset = t // (f * r), t % (f * r)
    local e = (run * r + offset % r) * f + offset // r
    local pair = pad_offset(plan, e) % 16
    per_pair[pair] = (per_pair[pair] or 0) + 1
    if per_pair[pair] > 2 then return false end
  end
  return true
end

-- The per-thread bases of a tiled copy; `pointer` is "src" or "dst", `tile` its tile's address,
-- `row` the thread's first point in a column copy.
local function tiled_prelude(w, plan, layout, pointer, tile, row)
  local const = (pointer == "src") and "const " or ""
  if layout.run_points > 0 and register_side(plan, layout) then
    -- rows in runs, into registers: point j of a transform lies (j / RUN_POINTS) * RUN_STRIDE +
    -- j % RUN_POINTS on, and THREADS_PER_FFT is a whole number of runs, so the thread's points
    -- fft_thread + u * THREADS_PER_FFT share its offset in their runs
    assert(pointer == "src", "runs are read, not written")
    -- a staging buffer holds the tile run block by run block
    local staged = string.format("(fft_thread / %s_RUN_POINTS) * (FFTS_PER_BLOCK * %s_RUN_POINTS) + fft_in_block * %s_RUN_POINTS + fft_thread %% %s_RUN_POINTS",
      layout.name, layout.name, layout.name, layout.name)
    if plan.tma_runs then
      -- staged by the TMA (or copy_tile), 128-byte rows swizzled: the thread's points lie THREADS_PER_FFT *
      -- FFTS_PER_BLOCK elements apart, whole swizzle periods, so one swizzled base serves them all (the
      -- planner's fftgen_tma_runs)
      w:line("const point_t* src = staging + swizzled(%s);", staged)
      return
    end
    if (plan.prefetch or 0) > 1 then
      -- copied ahead by the block's threads (kernel.lua's fetch_tile), swizzled as the TMA's runs where
      -- the thread's points lie whole swizzle periods apart (plan_facts.swizzled_tile_copies)
      if plan_facts.swizzled_tile_copies(plan) then staged = "swizzled(" .. staged .. ")" end
      w:line("const point_t* src = staging + %s;", staged)
      return
    end
    local fft, point = "fft_in_block", "fft_thread"
    if plan.runs_across_lanes then fft, point = "run_fft", "run_thread" end
    w:line("const point_t* src = %s + (size_t)%s * %s_FFT_STRIDE + (size_t)(%s / %s_RUN_POINTS) * %s_RUN_STRIDE + %s %% %s_RUN_POINTS;",
      tile, fft, layout.name, point, layout.name, layout.name, point, layout.name)
    return
  end
  if layout.run_points > 0 then
    -- rows in runs: each run of the tile's transforms is FFTS_PER_BLOCK * RUN_POINTS contiguous
    -- points (a run of each transform in turn)
    assert(pointer == "src" and plan.threads % (plan.ffts_per_block * layout.run_points) == 0 and
      plan.threads % pad_every(plan) == 0, "runs are read by whole copies of the block")
    local name = layout.name
    w:line("const int run = thread / (FFTS_PER_BLOCK * %s_RUN_POINTS);", name)
    w:line("const int run_offset = thread %% (FFTS_PER_BLOCK * %s_RUN_POINTS);", name)
    if runs_by_transform(plan, layout) then
      -- thread i copies point i % RUN_POINTS of its run of transform (i / RUN_POINTS) % FFTS_PER_BLOCK:
      -- a warp reads whole sectors, and its shared-memory stores are free of bank conflicts
      w:line("const int row_fft = run_offset / %s_RUN_POINTS;", name)
      w:line("const point_t* src = %s + (size_t)run * %s_RUN_STRIDE + run_offset;", tile, name)
      w:line("const int element = %s;", padded(plan,
        string.format("(run * %s_RUN_POINTS + run_offset %% %s_RUN_POINTS) * FFTS_PER_BLOCK + row_fft", name, name)))
    else
      -- thread i copies transform i % FFTS_PER_BLOCK: a warp reads parts of sectors (the rest a warp
      -- later, from L1), and stores consecutive shared-memory elements
      w:line("const int row_fft = run_offset %% FFTS_PER_BLOCK;")
      w:line("const point_t* src = %s + (size_t)run * %s_RUN_STRIDE + row_fft * %s_RUN_POINTS + run_offset / FFTS_PER_BLOCK;",
        tile, name, name)
      w:line("const int element = %s;", padded(plan, "thread"))
    end
    return
  end
  if layout.elem_stride == 1 then
    if rows_split(plan) then
      w:line("%spoint_t* %s = %s + thread;", const, pointer, tile)
      w:line("const int element = %s;", padded(plan, "thread * FFTS_PER_BLOCK"))
    else
      -- each transform's run is at most one block-width: thread i copies point i % POINTS of
      -- transform i / POINTS
      w:line("const int row_fft = thread >> LOG_POINTS;")
      w:line("const int row_point = thread & (POINTS - 1);")
      w:line("%spoint_t* %s = %s + (size_t)row_fft * %s_FFT_STRIDE + row_point;", const, pointer, tile, layout.name)
      w:line("const int element = row_point * FFTS_PER_BLOCK + row_fft;")
    end
    return
  end
  if pointer == "src" and plan.tma_columns then
    -- the tile, staged by the TMA (or copy_tile) row by row: point j of column c at staging + j * FFTS_PER_BLOCK + c
    w:line("const point_t* src = staging + fft_in_block + %s * FFTS_PER_BLOCK;", row or "fft_thread")
    return
  end
  w:line("%spoint_t* %s = %s + (size_t)fft_in_block * %s_FFT_STRIDE + (size_t)%s * %s_ELEM_STRIDE;", const,
    pointer, tile, layout.name, row or "fft_thread", layout.name)
  if not register_side(plan, layout) then w:line("const int element = %s;", padded(plan, "thread")) end
end

-- Elements from a tile's first transform to its transform `fft` (a 64-bit constant expression).
local function fft_offset(layout, fft)
  if fft == 0 then return 0 end
  return string.format("%d * (long long)%s_FFT_STRIDE", fft, layout.name)
end

-- Copy u of a tiled side: its address, its shared-memory slot and its transform in the tile;
-- `rows`, where given, the points from the thread's first (a column store's outputs).
local function tiled_side(plan, layout, pointer, u, rows)
  local c = u * plan.threads
  if layout.run_points > 0 and register_side(plan, layout) then
    local runs = u * plan.threads_per_fft // layout.run_points
    local step = ((plan.prefetch or 0) > 1 or plan.tma_runs) and string.format("FFTS_PER_BLOCK * %s_RUN_POINTS", layout.name)
      or string.format("(size_t)%s_RUN_STRIDE", layout.name)
    local address = (runs == 0) and pointer or string.format("%s + %d * %s", pointer, runs, step)
    return address, nil, plan.runs_across_lanes and "run_fft" or "fft_in_block"
  end
  if layout.run_points > 0 then
    local runs = u * plan.threads // (plan.ffts_per_block * layout.run_points)
    local address = (runs == 0) and pointer or string.format("%s + %d * (size_t)%s_RUN_STRIDE", pointer, runs, layout.name)
    return address, code.sum("element", pad_offset(plan, c)), "row_fft"
  end
  if layout.elem_stride == 1 then
    if rows_split(plan) then
      local fft, point = c // plan.n, c % plan.n
      local f = plan.ffts_per_block
      -- the largest value of (thread * FFTS_PER_BLOCK) mod 16
      local pad = pad_every(plan)
      local bound = (f % pad == 0) and 0 or (pad - gcd(f, pad))
      return string.format("%s + (%s)", pointer, code.sum(fft_offset(layout, fft), point)),
        smem_index(plan, "element", "thread * FFTS_PER_BLOCK", bound, point * f + fft), tostring(fft)
    end
    local fft = c // plan.n
    return string.format("%s + (%s)", pointer, fft_offset(layout, fft)),
      padded(plan, code.sum("element", fft)), code.sum("row_fft", fft)
  end
  -- thread i handles transform i % FFTS_PER_BLOCK, point i / FFTS_PER_BLOCK: side by side when the
  -- transforms are (fft_stride 1), so a warp's accesses form runs of FFTS_PER_BLOCK elements
  rows = rows or c // plan.ffts_per_block
  if pointer == "src" and plan.tma_columns then
    return string.format("%s + %d * FFTS_PER_BLOCK", pointer, rows), code.sum("element", pad_offset(plan, c)), "fft_in_block"
  end
  return string.format("%s + %d * %s_ELEM_STRIDE", pointer, rows, layout.name),
    code.sum("element", pad_offset(plan, c)), "fft_in_block"
end

-- Whether a tiled pass loads its columns in lane pairs (the planner's column_pairs, where
-- fftgen_can_pair_columns allows): lanes l and l ^ 1 hold neighbouring columns, each loads both
-- columns of one row in 8 bytes, and one shuffle (load_point_pair) swaps a point each way.
function M.pairs_column_loads(plan)
  if not plan.column_pairs then return false end
  local L = plan.in_layout
  assert(plan.fp16 and register_side(plan, L) and L.fft_stride == 1 and L.elem_stride % 2 == 0 and
    plan.ffts_per_block % 2 == 0, "column pairs need fp16 columns side by side, loaded into registers, an even tile and even strides")
  return true
end

local function emit_staged_load(w, plan)
  local zero = "make_float2(0.0f, 0.0f)"
  if not plan.tiled then
    if plan.slice_cluster then
      -- a slice's rows on a cluster: this block's are the rows rank + CLUSTER*j, and a copy u covers
      -- THREADS / POINTS of them
      local rows_per_copy = plan.threads // plan.n
      w:line("// coalesced copy of the block's rows (rank + CLUSTER*j of the slice) into shared memory: all loads first")
      w:line("const point_t* src = in + fft_base + (size_t)(rank + CLUSTER * (thread / POINTS)) * POINTS + thread %% POINTS;")
      w:open("if (active)")
      for u = 0, plan.radix_max - 1 do
        w:line("v[%d] = " .. loader(plan) .. "(src, (size_t)%d * CLUSTER * POINTS);", u, u * rows_per_copy)
      end
      w:reopen("else")
      for u = 0, plan.radix_max - 1 do w:line("v[%d] = %s;", u, zero) end
      w:close()
    else
      w:line("// coalesced copy of the block's transforms into shared memory: all loads first")
      w:line("const point_t* src = in + block_base + thread;")
      for u = 0, plan.radix_max - 1 do
        local c = u * plan.threads
        w:line("v[%d] = (%s < block_points) ? " .. loader(plan) .. "(src, %d) : %s;", u, code.sum("thread", c), c, zero)
      end
    end
    w:line("const int dst = %s;", padded(plan, "thread"))
    for u = 0, plan.radix_max - 1 do
      local c = u * plan.threads
      w:line("smem[%s] = v[%d];", code.sum("dst", pad_offset(plan, c)), u)
    end
    return
  end
  if plan.runs_across_lanes then
    -- phase-wide: the first stage's butterflies use them too
    w:line("// the first stage's threads, lanes along the runs: point run_thread (and its butterfly's others)")
    w:line("// of transform run_fft, so that a warp reads whole runs")
    w:line("const int run_fft = (thread / IN_RUN_POINTS) %% FFTS_PER_BLOCK;")
    w:line("const int run_thread = (thread / (IN_RUN_POINTS * FFTS_PER_BLOCK)) * IN_RUN_POINTS + thread %% IN_RUN_POINTS;")
  end
  if register_side(plan, plan.in_layout) then
    w:line("// coalesced loads of the tile's %s, straight into the first stage's registers; transforms",
      plan.in_layout.run_points > 0 and "rows in runs" or "columns")
    w:line("// past the batch (in a last, partial tile) are neither read nor written")
  else
    w:line("// coalesced copy of the tile into shared memory: all loads first; transforms past the batch")
    w:line("// (in a last, partial tile) are neither read nor written")
  end
  w:open("") -- its names stay apart from the stage's that may share the phase
  -- on a cluster, the block's column points are the rows rank + CLUSTER*j
  local spacing = plan.cluster or 1
  assert(spacing == 1 or register_side(plan, plan.in_layout), "a cluster's tiles load columns into registers")
  tiled_prelude(w, plan, plan.in_layout, "src", "in + in_tile", (spacing > 1) and "(rank + CLUSTER * fft_thread)" or nil)
  local function rows(u) return (spacing > 1) and spacing * (u * plan.threads // plan.ffts_per_block) or nil end
  local paired = M.pairs_column_loads(plan)
  if paired then
    -- lane l ^ 1 loads the row a thread's next point lies in: the pair's offset, step, is that
    local step = string.format("%d * (long long)IN_ELEM_STRIDE", spacing * plan.threads_per_fft)
    w:line("// whole tiles from an 8-byte aligned buffer: both columns of a lane pair a row at once")
    w:open("if (tile_ffts == FFTS_PER_BLOCK && ((size_t)in & 7) == 0)")
    w:line("const bool odd = (fft_in_block & 1) != 0;")
    w:line("const point_t* pair_src = odd ? src - 1 + %s : src;", step)
    for u = 0, plan.radix_max - 1, 2 do
      local address = tiled_side(plan, plan.in_layout, "pair_src", u, rows(u))
      w:line("load_point_pair(%s, odd, %s, &v[%d], &v[%d]);", address, step, u, u + 1)
    end
    w:reopen("else")
  end
  local targets = {}
  for u = 0, plan.radix_max - 1 do
    local address, target, fft = tiled_side(plan, plan.in_layout, "src", u, rows(u))
    targets[u] = target
    w:line("v[%d] = (%s < tile_ffts) ? " .. tile_loader(plan, u) .. "(%s, 0) : %s;", u, fft, address, zero)
  end
  if paired then w:close() end
  if register_side(plan, plan.in_layout) then -- v[u] is what the first stage reads
    emit_input_scale(w, plan)
  else
    for u = 0, plan.radix_max - 1 do w:line("smem[%s] = v[%d];", targets[u], u) end
  end
  w:close()
end

-- The c of a pass twiddle exp(-+2*pi*i*c*j/TWIDDLE_N): the transform's group member, or, where the
-- members are columns side by side (a column split in two passes), its group.
local function twiddle_column(plan)
  if plan.twiddle_by_group then return "(int)tile_group" end
  if plan.twiddle_by_column then return "(int)(tile_group * GROUP_SIZE + member + fft_in_block)" end
  return "(int)(member + fft_in_block)"
end

-- The pass-twiddle tables, as the post_twiddle call's first arguments.
local function post_tables(plan)
  local names = {}
  for d = 0, plan.post_tables - 1 do names[#names + 1] = string.format("%spost_twiddles_%d", plan.prefix, d) end
  return table.concat(names, ", ")
end

-- The pass twiddle exp(-2*pi*i*q/TWIDDLE_N) of the exponent expression q: computed where the pass
-- computes its twiddles (fp16; no table read, whose scattered entries cost L1 requests), else
-- looked up in the tables.
local function pass_twiddle(plan, tables, q)
  if plan.computed_pass_twiddles then
    return string.format("computed_twiddle((%s) & (TWIDDLE_N - 1), TWIDDLE_N)", q)
  end
  return string.format("%s(%s, %s, POST_TWIDDLE_BITS)", plan.post_twiddle_call, tables, q)
end

-- The tiled store, with the twiddle of the strided pass (and the scale, scales_outputs), through the
-- helper `store`. Copies of the same transform share one test of the batch.
local function emit_tiled_store_with(w, plan, sign, store)
  -- (a block that runs tiles in turn waits at a barrier before the next one overwrites them: kernel.lua;
  -- without it a TMA pass's next tile raced these reads, fp32 512x512's rows through the TMA 2.9e-3)
  if not register_side(plan, plan.out_layout) then w.reads_shared_memory = true end
  if plan.tile_pairs then
    w:line("// the tile's results from the last stage's registers into shared memory, for the pair's store")
  else
    w:line("// coalesced copy of the tile's results to global memory%s",
      register_side(plan, plan.out_layout) and ", from the last stage's registers" or "")
  end
  w:open("") -- its names stay apart from the stage's that may share the phase
  local outs = tiled_outputs(plan)
  if plan.tile_pairs then
    -- the tile's outputs stay in shared memory (pair_half: kernel.lua), point j of transform f at
    -- j * FFTS_PER_BLOCK + f, for the pair's store (store_tile_pair)
    assert(register_side(plan, plan.out_layout), "a tile pair's outputs come from the last stage's registers")
    w:line("point_t* dst = pair_half + fft_in_block + %s * FFTS_PER_BLOCK;", outs.row)
  else
    tiled_prelude(w, plan, plan.out_layout, "dst", "out + out_tile", outs.row)
  end
  local mul = (sign < 0) and "twiddle_mul" or "twiddle_mul_conj"
  local tables -- the pass-twiddle tables, as the post_twiddle call's first arguments
  if plan.twiddle_n > 0 then
    assert(plan.out_layout.elem_stride ~= 1, "twiddles only on column stores")
    tables = post_tables(plan)
  end
  -- output u is point j = row + exponent(u) * step of transform c (twiddle_column)
  local step = outs.step
  local function highest_power(e)
    local high = 1
    while high * 2 <= e do high = high * 2 end
    return high
  end
  if plan.twiddle_n > 0 and plan.post_powers then
    -- exp(-+2*pi*i*c*j/TWIDDLE_N) = base * ratio^e, ratio^e a product of the ratio's powers of two:
    -- a few table products per thread instead of one per point; a scale of the outputs rides on the base
    w:line("const int column = %s;", twiddle_column(plan))
    w:line("const float2 pass_tw0 = %s;", output(plan, pass_twiddle(plan, tables, "column * " .. outs.row)))
    -- fp16 ("squared"): base * ratio^e = 2cos * (base * ratio^(e-1)) - base * ratio^(e-2), 2cos the
    -- ratio's (Chebyshev's recurrence, emit_twiddle_recurrence, holds for any base), wherever the two
    -- exponents below are there; the others are products with the ratio's powers of two. A ratio from
    -- two table entries errs by about 2e-7, which moves twiddle 31 by at most 6e-5 (3e-6 rms, simulated)
    local recurrent = plan.post_powers == "squared"
    local needed, top, seen = {}, 1, { [0] = true }
    for u = 1, plan.radix_max - 1 do
      local e = outs.exponent(u)
      if not (recurrent and e >= 2 and seen[e - 1] and seen[e - 2]) then
        local high = highest_power(e)
        needed[high] = true
        top = math.max(top, high)
      end
      seen[e] = true
    end
    if recurrent and plan.computed_pass_twiddles then
      w:line("float pass_two_cos;")
      w:line("const float2 ratio1 = computed_twiddle_step((column * %d) & (TWIDDLE_N - 1), TWIDDLE_N,", step)
      w:line("                                            &pass_two_cos);")
    elseif recurrent then -- a product of table entries: its cosine errs by about 2e-7
      w:line("const float2 ratio1 = %s;", pass_twiddle(plan, tables, "column * " .. step))
      w:line("const float pass_two_cos = 2.0f * ratio1.x;")
    else
      w:line("const float2 ratio1 = %s;", pass_twiddle(plan, tables, "column * " .. step))
    end
    local power = 1
    while power < top do
      if plan.post_powers == "squared" then
        w:line("const float2 ratio%d = twiddle_mul(ratio%d, ratio%d);", power * 2, power, power)
      elseif needed[power * 2] then
        w:line("const float2 ratio%d = %s;", power * 2, pass_twiddle(plan, tables, "column * " .. step * power * 2))
      end
      power = power * 2
    end
  end
  -- A pass of 32 points a thread computes each output's pass twiddle just before its store (exponents
  -- rise with u, so the twiddle its product needs is there already): with all 31 before the first
  -- store, as the others keep them, its pass 1 at the 128 registers of two blocks an SM spilled 32
  -- bytes under NVRTC (H100, fftgen-bench: the H200's fp16 2^20 line 0.894 -> 0.851 ms without the
  -- spill, the H100's 0.840 -> 0.835). Passes of 16 points a thread measured slower that way (fp16 2^22
  -- 0.958 -> 0.979; 2^23 1.166 -> 1.213 in kernel-ab): their stores then wait on each product in turn.
  local defined = { [0] = true }
  local function define_pass_twiddle(e)
    if defined[e] then return end
    if plan.post_powers == "squared" and e >= 2 and defined[e - 1] and defined[e - 2] then
      w:line("const float2 pass_tw%d = chebyshev_next(pass_two_cos, pass_tw%d, pass_tw%d);", e, e - 1, e - 2)
      defined[e] = true
      return
    end
    local high = highest_power(e)
    assert(defined[e - high], "pass twiddles in rising exponents")
    w:line("const float2 pass_tw%d = twiddle_mul(pass_tw%d, ratio%d);", e, e - high, high)
    defined[e] = true
  end
  local lazy = plan.radix_max >= 32
  if plan.twiddle_n > 0 and plan.post_powers and not lazy then
    for u = 1, plan.radix_max - 1 do define_pass_twiddle(outs.exponent(u)) end
  end
  local guard
  local on_registers = register_side(plan, plan.out_layout)
  for u = 0, plan.radix_max - 1 do
    local e = outs.exponent(u)
    local address, source, fft = tiled_side(plan, plan.out_layout, "dst", u, on_registers and e * step or nil)
    if plan.tile_pairs then address = string.format("dst + %d * FFTS_PER_BLOCK", e * step) end
    if fft ~= guard then
      assert(not (guard and lazy and plan.twiddle_n > 0), "twiddled stores share one guard, their twiddles' scope")
      if guard then w:close() end
      w:open("if (%s < tile_ffts)", fft)
      guard = fft
    end
    -- (a tile pair's last stage left its outputs in v[], across the barrier before these stores)
    local value = on_registers and string.format(plan.tile_pairs and "v[%d]" or "y[%d]", u) or string.format("smem[%s]", source)
    if plan.twiddle_n > 0 and plan.post_powers then
      define_pass_twiddle(e)
      w:line(store .. "(%s, 0, %s(%s, pass_tw%d));", address, mul, value, e)
    else
      if plan.twiddle_n > 0 then
        -- times exp(-+2*pi*i*c*j/TWIDDLE_N), one table product per point
        w:line("const int q%d = %s * (%s);", u, twiddle_column(plan), code.sum(outs.row, e * step))
        value = string.format("%s(%s, %s)", mul, value, pass_twiddle(plan, tables, "q" .. u))
      end
      w:line(store .. "(%s, 0, %s);", address, output(plan, value))
    end
  end
  w:close()
  w:close()
end

-- A mixed intermediate (the planner's mixed_target_rows): the tile's group is one row of the next pass,
-- __half2 where row / MIXED_ROWS is odd, so the block takes one branch for all of its stores.
local function emit_tiled_store(w, plan, sign)
  if not plan.mixed_target_rows then return emit_tiled_store_with(w, plan, sign, storer(plan)) end
  assert(plan.shared_exponent_target, "a mixed intermediate holds shared-exponent complexes too")
  w:line("// the next pass reads __half2 in its rows r with r / MIXED_ROWS odd, else shared-exponent complexes;")
  w:line("// the tile's group is one of those rows")
  w:open("if ((tile_group / MIXED_ROWS) & 1)")
  emit_tiled_store_with(w, plan, sign, "store_point")
  w:reopen("else")
  emit_tiled_store_with(w, plan, sign, "store_shared_exponent")
  w:close()
end

local function emit_staged_store(w, plan, sign)
  if plan.tiled then return emit_tiled_store(w, plan, sign) end
  -- (a block that runs transforms in turn waits at a barrier before the next one overwrites them)
  w.reads_shared_memory = true
  w:line("// coalesced copy of the block's results to global memory")
  w:line("point_t* dst = out + block_base + thread;")
  w:line("const int src = %s;", padded(plan, "thread"))
  for u = 0, plan.radix_max - 1 do
    local c = u * plan.threads
    w:open("if (%s < block_points)", code.sum("thread", c))
    w:line(storer(plan) .. "(dst, %d, %s);", c, output(plan, string.format("smem[%s]", code.sum("src", pad_offset(plan, c)))))
    w:close()
  end
end

local function emit_loads(w, plan, r, from_global, paired, wide)
  local per_thread = plan.radix_max // r
  local stride = plan.n // r
  if from_global then
    assert(not paired, "the stage before the shuffle tail reads shared memory")
    -- a cluster's block transforms every CLUSTER-th point, from its rank on
    local spacing = plan.cluster or 1
    if spacing > 1 then
      w:line("const point_t* src = in + fft_base + rank + (size_t)CLUSTER * fft_thread;")
    elseif (plan.prefetch or 0) > 1 then
      -- the transform's input, copied into shared memory ahead (kernel.lua); a slice's row lies
      -- fft_in_block padded rows into it
      local row = plan.ffts_per_block > 1 and "fft_in_block * STAGED_ROW_POINTS + " or ""
      w:line("const point_t* src = staging + staged_skew + %sfft_thread;", row)
    else
      w:line("const point_t* src = in + fft_base + fft_thread;")
    end
    w:open("if (active)")
    for q = 0, per_thread - 1 do
      for m = 0, r - 1 do
        w:line("v[%d] = " .. loader(plan) .. "(src, %d);", q * r + m, spacing * (q * plan.threads_per_fft + m * stride))
      end
    end
    w:reopen("else")
    for i = 0, plan.radix_max - 1 do w:line("v[%d] = make_float2(0.0f, 0.0f);", i) end
    w:close()
  else
    -- point j of the block's transform f: slot + j, or j * FFTS_PER_BLOCK + f in a tiled pass
    local j = "fft_thread"
    if paired then
      w:line("const int pair_j = %s;", pair_butterfly(plan))
      j = "pair_j"
    end
    local base, step, bound = "slot + " .. j, 1, read_bound(plan)
    if plan.transposed_smem then
      base, step, bound = j .. " * FFTS_PER_BLOCK + fft_in_block", plan.ffts_per_block, pad_every(plan) - 1
    end
    if wide then
      assert(plan.transposed_smem, "the wide pad is a tiled pass's first exchange")
      w:line("const int src = padded_wide(%s);", base)
    else
      w:line("const int src = %s;", padded(plan, base))
    end
    for q = 0, per_thread - 1 do
      for m = 0, r - 1 do
        local c = (q * plan.threads_per_fft + m * stride) * step
        local at = wide and wide_index("src", base, 15, 255, c) or smem_index(plan, "src", base, bound, c)
        w:line("v[%d] = smem[%s];", q * r + m, at)
      end
    end
  end
end

-- The twiddles of a radix-r butterfly from the first, where a stage takes its twiddles' powers
-- (fftgen_kernel_plan.twiddle_powers: fp16): twiddle 1 and twice its cosine, computed
-- (computed_twiddle_step; fftgen_kernel_plan.computed_twiddles) or loaded from the table's first row,
-- then the others by Chebyshev's identity w[b + j] = 2cos(b * angle) * w[j] - conj(w[b - j]), b = 1,
-- 2, 4, ..: two fused multiply-adds a twiddle where a complex product takes four, for fp16 kernels
-- that wait on their issue (and no table loads but one). An error d in 2cos moves twiddle m by about
-- m^2 * d, so the cosine must err by its rounding only (a table's does; computed_twiddle_step takes it
-- from the half angle): at most 3e-5 at m = 31 and 8e-6 at m = 15 (fp32 arithmetic simulated over
-- every angle of 4096 to 2^20 points), far below fp16's rounding (4.9e-4).
local function emit_twiddle_recurrence(w, mul, r, ns, qs, computed)
  local function name(m) return string.format("w%d_%d", m, qs[1]) end
  local step = string.format("two_cos_%d", qs[1])
  if computed then
    w:line("float %s;", step)
    w:line("const float2 %s = computed_twiddle_step(k, %d, &%s);", name(1), ns * r, step)
  else -- a table's twiddle errs by its rounding, its cosine too
    w:line("const float2 %s = load_twiddle(tw, 0);", name(1))
    w:line("const float %s = 2.0f * %s.x;", step, name(1))
  end
  local function multiply(m)
    for _, q in ipairs(qs) do w:line("v[%d] = %s(v[%d], %s);", q * r + m, mul, q * r + m, name(m)) end
  end
  multiply(1)
  -- w[b + j] = 2cos(b*angle) * w[j] - conj(w[b - j]), level by level (b = 1, 2, 4, ..): a product's depth
  -- of dependent operations, log2(r), where one recurrence would chain r - 2
  local b, cosine = 1, step
  while b < r do
    for j = 1, math.min(b, r - 1 - b) do
      if j == b then -- w[2b] = 2cos * w[b] - w[0], w[0] = 1
        w:line("const float2 %s = chebyshev_double(%s, %s);", name(2 * b), cosine, name(b))
      else
        w:line("const float2 %s = chebyshev_next_conj(%s, %s, %s);", name(b + j), cosine, name(j), name(b - j))
      end
      multiply(b + j)
    end
    b = 2 * b
    if b < r then
      cosine = string.format("two_cos%d_%d", b, qs[1])
      w:line("const float %s = 2.0f * %s.x;", cosine, name(b))
    end
  end
end

-- Multiplies the inputs 1..r-1 of butterflies qs (which share k, so their twiddles) by their
-- twiddles; a warp reads them unit-stride.
-- powers: from the first twiddle by Chebyshev's identity (emit_twiddle_recurrence).
-- computed: the twiddles are computed, not loaded (emit_twiddle_recurrence; radix 2: computed_twiddle).
local function emit_twiddles(w, prefix, stage_index, r, ns, qs, sign, powers, computed)
  local mul = (sign < 0) and "twiddle_mul" or "twiddle_mul_conj"
  if computed and r == 2 then
    for _, q in ipairs(qs) do
      w:line("v[%d] = %s(v[%d], computed_twiddle(k, %d));", q * r + 1, mul, q * r + 1, ns * r)
    end
    return
  end
  assert(not computed or (powers and r >= 4), "computed twiddles come with their powers of two (the planner's)")
  if not computed then w:line("const float2* tw = %stwiddles_%d + k;", prefix, stage_index) end
  if powers and r >= 4 then
    emit_twiddle_recurrence(w, mul, r, ns, qs, computed)
    return
  end
  for m = 1, r - 1 do
    local factor = string.format("load_twiddle(tw, %d)", (m - 1) * ns)
    if #qs > 1 then
      w:line("const float2 w%d_%d = %s;", m, qs[1], factor)
      factor = string.format("w%d_%d", m, qs[1])
    end
    for _, q in ipairs(qs) do w:line("v[%d] = %s(v[%d], %s);", q * r + m, mul, q * r + m, factor) end
  end
end

-- A first stage of radix 32 writes each butterfly's outputs to 32 neighbouring points, from
-- padded(slot + j * 32), which is even (slot and j * 32 are multiples of 32), so every pair of outputs
-- in one 16-point run lands on 16 aligned bytes: store_pair writes them at once. nvcc's front end
-- merges those stores by itself; NVRTC's, which addresses shared memory in 64 bits, does not.
local function pairs_stores(plan, r, ns)
  return ns == 1 and r == 32 and not plan.transposed_smem and plan.n % 32 == 0 and pad_every(plan) == 16
end

local function emit_paired_stores(w, plan, ys)
  local m = 0
  while m < #ys do
    local at = pad_offset(plan, m)
    if at % 2 == 0 and (m + 1) % pad_every(plan) ~= 0 and m + 1 < #ys then
      w:line("store_pair(smem, %s, %s, %s);", code.sum("dst", at), ys[m + 1], ys[m + 2])
      m = m + 2
    else
      w:line("smem[%s] = %s;", code.sum("dst", at), ys[m + 1])
      m = m + 1
    end
  end
end

-- Twiddles, butterfly and stores of the butterflies this thread owns in one stage. to_registers
-- (the last stage of a tiled pass that stores columns): output m of butterfly q, point
-- fft_thread + (q + m * per_thread) * THREADS_PER_FFT, goes to y[q + m * per_thread].
-- paired: the stage before the shuffle tail; its outputs stay in v[] for the tail.
local function emit_butterflies(w, plan, stage_index, r, ns, sign, to_global, to_registers, paired)
  local per_thread = plan.radix_max // r
  assert(not paired or per_thread == 1, "the shuffle tail follows one butterfly per thread")
  local last = (ns * r == plan.n)
  -- point j of the transform at dst + j (a slice's column: dst + j * FFTS_PER_BLOCK)
  local point_step = plan.transposed_smem and plan.ffts_per_block or 1
  -- the offset of point j from dst in global memory: a slice's columns whose outputs interleave
  -- (fftgen_kernel_plan.interleaved_slices) have their points OUT_ROW_STRIDE apart
  local function stored_at(j)
    if plan.interleaved then return string.format("(size_t)%d * OUT_ROW_STRIDE", j) end
    return tostring(j * point_step)
  end
  if to_global and plan.transposed_smem then
    w:line("point_t* dst = out + column_base + (size_t)fft_thread * %s;",
      plan.interleaved and "OUT_ROW_STRIDE" or "FFTS_PER_BLOCK")
  elseif to_global then
    w:line("point_t* dst = out + fft_base + fft_thread;")
  end
  if to_registers then w:line("float2 y[RADIX_MAX]; /* the outputs, in the order the tiled store copies them */") end
  for q = 0, per_thread - 1 do
    w:open("")
    -- a single stage that keeps its outputs in registers or stores them has no use for j
    if paired then
      w:line("const int j = %s;", pair_butterfly(plan))
    elseif ns > 1 or not (to_registers or to_global) then
      local thread = (ns == 1 and plan.runs_across_lanes) and "run_thread" or "fft_thread"
      w:line("const int j = %s;", code.sum(thread, q * plan.threads_per_fft))
    end
    local out_base
    if ns == 1 then
      out_base = string.format("j * %d", r)
    else
      w:line("const int k = j & %d;", ns - 1)
      emit_twiddles(w, plan.prefix, stage_index, r, ns, { q }, sign, plan.twiddle_powers, plan.computed_twiddles)
      out_base = last and "k" or string.format("(j - k) * %d + k", r)
    end
    local xs = {}
    for m = 0, r - 1 do xs[#xs + 1] = string.format("v[%d]", q * r + m) end
    local ys = radix.dft(w, xs, sign)
    if paired then
      for m = 0, r - 1 do w:line("v[%d] = %s;", m, ys[m + 1]) end
    elseif to_global then
      -- last stage: output m of butterfly j lands at j + m*ns, unit stride across threads
      w:open("if (active)")
      for m = 0, r - 1 do
        w:line(storer(plan) .. "(dst, %s, %s);", stored_at(q * plan.threads_per_fft + m * ns),
          output(plan, ys[m + 1]))
      end
      w:close()
    elseif to_registers then
      assert(last, "only the last stage keeps its outputs in registers")
      for m = 0, r - 1 do w:line("y[%d] = %s;", q + m * per_thread, ys[m + 1]) end
    else
      local base, step, bound = "slot + " .. out_base, 1, write_bound(plan, ns, r)
      if plan.transposed_smem then
        base, step, bound = string.format("(%s) * FFTS_PER_BLOCK + fft_in_block", out_base), plan.ffts_per_block,
          transposed_write_bound(plan, ns, r)
      end
      if ns == 1 and plan.runs_across_lanes then
        -- (j * 16) * FFTS_PER_BLOCK is a multiple of 256: the base's offsets from it are below 16
        assert(plan.transposed_smem and per_thread == 1 and r == 16 and plan.ffts_per_block == 16,
          "runs across lanes: a first stage of radix 16 in tiles of 16")
        base = string.format("(%s) * FFTS_PER_BLOCK + run_fft", out_base)
        w:line("const int dst = padded_wide(%s);", base)
        for m = 0, r - 1 do
          w:line("smem[%s] = %s;", wide_index("dst", base, 15, 15, m * step), ys[m + 1])
        end
      elseif pairs_stores(plan, r, ns) then
        w:line("const int dst = %s;", padded(plan, base))
        emit_paired_stores(w, plan, ys)
      else
        w:line("const int dst = %s;", padded(plan, base))
        for m = 0, r - 1 do
          w:line("smem[%s] = %s;", smem_index(plan, "dst", base, bound, m * ns * step), ys[m + 1])
        end
      end
    end
    w:close()
  end
  if to_registers and plan.tile_pairs then
    -- the stores into the pair's shared memory wait at a barrier for every thread's reads of this stage
    -- (the second tile's outputs go over the exchanges): v[] keeps the outputs across it
    w:line("// v[] keeps the outputs across the barrier before they go into the pair's shared memory")
    for u = 0, plan.radix_max - 1 do w:line("v[%d] = y[%d];", u, u) end
  end
end

-- A fused slice's rows' last stage merged with its columns' first (plan.merge_radix = g, the rows
-- plan's; fftgen_kernel_plan.merged_stage): thread t takes row butterflies j + p * SPAN (p < h, where
-- h = RADIX_MAX / (r * g) and SPAN = POINTS / (r * h), the threads along a row), j = t mod SPAN, of
-- the g rows first_row + i * FFTS_PER_BLOCK / g (i < g), first_row = t / SPAN. Those rows are one
-- column butterfly's inputs in the columns' first stage (radix g, sub-transforms of one point: no
-- twiddles), so after its rows' butterflies the thread runs the columns' on their outputs m, in
-- registers, and writes column output c to row first_row * g + c: one exchange fewer. Where that
-- stage is the columns' only one (plan.merged_stores: g rows, the whole slice), row c is the slice's
-- output row c, stored from registers: lanes hold neighbouring butterflies, so a warp's stores are
-- runs of 32 points of a row.
local function merged_per_row(plan, r) return plan.radix_max // (r * plan.merge_radix) end
local function merged_span(plan, r) return plan.n // (r * merged_per_row(plan, r)) end

local function merged_indices(w, plan, r)
  local span = merged_span(plan, r)
  w:line("const int j = thread %% %d;", span)
  if plan.ffts_per_block > plan.merge_radix then w:line("const int first_row = thread / %d;", span) end
end

local function merged_row_base(plan) -- (row first_row * POINTS, or row 0)
  return plan.ffts_per_block > plan.merge_radix and "first_row * POINTS + j" or "j"
end

local function merged_bound(plan, r)
  local pad = pad_every(plan)
  return plan.n % pad == 0 and math.min(merged_span(plan, r), pad) - 1 or pad - 1
end

local function emit_merged_loads(w, plan, r)
  local g, h, stride, span = plan.merge_radix, merged_per_row(plan, r), plan.n // r, merged_span(plan, r)
  local base = merged_row_base(plan)
  merged_indices(w, plan, r)
  w:line("const int src = %s;", padded(plan, base))
  for p = 0, h - 1 do
    for i = 0, g - 1 do
      for m = 0, r - 1 do
        local c = i * (plan.ffts_per_block // g) * plan.n + p * span + m * stride
        w:line("v[%d] = smem[%s];", (p * g + i) * r + m, smem_index(plan, "src", base, merged_bound(plan, r), c))
      end
    end
  end
end

-- Where the merged stage stores the slice's outputs: row c's point `at` from dst (merged_stores).
local function merged_store_offset(plan, c, at)
  if plan.interleaved then return string.format("(size_t)%d * OUT_ROW_STRIDE + %d", c, at) end
  return tostring(c * plan.n + at)
end

local function emit_merged_butterflies(w, plan, stage_index, r, ns, sign)
  local g, h, span = plan.merge_radix, merged_per_row(plan, r), merged_span(plan, r)
  assert(ns * r == plan.n and ns > 1, "the merged stage is the rows' last of several")
  assert(not plan.merged_stores or plan.ffts_per_block == g, "a merged stage that stores ends the slice's columns")
  -- (one phase with the loads where the stage stores from registers: their indices hold)
  if not plan.merged_stores then merged_indices(w, plan, r) end
  local base = string.format(plan.ffts_per_block > g and "first_row * %d + j" or "j", g * plan.n)
  if plan.merged_stores then
    w:line("point_t* dst = out + %s + j;", plan.interleaved and "out_block_base" or "block_base")
  else
    w:line("const int dst = %s;", padded(plan, base))
  end
  for p = 0, h - 1 do
    w:open("")
    w:line("const int k = %s; // the rows' last stage: k = j mod %d", code.sum("j", p * span), ns)
    local groups = {}
    for i = 0, g - 1 do groups[#groups + 1] = p * g + i end
    emit_twiddles(w, plan.prefix, stage_index, r, ns, groups, sign, plan.twiddle_powers, plan.computed_twiddles)
    local rows = {}
    for i = 0, g - 1 do
      local xs = {}
      for m = 0, r - 1 do xs[#xs + 1] = string.format("v[%d]", (p * g + i) * r + m) end
      rows[i + 1] = radix.dft(w, xs, sign)
    end
    for m = 0, r - 1 do
      local xs = {}
      for i = 0, g - 1 do xs[#xs + 1] = rows[i + 1][m + 1] end
      local zs = radix.dft(w, xs, sign)
      if plan.merged_stores then
        w:open("if (active)")
        for c = 0, g - 1 do
          w:line(storer(plan) .. "(dst, %s, %s);", merged_store_offset(plan, c, p * span + m * ns),
            output(plan, zs[c + 1]))
        end
        w:close()
      else
        for c = 0, g - 1 do
          w:line("smem[%s] = %s;", smem_index(plan, "dst", base, merged_bound(plan, r), c * plan.n + p * span + m * ns),
            zs[c + 1])
        end
      end
    end
    w:close()
  end
end

-- The radix-2 tail in registers, after the paired radix-R stage (R = RADIX_MAX, 16 or 32): lane l
-- (l & 16 clear) keeps outputs m = 0..R/2-1 of its butterfly k and takes the same outputs of butterfly
-- k + THREADS_PER_FFT/2 from lane l ^ 16, which keeps and takes m = R/2..R-1 the other way. Pair m of
-- k is tail butterfly k + m*ns, with inputs at k + m*ns and k + m*ns + POINTS/2 and its outputs there.
-- lane_xor16(mine, theirs) is the shuffle; its second argument names the partner's register for
-- the host simulation, which runs this as a phase of its own. to_registers (a tiled pass): the
-- outputs go to y[] for the tiled store, tail butterfly i's to y[i] and y[i + R/2].
-- After radix 32 (which the planner gives a tail only where the pass computes its twiddles) the
-- lane's first twiddle comes from __sincosf and each other as the first times a constant,
-- exp(-2*pi*i*i*pair_ns/POINTS), so no table is read: its loads, late in the kernel and behind the
-- shared memory that pushes L1 out, had made the radix-32 tail slower than a third exchange (H200,
-- fftgen-kernel-ab, fp16 2^21 with its 2048-point rows at radix 32, the exchange against the tail:
-- 0.6685 -> 0.6800 ms with the table in one run, 0.6970 -> 0.6611 computed in another). The radix-16
-- tails keep their table: computed, fp16 512^3's line ran 1.8% slower in fftgen-bench (0.9436-0.9497
-- -> 0.9619-0.9664 ms), though 8192 and 2^18 at radix 16 gained in fftgen-kernel-ab (0.4100 -> 0.3952,
-- 0.6925 -> 0.6511).
local function emit_shuffle_tail(w, plan, stage_index, ns, sign, to_registers)
  local half = plan.n // 2
  assert(ns == half, "the shuffle tail is the last stage")
  local pair_ns = plan.threads_per_fft // 2 -- the previous stage's sub-transform length
  local kept = plan.radix_max // 2 -- the outputs each lane keeps of its own butterfly
  local mul = (sign < 0) and "twiddle_mul" or "twiddle_mul_conj"
  w:line("const bool upper = %s != 0;", pair_upper(plan))
  w:line("const int first = %s + (upper ? %d : 0);", pair_k(plan), kept * pair_ns)
  local computed = plan.tail_twiddles_computed
  if computed then
    w:line("const float2 tail_w0 = computed_twiddle(first, %d);", plan.n)
  else
    w:line("const float2* tw = %stwiddles_%d + first;", plan.prefix, stage_index)
  end
  if to_registers then
    w:line("float2 y[RADIX_MAX]; /* the outputs, in the order the tiled store copies them */")
  else
    w:line("point_t* dst = out + fft_base + first;")
  end
  for i = 0, kept - 1 do
    w:open("")
    w:line("const float2 other = lane_xor16(upper ? v[%d] : v[%d], upper ? %d : %d);", i, i + kept, i + kept, i)
    w:line("const float2 a = upper ? other : v[%d];", i)
    local twiddle = string.format("load_twiddle(tw, %d)", i * pair_ns)
    if computed then
      local angle = -2 * math.pi * i * pair_ns / plan.n
      twiddle = (i == 0) and "tail_w0" or string.format("twiddle_mul(tail_w0, make_float2(%s, %s))",
        code.float(math.cos(angle)), code.float(math.sin(angle)))
    end
    w:line("const float2 b = %s(upper ? v[%d] : other, %s);", mul, i + kept, twiddle)
    local ys = radix.dft(w, { "a", "b" }, sign)
    if to_registers then
      w:line("y[%d] = %s;", i, ys[1])
      w:line("y[%d] = %s;", i + kept, ys[2])
    else
      w:open("if (active)")
      w:line(storer(plan) .. "(dst, %d, %s);", i * pair_ns, output(plan, ys[1]))
      w:line(storer(plan) .. "(dst, %d, %s);", i * pair_ns + half, output(plan, ys[2]))
      w:close()
    end
    w:close()
  end
end

-- A fused 2D slice of slice_rows x (n / slice_rows) points: its rows, one after another in shared
-- memory, then its columns, which lie side by side there. Built once per plan.
-- Where the planner says so (fftgen_loads_to_registers, fftgen_stores_from_registers), the rows'
-- first stage reads global memory and the columns' last stage writes it, with no copies through
-- shared memory: a warp's loads are runs of THREADS_PER_FFT points of consecutive rows, its stores
-- 32 consecutive columns of one row.
-- The threads of one slice: a block runs several small slices side by side, each on threads and
-- shared memory of its own (planner.c's group_small_slices), or one slice (on a cluster, its part).
local function slice_threads(plan)
  return ((plan.cluster or 1) > 1) and plan.threads or plan.threads // plan.ffts_per_block
end

local function slice_plans(plan)
  if not plan.rows_plan then
    local columns = plan.n // plan.slice_rows
    local common = { radix_max = plan.radix_max, threads = slice_threads(plan), keep_in_smem = true,
      shared_exponent_source = plan.shared_exponent_source, shared_exponent_target = plan.shared_exponent_target,
      slice_cluster = (plan.cluster or 1) > 1, scale_outputs = scales_outputs(plan),
      twiddle_powers = plan.twiddle_powers, computed_twiddles = plan.computed_twiddles }
    local function sub(fields)
      for k, v in pairs(common) do fields[k] = v end
      return fields
    end
    plan.rows_plan = sub({ n = columns, radices = plan.radices, threads_per_fft = columns // plan.radix_max,
      ffts_per_block = plan.slice_rows, staged_io = not plan.loads_to_registers, prefix = plan.prefix .. "rows_",
      prefetch = plan.prefetch, staged_row_points = plan.staged_row_points,
      merge_radix = plan.merged_stage and plan.col_radices[1] or nil,
      merged_stores = plan.merged_stage and #plan.col_radices == 1, interleaved = plan.interleaved_slices > 1,
      what = string.format("rows: %d transforms of %d points%s", plan.slice_rows, columns,
        not plan.merged_stage and "" or
        #plan.col_radices == 1 and ", the last stage with the whole columns, stored from registers" or
        ", the last stage with the columns' first") })
    plan.cols_plan = sub({ n = plan.slice_rows, radices = plan.col_radices,
      threads_per_fft = plan.slice_rows // plan.radix_max, ffts_per_block = columns, transposed_smem = true,
      data_in_smem = true, prefix = plan.prefix .. "cols_", first_stage_merged = plan.merged_stage,
      interleaved = plan.interleaved_slices > 1,
      what = string.format("columns: %d transforms of %d points, side by side%s", columns, plan.slice_rows,
        plan.merged_stage and " (their first stage merged with the rows' last)" or "") })
    plan.cols_plan.keep_in_smem = not plan.stores_from_registers
    if plan.rows_plan.merged_stores then
      assert(plan.stores_from_registers, "a merged stage stores the columns' outputs from registers")
      plan.cols_plan = nil -- the rows' merged stage ran the columns and stored them
    end
    -- rows or columns shorter than the other's points a thread: one a thread, several in turn, one
    -- stage each (from the inputs straight into shared memory, or from there straight to the outputs),
    -- so a round leaves nothing for the next
    local function in_rounds(sub, points, rounds, constant)
      sub.radix_max = points
      sub.threads_per_fft = 1
      sub.rounds = rounds
      sub.rounds_constant = constant
      sub.what = sub.what .. string.format(", %d a thread in turn", rounds)
    end
    if (plan.row_rounds or 0) > 1 then
      assert(plan.loads_to_registers and #plan.radices == 1 and not plan.merged_stage,
        "rows in rounds are one stage each, loaded from global memory")
      in_rounds(plan.rows_plan, columns, plan.row_rounds, "ROW_ROUNDS")
    end
    if (plan.column_rounds or 0) > 1 then
      assert(plan.stores_from_registers and #plan.col_radices == 1 and not plan.merged_stage,
        "columns in rounds are one stage each, stored to global memory")
      in_rounds(plan.cols_plan, plan.slice_rows, plan.column_rounds, "COLUMN_ROUNDS")
    end
    if (plan.volume_depth or 0) > 0 then
      -- a whole 3D transform: all of its slices' threads take its columns along dimension 0, which
      -- lie side by side in the slices' shared memory (planner.c's plan_fused_volume)
      -- columns shorter than the slices' points a thread: one a thread, DEPTH_ROUNDS of them in turn
      -- (one stage, from shared memory to the outputs, so a round leaves nothing for the next)
      local depth, rounds = plan.volume_depth, plan.depth_rounds or 1
      local depth_radix = rounds > 1 and depth or plan.radix_max
      plan.depth_plan = sub({ n = depth, radices = plan.depth_radices,
        threads_per_fft = depth // depth_radix, ffts_per_block = plan.n, transposed_smem = true,
        data_in_smem = true, prefix = plan.prefix .. "depth_", volume = true, rounds = rounds,
        rounds_constant = "DEPTH_ROUNDS",
        what = string.format("dimension 0: %d transforms of %d points, side by side in the %d slices' shared memory%s",
          plan.n, depth, depth, rounds > 1 and string.format(", %d a thread", rounds) or "") })
      plan.depth_plan.radix_max = depth_radix -- (sub gave it the slices')
      plan.depth_plan.threads = depth * slice_threads(plan) -- (sub gave it one slice's)
      plan.depth_plan.keep_in_smem = false -- its last stage writes the outputs
      assert(rounds == 1 or #plan.depth_radices == 1, "columns in rounds are one stage each")
    end
  end
  return plan.rows_plan, plan.cols_plan, plan.depth_plan
end

local function uses(text, name)
  return text:find("%f[%w_]" .. name .. "%f[^%w_]") ~= nil
end

-- A phase of a slice's rows or columns, in a scope of its own: the sub-transform's constants
-- (hiding the slice's) and the per-thread indices it uses.
local function scoped(sub, phase)
  local indices
  if sub.transposed_smem then
    indices = { { "fft_in_block", "const int fft_in_block = thread % FFTS_PER_BLOCK;" },
                { "fft_thread", "const int fft_thread = thread / FFTS_PER_BLOCK;" } }
  else
    indices = { { "fft_in_block", "const int fft_in_block = thread / THREADS_PER_FFT;" },
                { "fft_thread", "const int fft_thread = thread % THREADS_PER_FFT;" },
                { "slot", "const int slot = fft_in_block * POINTS;" } }
  end
  if not sub.slice_cluster then -- (on a cluster, the kernel's own fft_base and active)
    if sub.transposed_smem then -- a column's point j lies j * FFTS_PER_BLOCK on in the slice
      indices[#indices + 1] = { "column_base", string.format("const size_t column_base = %s + fft_in_block;",
        sub.interleaved and "out_block_base" or "block_base") }
    else
      indices[#indices + 1] = { "fft_base", "const size_t fft_base = block_base + (size_t)fft_in_block * POINTS;" }
    end
    -- one slice per block: the block exists only for slices of the batch
    indices[#indices + 1] = { "active", "const bool active = block_points > 0;" }
  end
  local needed, declared = table.concat(phase.lines, "\n"), {}
  for i = #indices, 1, -1 do
    if uses(needed, indices[i][1]) then
      table.insert(declared, 1, indices[i][2])
      needed = needed .. "\n" .. indices[i][2]
    end
  end
  local w = code.writer()
  w.sync = phase.sync
  w:line("// %s", sub.what)
  if sub.volume then
    -- the transform's threads, shared memory and first slice, in place of one slice's (a scope of
    -- their own: the slices' names stay outside)
    w:open("")
    -- (the kernel's constants, before this phase's enum hides them)
    w:line("const int volume_in_block = block_thread / (VOLUME_DEPTH * SLICE_THREADS);")
    w:line("const int thread = block_thread %% (VOLUME_DEPTH * SLICE_THREADS);")
    w:line("float2* smem = block_smem + volume_in_block * VOLUME_SMEM_POINTS;")
    -- (a phase that stays in shared memory reads no global memory)
    local base, points = uses(needed, "block_base"), uses(needed, "block_points")
    if base or points then
      w:line("const long long first_slice = block * FFTS_PER_BLOCK + volume_in_block * VOLUME_DEPTH;")
    end
    if base then w:line("const size_t block_base = (size_t)first_slice * POINTS;") end
    if points then
      w:line("const int block_points = first_slice < batch ? VOLUME_DEPTH * POINTS : 0; // none past the batch's last transform")
    end
  end
  local rounds = sub.rounds or 1
  if rounds > 1 then
    -- whole columns a thread, in turn: thread t the columns t, t + (the phase's threads), ..
    w:open("")
    w:line("const int first_thread = thread;")
    w:open("for (int round = 0; round < %s; ++round)", sub.rounds_constant)
    w:line("const int thread = first_thread + round * %d;", sub.threads)
  end
  w:line("enum { POINTS = %d, FFTS_PER_BLOCK = %d, THREADS_PER_FFT = %d };", sub.n, sub.ffts_per_block,
    sub.threads_per_fft)
  for _, d in ipairs(declared) do w:line("%s", d) end
  w:embed(phase)
  if rounds > 1 then w:close(); w:close() end
  if sub.volume then w:close() end
  return w
end

-- Whether a transform's exchanges between its stages stay in one warp, so that a __syncwarp orders
-- them and the block's other warps run on: its threads are lanes of one warp, in a block of several
-- warps, and its points its own slot of shared memory (untiled, not a slice's columns, on CUDA cores,
-- no cluster). The copies in and out of shared memory cross warps and keep the block's barriers.
-- H200, 2^27 points, % of copy with block barriers -> warp syncs: fp16 64 87.9 -> 90.4, 256 98.5 ->
-- 98.8; the slices' rows, fp16 128x128 0.482 -> 0.470 ms, 128^3 0.794 -> 0.782. Radix-32 kernels
-- measured slower (fp16 512 95.5 -> 92.7, 1024 in blocks of 64 threads 97.0 -> 95.9), so they keep
-- the block's barriers.
local function warp_exchanges(plan)
  return not plan.tiled and not plan.transposed_smem and not plan.tensor_cores and (plan.cluster or 1) == 1 and
    plan.threads_per_fft <= 32 and plan.threads > 32 and plan.radix_max <= 16
end

-- Returns the list of phases (writers) of the whole FFT in one direction.
function M.phases(plan, sign)
  if plan.slice_rows and plan.slice_rows > 0 then
    local phases = {}
    local rows_plan, cols_plan, depth_plan = slice_plans(plan)
    local subs = { rows_plan } -- (no columns phase where the rows' merged stage stored them)
    if cols_plan then subs[#subs + 1] = cols_plan end
    if depth_plan then subs[#subs + 1] = depth_plan end
    for _, sub in ipairs(subs) do
      for _, phase in ipairs(M.phases(sub, sign)) do phases[#phases + 1] = scoped(sub, phase) end
    end
    -- else the columns' last stage stored them, or (on a cluster) they stay for the last stage, across
    -- the cluster
    if (plan.cluster or 1) == 1 and not plan.stores_from_registers and (plan.volume_depth or 0) == 0 then
      local w = code.writer()
      -- the copy of one slice by its own threads
      emit_staged_store(w, setmetatable({ threads = slice_threads(plan) }, { __index = plan }), sign)
      phases[#phases + 1] = w
    end
    return phases
  end
  local phases = {}
  local w = code.writer()
  -- A new phase, and how the threads wait before it (the writer's `sync`, which kernel.lua and sim.lua render):
  -- "block" (__syncthreads, the default), "warp" (__syncwarp: warp_exchanges) or "none" (a warp's
  -- lanes exchanged by shuffles: a boundary for the host simulation only)
  local function barrier(sync)
    phases[#phases + 1] = w
    w = code.writer()
    w.sync = sync
  end
  local exchange = warp_exchanges(plan) and "warp" or "block"
  -- data_in_smem: the points are already in shared memory; keep_in_smem: leave the results there
  -- (a cluster's blocks keep their results for the last stage, across the cluster)
  local in_smem = plan.staged_io or plan.data_in_smem
  local keep_in_smem = plan.keep_in_smem or (plan.cluster or 1) > 1
  local out_smem = plan.staged_io or keep_in_smem
  -- tiled sides in registers (register_side): the copies in and out go straight between global memory
  -- and the stages' registers
  local load_to_registers = plan.staged_io and not plan.data_in_smem and register_side(plan, plan.in_layout)
  -- the first stage scales its inputs (emit_input_scale) where it reads them from global memory, or
  -- from the shared memory a tiled copy put them in; loads to registers scaled them, and a slice's
  -- columns follow its rows, which did
  local scale_first_stage = not plan.data_in_smem and not load_to_registers
  local store_from_registers = plan.staged_io and not keep_in_smem and register_side(plan, plan.out_layout)
  if plan.staged_io and not plan.data_in_smem then
    emit_staged_load(w, plan)
    if not load_to_registers then
      barrier()
    elseif plan.tma_in_exchanges then
      -- the staging buffer lies inside the exchanges, which the first stage's outputs go over: every
      -- thread has its tile's points first
      barrier("block")
    end
  end
  local ns = 1
  local count = #plan.radices
  local tail = plan.shuffle_tail
  -- a slice's columns whose first stage the rows' last ran (merged_stage) start at their second
  local start = 1
  if plan.first_stage_merged then ns, start = plan.radices[1], 2 end
  for s = start, count do
    local r = plan.radices[s]
    local first, last = (s == 1), (s == count)
    if last and plan.merge_radix then
      w:line("// stage %d of %d: radix %d on sub-transforms of %d points, then the columns' first stage (radix %d)",
        s, count, r, ns * r, plan.merge_radix)
      emit_merged_loads(w, plan, r)
      if plan.merged_stores then
        -- (no barrier: the stage writes global memory only)
        w.reads_shared_memory = true
      else
        barrier("block")
      end
      emit_merged_butterflies(w, plan, s, r, ns, sign)
      break
    end
    local paired = tail and s == count - 1
    local from_global = first and not in_smem
    local to_global = last and not out_smem
    local in_registers = first and load_to_registers
    local to_registers = last and store_from_registers
    local on_tensor_cores = tc16.applies(plan, r, from_global, to_global)
    assert(not (on_tensor_cores and (in_registers or to_registers)), "tensor-core stages are not tiled")
    w:line("// stage %d of %d: radix %d on sub-transforms of %d points%s", s, count, r, ns * r,
      on_tensor_cores and ", on tensor cores" or
      ((tail and last) and ", the pairs swapped between lanes 16 apart" or ""))
    if tail and last then
      assert((to_global or to_registers) and not on_tensor_cores, "the shuffle tail stores from registers")
      assert(not (first and scale_first_stage), "the shuffle tail reads no points to scale")
      emit_shuffle_tail(w, plan, s, ns, sign, to_registers)
      break
    end
    if on_tensor_cores then
      tc16.emit_loads(w, plan)
    elseif not in_registers then
      -- the second stage of a pass whose first read its runs across lanes reads the wide pad
      emit_loads(w, plan, r, from_global, paired, plan.runs_across_lanes and s == 2)
    end
    if first and scale_first_stage then emit_input_scale(w, plan) end
    -- every thread must read before any thread overwrites the shared buffer; the stage before a
    -- shuffle tail overwrites none, nor does a last stage that writes global memory or registers on
    -- CUDA cores, so their reads need no barrier (a block that runs transforms in turn waits before
    -- its next one: kernel.lua)
    local writes_out = last and (to_global or to_registers) and not on_tensor_cores
    local reads_shared = not from_global and not in_registers
    if writes_out and reads_shared and plan.tma_in_exchanges then
      -- every thread has read the last exchange: the next tile may land over it (kernel.lua asks for it
      -- at this barrier)
      barrier("block")
      w.frees_exchanges = true
    elseif paired or writes_out then
      w.reads_shared_memory = w.reads_shared_memory or reads_shared
    elseif reads_shared then
      barrier(exchange)
    end
    if on_tensor_cores then
      -- a phase of three parts: per thread, per warp, per thread (kernel.lua and sim.lua render them)
      w.tensor_cores = tc16.emit_butterflies(plan, s, ns, sign)
    else
      emit_butterflies(w, plan, s, r, ns, sign, to_global, to_registers, paired)
    end
    if paired then
      barrier("none")
    elseif s + 1 == count and plan.merge_radix then
      barrier("block") -- the merged stage reads the rows of other warps
    elseif not last then
      barrier(exchange)
    end
    ns = ns * r
  end
  if plan.staged_io and not keep_in_smem then
    if not store_from_registers or plan.tile_pairs then barrier() end
    emit_staged_store(w, plan, sign)
  end
  phases[#phases + 1] = w
  return phases
end

-- The cluster's last stage, radix CLUSTER: after the blocks' own stages, block c holds in shared
-- memory Y_c[k] = the POINTS-point FFT of the points c + CLUSTER*j, and output k + POINTS*q of the
-- transform is sum_c Y_c[k] * exp(-+2*pi*i*c*k/TRANSFORM_POINTS) * exp(-+2*pi*i*c*q/CLUSTER). Block
-- `rank` computes the columns k of its share, rank*POINTS/CLUSTER on, THREADS_PER_FFT apart per
-- thread, reading the other blocks' shared memory. Untiled (one transform per cluster), every store is
-- unit-stride across threads; a tile's transforms lie side by side in shared memory (point k of
-- transform f at k * FFTS_PER_BLOCK + f), so its threads take the block's share of that range in
-- order and store runs of FFTS_PER_BLOCK columns.
function M.cluster_phase(plan, sign)
  local size = plan.cluster
  local per_thread = plan.radix_max // size
  local mul = (sign < 0) and "twiddle_mul" or "twiddle_mul_conj"
  local w = code.writer()
  w:line("// the last stage, radix %d across the cluster's blocks, through distributed shared memory", size)
  if plan.tiled then
    assert(register_side(plan, plan.out_layout), "a cluster's tiles store columns")
    w:line("const int first_k = rank * (POINTS / CLUSTER) + fft_thread;")
    w:line("const int src = %s;", padded(plan, "rank * (POINTS / CLUSTER) * FFTS_PER_BLOCK + thread"))
  else
    w:line("const int first_k = rank * (POINTS / CLUSTER) + thread;")
    w:line("const int src = %s;", padded(plan, "first_k"))
  end
  for c = 0, size - 1 do w:line("const unsigned block_smem_%d = cluster_map(smem, %d);", c, c) end
  -- THREADS is a multiple of the pad, so padded(first + i*THREADS) = src + pad_offset(i*THREADS)
  assert(plan.threads % pad_every(plan) == 0, "a cluster's block is whole pads")
  for i = 0, per_thread - 1 do
    local offset = pad_offset(plan, i * plan.threads)
    for c = 0, size - 1 do
      w:line("v[%d] = cluster_load(block_smem_%d, %s);", i * size + c, c, code.sum("src", offset))
    end
  end
  local guard, store
  if plan.tiled then
    w:line("point_t* dst = out + out_tile + (size_t)fft_in_block * OUT_FFT_STRIDE + (size_t)first_k * OUT_ELEM_STRIDE;")
    guard = "fft_in_block < tile_ffts"
    store = function(points) return string.format("(size_t)%d * OUT_ELEM_STRIDE", points) end
  else
    w:line("point_t* dst = out + fft_base + first_k;")
    guard = "active"
    store = tostring
  end
  for i = 0, per_thread - 1 do
    w:open("")
    w:line("const int k = %s;", code.sum("first_k", i * plan.threads_per_fft))
    local xs = { string.format("v[%d]", i * size) }
    -- a slice's columns: exp(-+2*pi*i*c*k1/(CLUSTER*SLICE_ROWS)) for its row k1 = k / SLICE_COLUMNS
    local k = (plan.slice_rows or 0) > 0 and "(k & ~(SLICE_COLUMNS - 1))" or "k"
    for c = 1, size - 1 do
      w:line("v[%d] = %s(v[%d], %s(%s, %d * %s, CLUSTER_TWIDDLE_BITS));", i * size + c, mul, i * size + c,
        plan.cluster_twiddle_call, plan.cluster_tables, c, k)
      xs[#xs + 1] = string.format("v[%d]", i * size + c)
    end
    local ys = radix.dft(w, xs, sign)
    w:open("if (%s)", guard)
    for q = 0, size - 1 do
      local value = ys[q + 1]
      if plan.tiled and plan.twiddle_n > 0 then
        -- times the pass twiddle exp(-+2*pi*i*c*j/TWIDDLE_N) of output j = k + POINTS*q, one table product
        value = string.format("%s(%s, %s(%s, %s * (%s), POST_TWIDDLE_BITS))", mul, value, plan.post_twiddle_call,
          post_tables(plan), twiddle_column(plan), code.sum("k", q * plan.n))
      end
      w:line(storer(plan) .. "(dst, %s, %s);", store(i * plan.threads_per_fft + q * plan.n), output(plan, value))
    end
    w:close()
    w:close()
  end
  w:line("cluster_done();")
  return w
end

-- The twiddle tables the stages read (every stage but the first).
function M.twiddle_tables(plan)
  if plan.slice_rows and plan.slice_rows > 0 then
    local rows, cols, depth = slice_plans(plan)
    local tables = M.twiddle_tables(rows)
    for _, t in ipairs(cols and M.twiddle_tables(cols) or {}) do tables[#tables + 1] = t end
    for _, t in ipairs(depth and M.twiddle_tables(depth) or {}) do tables[#tables + 1] = t end
    return tables
  end
  local tables = {}
  local ns = 1
  for s, r in ipairs(plan.radices) do
    -- computed twiddles need no table, but for a radix-16 shuffle tail's loads
    local loads = not plan.computed_twiddles or
      (plan.shuffle_tail and s == #plan.radices and not plan.tail_twiddles_computed)
    -- a stage that takes its twiddles' powers reads the first row only (emit_twiddle_recurrence); the
    -- shuffle tail and tensor-core stages (tc16) read every row
    local tail = plan.shuffle_tail and s == #plan.radices
    local first_row_only = plan.twiddle_powers and r >= 4 and not tail and not plan.tensor_cores
    if ns > 1 and loads then
      tables[#tables + 1] = { name = plan.prefix .. "twiddles_" .. s, ns = ns, r = r, rows = first_row_only and 1 or r - 1 }
    end
    ns = ns * r
  end
  return tables
end

return M

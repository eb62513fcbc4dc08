-- Radix-16 stages on tensor cores (tcFFT, papers/003): a warp's 32 butterflies are four complex
-- products D = F * X of the 16x16 DFT matrix F and the 16 x 8 inputs X of eight butterflies, made of
-- mma.sync.m16n8k16 (fp16 operands, fp32 sums). A complex product is four real ones:
--   Re D = Re F * Re X + (-Im F) * Im X,   Im D = Re F * Im X + Im F * Re X.
-- Fragment layouts, from the PTX ISA (mma.m16n8k16, .f16 operands, .f32 accumulators), with
-- group = lane >> 2 and quad = lane % 4:
--   A (16x16, row-major): a[i] at row group + 8*((i >> 1) & 1), column 2*quad + (i & 1) + 8*(i >> 2)
--   B (16x8, column-major): b[i] at row 2*quad + (i & 1) + 8*(i >> 1), column group
--   C, D (16x8): c[i] at row group + 8*(i >> 1), column 2*quad + (i & 1)
-- So a lane loads inputs m = 2*quad + {0, 1, 8, 9} of butterfly `group` of each eight, and receives
-- outputs group and group + 8 of butterflies 2*quad and 2*quad + 1. Registers pack two fp16 values,
-- the first in the low half.
--
-- How the fp32 operands become fp16 ones (plan.split):
--   none (fp16 storage): F rounded once; each input x as hi = fp16(x) plus lo = fp16(x - hi).
--   "corrected" (precision split): each butterfly's inputs scaled by a power of two s above their
--     largest magnitude (exact), then x/s = hi + 2^-11 lo, and F = Fhi + 2^-11 Flo likewise. The
--     products Fhi*hi and the corrections Fhi*lo + Flo*hi sum in two accumulators; Flo*lo (2^-22)
--     is dropped. D = s * (main + 2^-11 * corrections). Scaling the low parts by 2^11 keeps them
--     out of fp16's subnormal range, and the separate sums keep the corrections' bits.
--   "papers" (precision split-papers, papers/000 Algorithm 1): s1 = max |x| of the butterfly,
--     hi = fp16(x / s1), s2 = max |x - s1*hi|, lo = fp16((x - s1*hi) / s2); F = Fhi + Flo unscaled.
--     D = s1 * (Fhi + Flo) * hi + s2 * Fhi * lo.
-- A butterfly's scales need all 16 of its inputs, which four lanes hold: the lanes exchange them
-- (warp steps), and again for the outputs, which other lanes receive.
--
-- The host simulation cannot run a warp-wide instruction inside one thread's code, so a stage's
-- butterfly phase is a list of steps, each per thread or per warp (emulated by the *_sim helpers).
-- Shared memory holds a block's transforms one after another (slot + point) or, in tiled passes,
-- side by side (point * FFTS_PER_BLOCK + transform); the butterflies find their data either way.
local code = require("code")
local twiddle = require("twiddle")

local M = {}

-- Butterflies of eight per warp-wide product, and products per warp (32 butterflies).
local GROUPS = 4
-- Input m of the butterfly a lane loads, as an offset from 2*quad, for fragment element i.
local B_ROWS = { 0, 1, 8, 9 }
-- The low parts of the corrected split are scaled by 2^LO_SHIFT.
local LO_SHIFT = 11

-- A radix-16 stage that reads and writes shared memory, one butterfly per thread.
function M.applies(plan, r, from_global, to_global)
  return plan.tensor_cores and r == 16 and plan.radix_max == 16 and not from_global and not to_global
end

-- The butterfly that column `col` of product g stands for: the one of thread warp_first + 8*g + col.
-- Declares its index j, what `at` needs to address its transform (if want_at), and k = j mod ns
-- (if want_k). Returns at(p, c): the shared-memory index of point p + c of that transform.
local function butterfly(w, plan, g, col, want_at, want_k, ns)
  assert((plan.pad_every or 16) == 16, "tensor-core stages address shared memory padded every 16")
  w:line("const int owner = %s;", code.sum("warp_first", 8 * g, col))
  local at
  if plan.transposed_smem then
    w:line("const int j = owner / FFTS_PER_BLOCK;")
    if want_at then w:line("const int fft = owner %% FFTS_PER_BLOCK;") end
    at = function(p, c)
      return string.format("padded((%s) * FFTS_PER_BLOCK + fft%s)", p,
        c > 0 and string.format(" + %d", c * plan.ffts_per_block) or "")
    end
  else
    w:line("const int j = owner %% THREADS_PER_FFT;")
    if want_at then w:line("const int slot = (owner / THREADS_PER_FFT) * POINTS;") end
    at = function(p, c) return string.format("padded(%s)", code.sum("slot", p, c)) end
  end
  if want_k then w:line("const int k = j & %d;", ns - 1) end
  return at
end

-- Loads inputs 2*quad + {0, 1, 8, 9} of butterfly `group` of each product into v[4*g + i].
function M.emit_loads(w, plan)
  local stride = plan.n // 16
  w:line("// tensor cores: this lane's B fragments, inputs 2*quad + {0, 1, 8, 9} of butterfly `group`")
  for g = 0, GROUPS - 1 do
    w:open("")
    local at = butterfly(w, plan, g, "group", true, false)
    for i, row in ipairs(B_ROWS) do
      w:line("v[%d] = smem[%s];", 4 * g + i - 1, at(string.format("j + 2 * quad * %d", stride), row * stride))
    end
    w:close()
  end
end

-- Per-thread code that visits this lane's four inputs of group g: fn(w, index of v, "x" or "y").
local function each_input(w, g, fn)
  for i = 0, 3 do
    for _, part in ipairs({ "x", "y" }) do fn(w, 4 * g + i, part) end
  end
end

-- Sets tc.<field> to the largest magnitude of this lane's inputs (the butterfly's, after the
-- warp step that takes the maximum over its four lanes).
local function local_max(w, g, field, value_of)
  local terms = {}
  each_input(w, g, function(_, v, part) terms[#terms + 1] = string.format("fabsf(%s)", value_of(v, part)) end)
  local m = terms[1]
  for i = 2, #terms do m = string.format("fmaxf(%s, %s)", m, terms[i]) end
  w:line("tc.%s = %s;", field, m)
end

-- Packs B fragments: the fp16 pairs of inputs (2*reg, 2*reg + 1) of group g, from `value_of`.
local function pack_fragments(w, g, hi_of, lo_of)
  for _, part in ipairs({ { "re", "x" }, { "im", "y" } }) do
    for reg = 0, 1 do
      local a, b = 4 * g + 2 * reg, 4 * g + 2 * reg + 1
      w:line("tc.b_%s[%d] = pack_half2(%s, %s);", part[1], reg, hi_of(a, part[2]), hi_of(b, part[2]))
      w:line("tc.b_%s_lo[%d] = pack_half2(%s, %s);", part[1], reg, lo_of(a, part[2]), lo_of(b, part[2]))
    end
  end
end

-- The products of one group: {d = accumulator, a = A fragment, b = B fragment, accumulate}.
local function products_of(split)
  local list = {}
  local function sum(d, terms)
    for i, t in ipairs(terms) do list[#list + 1] = { d = d, a = t[1], b = t[2], accumulate = i > 1 } end
  end
  if split == nil then
    sum("d_re", { { "a_re", "b_re" }, { "a_re", "b_re_lo" }, { "a_nim", "b_im" }, { "a_nim", "b_im_lo" } })
    sum("d_im", { { "a_re", "b_im" }, { "a_re", "b_im_lo" }, { "a_im", "b_re" }, { "a_im", "b_re_lo" } })
  elseif split == "corrected" then
    sum("d_re", { { "a_re", "b_re" }, { "a_nim", "b_im" } })
    sum("c_re", { { "a_re", "b_re_lo" }, { "a_re_lo", "b_re" }, { "a_nim", "b_im_lo" }, { "a_nim_lo", "b_im" } })
    sum("d_im", { { "a_re", "b_im" }, { "a_im", "b_re" } })
    sum("c_im", { { "a_re", "b_im_lo" }, { "a_re_lo", "b_im" }, { "a_im", "b_re_lo" }, { "a_im_lo", "b_re" } })
  else -- papers: (Fhi + Flo) * hi, then Fhi * lo
    sum("d_re", { { "a_re", "b_re" }, { "a_re_lo", "b_re" }, { "a_nim", "b_im" }, { "a_nim_lo", "b_im" } })
    sum("c_re", { { "a_re", "b_re_lo" }, { "a_nim", "b_im_lo" } })
    sum("d_im", { { "a_re", "b_im" }, { "a_re_lo", "b_im" }, { "a_im", "b_re" }, { "a_im_lo", "b_re" } })
    sum("c_im", { { "a_re", "b_im_lo" }, { "a_im", "b_re_lo" } })
  end
  return list
end

-- The output of accumulator element i, for output column col (scales gathered in out_scale*).
local function output_of(split, i, col)
  local function part(d, c)
    if split == nil then return string.format("tc.%s[%d]", d, i) end
    if split == "corrected" then
      return string.format("(tc.%s[%d] + tc.%s[%d] * %s) * tc.out_scale[%d]", d, i, c, i,
        code.float(2.0 ^ -LO_SHIFT), col)
    end
    return string.format("tc.%s[%d] * tc.out_scale[%d] + tc.%s[%d] * tc.out_scale_lo[%d]", d, i, col, c, i, col)
  end
  return string.format("make_float2(%s, %s)", part("d_re", "c_re"), part("d_im", "c_im"))
end

-- The stage's butterflies, eight at a time. Returns, for each group of eight, its list of steps:
-- {thread = writer} runs in every thread, {warp = name, field(s)} across each warp (tc16.cuda_step
-- and tc16.sim_step render them), so that only one group's fragments are live at a time.
function M.emit_butterflies(plan, stage_index, ns, sign)
  local mul = (sign < 0) and "twiddle_mul" or "twiddle_mul_conj"
  local split = plan.split
  local groups = {}
  for g = 0, GROUPS - 1 do
    local steps = {}
    local function thread_step(comment)
      local w = code.writer()
      if comment then w:line("// %s", comment) end
      steps[#steps + 1] = { thread = w }
      return w
    end
    local function warp_step(step) steps[#steps + 1] = step end

    local pre = thread_step(string.format("butterflies %d..%d of the warp: twiddles in fp32, then the B fragments",
      8 * g, 8 * g + 7))
    if ns > 1 then
      butterfly(pre, plan, g, "group", false, true, ns)
      pre:line("const float2* tw = %stwiddles_%d + k;", plan.prefix, stage_index)
      -- input m takes row m - 1 of the table; input 0 of the lanes with quad 0 takes none
      pre:line("if (quad != 0) v[%d] = %s(v[%d], load_twiddle(tw, (2 * quad - 1) * %d));", 4 * g, mul, 4 * g, ns)
      for i = 2, 4 do
        pre:line("v[%d] = %s(v[%d], load_twiddle(tw, (2 * quad + %d) * %d));", 4 * g + i - 1, mul, 4 * g + i - 1,
          B_ROWS[i] - 1, ns)
      end
    end
    local function value(v, part) return string.format("v[%d].%s", v, part) end
    if split == nil then
      -- each input as fp16 hi + lo (lo = what hi missed), so that the stage rounds like fp32 data
      -- rounded to 22 bits, not to 11
      pre:line("// each input as fp16 hi + lo, lo what hi missed")
      pack_fragments(pre, g, value, function(v, part)
        return string.format("residual_half(%s)", value(v, part))
      end)
    elseif split == "corrected" then
      local_max(pre, g, "scale", value)
      warp_step({ warp = "group_max", field = "scale" })
      local pack = thread_step("x / s = hi + 2^-11 lo, s a power of two above the butterfly's largest |x|")
      pack:line("float inverse;")
      pack:line("tc.scale = power_of_two_above(tc.scale, &inverse);")
      each_input(pack, g, function(w, v, part)
        w:line("const float s%d%s = v[%d].%s * inverse;", v, part, v, part)
      end)
      pack_fragments(pack, g, function(v, part) return string.format("s%d%s", v, part) end,
        function(v, part) return string.format("residual_half(s%d%s) * %s", v, part, code.float(2.0 ^ LO_SHIFT)) end)
    else
      local_max(pre, g, "scale", value)
      warp_step({ warp = "group_max", field = "scale" })
      local residual = thread_step("s1 = max |x|, x = s1 * hi + (the residual r), then s2 = max |r|")
      residual:line("if (!(tc.scale > 0.0f)) tc.scale = 1.0f; // an all-zero butterfly")
      local function hi_of(v, part) return string.format("half_rounded(%s / tc.scale)", value(v, part)) end
      local function r_of(v, part) return string.format("r%d%s", v, part) end
      local function residuals(w)
        each_input(w, g, function(_, v, part)
          w:line("const float %s = %s - tc.scale * %s;", r_of(v, part), value(v, part), hi_of(v, part))
        end)
      end
      residuals(residual)
      local_max(residual, g, "scale_lo", r_of)
      warp_step({ warp = "group_max", field = "scale_lo" })
      local pack = thread_step("hi = fp16(x / s1), lo = fp16(r / s2)")
      pack:line("if (!(tc.scale_lo > 0.0f)) tc.scale_lo = 1.0f; // x = s1 * hi exactly")
      residuals(pack)
      pack_fragments(pack, g, function(v, part) return string.format("%s / tc.scale", value(v, part)) end,
        function(v, part) return string.format("%s / tc.scale_lo", r_of(v, part)) end)
    end
    warp_step({ warp = "products", products = products_of(split) })
    if split ~= nil then
      warp_step({ warp = "gather", field = "scale", to = "out_scale" })
      if split == "papers" then warp_step({ warp = "gather", field = "scale_lo", to = "out_scale_lo" }) end
    end
    local post = thread_step(string.format("outputs group and group + 8 of the warp's butterflies %d + 2*quad and %d + 2*quad",
      8 * g, 8 * g + 1))
    for col = 0, 1 do
      post:open("")
      local at = butterfly(post, plan, g, code.sum("2 * quad", col), true, ns > 1, ns)
      local base = (ns > 1) and "(j - k) * 16 + k" or "j * 16"
      post:line("smem[%s] = %s;", at(base .. " + group * " .. ns, 0), output_of(split, col, col))
      post:line("smem[%s] = %s;", at(base .. " + group * " .. ns, 8 * ns), output_of(split, 2 + col, col))
      post:close()
    end
    groups[#groups + 1] = steps
  end
  return groups
end

-- Per-lane indices and the DFT matrix's A fragments (Re F, Im F and -Im F, and their low parts
-- when split), for a kernel with tensor-core stages. `sign` picks the forward (-1) or inverse (+1)
-- matrix.
function M.prologue(w, plan, sign, target)
  w:line("const int lane = thread & 31, group = lane >> 2, quad = lane & 3;")
  w:line("const int warp_first = thread - lane;")
  -- the simulation keeps each thread's fragments between its steps, as registers would
  w:line((target == "sim") and "tc_fragments tc = fragments[thread];" or "tc_fragments tc;")
  w:open("for (int i = 0; i < 8; i += 2)")
  w:line("const int row = group + 8 * ((i >> 1) & 1), col = 2 * quad + 8 * (i >> 2);")
  w:line("const float2 f0 = dft16[(row * col) & 15], f1 = dft16[(row * (col + 1)) & 15];")
  local im = (sign < 0) and "" or "-"
  local nim = (sign < 0) and "-" or ""
  w:line("tc.a_re[i >> 1] = pack_half2(f0.x, f1.x);")
  w:line("tc.a_im[i >> 1] = pack_half2(%sf0.y, %sf1.y);", im, im)
  w:line("tc.a_nim[i >> 1] = pack_half2(%sf0.y, %sf1.y);", nim, nim)
  if plan.split ~= nil then
    local shift = (plan.split == "corrected") and (" * " .. code.float(2.0 ^ LO_SHIFT)) or ""
    w:line("tc.a_re_lo[i >> 1] = pack_half2(residual_half(f0.x)%s, residual_half(f1.x)%s);", shift, shift)
    w:line("tc.a_im_lo[i >> 1] = pack_half2(%sresidual_half(f0.y)%s, %sresidual_half(f1.y)%s);", im, shift, im, shift)
    w:line("tc.a_nim_lo[i >> 1] = pack_half2(%sresidual_half(f0.y)%s, %sresidual_half(f1.y)%s);", nim, shift, nim,
      shift)
  end
  w:close()
end

-- The fragments type and the DFT matrix's entries, for both targets.
local function fragments_and_matrix(w, split, qualifier)
  w:line("")
  w:line("// One lane's tensor-core fragments: the DFT matrix (A), eight butterflies' inputs (B), outputs (D).")
  if split == nil then
    w:line("typedef struct { unsigned a_re[4], a_im[4], a_nim[4], b_re[2], b_im[2], b_re_lo[2], b_im_lo[2];")
    w:line("                 float d_re[4], d_im[4]; } tc_fragments;")
  else
    w:line("// Split: low parts of A and B, the second accumulators (c), the scales of the butterfly whose")
    w:line("// inputs this lane holds (scale, scale_lo), and of the two whose outputs it receives (out_*).")
    w:line("typedef struct { unsigned a_re[4], a_im[4], a_nim[4], a_re_lo[4], a_im_lo[4], a_nim_lo[4];")
    w:line("                 unsigned b_re[2], b_im[2], b_re_lo[2], b_im_lo[2];")
    w:line("                 float d_re[4], d_im[4], c_re[4], c_im[4];")
    w:line("                 float scale, scale_lo, out_scale[2], out_scale_lo[2]; } tc_fragments;")
  end
  w:line("")
  w:line("// exp(-2*pi*i*q/16): entry (r, c) of the forward DFT matrix is dft16[(r * c) %% 16]")
  w:open("%s dft16[16] =", qualifier)
  for q0 = 0, 15, 4 do
    local row = {}
    for q = q0, q0 + 3 do row[#row + 1] = twiddle.root_literal(q, 16) end
    w:line("%s,", table.concat(row, ", "))
  end
  w:close(";")
end

local function cuda_helpers(w, split)
  w:line("")
  w:line("// x rounded to fp16 and back, and what that rounding missed (exact in fp32).")
  w:open("__device__ __forceinline__ float half_rounded(float x)")
  w:line("unsigned short h;")
  w:line("float r;")
  w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(h) : \"f\"(x));")
  w:line("asm(\"cvt.f32.f16 %%0, %%1;\" : \"=f\"(r) : \"h\"(h));")
  w:line("return r;")
  w:close()
  w:line("__device__ __forceinline__ float residual_half(float x) { return x - half_rounded(x); }")
  w:line("")
  w:line("// Two fp32 values rounded to fp16 and packed, the first in the low half.")
  w:open("__device__ __forceinline__ unsigned pack_half2(float lo, float hi)")
  w:line("unsigned short l, h;")
  w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(l) : \"f\"(lo));")
  w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(h) : \"f\"(hi));")
  w:line("return (unsigned)l | ((unsigned)h << 16);")
  w:close()
  if split == "corrected" then
    w:line("")
    w:line("// 2^e with m < 2^e (the least such e for normal m), and 2^-e: exact scalings, both normal.")
    w:open("__device__ __forceinline__ float power_of_two_above(float m, float* inverse)")
    w:line("const int e = min((__float_as_int(m) >> 23) & 0xff, 252); // biased exponent of m")
    w:line("*inverse = __int_as_float((253 - e) << 23);")
    w:line("return __int_as_float((e + 1) << 23);")
    w:close()
  end
  w:line("")
  w:line("// d = a * b (+ d when accumulating): one warp-wide m16n8k16 product, fp16 in, fp32 sums.")
  w:open("__device__ __forceinline__ void mma_16x8x16(float d[4], const unsigned a[4], const unsigned b[2], bool accumulate)")
  w:line("const float z = 0.0f;")
  w:line("asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%0, %%1, %%2, %%3}, \"")
  w:line("             \"{%%4, %%5, %%6, %%7}, {%%8, %%9}, {%%10, %%11, %%12, %%13};\"")
  w:line("             : \"=f\"(d[0]), \"=f\"(d[1]), \"=f\"(d[2]), \"=f\"(d[3])")
  w:line("             : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b[0]), \"r\"(b[1]),")
  w:line("               \"f\"(accumulate ? d[0] : z), \"f\"(accumulate ? d[1] : z),")
  w:line("               \"f\"(accumulate ? d[2] : z), \"f\"(accumulate ? d[3] : z));")
  w:close()
end

local function sim_helpers(w, split)
  w:line("")
  w:line("static inline float half_rounded(float x) { return (float)(_Float16)x; } /* as cvt.rn.f16.f32 */")
  w:line("static inline float residual_half(float x) { return x - half_rounded(x); }")
  w:open("static inline unsigned pack_half2(float lo, float hi)")
  w:line("_Float16 h[2] = { (_Float16)lo, (_Float16)hi };")
  w:line("unsigned short bits[2];")
  w:line("memcpy(bits, h, sizeof bits);")
  w:line("return (unsigned)bits[0] | ((unsigned)bits[1] << 16);")
  w:close()
  if split == "corrected" then
    w:open("static inline float power_of_two_above(float m, float* inverse)")
    w:line("unsigned bits;")
    w:line("memcpy(&bits, &m, sizeof bits);")
    w:line("int e = (int)((bits >> 23) & 0xff);")
    w:line("if (e > 252) e = 252;")
    w:line("const unsigned inv = (unsigned)(253 - e) << 23, s = (unsigned)(e + 1) << 23;")
    w:line("float result;")
    w:line("memcpy(inverse, &inv, sizeof inv);")
    w:line("memcpy(&result, &s, sizeof s);")
    w:line("return result;")
    w:close()
  end
  if split ~= nil then
    w:line("/* Warp steps of the split: the largest of a field over each butterfly's four lanes, and the")
    w:line(" * scales of the two butterflies whose outputs a lane receives (lanes 4*(2*quad) and 4*(2*quad+1)). */")
    w:open("static void tc_group_max_sim(tc_fragments* lanes, size_t at)")
    w:open("for (int first = 0; first < 32; first += 4)")
    w:line("float m = 0.0f;")
    w:line("for (int q = 0; q < 4; ++q) m = fmaxf(m, *(const float*)((const char*)&lanes[first + q] + at));")
    w:line("for (int q = 0; q < 4; ++q) *(float*)((char*)&lanes[first + q] + at) = m;")
    w:close()
    w:close()
    w:open("static void tc_gather_sim(tc_fragments* lanes, size_t from, size_t to)")
    w:open("for (int lane = 0; lane < 32; ++lane)")
    w:line("float* out = (float*)((char*)&lanes[lane] + to);")
    w:line("for (int col = 0; col < 2; ++col)")
    w:line("    out[col] = *(const float*)((const char*)&lanes[4 * (2 * (lane & 3) + col)] + from);")
    w:close()
    w:close()
  end
  w:open("static inline float half_of(unsigned packed, int high)")
  w:line("const unsigned short bits = (unsigned short)(high ? packed >> 16 : packed & 0xFFFF);")
  w:line("_Float16 h;")
  w:line("memcpy(&h, &bits, sizeof h);")
  w:line("return (float)h;")
  w:close()
  w:line("/* One warp's mma.m16n8k16 (fp16 operands, fp32 sums): gathers A, B (and C) from the 32 lanes'")
  w:line(" * fragments at the given offsets, as the PTX ISA lays them out, and scatters D back. */")
  w:open("static void tc_mma_sim(tc_fragments* lanes, size_t d_at, size_t a_at, size_t b_at, int accumulate)")
  w:line("float a[16][16], b[16][8], d[32][4];")
  w:open("for (int lane = 0; lane < 32; ++lane)")
  w:line("const int group = lane >> 2, quad = lane & 3;")
  w:line("const unsigned* af = (const unsigned*)((const char*)&lanes[lane] + a_at);")
  w:line("const unsigned* bf = (const unsigned*)((const char*)&lanes[lane] + b_at);")
  w:line("for (int i = 0; i < 8; ++i)")
  w:line("    a[group + 8 * ((i >> 1) & 1)][2 * quad + (i & 1) + 8 * (i >> 2)] = half_of(af[i >> 1], i & 1);")
  w:line("for (int i = 0; i < 4; ++i) b[2 * quad + (i & 1) + 8 * (i >> 1)][group] = half_of(bf[i >> 1], i & 1);")
  w:close()
  w:open("for (int lane = 0; lane < 32; ++lane)")
  w:line("const int group = lane >> 2, quad = lane & 3;")
  w:line("const float* c = (const float*)((const char*)&lanes[lane] + d_at);")
  w:open("for (int i = 0; i < 4; ++i)")
  w:line("const int row = group + 8 * (i >> 1), col = 2 * quad + (i & 1);")
  w:line("float sum = accumulate ? c[i] : 0.0f;")
  w:line("for (int kk = 0; kk < 16; ++kk) sum += a[row][kk] * b[kk][col];")
  w:line("d[lane][i] = sum;")
  w:close()
  w:close()
  w:line("for (int lane = 0; lane < 32; ++lane)")
  w:line("    memcpy((char*)&lanes[lane] + d_at, d[lane], sizeof d[lane]);")
  w:close()
end

-- Types and functions of a file with tensor-core stages: the fragments, fp16 packing, the DFT
-- matrix's entries, the split's scales, and the product (PTX on the GPU, an emulation of the
-- layouts in the simulation).
function M.helpers(w, target, qualifier, split)
  fragments_and_matrix(w, split, qualifier)
  if target == "cuda" then return cuda_helpers(w, split) end
  sim_helpers(w, split)
end

-- A warp step on the GPU: warp-wide instructions in the threads' code.
function M.cuda_step(w, step)
  if step.warp == "products" then
    for _, p in ipairs(step.products) do
      w:line("mma_16x8x16(tc.%s, tc.%s, tc.%s, %s);", p.d, p.a, p.b, p.accumulate and "true" or "false")
    end
  elseif step.warp == "group_max" then
    w:line("// the butterfly's largest magnitude, over its four lanes")
    for _, mask in ipairs({ 1, 2 }) do
      w:line("tc.%s = fmaxf(tc.%s, __shfl_xor_sync(0xffffffffu, tc.%s, %d));", step.field, step.field, step.field, mask)
    end
  else
    w:line("// the scales of the butterflies 2*quad and 2*quad + 1, whose outputs this lane holds")
    for col = 0, 1 do
      w:line("tc.%s[%d] = __shfl_sync(0xffffffffu, tc.%s, 4 * (2 * quad + %d));", step.to, col, step.field, col)
    end
  end
end

-- The same in the simulation: every warp of the block, after all its threads have run the step before.
function M.sim_step(w, step)
  w:open("for (int warp = 0; warp < THREADS / 32; ++warp)")
  if step.warp == "products" then
    for _, p in ipairs(step.products) do
      w:line("tc_mma_sim(fragments + 32 * warp, offsetof(tc_fragments, %s), offsetof(tc_fragments, %s),", p.d, p.a)
      w:line("           offsetof(tc_fragments, %s), %d);", p.b, p.accumulate and 1 or 0)
    end
  elseif step.warp == "group_max" then
    w:line("tc_group_max_sim(fragments + 32 * warp, offsetof(tc_fragments, %s));", step.field)
  else
    w:line("tc_gather_sim(fragments + 32 * warp, offsetof(tc_fragments, %s), offsetof(tc_fragments, %s));",
      step.field, step.to)
  end
  w:close()
end

return M

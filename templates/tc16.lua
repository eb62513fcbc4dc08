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
-- The host simulation cannot run a warp-wide instruction inside one thread's code, so a stage's
-- butterfly phase is three parts: each thread packs its B fragments, the warp multiplies (emulated
-- from the layouts above by tc_mma_sim), and each thread stores its D fragments.
local code = require("code")
local twiddle = require("twiddle")

local M = {}

-- Butterflies of eight per warp-wide product, and products per warp (32 butterflies).
local GROUPS = 4
-- Input m of the butterfly a lane loads, as an offset from 2*quad, for fragment element i.
local B_ROWS = { 0, 1, 8, 9 }

-- A radix-16 stage that reads and writes shared memory, one butterfly per thread, untiled.
function M.applies(plan, r, from_global, to_global)
  return plan.tensor_cores and r == 16 and plan.radix_max == 16 and not from_global and not to_global
    and not plan.transposed_smem
end

-- The butterfly that column `col` of product g stands for: the one of thread warp_first + 8*g + col.
-- Declares its index j, where its transform starts in shared memory (slot) and k = j mod ns, as asked.
local function butterfly(w, g, col, want_slot, want_k, ns)
  w:line("const int owner = %s;", code.sum("warp_first", 8 * g, col))
  w:line("const int j = owner %% THREADS_PER_FFT;")
  if want_slot then w:line("const int slot = (owner / THREADS_PER_FFT) * POINTS;") end
  if want_k then w:line("const int k = j & %d;", ns - 1) end
end

-- Loads inputs 2*quad + {0, 1, 8, 9} of butterfly `group` of each product into v[4*g + i].
function M.emit_loads(w, plan)
  local stride = plan.n // 16
  w:line("// tensor cores: this lane's B fragments, inputs 2*quad + {0, 1, 8, 9} of butterfly `group`")
  for g = 0, GROUPS - 1 do
    w:open("")
    butterfly(w, g, "group", true, false)
    w:line("const int src = slot + j + 2 * quad * %d;", stride)
    for i, row in ipairs(B_ROWS) do
      w:line("v[%d] = smem[padded(%s)];", 4 * g + i - 1, code.sum("src", row * stride))
    end
    w:close()
  end
end

-- The stage's butterflies, eight at a time: twiddles and packing (per thread), the products (per
-- warp), the stores (per thread). Returns one {pre, products, post} for each group of eight, so
-- that only one group's fragments are live at a time.
function M.emit_butterflies(plan, stage_index, ns, sign)
  local mul = (sign < 0) and "twiddle_mul" or "twiddle_mul_conj"
  local parts = {}
  for g = 0, GROUPS - 1 do
    local pre, post = code.writer(), code.writer()
    pre:line("// butterflies %d..%d of the warp: twiddles in fp32, then the B fragments in fp16", 8 * g, 8 * g + 7)
    if ns > 1 then
      butterfly(pre, g, "group", false, true, ns)
      pre:line("const float2* tw = %stwiddles_%d + k;", plan.prefix, stage_index)
      -- input m takes row m - 1 of the table; input 0 of the lanes with quad 0 takes none
      pre:line("if (quad != 0) v[%d] = %s(v[%d], load_twiddle(tw, (2 * quad - 1) * %d));", 4 * g, mul, 4 * g, ns)
      for i = 2, 4 do
        pre:line("v[%d] = %s(v[%d], load_twiddle(tw, (2 * quad + %d) * %d));", 4 * g + i - 1, mul, 4 * g + i - 1,
          B_ROWS[i] - 1, ns)
      end
    end
    -- each input as fp16 hi + lo (lo = what hi missed), so that the stage rounds like fp32 data
    -- rounded to 22 bits, not to 11
    for _, part in ipairs({ { "re", "x" }, { "im", "y" } }) do
      for reg = 0, 1 do
        pre:line("split_half2(v[%d].%s, v[%d].%s, &tc.b_%s[%d], &tc.b_%s_lo[%d]);", 4 * g + 2 * reg, part[2],
          4 * g + 2 * reg + 1, part[2], part[1], reg, part[1], reg)
      end
    end
    local products = {}
    for _, d in ipairs({ { "d_re", { { "a_re", "re" }, { "a_nim", "im" } } }, { "d_im", { { "a_re", "im" }, { "a_im", "re" } } } }) do
      for _, term in ipairs(d[2]) do
        for _, half in ipairs({ "", "_lo" }) do
          products[#products + 1] = { d = d[1], a = term[1], b = "b_" .. term[2] .. half, accumulate = #products % 4 ~= 0 }
        end
      end
    end
    post:line("// outputs group and group + 8 of the warp's butterflies %d + 2*quad and %d + 2*quad", 8 * g, 8 * g + 1)
    for col = 0, 1 do
      post:open("")
      butterfly(post, g, code.sum("2 * quad", col), true, ns > 1, ns)
      local base = (ns > 1) and "(j - k) * 16 + k" or "j * 16"
      post:line("const int dst = slot + %s + group * %d;", base, ns)
      post:line("smem[padded(dst)] = make_float2(tc.d_re[%d], tc.d_im[%d]);", col, col)
      post:line("smem[padded(dst + %d)] = make_float2(tc.d_re[%d], tc.d_im[%d]);", 8 * ns, 2 + col, 2 + col)
      post:close()
    end
    parts[#parts + 1] = { pre = pre, products = products, post = post }
  end
  return parts
end

-- Per-lane indices and the DFT matrix's A fragments (Re F, Im F and -Im F), for a kernel with
-- tensor-core stages. `sign` picks the forward (-1) or inverse (+1) matrix.
function M.prologue(w, sign, target)
  w:line("const int lane = thread & 31, group = lane >> 2, quad = lane & 3;")
  w:line("const int warp_first = thread - lane;")
  -- the simulation keeps each thread's fragments between its phases, as registers would
  w:line((target == "sim") and "tc_fragments tc = fragments[thread];" or "tc_fragments tc;")
  w:open("for (int i = 0; i < 8; i += 2)")
  w:line("const int row = group + 8 * ((i >> 1) & 1), col = 2 * quad + 8 * (i >> 2);")
  w:line("const float2 f0 = dft16[(row * col) & 15], f1 = dft16[(row * (col + 1)) & 15];")
  local im = (sign < 0) and "" or "-"
  w:line("tc.a_re[i >> 1] = pack_half2(f0.x, f1.x);")
  w:line("tc.a_im[i >> 1] = pack_half2(%sf0.y, %sf1.y);", im, im)
  w:line("tc.a_nim[i >> 1] = pack_half2(%sf0.y, %sf1.y);", (sign < 0) and "-" or "", (sign < 0) and "-" or "")
  w:close()
end

-- Types and functions of a file with tensor-core stages: the fragments, fp16 packing, the DFT
-- matrix's entries, and the product (PTX on the GPU, an emulation of the layouts in the simulation).
function M.helpers(w, target, qualifier)
  w:line("")
  w:line("// One lane's tensor-core fragments: the DFT matrix (A), eight butterflies' inputs (B), outputs (D).")
  w:line("typedef struct { unsigned a_re[4], a_im[4], a_nim[4], b_re[2], b_im[2], b_re_lo[2], b_im_lo[2];")
  w:line("                 float d_re[4], d_im[4]; } tc_fragments;")
  w:line("")
  w:line("// exp(-2*pi*i*q/16): entry (r, c) of the forward DFT matrix is dft16[(r * c) %% 16]")
  w:open("%s dft16[16] =", qualifier)
  for q0 = 0, 15, 4 do
    local row = {}
    for q = q0, q0 + 3 do row[#row + 1] = twiddle.root_literal(q, 16) end
    w:line("%s,", table.concat(row, ", "))
  end
  w:close(";")
  if target == "cuda" then
    w:line("")
    w:line("// Two fp32 values rounded to fp16 and packed, the first in the low half.")
    w:open("__device__ __forceinline__ unsigned pack_half2(float lo, float hi)")
    w:line("unsigned short l, h;")
    w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(l) : \"f\"(lo));")
    w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(h) : \"f\"(hi));")
    w:line("return (unsigned)l | ((unsigned)h << 16);")
    w:close()
    w:line("")
    w:line("// a and b as fp16 pairs hi (rounded) and lo (the rest, rounded), the first in the low halves.")
    w:open("__device__ __forceinline__ void split_half2(float a, float b, unsigned* hi, unsigned* lo)")
    w:line("unsigned short ha, hb;")
    w:line("float ra, rb;")
    w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(ha) : \"f\"(a));")
    w:line("asm(\"cvt.rn.f16.f32 %%0, %%1;\" : \"=h\"(hb) : \"f\"(b));")
    w:line("asm(\"cvt.f32.f16 %%0, %%1;\" : \"=f\"(ra) : \"h\"(ha));")
    w:line("asm(\"cvt.f32.f16 %%0, %%1;\" : \"=f\"(rb) : \"h\"(hb));")
    w:line("*hi = (unsigned)ha | ((unsigned)hb << 16);")
    w:line("*lo = pack_half2(a - ra, b - rb);")
    w:close()
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
    return
  end
  w:line("")
  w:open("static inline unsigned pack_half2(float lo, float hi)")
  w:line("_Float16 h[2] = { (_Float16)lo, (_Float16)hi }; /* round to nearest even, as cvt.rn.f16.f32 */")
  w:line("unsigned short bits[2];")
  w:line("memcpy(bits, h, sizeof bits);")
  w:line("return (unsigned)bits[0] | ((unsigned)bits[1] << 16);")
  w:close()
  w:open("static inline void split_half2(float a, float b, unsigned* hi, unsigned* lo)")
  w:line("*hi = pack_half2(a, b);")
  w:line("*lo = pack_half2(a - (float)(_Float16)a, b - (float)(_Float16)b);")
  w:close()
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

-- The products of one stage, on the GPU: warp-wide instructions in the threads' code.
function M.cuda_products(w, products)
  for _, p in ipairs(products) do
    w:line("mma_16x8x16(tc.%s, tc.%s, tc.%s, %s);", p.d, p.a, p.b, p.accumulate and "true" or "false")
  end
end

-- The same in the simulation: every warp of the block, after all its threads have packed.
function M.sim_products(w, products)
  w:open("for (int warp = 0; warp < THREADS / 32; ++warp)")
  for _, p in ipairs(products) do
    w:line("tc_mma_sim(fragments + 32 * warp, offsetof(tc_fragments, %s), offsetof(tc_fragments, %s),", p.d, p.a)
    w:line("           offsetof(tc_fragments, %s), %d);", p.b, p.accumulate and 1 or 0)
  end
  w:close()
end

return M

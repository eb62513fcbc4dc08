-- Renders the helpers that store and load fp16's data between passes, for CUDA and the host simulation.

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

return {
  shared_exponent_helpers = shared_exponent_helpers,
}

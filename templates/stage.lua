-- Self-sorting (Stockham) radix stages of one block-local FFT, split into phases.
--
-- Stage s has radix r and works on sub-transforms of length ns = r_0 * ... * r_{s-1}.
-- Butterfly j (0 <= j < n/r) reads x[j + m*n/r] for m = 0..r-1, multiplies input m by
-- exp(-2*pi*i*k*m/(ns*r)) with k = j mod ns, and writes its output m to
-- (j - k)*r + k + m*ns. After the last stage the data are in natural order, and the first
-- stage's reads and the last stage's writes are unit-stride across threads, so they go
-- straight to global memory; the stages in between exchange data through shared memory.
--
-- A phase is the code between two barriers. Each thread holds radix_max points in v[].
local code = require("code")
local radix = require("radix")

local M = {}

local function smem_load(slot_index)
  local p = string.format("padded(%s)", slot_index)
  return string.format("make_float2(smem_re[%s], smem_im[%s])", p, p)
end

local function emit_loads(w, plan, r, first)
  local per_thread = plan.radix_max // r
  local stride = plan.n // r
  if first then
    w:open("if (active)")
    for q = 0, per_thread - 1 do
      for m = 0, r - 1 do
        w:line("v[%d] = load_point(in, input_base + %s);", q * r + m,
          code.sum("fft_thread", q * plan.threads_per_fft + m * stride))
      end
    end
    w:reopen("else")
    for i = 0, plan.radix_max - 1 do w:line("v[%d] = make_float2(0.0f, 0.0f);", i) end
    w:close()
  else
    for q = 0, per_thread - 1 do
      for m = 0, r - 1 do
        w:line("v[%d] = %s;", q * r + m,
          smem_load(code.sum("slot", "fft_thread", q * plan.threads_per_fft + m * stride)))
      end
    end
  end
end

-- Twiddles, butterfly and stores of the butterflies this thread owns in one stage.
local function emit_butterflies(w, plan, r, ns, sign, last)
  local per_thread = plan.radix_max // r
  local shift = code.log2(plan.n // (ns * r)) -- table index = k*m*(n/(ns*r))
  local mul = (sign < 0) and "twiddle_mul" or "twiddle_mul_conj"
  for q = 0, per_thread - 1 do
    w:open("")
    w:line("const int j = %s;", code.sum("fft_thread", q * plan.threads_per_fft))
    local out_base
    if ns == 1 then
      out_base = string.format("j * %d", r)
    else
      w:line("const int k = j & %d;", ns - 1)
      for m = 1, r - 1 do
        local index = (shift == 0) and string.format("k * %d", m)
          or string.format("(k * %d) << %d", m, shift)
        w:line("v[%d] = %s(v[%d], twiddles[%s]);", q * r + m, mul, q * r + m, index)
      end
      out_base = (ns * r == plan.n) and "k" or string.format("(j - k) * %d + k", r)
    end
    w:line("const int out_base = %s;", out_base)
    local xs = {}
    for m = 0, r - 1 do xs[#xs + 1] = string.format("v[%d]", q * r + m) end
    local ys = radix.dft(w, xs, sign)
    if last then
      w:open("if (active)")
      for m = 0, r - 1 do
        w:line("store_point(out, output_base + %s, %s);", code.sum("out_base", m * ns), ys[m + 1])
      end
      w:close()
    else
      for m = 0, r - 1 do
        local p = string.format("padded(%s)", code.sum("slot", "out_base", m * ns))
        w:line("smem_re[%s] = %s.x;", p, ys[m + 1])
        w:line("smem_im[%s] = %s.y;", p, ys[m + 1])
      end
    end
    w:close()
  end
end

-- Returns the list of phases (writers) of the whole FFT in one direction.
function M.phases(plan, sign)
  local phases = {}
  local w = code.writer()
  local ns = 1
  local count = #plan.radices
  for s, r in ipairs(plan.radices) do
    local first, last = (s == 1), (s == count)
    w:line("// stage %d of %d: radix %d on sub-transforms of %d points", s, count, r, ns * r)
    emit_loads(w, plan, r, first)
    if not first then
      -- every thread must read before any thread overwrites the shared buffer
      phases[#phases + 1] = w
      w = code.writer()
    end
    emit_butterflies(w, plan, r, ns, sign, last)
    if not last then
      phases[#phases + 1] = w
      w = code.writer()
    end
    ns = ns * r
  end
  phases[#phases + 1] = w
  return phases
end

return M

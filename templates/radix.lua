-- Straight-line radix-r butterflies (r = 2, 4, 8, 16) on CUDA cores, by radix-2
-- decimation in time, with multiplications by 1 and +-i turned into swaps and negations.
local code = require("code")
local twiddle = require("twiddle")

local M = {}

local function define(w, expr)
  local name = w:temp()
  w:line("const float2 %s = %s;", name, expr)
  return name
end

-- exp(sign*2*pi*i*k/n) * x, as an expression, specialised where the factor is trivial.
local function rotate(w, x, k, n, sign)
  if k == 0 then return x end
  if 4 * k == n then
    -- multiplying by sign*i
    if sign < 0 then
      return define(w, string.format("make_float2(%s.y, -%s.x)", x, x))
    end
    return define(w, string.format("make_float2(-%s.y, %s.x)", x, x))
  end
  local c, s = twiddle.cos_sin(k, n)
  s = sign * s
  local cl, sl = code.float(c), code.float(s)
  return define(w, string.format("make_float2(%s * %s.x - %s * %s.y, %s * %s.y + %s * %s.x)",
    cl, x, sl, x, cl, x, sl, x))
end

-- Emits the DFT of the values named in `xs` (natural order); returns the names of the
-- outputs in natural order. sign = -1 for the forward transform, +1 for the inverse.
function M.dft(w, xs, sign)
  local n = #xs
  if n == 1 then return { xs[1] } end
  local even, odd = {}, {}
  for i = 1, n, 2 do
    even[#even + 1] = xs[i]
    odd[#odd + 1] = xs[i + 1]
  end
  local e = M.dft(w, even, sign)
  local o = M.dft(w, odd, sign)
  local ys = {}
  local half = n // 2
  for k = 0, half - 1 do
    local t = rotate(w, o[k + 1], k, n, sign)
    local a = e[k + 1]
    ys[k + 1] = define(w, string.format("make_float2(%s.x + %s.x, %s.y + %s.y)", a, t, a, t))
    ys[k + 1 + half] = define(w, string.format("make_float2(%s.x - %s.x, %s.y - %s.y)", a, t, a, t))
  end
  return ys
end

return M

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

-- a + ratio * b as an expression, with ratios of +-1 as plain sums
local function plus_times(a, ratio, b)
  if ratio == 1 then return string.format("%s + %s", a, b) end
  if ratio == -1 then return string.format("%s - %s", a, b) end
  return string.format("%s + %s * %s", a, code.float(ratio), b)
end

-- x * exp(sign*2*pi*i*k/n) for a factor other than 1 and +-i, as f * u: f is the larger of |cos|
-- and |sin| (returned as a literal) and u = x * (cos + i sin) / f costs two FMAs, or two additions
-- at odd multiples of pi/4. The butterfly then forms a +- f * u in four FMAs: six operations where
-- the product and then the sum and difference take eight (fp16 kernels are bound by instruction issue
-- on GPUs with the most bandwidth per SM).
local function factored_rotation(w, x, k, n, sign)
  local c, s = twiddle.cos_sin(k, n)
  s = sign * s
  local function exact(ratio) -- the ratio at odd multiples of pi/4 is +-1, up to the sine's rounding
    if math.abs(math.abs(ratio) - 1) < 1e-12 then return ratio > 0 and 1 or -1 end
    return ratio
  end
  local xr, xi = x .. ".x", x .. ".y"
  if math.abs(c) >= math.abs(s) then
    -- (c xr - s xi, c xi + s xr) = c * (xr - (s/c) xi, xi + (s/c) xr)
    local ratio = exact(s / c)
    return define(w, string.format("make_float2(%s, %s)", plus_times(xr, -ratio, xi), plus_times(xi, ratio, xr))),
      code.float(c)
  end
  -- = s * ((c/s) xr - xi, (c/s) xi + xr)
  local ratio = exact(c / s)
  return define(w, string.format("make_float2(%s, %s)", plus_times("-" .. xi, ratio, xr), plus_times(xr, ratio, xi))),
    code.float(s)
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
    local a, x = e[k + 1], o[k + 1]
    local tx, ty -- the rotated odd input's parts, as expressions
    if k == 0 then
      tx, ty = x .. ".x", x .. ".y"
    elseif 4 * k == n then
      -- times +-i: a swap and a negation
      local t = define(w, (sign < 0) and string.format("make_float2(%s.y, -%s.x)", x, x)
        or string.format("make_float2(-%s.y, %s.x)", x, x))
      tx, ty = t .. ".x", t .. ".y"
    else
      local u, f = factored_rotation(w, x, k, n, sign)
      tx, ty = string.format("%s * %s.x", f, u), string.format("%s * %s.y", f, u)
    end
    ys[k + 1] = define(w, string.format("make_float2(%s.x + %s, %s.y + %s)", a, tx, a, ty))
    ys[k + 1 + half] = define(w, string.format("make_float2(%s.x - %s, %s.y - %s)", a, tx, a, ty))
  end
  return ys
end

return M

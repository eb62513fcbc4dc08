-- Twiddle factors, computed in double precision on the host and rounded once to fp32.
local code = require("code")

local M = {}

-- cos and sin of 2*pi*q/n, reduced to the first octant so that values at multiples
-- of pi/4 come out exact (cos(pi/2) is 0, not 6e-17).
function M.cos_sin(q, n)
  q = q % n
  local quadrant = (4 * q) // n
  local r = 4 * q - quadrant * n -- angle within the quadrant is (pi/2) * r / n
  local c, s
  if 2 * r <= n then
    local a = (math.pi / 2) * r / n
    c, s = math.cos(a), math.sin(a)
  else
    local a = (math.pi / 2) * (n - r) / n
    c, s = math.sin(a), math.cos(a)
  end
  if quadrant == 1 then
    c, s = -s, c
  elseif quadrant == 2 then
    c, s = -c, -s
  elseif quadrant == 3 then
    c, s = s, -c
  end
  return c, s
end

-- The forward root of unity exp(-2*pi*i*q/n) as a float2 initializer. The tables of one file repeat
-- the same angles many times, so the literals are kept by reduced fraction q/n (n is a power of two).
local literals = {}

function M.root_literal(q, n)
  q = q % n
  while q > 0 and q % 2 == 0 do
    q, n = q // 2, n // 2
  end
  if q == 0 then n = 1 end
  local key = q * 1099511627776 + n -- q < n <= 2^31 here, so the key is exact
  local literal = literals[key]
  if literal == nil then
    local c, s = M.cos_sin(q, n)
    literal = string.format("{%s, %s}", code.float(c), code.float(-s))
    literals[key] = literal
  end
  return literal
end

-- Writes one stage's twiddles as rows of ns: entry [m-1][k] = exp(-2*pi*i*k*m/(ns*r)), so that the
-- threads of a warp (consecutive k) read consecutive twiddles; rows m = 1..rows (r - 1 by default, 1
-- where the stage derives the others from the first). The inverse uses the conjugate.
function M.stage_table(w, qualifier, name, ns, r, rows)
  rows = rows or r - 1
  local held = rows == 1 and "m = 1 (the others from it)" or string.format("m = 1..%d", rows)
  w:line("// radix-%d stage on %d-point sub-transforms: [m-1][k] = exp(-2*pi*i*k*m/%d), %s, k < %d",
    r, ns * r, ns * r, held, ns)
  w:open("%s %s[%d] =", qualifier, name, ns * rows)
  for m = 1, rows do
    for k0 = 0, ns - 1, 4 do
      local row = {}
      for k = k0, math.min(k0 + 3, ns - 1) do row[#row + 1] = M.root_literal(k * m, ns * r) end
      w:line("%s,", table.concat(row, ", "))
    end
  end
  w:close(";")
end

-- Writes exp(-2*pi*i*q*step/n) for q = 0..count-1, four entries a line.
function M.power_table(w, qualifier, name, n, step, count)
  w:line("// exp(-2*pi*i*q*%d/%d) for q = 0..%d", step, n, count - 1)
  w:open("%s %s[%d] =", qualifier, name, count)
  for q0 = 0, count - 1, 4 do
    local row = {}
    for q = q0, math.min(q0 + 3, count - 1) do row[#row + 1] = M.root_literal(q * step, n) end
    w:line("%s,", table.concat(row, ", "))
  end
  w:close(";")
end

-- The next twiddle from the two before it (Chebyshev's recurrence: stage.lua, emit_twiddle_recurrence),
-- for the CUDA kernels and the host simulation alike (qualifier: how each declares a function).
function M.chebyshev_helpers(w, qualifier)
  w:line("// two_cos * a - b and two_cos * a - conj(b): a twiddle from the two before it (Chebyshev's recurrence)")
  w:open("%s float2 chebyshev_next(float two_cos, float2 a, float2 b)", qualifier)
  w:line("return make_float2(fmaf(two_cos, a.x, -b.x), fmaf(two_cos, a.y, -b.y));")
  w:close()
  w:open("%s float2 chebyshev_next_conj(float two_cos, float2 a, float2 b)", qualifier)
  w:line("return make_float2(fmaf(two_cos, a.x, -b.x), fmaf(two_cos, a.y, b.y));")
  w:close()
  w:line("// two_cos * a - 1: the twiddle of twice a's angle, two_cos a's")
  w:open("%s float2 chebyshev_double(float two_cos, float2 a)", qualifier)
  w:line("return make_float2(fmaf(two_cos, a.x, -1.0f), two_cos * a.y);")
  w:close()
end

return M

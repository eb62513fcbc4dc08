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

-- The forward root of unity exp(-2*pi*i*q/n) as a float2 initializer.
function M.root_literal(q, n)
  local c, s = M.cos_sin(q, n)
  return string.format("{%s, %s}", code.float(c), code.float(-s))
end

-- Writes one stage's twiddle rows: row k holds exp(-2*pi*i*k*m/(ns*r)) for m = 0..r-1, so that a
-- thread reads its row with r/2 16-byte loads. The inverse transform multiplies by the conjugate.
function M.stage_table(w, qualifier, name, ns, r)
  w:line("// twiddle rows of a radix-%d stage on %d-point sub-transforms: [k][m] = exp(-2*pi*i*k*m/%d)",
    r, ns * r, ns * r)
  w:open("%s %s[%d] =", qualifier, name, ns * r)
  for k = 0, ns - 1 do
    for m0 = 0, r - 1, 4 do
      local row = {}
      for m = m0, math.min(m0 + 3, r - 1) do row[#row + 1] = M.root_literal(k * m, ns * r) end
      w:line("%s,", table.concat(row, ", "))
    end
  end
  w:close(";")
end

return M

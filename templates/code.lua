-- A small writer for generated source text: indentation, blocks, and float literals
-- that round-trip exactly to the fp32 value the kernel will use.
local M = {}

local Writer = {}
Writer.__index = Writer

function M.writer()
  return setmetatable({ lines = {}, depth = 0, temps = 0 }, Writer)
end

function Writer:line(fmt, ...)
  if fmt == "" then
    self.lines[#self.lines + 1] = ""
  else
    self.lines[#self.lines + 1] = string.rep("    ", self.depth) .. string.format(fmt, ...)
  end
end

-- Opens a brace block; `header` may be empty for a bare scope.
function Writer:open(header, ...)
  if header == "" then
    self:line("{")
  else
    self:line(header .. " {", ...)
  end
  self.depth = self.depth + 1
end

-- Closes the open block and opens the next one on the same line: "} else {".
function Writer:reopen(header)
  self.depth = self.depth - 1
  self:line("} %s {", header)
  self.depth = self.depth + 1
end

function Writer:close(suffix)
  self.depth = self.depth - 1
  self:line("}" .. (suffix or ""))
end

-- Appends another writer's lines at this writer's indentation.
function Writer:embed(other)
  local pad = string.rep("    ", self.depth)
  for _, l in ipairs(other.lines) do
    self.lines[#self.lines + 1] = (l == "") and "" or (pad .. l)
  end
end

-- A fresh name for a temporary (unique within this writer).
function Writer:temp()
  self.temps = self.temps + 1
  return "t" .. self.temps
end

function Writer:text()
  return table.concat(self.lines, "\n") .. "\n"
end

-- The fp32 literal nearest to x, printed with enough digits to round-trip.
function M.float(x)
  local f = string.unpack("<f", string.pack("<f", x))
  return string.format("%.9ef", f)
end

-- "a + b" for index expressions, dropping terms that are literally zero.
function M.sum(...)
  local terms = {}
  for _, t in ipairs({ ... }) do
    if t ~= 0 and t ~= "0" then terms[#terms + 1] = tostring(t) end
  end
  if #terms == 0 then return "0" end
  return table.concat(terms, " + ")
end

function M.log2(n)
  local k = 0
  while (1 << k) < n do k = k + 1 end
  assert((1 << k) == n, "not a power of two: " .. tostring(n))
  return k
end

return M

-- language.lua: closures, coroutines, metatables, goto, varargs, integer
-- and float arithmetic, error handling, load and string.dump. Everything
-- printed is deterministic (no addresses, no hash-order iteration).

local function check(cond, what)
  if not cond then error("check failed: " .. what, 2) end
end

-- Closures: counters sharing and not sharing upvalues.
local function counter(start, step)
  local n = start
  return function() n = n + step; return n end,
         function() return n end
end
local inc, get = counter(10, 3)
for _ = 1, 5 do inc() end
print("closure", get())
local adders = {}
for i = 1, 10 do adders[i] = function(x) return x + i * i end end
local s = 0
for i = 1, 10 do s = s + adders[i](i) end
print("adders", s)

-- Recursion and tail calls.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + n) end
print("fib", fib(25), "tail", loop(100000, 0))

-- Varargs and multiple results.
local function pack2(...) return select("#", ...), {...} end
local count, packed = pack2(1, nil, 3, nil)
print("varargs", count, packed[1], packed[3], table.unpack({1, 2, 3}, 2))

-- Integers, floats and their boundaries.
print("int", math.maxinteger, math.mininteger, math.maxinteger + 1 == math.mininteger)
print("div", 7 // 2, -7 // 2, 7 % -3, -7 % 3, 7.5 // 2, 2^10, 10 / 4)
print("bits", 0xF0 & 0x3C, 0xF0 | 0x0F, 0xF0 ~ 0xFF, ~0, 1 << 62, -1 >> 60)
print("conv", math.tointeger(3.0), math.type(1), math.type(1.0), math.type("1"), 3 | 0)
print("float", string.format("%.10f %.3e %g %a", math.pi, 1/3, 1e300 * 10, 1.0))

-- Coroutines: generators, passing values both ways, wrap, status.
local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i * i) end
    return "done"
  end)
end
local g, acc = gen(6), {}
for _ = 1, 7 do acc[#acc + 1] = tostring(g()) end
print("generator", table.concat(acc, " "))
local co = coroutine.create(function(a, b)
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e
end)
local r = {}
local _, v = coroutine.resume(co, 1, 2); r[#r + 1] = v
_, v = coroutine.resume(co, 10); r[#r + 1] = v
_, v = coroutine.resume(co, 3, 4); r[#r + 1] = v
print("coroutine", table.concat(r, " "), coroutine.status(co), coroutine.resume(co))

-- Metatables: arithmetic, comparison, index/newindex, call, close, len.
local Vec = {}
Vec.__index = Vec
local function vec(x, y) return setmetatable({x = x, y = y}, Vec) end
Vec.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
Vec.__mul = function(a, k) return vec(a.x * k, a.y * k) end
Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
Vec.__lt = function(a, b) return a:len2() < b:len2() end
Vec.__le = function(a, b) return a:len2() <= b:len2() end
Vec.__tostring = function(a) return "(" .. a.x .. "," .. a.y .. ")" end
Vec.__len = function(a) return a:len2() end
Vec.__call = function(a, k) return a.x * k + a.y end
function Vec:len2() return self.x * self.x + self.y * self.y end
local p = (vec(1, 2) + vec(3, 4)) * 3
print("meta", tostring(p), #p, p(10), p == vec(12, 18), vec(1, 1) < p, p <= p)
local log = {}
local proxy = setmetatable({}, {
  __index = function(_, k) log[#log + 1] = "get " .. k; return k .. "!" end,
  __newindex = function(t, k, v) log[#log + 1] = "set " .. k; rawset(t, k, v * 2) end,
})
proxy.a = 21
print("proxy", proxy.a, proxy.b, table.concat(log, ","))
do
  local closed = {}
  do
    local res <close> = setmetatable({}, {__close = function() closed[#closed + 1] = "closed" end})
    closed[#closed + 1] = "open"
  end
  print("close", table.concat(closed, " "))
end

-- goto: a nested-loop search and a continue.
local found
for i = 1, 20 do
  for j = 1, 20 do
    if i * j == 221 then found = i .. "x" .. j; goto out end
  end
end
::out::
local odd = {}
for i = 1, 10 do
  if i % 2 == 0 then goto continue end
  odd[#odd + 1] = i
  ::continue::
end
print("goto", found, table.concat(odd, ","))

-- Errors: error objects, pcall/xpcall, error levels, traceback-free messages.
local ok, err = pcall(function() error({code = 42}) end)
print("pcall", ok, type(err), err.code)
ok, err = pcall(function() local t = nil; return t.x end)
print("nil index", ok, (err:gsub("^.-:%d+: ", "")))
print("xpcall", xpcall(function() error("boom", 0) end, function(m) return "handled " .. m end))
print("tonumber", tonumber("0x1p4"), tonumber("  12  "), tonumber("z", 36), tonumber("1e2"), tonumber("x"))

-- load and string.dump: compile, dump to bytecode, load it back.
local src = "local a, b = ... ; local t = {} ; for i = a, b do t[#t+1] = i * i end ; return table.concat(t, '+')"
local f = assert(load(src, "=chunk"))
local dumped = string.dump(f, true)
local g2 = assert(load(dumped, "=dumped", "b"))
print("load", f(1, 5), g2(3, 7), #dumped > 0)
local env = {x = 5}
local h = load("x = x * 2; return x", "=env", "t", env)
print("env", h(), env.x)
print("load error", load("return +", "=bad"))

-- strings_tables.lua: string functions and patterns, string.format, utf8,
-- string.pack, tables (insert, remove, move, concat, sort with and without
-- comparators, large arrays and hashes), and a little workload that mixes
-- them. Deterministic output only.

-- Patterns: find, match, gmatch, gsub with strings, tables and functions.
local text = "The quick brown fox jumps over the lazy dog; 42 foxes, 7 dogs, 1999-12-31."
print("find", text:find("fox"), text:find("o", 20, true), text:find("%d+"))
print("match", text:match("(%d+)-(%d+)-(%d+)"))
local words = {}
for w in text:gmatch("%a+") do words[#words + 1] = w:lower() end
print("gmatch", #words, table.concat(words, " ", 1, 6))
print("gsub", (text:gsub("%w+", function(w) return #w > 4 and w:upper() or nil end)))
print("gsub table", ("$name is $age"):gsub("%$(%w+)", {name = "lua", age = "30"}))
print("balanced", ("f(a(b)c)d(e)"):match("%b()"), ("[[x]]"):find("%[%["))
print("frontier", ("THE (quick) fox"):gsub("%f[%a]%a+", "W"))
print("anchors", ("hello"):match("^h(.-)o$"), ("  trim me  "):match("^%s*(.-)%s*$"))
print("rep", ("ab"):rep(3, "-"), ("x"):rep(0), ("abc"):reverse(), ("abc"):byte(1, -1))
print("char", string.char(72, 105), ("%d"):format(3), ("Hello"):sub(2, -2), ("Hello"):sub(-3))

-- string.format with every conversion.
print(string.format("%5d|%-5d|%05d|%x|%X|%o|%c|%q", 42, 42, 42, 255, 255, 8, 65, "a\nb\"c"))
print(string.format("%10.3f|%-10.2e|%g|%g|%s|%10s|%-10s|%%", 3.14159, 12345.678, 0.0001, 1e20, nil, "r", "l"))
print(string.format("%q", 1/3), string.format("%q", math.mininteger), string.format("%i", -7))

-- utf8 and pack.
local u = "añb€c𝄞"
local cps = {}
for _, c in utf8.codes(u) do cps[#cps + 1] = c end
print("utf8", utf8.len(u), table.concat(cps, ","), utf8.char(72, 228, 8364), utf8.offset(u, 3))
local packed = string.pack("<i4 d s1 z", -2, 1.5, "hey", "zero")
print("pack", #packed, string.unpack("<i4 d s1 z", packed))
print("packsize", string.packsize("i4 i8 d"), string.pack(">I2", 258):byte(1, -1))

-- Tables: the library functions.
local t = {}
for i = 1, 20 do table.insert(t, i * 3 % 17) end
table.insert(t, 1, 100)
local removed = table.remove(t, 5)
table.move(t, 1, 5, 16)
print("table", #t, removed, table.concat(t, ","))
print("unpack", table.unpack(t, 1, 4))
print("pack", table.pack(1, nil, 3).n)

-- Sorting: numbers, strings, records with a comparator, stability-free keys.
local nums = {}
local seed = 7
for i = 1, 2000 do seed = (seed * 1103515245 + 12345) % 2147483648; nums[i] = seed % 10007 end
table.sort(nums)
local okSorted = true
for i = 2, #nums do if nums[i - 1] > nums[i] then okSorted = false end end
print("sort", okSorted, nums[1], nums[1000], nums[2000])
table.sort(nums, function(a, b) return a > b end)
print("sort desc", nums[1], nums[2000])
local names = {"delta", "alpha", "Charlie", "bravo", "echo", "Alpha"}
table.sort(names)
print("sort strings", table.concat(names, " "))
local recs = {}
for i = 1, 50 do recs[i] = {id = i, score = (i * 37) % 23, name = "n" .. (i * 7 % 50)} end
table.sort(recs, function(a, b)
  if a.score ~= b.score then return a.score > b.score end
  return a.id < b.id
end)
local top = {}
for i = 1, 8 do top[i] = recs[i].id .. ":" .. recs[i].score end
print("sort records", table.concat(top, " "))

-- Hashes: many keys, removal, then a sorted walk (never hash order).
local h = {}
for i = 1, 5000 do h["k" .. i] = i; h[i * 1.5] = i end
for i = 1, 5000, 3 do h["k" .. i] = nil end
local keys = {}
for k in pairs(h) do if type(k) == "string" then keys[#keys + 1] = k end end
table.sort(keys)
local sum = 0
for _, k in ipairs(keys) do sum = sum + h[k] end
print("hash", #keys, keys[1], keys[#keys], sum, h[7.5], h[3.0])

-- A workload: word frequencies of generated text, top ten by count.
local vocab = {"register", "spill", "split", "live", "range", "value", "copy", "slot", "block", "loop"}
local buf = {}
seed = 12345
for i = 1, 20000 do
  seed = (seed * 1103515245 + 12345) % 2147483648
  buf[i] = vocab[seed % #vocab + 1] .. ((seed >> 8) % 3 == 0 and "s" or "")
end
local doc = table.concat(buf, " ")
local freq = {}
for w in doc:gmatch("%a+") do freq[w] = (freq[w] or 0) + 1 end
local list = {}
for w, c in pairs(freq) do list[#list + 1] = {w = w, c = c} end
table.sort(list, function(a, b) if a.c ~= b.c then return a.c > b.c end return a.w < b.w end)
local out = {}
for i = 1, 10 do out[i] = list[i].w .. "=" .. list[i].c end
print("freq", #doc, table.concat(out, " "))
print("upper", doc:sub(1, 40):upper(), select(2, doc:gsub("spill", "")))

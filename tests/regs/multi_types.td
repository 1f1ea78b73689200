// Classes holding several value types, vector types and untyped, sharing registers across sizes.
let Namespace = "T" in {
  foreach i = 0-5 in def V#i : Register<"v"#i>;
}
def VR128 : RegisterClass<"T", [v4i32, v2i64, v8i16, v16i8, v4f32, v2f64, f128], 128, (sequence "V%u", 0, 5)>;
def VR64 : RegisterClass<"T", [v2i32, v1i64, f64, v4f16, v4bf16], 64, (sequence "V%u", 0, 3)>;
def VRU : RegisterClass<"T", [untyped], 128, (add V5, V4)> { let Size = 128; }
def VRX : RegisterClass<"T", [x86mmx, i64], 64, (add V1)>;
def VRK : RegisterClass<"T", [v16i1, v32i1, v64i1], 16, (sequence "V%u", 2, 5)>;
def VRS : RegisterClass<"T", [nxv4i32, nxv2i64, nxv16i8], 128, (sequence "V%u", 0, 1)> { let Size = 128; }

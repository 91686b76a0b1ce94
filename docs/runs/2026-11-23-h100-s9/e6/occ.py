# Max co-resident clusters (cuOccupancyMaxActiveClusters) of the wgmma GEMM kernels per cluster size.
import ctypes as C, sys
cu = C.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0: raise SystemExit(f"{what}: CUresult {r}")
ck(cu.cuInit(0), "cuInit")
dev = C.c_int(); ck(cu.cuDeviceGet(C.byref(dev), 0), "dev")
ctx = C.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "ctx"); ck(cu.cuCtxSetCurrent(ctx), "cur")
mod = C.c_void_p(); data = open(sys.argv[1], "rb").read(); ck(cu.cuModuleLoadData(C.byref(mod), data), "load")
class Attr(C.Structure): _fields_ = [("id", C.c_uint), ("pad", C.c_uint), ("v", C.c_uint * 16)]
class Cfg(C.Structure): _fields_ = [("grid", C.c_uint * 3), ("block", C.c_uint * 3), ("smem", C.c_uint), ("stream", C.c_void_p), ("attrs", C.POINTER(Attr)), ("nattrs", C.c_uint)]
assert C.sizeof(Attr) == 72 and C.sizeof(Cfg) == 56
sms = C.c_int(); ck(cu.cuDeviceGetAttribute(C.byref(sms), 16, dev), "sms")
print("sms", sms.value)
for name, threads, smem in [("gemm_wgmma_bf16_kk_64x64", 256, 99424), ("gemm_wgmma_bf16_kk_64x128", 256, 99392), ("gemm_wgmma_bf16_kk", 384, 197696), ("gemm_wgmma_bf16_kn_64x64", 256, 99424)]:
    f = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(f), mod, name.encode()), name)
    ck(cu.cuFuncSetAttribute(f, 8, smem), "smem")
    ck(cu.cuFuncSetAttribute(f, 14, 1), "nonportable")
    row = []
    for policy in (0, 1, 2):
        out = []
        for cs in (1, 2, 3, 4, 6, 8, 12, 16):
            attrs = (Attr * 2)()
            attrs[0].id = 4; attrs[0].v[0] = 1; attrs[0].v[1] = 1; attrs[0].v[2] = cs
            attrs[1].id = 5; attrs[1].v[0] = policy
            cfg = Cfg((C.c_uint * 3)(1, 1, cs), (C.c_uint * 3)(threads, 1, 1), smem, None, attrs, 2)
            n = C.c_int(-1); r = cu.cuOccupancyMaxActiveClusters(C.byref(n), f, C.byref(cfg))
            out.append(f"{cs}:{n.value if r == 0 else 'err%d' % r}")
        row.append(f"policy {policy}: " + " ".join(out))
    print(name, threads, smem); [print("   ", x) for x in row]

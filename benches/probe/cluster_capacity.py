#!/usr/bin/env python3
"""How many thread-block clusters of each size the GPU keeps resident at once
(cuOccupancyMaxActiveClusters), for a 256-thread block at one and at two blocks per
multiprocessor: the placement limit the GEMM cost model's clustered split-K plans meet.

    python3 benches/probe/cluster_capacity.py
"""
import ctypes as C

cu = C.CDLL("libcuda.so.1")


def ok(r, what):
    if r != 0:
        raise SystemExit(f"{what} failed: CUresult {r}")


class Attr(C.Structure):
    _fields_ = [("id", C.c_uint32), ("pad", C.c_uint32), ("value", C.c_uint32 * 16)]


class Config(C.Structure):
    _fields_ = [("grid", C.c_uint32 * 3), ("block", C.c_uint32 * 3), ("smem", C.c_uint32), ("stream", C.c_void_p), ("attrs", C.POINTER(Attr)), ("nattrs", C.c_uint32)]


PTX = b""".version 8.0
.target sm_90a
.address_size 64
.visible .entry probe() { ret; }
"""

ok(cu.cuInit(0), "cuInit")
dev = C.c_int()
ok(cu.cuDeviceGet(C.byref(dev), 0), "cuDeviceGet")
ctx = C.c_void_p()
ok(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "retain")
ok(cu.cuCtxSetCurrent(ctx), "set ctx")
sms = C.c_int()
ok(cu.cuDeviceGetAttribute(C.byref(sms), 16, dev), "SM count")
mod, fn = C.c_void_p(), C.c_void_p()
ok(cu.cuModuleLoadData(C.byref(mod), PTX), "module")
ok(cu.cuModuleGetFunction(C.byref(fn), mod, b"probe"), "function")
ok(cu.cuFuncSetAttribute(fn, 8, 200 * 1024), "max dynamic smem")  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
ok(cu.cuFuncSetAttribute(fn, 9, 1), "non-portable clusters")  # ..._NON_PORTABLE_CLUSTER_SIZE_ALLOWED
print(f"multiprocessors {sms.value}")
for label, smem in (("one block per SM (200 KiB)", 200 * 1024), ("two blocks per SM (97 KiB)", 97 * 1024)):
    row = []
    for c in (1, 2, 3, 4, 5, 6, 7, 8, 16):
        a = Attr(4, 0, (C.c_uint32 * 16)(c, 1, 1))  # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        cfg = Config((C.c_uint32 * 3)(c, 1, 1), (C.c_uint32 * 3)(256, 1, 1), smem, None, C.pointer(a), 1)
        n = C.c_int()
        r = cu.cuOccupancyMaxActiveClusters(C.byref(n), fn, C.byref(cfg))
        row.append(f"{c}:{n.value if r == 0 else 'err' + str(r)}({n.value * c if r == 0 else '-'})")
    print(f"{label}: clusters(blocks) by size: " + " ".join(row))

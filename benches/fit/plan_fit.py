#!/usr/bin/env python3
"""Scores the GEMM cost model of host/src/ops/matmul/plan.rs against `gemm_plans` measurements.

    python3 benches/fit/plan_fit.py plans.csv [--search]

For every (precision, layout, shape) the model picks a (kernel, splits) among the candidates
that were timed; the loss of that shape is the measured time of the pick over the fastest
measured plan. Prints the geometric-mean loss per precision and the worst shapes; with
--search, a coordinate search over the model's constants (eff, fixed, split cost) that
minimizes the geometric-mean loss, so the constants in plan.rs can be set from data rather
than by hand. The model here mirrors plan.rs; keep them in step.
"""
import csv, math, sys
from collections import defaultdict

SMS = 132
MAX_SPLITS = 64
MIN_SLICES = 4
MIN_CLUSTER_SLICES = 2
MAX_CLUSTER_SPLITS = 8
SAT_WARPS = 8.0
# Clusters of each size (index) an H100 keeps resident at one block per multiprocessor
# (cuOccupancyMaxActiveClusters; plan.rs: Multiprocessors::H100).
CLUSTER_CAPACITY = [0, 132, 66, 39, 30, 22, 17, 15, 15]
COUNTERS = 16384
WORKSPACE = 8 << 20

# kernel -> (bm, bn, bk, resident, warps)
SHAPES = {
    "WarpTiledWide": (128, 256, 8, 1, 16), "WarpTiledFast": (128, 128, 16, 1, 16), "Pipelined": (128, 128, 8, 2, 8),
    "Tile128x64": (128, 64, 16, 2, 8), "Tile64x128": (64, 128, 16, 2, 8), "Tile64": (64, 64, 16, 4, 4),
    "Tile64Fine": (64, 64, 16, 2, 6), "Tile32x64": (32, 64, 16, 4, 3), "Tile64x32": (64, 32, 16, 4, 3),
    "Tf32Wgmma": (128, 256, 32, 1, 8), "Tf32": (128, 128, 32, 1, 8), "Tf32Tile64": (64, 64, 32, 2, 4),
    "Wgmma": (128, 256, 64, 1, 8), "MmaLdmatrix": (128, 128, 64, 1, 8), "MmaTile64": (64, 64, 64, 3, 4),
    "Tf32Wgmma64x128": (64, 128, 32, 2, 8), "Wgmma64x128": (64, 128, 64, 2, 8),
    "Tf32Wgmma64x64": (64, 64, 32, 2, 8), "Wgmma64x64": (64, 64, 64, 2, 8), "Wgmma64x32": (64, 32, 64, 2, 8),
    "Wgmma128x208": (128, 208, 64, 1, 8), "Tf32Wgmma128x208": (128, 208, 32, 1, 8), "Wgmma128x192": (128, 192, 64, 1, 8),
    "Tf32x3Wgmma128x128": (128, 128, 32, 1, 8), "Tf32x3Split": (128, 128, 32, 1, 8),
    "Tf32WgmmaRegA": (64, 128, 32, 2, 8), "Tf32WgmmaRegAWide": (128, 192, 32, 1, 8),
}
# The TF32 register-A kernels: their own staging (one operand of tn) and orientation (plan.rs:
# choose_tf32, mod.rs: tf32_rega).
REGA = ("Tf32WgmmaRegA", "Tf32WgmmaRegAWide")
# Up to this many FLOPs the 64×128 register-A tile is taken whatever the costs, if m and n are
# at least 64 and, where it stages, k is at least 64 (plan.rs: TF32_REGA_ALWAYS_FLOPS).
TF32_REGA_ALWAYS_FLOPS = 2**30
# The wgmma kernels: staged operands add a pass, and a split moves only the partial tile's part inside C.
WGMMA = ("Tf32Wgmma", "Tf32Wgmma128x208", "Tf32Wgmma64x128", "Tf32Wgmma64x64", "Wgmma", "Wgmma128x208", "Wgmma128x192", "Wgmma64x128", "Wgmma64x64", "Wgmma64x32",
         "Tf32x3Wgmma128x128", "Tf32x3Split", "Tf32WgmmaRegA", "Tf32WgmmaRegAWide")
# FP32 on TF32 (FP32 `Auto`, plan.rs: choose_f32): the staged form over three segments of the
# padded k plus its staging pass, the split form over k; both in TF32 units, times this.
TF32_UNIT_IN_F32 = 0.12
STAGE_LAUNCH = 1.0e6
STAGE_PER_ELEMENT = 500.0
# The constants being fitted, per kernel: (eff, fixed, split cost[, cluster split cost, cluster
# fixed]); the wgmma kernels' fourth is the cost of a split reduced in a thread-block cluster,
# the fifth a clustered block's fixed cost on top of `fixed`.
PARAMS = {
    "WarpTiledWide": [1.0, 32.0, 64.0], "WarpTiledFast": [0.98, 0.0, 96.0], "Pipelined": [0.92, 48.0, 64.0], "Tile128x64": [0.85, 16.0, 16.0],
    "Tile64x128": [0.59, 0.0, 32.0], "Tile64": [0.81, 144.0, 8.6], "Tile64Fine": [0.59, 0.0, 3.0], "Tile32x64": [0.90, 0.0, 9.0], "Tile64x32": [0.90, 0.0, 9.0],
    "Tf32Wgmma": [1.0, 128.0, 768.0, 240.0, 256.0], "Tf32": [0.36, 48.0, 80.0], "Tf32Tile64": [0.15, 32.0, 64.0],
    "Wgmma": [1.0, 352.0, 768.0, 64.0, 400.0], "MmaLdmatrix": [0.15, 96.0, 64.0], "MmaTile64": [0.17, 288.0, 64.0],
    "Tf32Wgmma64x128": [0.73, 304.0, 1024.0, 176.0, 0.0], "Wgmma64x128": [0.61, 352.0, 1024.0, 208.0, 64.0],
    "Tf32Wgmma64x64": [0.50, 320.0, 16.0, 48.0, 32.0], "Wgmma64x64": [0.38, 240.0, 256.0, 64.0, 384.0],
    "Wgmma64x32": [0.38, 240.0, 256.0, 64.0, 384.0],
    "Wgmma128x208": [0.97, 448.0, 768.0, 16.0, 0.0], "Wgmma128x192": [0.95, 352.0, 768.0, 64.0, 192.0], "Tf32Wgmma128x208": [0.95, 128.0, 768.0, 240.0, 0.0],
    "Tf32x3Wgmma128x128": [0.70, 128.0, 768.0, 64.0, 256.0], "Tf32x3Split": [0.26, 0.0, 256.0, 0.0, 64.0],
    "Tf32WgmmaRegA": [0.67, 512.0, 1024.0, 48.0, 0.0], "Tf32WgmmaRegAWide": [0.92, 128.0, 768.0, 240.0, 256.0],
}
# The latency a split plan of an FP32 CUDA-core tile adds once, in k-steps of a lone block
# (plan.rs: CUDA_CORE_SPLIT_LATENCY).
CUDA_CORE = ("WarpTiledWide", "WarpTiledFast", "Pipelined", "Tile128x64", "Tile64x128", "Tile64", "Tile64Fine", "Tile32x64", "Tile64x32")
CUDA_CORE_SPLIT_LATENCY = 64.0
# The split form's rate per MN-major operand it transposes while splitting (plan.rs:
# X3_SPLIT_MN_EFF).
X3_SPLIT_MN_EFF = [0.93]


TF32_TRANSPOSE_EFF = 0.5
# Most columns of its tile space for which BF16 `Auto` considers the 64×32 tile (plan.rs:
# SLIM_MAX_COLUMNS); gemm_plans times it only in the layouts it takes.
SLIM_MAX_COLUMNS = 32
SLIM_SHORT_ROWS_EFF = [0.7]
BF16_208_MN_B_EFF = 0.8


def tf32_staging(layout, m, n, k):
    """(all, rest): TF32 elements staged if every operand that is not K-major is staged, and if
    the MN-major ones the copy engine reads (m or n a multiple of 4) are transposed in shared
    memory instead (mod.rs: tf32_staging)."""
    ta, tb = layout[0] == "t", layout[1] == "t"
    kp = -(-k // 4) * 4
    ops = [(not ta and k % 4 == 0, ta and m % 4 == 0, m), (tb and k % 4 == 0, not tb and n % 4 == 0, n)]
    return sum(o * kp for d, _, o in ops if not d), sum(o * kp for d, t, o in ops if not d and not t)


def staged_elems(prec, layout, m, n, k):
    """Elements a wgmma plan stages first (plan.rs: Tf32Staging with everything staged, BF16 padding)."""
    ta, tb = layout[0] == "t", layout[1] == "t"
    if prec == "tf32":
        return tf32_staging(layout, m, n, k)[0]
    if prec == "bf16":  # stored rows (cols of the stored matrix) a multiple of 8, else padded
        a_rows, a_cols = (k, m) if ta else (m, k)
        b_rows, b_cols = (n, k) if tb else (k, n)
        return sum(r * (-(-c // 8) * 8) for r, c in ((a_rows, a_cols), (b_rows, b_cols)) if c % 8)
    return 0


# Up to this many FLOPs the 32-wide FP32 tiles are candidates anyway (plan.rs:
# NARROW_TILES_ALWAYS_FLOPS); past this many, only on a narrow side of at most 32
# (NARROW_TILES_WIDE_MAX_FLOPS).
NARROW_TILES_ALWAYS_FLOPS = 2**26
NARROW_TILES_WIDE_MAX_FLOPS = 2**30


def narrow_tile_saves(kernel, m, n, k):
    """The 32-row and 32-column FP32 tiles only on products of at most NARROW_TILES_ALWAYS_FLOPS
    or where they save 15 % of a 64-wide tile's rows or columns (plan.rs: tile_candidates,
    narrow_tile_saves)."""
    if 2 * m * n * k <= NARROW_TILES_ALWAYS_FLOPS:
        return True
    small = lambda x: x <= 32 or 2 * m * n * k <= NARROW_TILES_WIDE_MAX_FLOPS
    saves = lambda x: 100 * (-(-x // 32) * 32) <= 85 * (-(-x // 64) * 64) and small(x)
    return saves(m) if kernel == "Tile32x64" else saves(n) if kernel == "Tile64x32" else True


def cost(kernel, m, n, k, s, params, admit_all=False):
    if not admit_all and not narrow_tile_saves(kernel, m, n, k):
        return None
    bm, bn, bk, resident, warps = SHAPES[kernel]
    eff, fixed, split_cost = params[kernel][:3]
    wg = kernel in WGMMA
    # Up to 8 splits in one cluster, multiples of 8 in clusters of 8 (plan.rs: TileModel::clusters).
    cluster = wg and (2 <= s <= MAX_CLUSTER_SPLITS or s % MAX_CLUSTER_SPLITS == 0)
    # A wgmma tile splits only in whole clusters (plan.rs: TileModel::best_splits), the FP32
    # split form in two clusters at most (TileModel::max_splits).
    if wg and s > 1 and not cluster:
        return None
    if kernel == "Tf32x3Split" and s > 2 * MAX_CLUSTER_SPLITS:
        return None
    slices = max(1, -(-k // bk))
    per = -(-slices // s)
    if s > 1 and (per < (MIN_CLUSTER_SLICES if cluster else MIN_SLICES) or -(-slices // per) != s):
        return None
    tiles = -(-m // bm) * -(-n // bn)
    slots, counters = (s // MAX_CLUSTER_SPLITS, MAX_CLUSTER_SPLITS) if cluster else (s, 1)
    if s > 1 and slots > 1 and (tiles * counters > COUNTERS or tiles * slots * bm * bn > WORKSPACE):
        return None
    area = bm * bn
    rate = lambda r: eff * min(1.0, r * warps / SAT_WARPS)
    if cluster:  # rounds of the clusters the device keeps resident, one block per multiprocessor
        size = min(s, MAX_CLUSTER_SPLITS)
        rounds = -(-(tiles * s // size) // CLUSTER_CAPACITY[size])
        main = rounds * (per * bk + fixed + params[kernel][4]) * area / rate(1)
    else:
        load = -(-tiles * s // SMS)
        together = min(load, resident)
        rounds, rest = divmod(load, resident)
        work = (per * bk + fixed / together) * area
        main = rounds * resident * work / rate(resident) + (rest * work / rate(rest) if rest else 0.0)
    partial = min(bm, m) * min(bn, -(-n // 4) * 4) if wg else area
    if cluster:
        inside, groups = min(s, MAX_CLUSTER_SPLITS), -(-s // MAX_CLUSTER_SPLITS)
        reduce = params[kernel][3] * ((inside - 1) + (groups - 1) / MAX_CLUSTER_SPLITS)
    else:
        reduce = (s - 1) * split_cost
    latency = CUDA_CORE_SPLIT_LATENCY * area / rate(1) if s > 1 and kernel in CUDA_CORE else 0.0
    return main + reduce * partial / eff + latency


def load(paths):
    cases = defaultdict(dict)
    rows = (r for path in paths for r in csv.DictReader(l for l in open(path) if not l.startswith("#")))
    for r in rows:
        if not r["ms"] or r["plan"] in ("Auto", "Tf32Auto"):
            continue
        key = (r["precision"], r["layout"], int(r["m"]), int(r["n"]), int(r["k"]))
        cases[key][(r["plan"], int(r["splits"]))] = float(r["ms"])
    return cases


def losses(cases, params):
    out = {}
    for key, plans in cases.items():
        prec, _, m, n, k = key
        stage = staged_elems(prec, key[1], m, n, k)
        # BF16's padding pass moves half the bytes per element of TF32's staging (plan.rs:
        # padding_cost_bf16).
        per = STAGE_PER_ELEMENT / 2 if prec == "bf16" else STAGE_PER_ELEMENT
        staging = lambda e: STAGE_LAUNCH + per * e / SMS if e else 0.0
        rest = tf32_staging(key[1], m, n, k)[1] if prec == "tf32" else stage
        # A TF32 plan transposes in shared memory when that is cheaper (plan.rs: Tf32Staging).
        extra = lambda c: min(c + staging(stage), c / TF32_TRANSPOSE_EFF + staging(rest)) if stage > rest else c + staging(stage)
        # Only the tile kernels are modelled (gemm_plans also times SmemTiled and RowDot).
        # The swapped 128×256 tile is the 128×256 model over n×m; the 128×208 tile with an
        # MN-major op(B) (layouts ?n) runs at BF16_208_MN_B_EFF of its rate (plan.rs: choose_bf16;
        # its tie rule between the two orientations is not mirrored).
        b_mn = key[1][1] == "n"
        mn_ops = (key[1][0] == "t") + (key[1][1] == "n")
        kp = -(-max(k, 1) // 32) * 32
        # The register-A form: (swap, staged elements) or None (nt; mod.rs: tf32_rega).
        k4 = -(-k // 4) * 4
        rega = {"tt": (False, 0), "nn": (True, 0), "tn": (False, n * k4) if n <= m else (True, m * k4)}.get(key[1])
        def model(p, s):
            if p in REGA:
                if rega is None:
                    return None
                c = cost(p, n, m, k, s, params) if rega[0] else cost(p, m, n, k, s, params)
                return None if c is None else c + staging(rega[1])
            if p == "WgmmaSwapped":
                return cost("Wgmma", n, m, k, s, params)
            if p in ("Wgmma64x32", "Wgmma64x32Swapped"):
                # Over n×m when swapped; an MN-major 32-wide operand of fewer than 32 columns
                # lands in short rows (plan.rs: SLIM_SHORT_ROWS_EFF).
                (sm, sn, mn) = (n, m, key[1][0] == "t") if p == "Wgmma64x32Swapped" else (m, n, key[1][1] == "n")
                c = cost("Wgmma64x32", sm, sn, k, s, params) if sn <= SLIM_MAX_COLUMNS else None
                return c / SLIM_SHORT_ROWS_EFF[0] if c is not None and mn and sn < SLIM_MAX_COLUMNS else c
            if p == "Tf32x3Wgmma128x128":
                c = cost(p, m, n, 3 * kp, s, params)
                return None if c is None else TF32_UNIT_IN_F32 * (c + staging(2 * (m + n) * kp))
            if p == "Tf32x3Split":
                c = cost(p, m, n, k, s, params)
                return None if c is None else TF32_UNIT_IN_F32 * c / X3_SPLIT_MN_EFF[0] ** mn_ops
            c = cost(p, m, n, k, s, params)
            return c / BF16_208_MN_B_EFF if c is not None and b_mn and p == "Wgmma128x208" else c
        scored = [(model(p, s), p, s) for (p, s) in plans if p in SHAPES or p in ("WgmmaSwapped", "Wgmma64x32Swapped")]
        # The 128×208 tiles only where they save columns (plan.rs: wide_208_saves_columns); the
        # TF32 one always stages (no transposing form).
        cols = lambda bn: -(-n // bn) * bn
        scored = [x for x in scored if not (x[1].endswith("128x208") and 100 * cols(208) > 85 * cols(256))]
        staged = lambda c, p: c + staging(stage) if p == "Tf32Wgmma128x208" else extra(c)
        scored = [(staged(c, p) if (p in WGMMA and p not in REGA) or p in ("WgmmaSwapped", "Wgmma64x32Swapped") else c, p, s) for c, p, s in scored if c is not None]
        if not scored:
            continue
        best_split = {}
        for c, p, s in scored:  # the model's split choice per kernel, then across kernels
            if p not in best_split or c < best_split[p][0]:
                best_split[p] = (c, s)
        # Equal costs go to the plan that computes fewer outputs (plan.rs: cheapest).
        def computed(p):
            bm, bn = SHAPES.get(p, SHAPES["Wgmma"])[:2]
            return -(-m // bm) * -(-n // bn) * bm * bn
        c0 = min(c for c, _ in best_split.values())
        _, _, pick, s = min((c if abs(c - c0) > 1e-9 * c0 else c0, computed(p), p, s) for p, (c, s) in best_split.items())
        # FP32: one 64×64 tile whose most splits keep at most half the multiprocessors busy runs
        # the 32-wide tiles (plan.rs: few_blocks_plan).
        if prec == "f32" and 2 * (-(-m // 64) * -(-n // 64)) * MAX_SPLITS <= SMS and -(-k // 16) >= MAX_SPLITS * MIN_SLICES:
            narrow = [(cost(p, m, n, k, s, params, True), p, s) for (p, s) in plans if p in ("Tile32x64", "Tile64x32")]
            narrow = [x for x in narrow if x[0] is not None]
            if narrow:
                _, pick, s = min(narrow)
        streamed = stream_plan(prec, key[1], m, n, k, params)
        if streamed is not None and streamed in plans:
            pick, s = streamed
        small = 2 * m * n * k <= TF32_REGA_ALWAYS_FLOPS and min(m, n) >= 64 and (rega is None or rega[1] == 0 or k >= 64)
        if rega is not None and small and "Tf32WgmmaRegA" in best_split:
            pick, s = "Tf32WgmmaRegA", best_split["Tf32WgmmaRegA"][1]
        gated = lambda p: (p == "Wgmma64x32" and n > SLIM_MAX_COLUMNS) or (p == "Wgmma64x32Swapped" and m > SLIM_MAX_COLUMNS)
        best = min(t for (p, _), t in plans.items() if (p in SHAPES or p in ("WgmmaSwapped", "Wgmma64x32Swapped")) and not gated(p))
        out[key] = (plans[(pick, s)] / best, pick, s)
    return out


# The streaming rule (plan.rs: stream_plan_tf32, stream_plan_bf16): few rows (or, with a TF32
# register-A form, few rows or columns) and a long operand of at least 4 Mi elements run one
# tile in the most splits one round holds, if that round keeps 67 % of the multiprocessors busy.
STREAM_MAX_ROWS, STREAM_MIN_ELEMS, STREAM_MIN_FILL_PCT, SLIM_ROWS = 64, 1 << 22, 67, 32


def one_round_splits(kernel, m, n, k, params):
    bm, bn = SHAPES[kernel][:2]
    tiles = -(-m // bm) * -(-n // bn)
    fits = lambda s: tiles <= SMS if s == 1 else tiles <= CLUSTER_CAPACITY[s]
    for s in range(MAX_CLUSTER_SPLITS, 0, -1):
        if fits(s) and cost(kernel, m, n, k, s, params) is not None:
            return s if 100 * tiles * s >= STREAM_MIN_FILL_PCT * SMS else None
    return None


def stream_plan(prec, layout, m, n, k, params):
    """The streaming rule's (kernel, splits) for a case, or None."""
    if min(m, n) > STREAM_MAX_ROWS or max(m, n) * k < STREAM_MIN_ELEMS:
        return None
    k4 = -(-k // 4) * 4
    if prec == "tf32":
        rega = {"tt": False, "nn": True, "tn": n > m}.get(layout)
        if rega is not None:
            s = one_round_splits("Tf32WgmmaRegAWide", *((n, m) if rega else (m, n)), k, params)
            return None if s is None else ("Tf32WgmmaRegAWide", s)
        if tf32_staging(layout, m, n, k)[0] == 0 and m <= STREAM_MAX_ROWS:
            s = one_round_splits("Tf32Wgmma64x128", m, n, k, params)
            return None if s is None else ("Tf32Wgmma64x128", s)
    if prec == "bf16" and SLIM_ROWS < m <= STREAM_MAX_ROWS and staged_elems(prec, layout, m, n, k) == 0:
        s = one_round_splits("Wgmma64x128", m, n, k, params)
        return None if s is None else ("Wgmma64x128", s)
    return None


def score(cases, params, prec):
    ls = [v[0] for k, v in losses(cases, params).items() if k[0] == prec]
    return math.exp(sum(math.log(x) for x in ls) / len(ls)) if ls else 1.0


def main():
    cases = load([a for a in sys.argv[1:] if not a.startswith("--")])
    params = {k: list(v) for k, v in PARAMS.items()}
    precs = sorted({k[0] for k in cases})
    splits_grid = [float(x) for x in range(0, 1025, 16)]
    grids = ([x / 100 for x in range(5, 101, 1)], [float(x) for x in range(0, 1025, 16)], splits_grid, splits_grid, [float(x) for x in range(0, 2049, 32)])
    only = [a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--only=")]
    if "--search" in sys.argv:
        for prec in precs:
            kernels = sorted({p for key, plans in cases.items() if key[0] == prec for (p, _) in plans if p in SHAPES})
            kernels = [k for k in kernels if not only or k in only[0]]
            for _ in range(3):
                for kern in kernels:
                    for i, grid in enumerate(grids[: len(params[kern])]):
                        if kern in ("WarpTiledWide", "Tf32Wgmma", "Wgmma") and i == 0:
                            continue  # the reference kernel of its precision
                        if kern == "Tf32x3Split" and i == 0:
                            continue  # from the large products' rate against the staged form (plan.rs)
                        def trial(v):
                            q = dict(params)
                            q[kern] = list(params[kern])
                            q[kern][i] = v
                            return (score(cases, q, prec), abs(v - params[kern][i]))
                        params[kern][i] = min(grid, key=trial)
        print(f"X3_SPLIT_MN_EFF {X3_SPLIT_MN_EFF[0]:.2f}")
        for kern in sorted(params):
            cluster = f" cluster split {params[kern][3]:.0f} cluster fixed {params[kern][4]:.0f}" if len(params[kern]) > 3 else ""
            print(f"{kern:>14}: eff {params[kern][0]:.2f} fixed {params[kern][1]:.0f} split {params[kern][2]:.0f}{cluster}")
    ls = losses(cases, params)
    for prec in precs:
        mine = sorted(((v, k) for k, v in ls.items() if k[0] == prec), reverse=True)
        print(f"{prec}: geomean loss {score(cases, params, prec):.3f} over {len(mine)} cases; worst:")
        for (loss, pick, s), key in mine[:6]:
            plans = cases[key]
            best = min((x for x in plans if x[0] in SHAPES), key=plans.get)
            print(f"   {key}: picked {pick}x{s} {plans[(pick, s)]*1e3:.1f} us, best {best[0]}x{best[1]} {plans[best]*1e3:.1f} us ({loss:.2f})")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Session 34, call q3 (bundle q3 = the op and nn tests, gemm_plans and gemm_sweep of the working
# tree: ShortKMma in 32-deep chunks for k <= 32 and 64-deep ones past it, each load predicated
# on one bound per chunk; Auto still e88c926's rule): the ShortKMma op tests and the bf16-copy test; Auto
# and ShortKMma on q1's products beside PyTorch; Nsight Compute on ShortKMma at tt 6308x37x20
# and nn 24x54x1, and on Auto's kernel at nn 24x54x1.
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/q3.txz -C /tmp/b; B=/tmp/b/q3
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
(timeout 200 $B/ops ShortKMma > $L/ops-shortkmma.log 2>&1; echo "rc=$?" >> $L/ops-shortkmma.log); el "ops $(grep -E '^test result|rc=' $L/ops-shortkmma.log | tr '\n' ' ')"
grep -E "FAILED|panicked|mismatch" $L/ops-shortkmma.log | head
(timeout 60 $B/nn precision > $L/nn-precision.log 2>&1; echo "rc=$?" >> $L/nn-precision.log); el "nn $(grep -E '^test result|rc=' $L/nn-precision.log | tr '\n' ' ')"
(cd $L && tar czf $OUT/logs.tgz .)
P="nn:128x128x128 nt:128x128x128 tn:128x128x128 tt:128x128x128 tn:1024x784x32 tn:1024x784x64 tn:1024x784x128 tn:1024x1024x32 tn:1024x1024x64 tn:1024x1024x128 nn:32x1024x10 nn:64x1024x10 nn:128x1024x10 nn:256x1024x10 nn:512x1024x10 nn:1024x1024x10 nn:2048x1024x10 nn:4096x1024x10 tn:4096x784x32 tn:4096x784x64 tn:4096x784x128 tn:4096x4096x32 tn:4096x4096x64 tn:4096x4096x128 nn:32x4096x10 nn:64x4096x10 nn:128x4096x10 nn:256x4096x10 nn:512x4096x10 nn:1024x4096x10 nn:2048x4096x10 nn:4096x4096x10 nn:8192x8192x64 nt:8192x8192x64 nn:8192x4096x32 nt:8192x4096x32 nn:16384x1024x128 nt:16384x1024x128 nn:4096x4096x16 nt:4096x4096x16 nn:24x137x22 tt:23x1482x2 nn:673x159x57 nn:88x75x8 nn:4670x94x6 tn:322x4203x12 tt:6308x37x20 tn:188x2323x3 nn:797x346x9 nn:127x50x3 nt:1008x71x15 nt:523x31x2 nt:6756x5013x42 nn:404x136x109 nn:1484x340x20 nt:2024x17x64 tn:3940x1827x127 nn:115x682x8 tn:2729x547x16 tt:2155x24x59 tn:2753x975x32 nn:7300x22x6 nn:55x5019x7 tt:39x741x1 nt:1807x75x2 tt:3068x412x54 tt:109x28x3 tn:388x236x84 nt:1484x340x20 tn:3000x300x25 nn:1652x264x31 tt:4000x40x16 nn:6000x50x30 nt:800x700x48 nn:293x1584x44 nn:884x189x92 tt:71x155x22 nn:54x89x32 tt:442x68x24 tn:227x138x45 nt:6150x67x7 tn:52x173x71 nt:115x3300x2 tt:502x89x109 nt:2248x170x50 nn:24x54x1 nn:28x30x5 tt:193x4861x74 nt:719x4288x123 nn:22x4075x2 tt:493x529x2 tn:6491x727x10 tt:125x22x91 nn:2035x4414x9 nn:4368x2162x9 nn:203x796x43 tt:111x791x22 nn:1964x126x67 nt:770x21x1 nn:462x32x66 nt:61x146x5 tt:1421x28x5 tt:6099x74x27 tt:4253x572x1 nt:4096x64x4096 nn:4096x64x4096 nt:2048x64x8192 nt:8192x64x2048"
(echo "precision,layout,m,n,k,group"
 for x in $P; do IFS=x read m n k <<< "${x#*:}"; echo "bf16,${x%%:*},$m,$n,$k,q3"; done) > $L/cases.csv
timeout 120 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
for x in $P; do timeout 30 $B/gemm_plans --precisions bf16 --layouts ${x%%:*} --shapes ${x#*:} --plans Auto,ShortKMma >> $L/plans.csv 2>> $L/plans-err.log; done; el "plans rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
S="--section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats"
timeout 120 ncu $S -k regex:gemm_shortk_mma -c 1 $B/gemm_plans --precisions bf16 --layouts tt --shapes 6308x37x20 --plans ShortKMma --profile 1 > $L/ncu-skm-tt-6308x37x20.txt 2>&1; el "ncu rc=$?"
timeout 120 ncu $S -k regex:gemm_shortk_mma -c 1 $B/gemm_plans --precisions bf16 --layouts nn --shapes 24x54x1 --plans ShortKMma --profile 1 > $L/ncu-skm-nn-24x54x1.txt 2>&1; el "ncu rc=$?"
timeout 120 ncu $S -k regex:gemm -c 1 $B/gemm_plans --precisions bf16 --layouts nn --shapes 24x54x1 --plans Auto --profile 1 > $L/ncu-auto-nn-24x54x1.txt 2>&1; el "ncu rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

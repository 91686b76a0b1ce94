#!/usr/bin/env bash
# Session 21, call d2 (HEAD 1a07552, bundle h0): every plan of gemm_plans on the 100 random
# cases (>= 1 MFLOP) below 0.80 of cuBLAS in s20's e9 (five seeds) and r1 (seed 20261127), with
# PyTorch on the same cases: how much of each gap a plan we have would close (rule) and how
# much none does (kernel).
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/b && tar xJf .gpu/h0.txz -C /tmp/b; B=/tmp/b/h0
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
P() { timeout 100 $B/benches/gemm_plans --precisions $1 --layouts $2 --shapes $3 >> $L/plans.csv 2>> $L/plans-err.log; el "plans $1 $2 rc=$?"; }
cp docs/runs/2026-11-25-h100-s21/d2/cases.csv $L/cases.csv
timeout 100 python3 benches/torch/gemm_sweep.py $L/cases.csv > $L/torch.csv 2> $L/torch-err.log; el "torch rc=$?"
P bf16 nn 189x258x418,18x6534x256,2366x104x5652,47x74x6471,4929x10x7330,537x38x2661,5x1015x319,7689x64x47,82x1353x2590
P bf16 nt 1175x1x835,1184x655x30,17x414x1778,5x1065x194,6858x86x38,70x62x468
P bf16 tn 1050x4342x14,1070x14x5817,1804x118x92,187x60x7706,2003x63x4086,2466x69x39
P bf16 tt 11x175x2022,1681x1222x23,3892x3236x29,56x2513x2111,977x1345x41
P f32 nn 18x6534x256,3560x546x1074,4115x81x2,4330x124x151,47x74x6471,57x5561x4,59x25x724,803x850x66,99x5417x2
P f32 nt 1114x189x1781,1175x1x835,1184x655x30,899x22x151,958x5562x46
P f32 tn 13x276x4315,1804x118x92,1854x224x625,187x60x7706,2003x63x4086,225x66x102,2466x69x39,304x28x724,352x13x6682,391x2189x126,5769x15x19
P f32 tt 11x175x2022,128x137x613,181x2986x10,197x1997x4,283x5920x97,3567x156x918,4757x15x30,56x2513x2111,63x2473x900,977x1345x41
P tf32 nn 18x6534x256,4330x124x151,4510x277x7833,47x74x6471,4929x10x7330,537x38x2661,5x1015x319,7689x64x47,803x850x66,82x1353x2590
P tf32 nt 1175x1x835,1184x655x30,17x414x1778,2211x22x561,457x68x2316,45x7x4576,899x22x151,958x5562x46
P tf32 tn 1050x4342x14,1070x14x5817,13x276x4315,1804x118x92,187x60x7706,2003x63x4086,225x66x102,2466x69x39,3546x182x2466,7259x244x1656,947x52x179
P tf32 tt 11x175x2022,11x759x242,128x137x613,1681x1222x23,3567x156x918,3892x3236x29,4757x15x30,52x79x172,56x2513x2111,977x1345x41
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 38, call u7 (bundle u5, 64bdd1d, the final code): every BF16 plan (gemm_plans) of the
# default shapes in all four layouts, of 14 split-bound products (nn, nt, tn), and of the random
# groups' BF16 products of at least 1 MFLOP at session 36's seeds (each in its own layout); every
# TF32 plan of the default shapes (nn, tn): data for refitting the model's lone-block rates.
set -u
mkdir -p /tmp/b && tar xJf .gpu/u5.txz -C /tmp/b; GP=/tmp/b/u5/benches/gemm_plans
L=/tmp/logs; rm -rf $L; mkdir -p $L
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $L/gpu.txt
R_tt=1336x5x96,187x91x218,233x18x2176,25x2069x62,301x234x8,3755x5068x57,4056x519x15,44x647x4208,4820x3698x141,497x513x2,7723x6x92,7x928x1397,988x239x9
R_nt=107x462x1307,10x1895x557,10x7301x4108,1182x2074x1523,12x98x828,1352x15x609,152x1487x414,180x200x3917,18x90x4894,1929x3x3821,2627x56x135,2x6615x900,3877x44x3,4211x5318x156,4621x5x342,4x636x862,7x2198x1336,89x4118x5637,9x35x4991
R_tn=1137x8x1528,11x20x3284,129x6827x3,1342x3259x280,15x1026x2507,2059x11x41,2476x27x2874,27x893x2172,3239x14x5434,326x778x32,3767x3x1984,4286x69x6540,4478x1x2366,7240x49x70,741x41x27
R_nn=121x239x1648,216x2162x2275,2212x3x1053,225x1627x3711,2306x5330x7,265x5398x60,283x2x3898,31x756x26,3x5520x3878,47x3329x37,491x4757x39,55x8109x533,5671x18x98,5907x240x24,5x2223x2789,5x7539x3825,6304x1234x22,642x3807x451,6811x5x613,6821x1104x486,68x2545x32,6998x40x3170,6x3177x80,77x1323x181,93x1814x78
X=1024x1024x4096,1024x784x4096,1024x1024x1365,1024x1024x2048,768x768x6000,512x784x1024,256x1024x4096,256x4096x4096,512x512x8192,2048x1024x2048,1536x1536x1536,4096x64x4096,2048x64x8192,384x384x12288
timeout 150 $GP --precisions bf16 --layouts nn,tn,nt,tt > $L/plans-default.csv 2>> $L/err.log; el "default rc=$?"
timeout 100 $GP --precisions bf16 --layouts nn,tn,nt --shapes $X > $L/plans-split.csv 2>> $L/err.log; el "split rc=$?"
for l in nn nt tn tt; do v=R_$l; timeout 60 $GP --precisions bf16 --layouts $l --shapes ${!v} >> $L/plans-random.csv 2>> $L/err.log; el "random $l rc=$?"; done
timeout 100 $GP --precisions tf32 --layouts nn,tn > $L/plans-tf32.csv 2>> $L/err.log; el "tf32 rc=$?"
(cd $L && tar czf $OUT/logs.tgz .)
el done

#!/usr/bin/env bash
# Session 12, experiment 13: BF16 3000³ and 128×4096×4096 ran 10–12 % slower in r2 and r3 than
# in r1 with no change to the wgmma code: the same products from the session's first build
# (gp_start, e1), the e9 build and HEAD (gp_head), alternated in one call.
set -u
mkdir -p /tmp/e && tar xJf .gpu/e13.txz -C /tmp/e && E=/tmp/e/e13
L=/tmp/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,serial,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $L/gpu.txt
S=3000x3000x3000,128x4096x4096,3072x3072x3072,4096x4096x4096
for round in 1 2; do for b in gp_start gp_e9 gp_head; do
timeout 60 $E/$b --precisions bf16 --layouts nn,nt --shapes $S --plans Auto > $L/$b-$round.csv 2>/dev/null
echo "$b round $round: $(grep Auto $L/$b-$round.csv | awk -F, '{printf "%s %sx%sx%s %.1f | ", $2,$3,$4,$5,$8*1000}')"
done; done
tar czf $OUT/logs.tgz -C /tmp logs

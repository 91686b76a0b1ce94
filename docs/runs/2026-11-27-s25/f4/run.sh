#!/usr/bin/env bash
# Session 25, call f4 (gemm_plans of the final commit a5bd680, with plan::WIDE_192_MAX_ROUNDS):
# Auto beside the wide BF16 plans where the two-round limit decides.
mkdir -p /tmp/b && tar xJf .gpu/f4.txz -C /tmp/b && nvidia-smi --query-gpu=name --format=csv,noheader
/tmp/b/f4/gemm_plans --precisions bf16 --layouts nn,nt --shapes 3000x3000x3000,1536x1536x1536,2500x1800x3000,768x3072x2048,3500x1200x2400 --plans Auto,Wgmma,WgmmaSwapped,Wgmma128x192 2>/dev/null | grep -E ",Auto,|,1,[0-9.]+,|precision" | tee $OUT/plans.csv

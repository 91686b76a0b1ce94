#!/usr/bin/env bash
# Session 25, call f3 (bundle f2, on the H100 that ran f2): the wide BF16 plans of four products.
mkdir -p /tmp/b && tar xJf .gpu/f2.txz -C /tmp/b && nvidia-smi --query-gpu=name --format=csv,noheader && /tmp/b/f2/benches/gemm_plans --precisions bf16 --layouts nn,nt --shapes 3000x3000x3000,1536x1536x1536,5000x5000x5000,2500x1800x3000 --plans Auto,Wgmma,WgmmaSwapped,Wgmma128x192,Wgmma128x208 2>/dev/null | tee $OUT/plans.csv

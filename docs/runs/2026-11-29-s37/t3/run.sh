#!/usr/bin/env bash
# Session 37, call t3 (bundle t2): t2's op tests died on an illegal instruction; each suspect
# test alone, then under compute-sanitizer.
set -u
mkdir -p /tmp/b && tar xJf .gpu/t2.txz -C /tmp/b; B=/tmp/b/t2
L=/tmp/logs; rm -rf $L; mkdir -p $L
for f in "gemm::Tf32Wgmma64x64::ta0_tb1::256x64x128" "gemm_bf16::Wgmma64x128::ta0_tb0::128x4x256" "gemm::Tf32Wgmma64x64::ta0_tb1::17x33x9" "gemm::Tf32Wgmma64x64::interleaved::ta0_tb1" "gemm::Tf32Wgmma::interleaved::ta0_tb1" "gemm::Tf32WgmmaRegA::interleaved::ta0_tb0"; do
  timeout 60 $B/ops --test-threads 1 "$f" > $L/one.log 2>&1; echo "== $f rc=$?"; grep -E "test result|error|illegal" $L/one.log | head -3
done
timeout 120 compute-sanitizer --print-limit 5 $B/ops --test-threads 1 "gemm::Tf32Wgmma64x64::interleaved::ta0_tb1" > $L/san1.log 2>&1; echo "san1 rc=$?"; head -60 $L/san1.log
timeout 120 compute-sanitizer --print-limit 5 $B/ops --test-threads 1 "gemm::Tf32Wgmma64x64::ta0_tb1::256x64x128" > $L/san2.log 2>&1; echo "san2 rc=$?"; head -30 $L/san2.log

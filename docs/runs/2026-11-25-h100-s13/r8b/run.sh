#!/usr/bin/env bash
# Session 13, call r8b: every test binary of the r8 build (HEAD 5ef831a).
mkdir -p /tmp/b && tar xJf .gpu/r8s13.txz -C /tmp/b && cd /tmp/b && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader && mkdir -p $OUT/logs && (timeout 200 ./b1/run-tests > $OUT/logs/run-tests.log 2>&1; echo "run-tests rc=$?" >> $OUT/logs/run-tests.log); tail -1 $OUT/logs/run-tests.log

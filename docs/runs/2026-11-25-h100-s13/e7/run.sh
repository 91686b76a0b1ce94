#!/usr/bin/env bash
# Session 13, call e7: cuBLAS few-row BF16 products with the larger operand kept in L2 and rotated out of it.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 benches/torch/l2_reuse.py

#!/usr/bin/env bash
# Session 13, call e2: resident clusters of each size (cuOccupancyMaxActiveClusters).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 benches/probe/cluster_capacity.py

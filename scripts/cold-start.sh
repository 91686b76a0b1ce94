#!/usr/bin/env bash
# Cold start on a GPU machine: how long a program waits before its first kernel, with the
# driver's JIT cache off (CUDA_CACHE_DISABLE=1, as on a fresh machine), loading the embedded
# cubin (now) and the PTX (KERNELS_FORCE_PTX=1: what every binary did before cubins were
# embedded). Then the whole digits MLP (`examples/mlp`) the same two ways, and the PTX with a
# fresh driver cache twice (first run fills it, second run reads it).
#
#   scripts/gpu-bundle .gpu/bundle        (here, with Rust; copies this script to .gpu/bundle/cold-start)
#   .gpu/bundle/cold-start                (there; or scripts/cold-start.sh BUNDLE. Needs only
#                                          BUNDLE/examples/cold_start and BUNDLE/examples/mlp)
#
# RUNS=N repeats each cubin measurement (default 3); PTX_RUNS=N each PTX one (default 1, ~40 s).
set -euo pipefail
bundle=${1:-$(dirname "$0")}
runs=${RUNS:-3}
ptx_runs=${PTX_RUNS:-1}
for b in cold_start mlp; do
  [ -x "$bundle/examples/$b" ] || { echo "cold-start.sh: $bundle/examples/$b is missing (scripts/gpu-bundle builds it)" >&2; exit 1; }
done
cache=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$cache" "$log"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true

# run LABEL ENV… -- CMD…: wall time of the whole process (start to exit), and its first-kernel line.
run() {
  local label=$1 envs=() s e
  shift
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  s=$(date +%s.%N)
  if ! env "${envs[@]}" "$@" >"$log" 2>&1; then
    echo "FAILED: $label"; cat "$log"; exit 1
  fi
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" -v l="$label" 'BEGIN { printf "%-44s process %7.2f s", l, e - s }'
  local first
  first=$(grep -m1 -o 'first kernel done .*' "$log" || true)
  local acc image
  acc=$(grep -m1 -o 'test accuracy: [0-9.]*%' "$log" || true)
  [ -n "$first" ] || image=$(grep -m1 -o 'kernels: sm_[0-9a]* [A-Za-z]*' "$log" || true)
  echo "  ${first:+| $first}${image:+| $image }${acc:+| $acc}"
}

echo "== first kernel (examples/cold_start), driver cache off"
for i in $(seq "$runs"); do run "cubin, CUDA_CACHE_DISABLE=1 #$i" CUDA_CACHE_DISABLE=1 -- "$bundle/examples/cold_start"; done
for i in $(seq "$ptx_runs"); do run "PTX JIT, CUDA_CACHE_DISABLE=1 #$i" CUDA_CACHE_DISABLE=1 KERNELS_FORCE_PTX=1 -- "$bundle/examples/cold_start"; done
echo "   its notice on stderr (not a terminal: a line every 10 s):"
grep -v '^first kernel' "$log" | sed 's/^/     /'
echo "== examples/mlp (digits, default settings), whole process"
for i in $(seq "$runs"); do run "cubin, CUDA_CACHE_DISABLE=1 #$i" CUDA_CACHE_DISABLE=1 -- "$bundle/examples/mlp"; done
for i in $(seq "$ptx_runs"); do run "PTX JIT, CUDA_CACHE_DISABLE=1 #$i" CUDA_CACHE_DISABLE=1 KERNELS_FORCE_PTX=1 -- "$bundle/examples/mlp"; done
run "PTX, empty driver cache (fills it)" CUDA_CACHE_PATH="$cache" KERNELS_FORCE_PTX=1 -- "$bundle/examples/mlp"
run "PTX, warm driver cache" CUDA_CACHE_PATH="$cache" KERNELS_FORCE_PTX=1 -- "$bundle/examples/mlp"

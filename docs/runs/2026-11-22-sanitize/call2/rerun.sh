#!/usr/bin/env bash
# Second device call: the runs of the first call that its time limit cut off, each for the tests
# it had not reached (rerun/*.args: --skip of every other test), and the nn test that failed
# there (dlogits tolerance since fixed), with the seed of that failure.
set -u
cd "$(dirname "$0")"
L=${1:?logdir}; lim=${2:?seconds}
mkdir -p "$L"
tar xJf tests.tar.xz && xz -dc nn-test.xz > tests/nn-test && chmod +x tests/nn-test || exit 2
export KERNELS_TEST_SCALE=sanitize
cs=${CS:-/usr/local/cuda/bin/compute-sanitizer}
run() { # ID TOOL [VAR=VALUE…]
  local id=$1 tool=$2; shift 2
  local a; mapfile -t a < "rerun/$id.args"
  local s=$SECONDS
  env "$@" timeout -k 5 "$lim" "$cs" --tool "$tool" --error-exitcode 99 --print-limit 20 "tests/${id%%.*}-test" --test-threads 1 --exact "${a[@]}" > "$L/$id.log" 2>&1
  echo "$id rc=$? $((SECONDS - s))s $(grep -h -E 'SUMMARY: [0-9]' "$L/$id.log" | tail -n1) | $(grep -h '^test result' "$L/$id.log")" >> "$L/rc.txt"
}
run nn.racecheck.softmax-seed racecheck TEST_SEED=1795325646038785836 &
run nn.racecheck.s1b racecheck &
run nn.initcheck.b initcheck &
run reliability.racecheck.s3b racecheck &
for k in 0 1 2; do run ops.racecheck.s1b$k racecheck & done
wait
cat "$L/rc.txt"

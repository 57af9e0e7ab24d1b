#!/usr/bin/env bash
# One GPU session, batched: configure, `make test` in full, then REPEAT runs of
# selected solution graders (gpu + selftest groups) for threshold calibration,
# then a summary of every speed ratio. Logs and result files go to $OUT_DIR.
#
#   OUT_DIR=/tmp/out REPEAT=20 LABS="1 2 3" grader/tools/gpu_session.sh
#
# Where CMocka is not installed system-wide, put its .deb files in .deps/
# (apt-get download libcmocka0 libcmocka-dev); they are unpacked to /opt/cmocka.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT_DIR=${OUT_DIR:-build/gpu_session}
REPEAT=${REPEAT:-20}
LABS=${LABS:-1}
mkdir -p "$OUT_DIR"

if ls .deps/*.deb >/dev/null 2>&1 && [ ! -f /usr/include/cmocka.h ]; then
  mkdir -p /opt/cmocka
  for f in .deps/*.deb; do dpkg -x "$f" /opt/cmocka; done
  export CMAKE_PREFIX_PATH=/opt/cmocka/usr
  export LD_LIBRARY_PATH=/opt/cmocka/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv 2>&1 | tee "$OUT_DIR/gpu.txt"

echo "=== make test"
make test 2>&1 | tee "$OUT_DIR/make_test.log" | grep -E "Test +#|tests passed|tests failed|Error" 
test_status=${PIPESTATUS[0]}

mkdir -p "$OUT_DIR/runs"
for lab in $LABS; do
  echo "=== lab $lab: $REPEAT runs of the solution grader"
  pass=0
  for i in $(seq 1 "$REPEAT"); do
    if build/bin/lab${lab}_check_solution --group cpu --group gpu --group selftest \
         --results "$OUT_DIR/runs/lab${lab}_run$i.json" >"$OUT_DIR/runs/lab${lab}_run$i.log" 2>&1; then
      pass=$((pass + 1))
    else
      echo "run $i FAILED:"; grep -E "^\[(FAIL|CRASH|TIMEOUT)" -A1 "$OUT_DIR/runs/lab${lab}_run$i.log"
    fi
  done
  echo "lab $lab solution: $pass/$REPEAT runs passed" | tee -a "$OUT_DIR/summary.txt"
done

python3 grader/tools/summarize_results.py "$OUT_DIR"/runs/*.json | tee -a "$OUT_DIR/summary.txt" \
  | grep -E "files|^lab|ratio|fraction|speedup|GBps|GFLOP|threshold|_ms"
grep -E "tests passed|tests failed" "$OUT_DIR/make_test.log"
exit $test_status

#!/usr/bin/env bash
# One GPU session, batched: configure, `make test` in full, then REPEAT runs of
# selected solution graders (gpu + selftest groups) for threshold calibration,
# then a summary of every speed ratio. Logs and result files go to $OUT_DIR.
#
#   OUT_DIR=/tmp/out REPEAT=20 LABS="1 2 3" grader/tools/gpu_session.sh
#
# SKIP_MAKE_TEST=1 builds without running ctest (for a second batch of runs).
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

test_status=0
if [ "${SKIP_MAKE_TEST:-0}" = 1 ]; then
  echo "=== make test skipped (SKIP_MAKE_TEST=1); building only"
  make build >"$OUT_DIR/build.log" 2>&1 || { tail -30 "$OUT_DIR/build.log"; exit 1; }
else
  echo "=== make test"
  make test 2>&1 | tee "$OUT_DIR/make_test.log" | grep -E "Test +#|tests passed|tests failed|Error"
  test_status=${PIPESTATUS[0]}
fi

RUNS_DIR=$(mktemp -d)
for lab in $LABS; do
  echo "=== lab $lab: $REPEAT runs of the solution grader"
  pass=0
  for i in $(seq 1 "$REPEAT"); do
    if build/bin/lab${lab}_check_solution --group cpu --group gpu --group selftest \
         --results "$RUNS_DIR/lab${lab}_run$i.json" >"$RUNS_DIR/lab${lab}_run$i.log" 2>&1; then
      pass=$((pass + 1))
    else
      echo "run $i FAILED:"; grep -E "^  (FAIL|CRASH|TIMEOUT)" "$RUNS_DIR/lab${lab}_run$i.log"
    fi
  done
  echo "lab $lab solution: $pass/$REPEAT runs passed" | tee -a "$OUT_DIR/summary.txt"
done

# The project's Python (the Makefile's PYTHON when set, as for make test).
"${PYTHON:-python3}" grader/tools/summarize_results.py "$RUNS_DIR"/*.json | tee -a "$OUT_DIR/summary.txt" \
  | grep -E "files|^lab|ratio|fraction|speedup|GBps|GFLOP|threshold|_ms"
# One archive of every run's log and results (keeps the file count small).
tar -czf "$OUT_DIR/runs.tar.gz" -C "$RUNS_DIR" .
grep -hE "tests passed|tests failed" "$OUT_DIR/make_test.log" 2>/dev/null
exit $test_status

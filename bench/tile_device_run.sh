#!/bin/bash
# One device call (about 4 minutes): the tile launch path's tests on Python 3.12, the GPU tests, and the benchmarks
# whose rows go to docs/benchmarks-launch.md and docs/benchmarks-tile.md (issue 10's four targets included).
#   run: bash bench/tile_device_run.sh      (writes everything under $OUT)
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skcache-$$
OUT=${OUT:-/tmp/tile-device-out}
mkdir -p "$OUT"
# the machine and exact versions, as bench/run.py records them (`bench/run.py --ingest DIR` reads this folder)
python3 -c "import json; from bench.run import environment; print(json.dumps(environment(), indent=1))" \
  | tee "$OUT/environment.json"
# the plan cache, move sites and cost ratios on this Python (frames differ between versions); no GPU needed
timeout 40 python3 -m pytest -q -p no:cacheprovider tests/tile/test_tile_launch_plan.py \
  tests/tile/test_tile_launch_cost.py tests/tile/test_tile_ownership.py tests/bridge/test_bridge_ownership.py \
  2>&1 | tail -15 | tee "$OUT/cpu_tests.txt"
timeout 70 python3 bench/launch_overhead.py --out "$OUT/launch_overhead.md" --json "$OUT/launch_overhead.json" \
  ${LAUNCH_ARGS:-} 2>&1 | tail -60
timeout 120 python3 bench/tile_bench.py --out "$OUT/tile_bench.md" --json "$OUT/tile_bench.json" \
  ${BENCH_ARGS:---quick} 2>&1 | tail -70
timeout ${GPU_TEST_TIMEOUT:-90} python3 -m pytest -m gpu tests/gpu_tile tests/runtime_graph tests/tile -q \
  -p no:cacheprovider 2>&1 | tail -30 | tee "$OUT/gpu_tests.txt"

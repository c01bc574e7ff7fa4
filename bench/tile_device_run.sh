#!/bin/bash
# One device call (about 4 minutes): the tile launch path's tests on Python 3.12, the GPU tests, and the benchmarks
# whose rows go to docs/benchmarks-launch.md and docs/benchmarks-tile.md (issue 10's four targets included).
#   run: bash bench/tile_device_run.sh      (writes everything under $OUT)
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skcache-$$
OUT=${OUT:-/tmp/tile-device-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" \
  | tee -a "$OUT/gpu.txt"
# the plan cache, move sites and cost ratios on this Python (frames differ between versions); no GPU needed
timeout 40 python3 -m pytest -q -p no:cacheprovider tests/tile/test_tile_launch_plan.py \
  tests/tile/test_tile_launch_cost.py tests/tile/test_tile_ownership.py tests/bridge/test_bridge_ownership.py \
  2>&1 | tail -15 | tee "$OUT/cpu_tests.txt"
timeout 70 python3 bench/launch_overhead.py --out "$OUT/benchmarks-launch.md" --json "$OUT/launch.json" \
  ${LAUNCH_ARGS:-} 2>&1 | tail -60
timeout 120 python3 bench/tile_bench.py --out "$OUT/benchmarks-tile.md" --json "$OUT/tile.json" \
  ${BENCH_ARGS:---quick} 2>&1 | tail -70
timeout ${GPU_TEST_TIMEOUT:-90} python3 -m pytest -m gpu tests/gpu_tile tests/runtime_graph tests/tile -q \
  -p no:cacheprovider 2>&1 | tail -30 | tee "$OUT/gpu_tests.txt"

#!/bin/bash
# One device call: GPU differential tests, the benchmark table, and SASS facts of the tile kernels.
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skcache-$$
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
python3 -m pytest tests/gpu_tile -m gpu -x -q -p no:cacheprovider 2>&1 | tail -30 | tee $OUT/gpu_tests.txt
python3 bench/tile_sass.py $OUT 2>&1 | tail -40
timeout 300 python3 bench/tile_bench.py --out $OUT/benchmarks-tile.md ${BENCH_ARGS:-} 2>&1 | tail -45

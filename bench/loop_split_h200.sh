#!/usr/bin/env bash
# One H200 call for the loop split (codegen.tile.loop_split): its GPU tests and the attention GPU tests it
# touches, then bench/loop_split_bench.py (plain attention before/after, cuDNN SDPA); everything under $OUT.
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skc XLA_PYTHON_CLIENT_PREALLOCATE=false NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/r"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/env.txt" 2>&1
timeout "${T_TESTS:-75}" python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/gpu_tile/test_gpu_loop_split.py \
  tests/gpu_tile/test_gpu_tile_rewrites.py tests/gpu_tile/test_gpu_tensor_core.py::test_attention_vs_sdpa \
  > "$OUT/tests.txt" 2>&1
echo "tests rc=$?" >> "$OUT/tests.txt"; tail -4 "$OUT/tests.txt"
timeout "${T_BENCH:-150}" python3 bench/loop_split_bench.py "$OUT/r" --rounds=3 > "$OUT/log.txt" 2>&1
echo "bench rc=$?"
tail -14 "$OUT/log.txt"

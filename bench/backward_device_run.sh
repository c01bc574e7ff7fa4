#!/bin/bash
# One H200 call: the GPU checks of the backward kernels, then bench/backward_bench.py (results under $OUT).
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skc XLA_PYTHON_CLIENT_PREALLOCATE=false NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout "${TEST_S:-120}" python3 -m pytest -q -p no:cacheprovider -m gpu -n 4 -k "${TEST_K:-attention or wgmma}" \
  tests/gpu_tile/test_gpu_wgmma_operands.py tests/torch/test_training_ops.py 2>&1 | tail -25 | tee "$OUT/tests.txt"
timeout "${BENCH_S:-200}" python3 bench/backward_bench.py --out "$OUT" ${BENCH_ARGS:---skip-norms} 2>&1 | tail -40

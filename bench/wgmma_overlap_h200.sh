#!/usr/bin/env bash
# One H200 call for the uniform wgmma descriptors and the carried matmul (codegen.tile.wgmma.UNIFORM,
# codegen.tile.wgmma_sync.CARRY): bench/wgmma_overlap_bench.py (attention vs cuDNN, GEMM vs cuBLAS, SASS facts),
# then the GPU tests the change touches; everything under $OUT.
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skc XLA_PYTHON_CLIENT_PREALLOCATE=false NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/r"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv;
  python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__, 'cudnn', torch.backends.cudnn.version())"; } > "$OUT/env.txt" 2>&1
timeout "${T_BENCH:-200}" python3 bench/wgmma_overlap_bench.py "$OUT/r" ${WO_ARGS:---rounds=3} > "$OUT/log.txt" 2>&1
echo "bench rc=$?"
timeout "${T_PP:-30}" python3 bench/wgmma_overlap_bench.py "$OUT/r" --rounds=3 --only=pingpong > "$OUT/log_pingpong.txt" 2>&1
echo "pingpong bench rc=$?"
timeout "${T_TESTS:-150}" python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/gpu_tile/test_gpu_wgmma_overlap.py \
  tests/gpu_tile/test_gpu_tensor_core.py tests/gpu_tile/test_gpu_loop_split.py tests/gpu_tile/test_gpu_tile_rewrites.py \
  tests/torch/test_training_ops.py -k "not pingpong" > "$OUT/tests.txt" 2>&1
echo "tests rc=$?" >> "$OUT/tests.txt"; tail -4 "$OUT/tests.txt"
timeout "${T_PPT:-30}" python3 -m pytest -q -m gpu -p no:cacheprovider -n 4 tests/gpu_tile/test_gpu_wgmma_overlap.py -k pingpong \
  >> "$OUT/tests.txt" 2>&1
echo "pingpong tests rc=$?" >> "$OUT/tests.txt"; tail -2 "$OUT/tests.txt"
tail -6 "$OUT/log_pingpong.txt"
tail -25 "$OUT/log.txt"

#!/usr/bin/env bash
# One H200 call for issue 24's rows (SIMT at the copy limit, GEMM without cliffs, plain attention): the GPU tests
# of what changed, then the three benchmarks, each output under $OUT.  PYTHONPATH etc. as bench/README says.
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skc XLA_PYTHON_CLIENT_PREALLOCATE=false NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"; } > "$OUT/env.txt" 2>&1
timeout ${T_TESTS:-70} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/gpu tests/gpu_tile/test_gpu_tile_rewrites.py tests/gpu_tile/test_gpu_tensor_core.py -k "not fp8" > "$OUT/tests.txt" 2>&1; echo "tests rc=$?" >> "$OUT/tests.txt"
tail -3 "$OUT/tests.txt"
timeout ${T_SIMT:-90} python3 bench/simt_bench.py --out "$OUT/simt.md" > "$OUT/simt.log" 2>&1; echo "simt rc=$?"
timeout ${T_GEMM:-120} python3 bench/tile_gemm_tune.py --no-8192 --out "$OUT/gemm.md" > "$OUT/gemm.log" 2>&1; echo "gemm rc=$?"
timeout ${T_ATT:-60} python3 bench/tile_bench.py --only-attention --out "$OUT/attn.md" > "$OUT/attn.log" 2>&1; echo "attn rc=$?"
cat "$OUT/simt.md" 2>/dev/null | sed -n '/Throughput/,/target >= 0.98/p'; tail -12 "$OUT/gemm.log"; tail -8 "$OUT/attn.log"

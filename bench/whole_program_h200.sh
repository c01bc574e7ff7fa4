#!/usr/bin/env bash
# One H200 call for the whole-program route and the attention rows (bench/whole_program_bench.py), plus the GPU
# tests named in $WP_TESTS; everything under $OUT (at most 8 files come back: the SASS goes in one tarball).
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skc XLA_PYTHON_CLIENT_PREALLOCATE=false NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/r"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; which cuobjdump nvdisasm ptxas;
  python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"; } > "$OUT/env.txt" 2>&1
if [ -n "$WP_TESTS" ]; then
  timeout ${T_TESTS:-90} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 $WP_TESTS > "$OUT/tests.txt" 2>&1
  echo "tests rc=$?" >> "$OUT/tests.txt"; tail -3 "$OUT/tests.txt"
fi
timeout ${T_BENCH:-400} python3 bench/whole_program_bench.py "$OUT/r" ${WP_ARGS:---rounds=3} > "$OUT/log.txt" 2>&1
echo "bench rc=$?"
[ -d "$OUT/r/sass" ] && tar czf "$OUT/sass.tgz" -C "$OUT/r" sass && rm -rf "$OUT/r/sass"
tail -45 "$OUT/log.txt"

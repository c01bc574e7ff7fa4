#!/bin/bash
# One device call for the torch/JAX bridge (issue 23 items 1-3): the dtype matrix and custom_op tests (CPU and
# GPU rows), the host-cost table, the start-up table.  Writes everything under $OUT.
#   run: bash bench/torch_device_run.sh      (about 5 minutes; the tests alone 75-200 s: torch.compile's cold
#        inductor builds on CPU dominate, and vary by machine, so TEST_TIMEOUT defaults to 300 s)
export PYTHONPATH=src:. PYTHONUNBUFFERED=1 SAFEKERNELS_CACHE_DIR=/tmp/skcache-$$ XLA_PYTHON_CLIENT_PREALLOCATE=false
OUT=${OUT:-/tmp/torch-device-out}
mkdir -p "$OUT"
# versions, and what this torch/JAX export for the dtypes without an array-interface typestr
timeout 60 python3 - <<'EOF' 2>&1 | tee "$OUT/probe.txt"
import sys, torch
print("python", sys.version.split()[0], "torch", torch.__version__, torch.cuda.get_device_name())
try:
    import triton; print("triton", triton.__version__)
except ImportError:
    print("triton absent")
try:
    import jax; print("jax", jax.__version__, jax.devices())
except Exception as e:
    print("jax:", type(e).__name__, e)
for name in ("bfloat16", "float8_e4m3fn", "float8_e5m2", "uint16", "bool"):
    t = torch.zeros(4, dtype=getattr(torch, name), device="cuda")
    try:
        cai = t.__cuda_array_interface__["typestr"]
    except Exception as e:
        cai = f"{type(e).__name__}: {e}"
    try:
        t.__dlpack__(); dl = "ok"
    except Exception as e:
        dl = f"{type(e).__name__}: {e}"
    print(f"{name}: CAI typestr {cai!r}; DLPack export {dl}")
c = torch._C
print("direct-path switches:", {n: hasattr(c, n) for n in ("_len_torch_dispatch_mode", "_is_torch_function_mode_enabled",
      "_are_functorch_transforms_active", "_get_tracing_state", "_cuda_getCurrentRawStream")},
      hasattr(c._autograd, "_profiler_enabled"), hasattr(torch.autograd.graph, "increment_version"))
EOF
timeout ${TEST_TIMEOUT:-300} python3 -m pytest -q -p no:cacheprovider -rfEs tests/torch tests/jax \
  > "$OUT/tests.txt" 2>&1; grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/tests.txt" | tail -30
timeout ${HOST_TIMEOUT:-100} python3 bench/torch_host_cost.py --calls ${CALLS:-5000} --out "$OUT/host_cost.md" \
  --json "$OUT/host_cost.json" 2>&1 | tail -40
timeout ${START_TIMEOUT:-150} python3 bench/startup_bench.py --out "$OUT/startup.md" --json "$OUT/startup.json" \
  2>&1 | tail -60
if [ -n "${OP_BENCH:-}" ]; then
  timeout 60 python3 bench/torch_op_bench.py --out "$OUT/torch_op.md" 2>&1 | tail -15
fi

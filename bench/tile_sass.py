"""SASS facts of every bench tile kernel (run on a machine with cuobjdump): 16-byte loads, HMMA, spills."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.kernels import tile_kernels as K
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of

F32, F16, BF16 = dtype_of("f32"), dtype_of("f16"), dtype_of("bf16")
N = 4096
CASES = {
    "vecadd": (
        [("partition", F32, (N,), (K.VEC_TILE,)), ("tensor", F32, (N,), None), ("tensor", F32, (N,), None)],
        1,
    ),
    "saxpy": (
        [
            ("partition", F32, (N,), (K.VEC_TILE,)),
            ("scalar", F32, (), None),
            ("tensor", F32, (N,), None),
            ("tensor", F32, (N,), None),
        ],
        1,
    ),
    "softmax": ([("partition", F32, (N, K.ROW), (1, K.ROW)), ("tensor", F32, (N, K.ROW), None)], 2),
    "layernorm": (
        [
            ("partition", F32, (N, K.ROW), (1, K.ROW)),
            ("tensor", F32, (N, K.ROW), None),
            ("tensor", F32, (K.ROW,), None),
            ("tensor", F32, (K.ROW,), None),
            ("scalar", F32, (), None),
        ],
        2,
    ),
    "row_sum": ([("partition", F32, (N,), (K.RED_ROWS,)), ("tensor", F32, (N, K.ROW), None)], 1),
    "row_max": ([("partition", F32, (N,), (K.RED_ROWS,)), ("tensor", F32, (N, K.ROW), None)], 1),
    "transpose": ([("partition", F32, (N, N), (K.T_TILE, K.T_TILE)), ("tensor", F32, (N, N), None)], 2),
    "gemm_f16": (
        [
            ("partition", F16, (N, N), (K.BM, K.BN)),
            ("tensor", F16, (N, N), None),
            ("tensor", F16, (N, N), None),
        ],
        2,
    ),
    "gemm_bf16": (
        [
            ("partition", BF16, (N, N), (K.BM, K.BN)),
            ("tensor", BF16, (N, N), None),
            ("tensor", BF16, (N, N), None),
        ],
        2,
    ),
    "gemm_bias_relu": (
        [
            ("partition", F16, (N, N), (K.BM, K.BN)),
            ("tensor", F16, (N, N), None),
            ("tensor", F16, (N, N), None),
            ("tensor", F32, (N,), None),
        ],
        2,
    ),
}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    work = Path(tempfile.mkdtemp())
    tool = shutil.which("cuobjdump")
    lines = []
    for kern in K.ALL:
        spec, grid = CASES[kern.name]
        params = [
            param_info(f"p{i}", kind, dt, shape, tile) for i, (kind, dt, shape, tile) in enumerate(spec)
        ]
        c = compile_tile(kern.fn, params, grid, arch="sm_90a", use_cache=False)
        path = work / "cubins"
        path.mkdir(exist_ok=True)
        cub = path / f"{kern.name}.cubin"
        cub.write_bytes(c.cubin)
        facts = f"{kern.name}: threads={c.threads} smem={c.smem_bytes}"
        if tool:
            sass = subprocess.run([tool, "-sass", str(cub)], capture_output=True, text=True).stdout
            res = subprocess.run([tool, "-res-usage", str(cub)], capture_output=True, text=True).stdout
            regs = re.search(r"REG:(\d+)", res)
            stack = re.search(r"STACK:(\d+)", res)
            facts += (
                f" regs={regs.group(1) if regs else '?'} stack={stack.group(1) if stack else '?'}"
                f" LDG.128={sass.count('LDG.E.128') + sass.count('LDG.E.CONSTANT.128')}"
                f" STG.128={sass.count('STG.E.128')} HGMMA={sass.count('HGMMA')} HMMA={sass.count('HMMA')}"
                f" LDSM={sass.count('LDSM')}"
                f" LDGSTS={sass.count('LDGSTS')} LDL/STL={sass.count('LDL') + sass.count('STL')}"
            )
            (work / "sass").mkdir(exist_ok=True)
            (work / "sass" / f"{kern.name}.sass").write_text(sass)
        lines.append(facts)
    text = "\n".join(lines) + "\n"
    (out / "sass_facts.txt").write_text(text)
    subprocess.run(["tar", "czf", str(out / "sass.tgz"), "-C", str(work), "."], check=False)
    print(text)


if __name__ == "__main__":
    main()

"""Training kernels written in the tile language: flash attention and RMSNorm / LayerNorm, forward and backward.

`attention.py` and `norms.py` hold the kernels, numpy host functions that run them (CPU executor or GPU) and
float64 references; `torch_ops.py` registers them as torch operators with their backward as autograd.  These
are library-style modules, not scripts, so `safekernels demo` (which runs `examples/*.py`) leaves them alone;
each still has a `main()` that checks itself (`python -m training.attention` from `examples/`).
"""

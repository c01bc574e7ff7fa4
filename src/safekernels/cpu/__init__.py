"""The CPU executor: runs both kernel tracks on the host with the GPU's semantics.

`simt_executor` runs SIMT kernels thread by thread (barriers, warp collectives, shared memory, atomics);
`tile_executor` runs tile kernels block by block with numpy.  `Device.cpu()` selects them.
"""

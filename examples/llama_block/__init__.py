"""A Llama-style decoder layer (Llama-3-8B shapes) built from tile kernels: `kernels` (the tile programs and the
numpy reference math), `numpy_layer` (the layer through the tile API, no torch), `layer` (the `torch.nn.Module`
on `safekernels.torch.custom_op`).  `python -m examples.llama_block` checks it on the default device."""

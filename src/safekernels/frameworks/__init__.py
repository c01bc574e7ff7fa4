"""What the framework bridges (`safekernels.torch`, `safekernels.jax`) share, with no framework imported.

- `signature`: a kernel's operator signature (which parameters are outputs, inputs, scalars; the mutated
  arguments) read off its parameter kinds;
- `launcher`: how an operator launches the kernel on flat buffers (tile shapes of the outputs, SIMT launch
  configurations, the launch's own checks on shapes alone for fake/abstract evaluation).
"""

"""Host runtime: devices, streams, buffers and the backends (CPU executor, CUDA driver) behind them."""

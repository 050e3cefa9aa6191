"""Playing: seeds, dealing, policies as the kernels play them, and strategy files
(ARCHITECTURE.md)."""

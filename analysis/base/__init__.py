"""The ground floor: files and checkpoints, progress, memory, statistics and the kernel cache;
no knowledge of the game (ARCHITECTURE.md)."""

"""Refuse work that cannot fit in memory before allocating it, with a line saying why."""


def available_bytes():
    """Memory the machine has free now (bytes)."""
    import psutil

    return int(psutil.virtual_memory().available)


def _size(nbytes):
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if nbytes < 1000 or unit == "PB":
            return f"{nbytes:,.0f} {unit}" if unit == "bytes" else f"{nbytes:,.1f} {unit}"
        nbytes /= 1000


def require_memory(nbytes, what, share=0.8):
    """``ValueError`` unless ``nbytes`` fits in ``share`` of the free memory; ``what`` names
    the request (e.g. "10,000 samples of 40 candidates")."""
    free = available_bytes()
    if nbytes > share * free:
        raise ValueError(f"{what} would need about {_size(nbytes)} of memory, and this machine "
                         f"has {_size(free)} free: ask for less")

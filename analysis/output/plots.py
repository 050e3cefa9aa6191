"""Figures for reports and charts: one style, a matplotlib Figure without pyplot, saved
reproducibly.

:func:`styled` draws a function's figure in the style file ``sapsam.mplstyle`` beside this
module, the one look of every figure (without touching matplotlib's global settings).
:func:`figure` builds a Figure on the Agg canvas (no pyplot state, no global backend switch, so
it is safe in worker processes and tests); :func:`save_figure` writes it as PNG and SVG
atomically (:func:`sapsam.base.files.write_atomic`) with fixed metadata and SVG ids, so the
same drawing gives the same bytes on every run.
"""

import functools
import io
from pathlib import Path

from sapsam.base.files import write_atomic

STYLE = Path(__file__).with_name("sapsam.mplstyle")


def styled(draw):
    """Decorate a function that draws a figure: it runs in :data:`STYLE`."""

    @functools.wraps(draw)
    def in_style(*args, **kwargs):
        from matplotlib import style

        with style.context(STYLE):
            return draw(*args, **kwargs)

    return in_style


def figure(width, height):
    """A matplotlib Figure on the Agg canvas, ``width`` x ``height`` inches, constrained layout.

    Examples
    --------
    >>> fig = figure(6.0, 4.0)
    >>> axes = fig.add_subplot()
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save_figure(figure, stem, formats=("png", "svg")):
    """Write ``stem.png`` (150 dpi) and ``stem.svg`` (or the ``formats`` among png, svg, pdf)
    atomically; same drawing, same bytes.  The layout is worked out once, for the first format,
    and kept for the others (it is in fractions of the figure, the same at any resolution).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    stem : path
        The files' path without the extension (``results/charts/rows-standard-4p``).

    Returns
    -------
    list of pathlib.Path
        The PNG and the SVG.

    Examples
    --------
    >>> save_figure(figure(6.0, 4.0), Path("plot"))  # doctest: +SKIP
    [PosixPath('plot.png'), PosixPath('plot.svg')]
    """
    from matplotlib import rc_context

    stem = Path(stem)
    written = []
    with rc_context({"svg.hashsalt": "sapsam", "svg.fonttype": "path"}):
        options_of = {"png": {"dpi": 150, "metadata": {"Software": None}},
                      "svg": {"metadata": {"Date": None, "Creator": None}},
                      "pdf": {"metadata": {"CreationDate": None, "Creator": None,
                                           "Producer": None}}}
        for ext in formats:
            options = options_of[ext]
            buffer = io.BytesIO()
            figure.savefig(buffer, format=ext, **options)
            figure.set_layout_engine("none")  # laid out: the next formats draw it as it is
            path = stem.with_name(f"{stem.name}.{ext}")
            write_atomic(path, buffer.getvalue())
            written.append(path)
    return written


def log_share_axis(axes, which):
    """Make the ``which`` ("x" or "y") axis of ``axes`` logarithmic for a probability, once its
    data and limits are in: labels at each power of ten (every other one over many decades),
    and at 2 and 5 times each as well over three decades or fewer, so that a range within one
    decade is labelled too; percentages down to 0.01%, "1 in 20,000" below; no minor ticks.
    Exponent labels (``10^-3``) and the minor ticks between decades cost most of a log-scaled
    figure's drawing time."""
    import math

    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    getattr(axes, f"set_{which}scale")("log")
    axis = getattr(axes, f"{which}axis")
    low, high = sorted(getattr(axes, f"get_{which}lim")())
    subs = (1.0, 2.0, 5.0) if math.log10(high / low) <= 3 else (1.0,)
    axis.set_major_locator(LogLocator(base=10.0, subs=subs, numticks=8))
    axis.set_major_formatter(FuncFormatter(share_label))
    axis.set_minor_locator(NullLocator())


def share_label(share, _position=None):
    """A probability as a short tick label: ``10%``, ``0.01%``, ``1 in 20k``, ``1 in 10M``."""
    if share >= 1e-4:
        return f"{100 * share:g}%"
    odds = round(1 / share)
    for size, suffix in ((10**9, "B"), (10**6, "M"), (10**3, "k")):
        if odds >= size:
            return f"1 in {odds / size:g}{suffix}"
    return f"1 in {odds}"

"""Progress of long runs: a bar with count, rate and time left on a terminal, nothing otherwise.

Analyses report progress through plain callbacks ``progress(done, total)`` and know nothing of
terminals.  The command line opens one :class:`Progress` per command and hands each stage of
its work a callback from :meth:`Progress.task`.  The bar is drawn on standard error only when
it is a terminal (not piped, not ``TERM=dumb``) and the user did not ask for ``--quiet``; it
copes with a total that is not known yet, and leaves the screen when the work is done.
"""



def shifted(progress, offset, total):
    """A stage's callback inside a larger whole: ``(done, n)`` of the stage reported as
    ``(offset + done, total)``; None when ``progress`` is None."""
    if progress is None:
        return None
    return lambda done, _n=None: progress(offset + done, total)


def shows_progress(quiet=False):
    """Whether a bar would be drawn: standard error is a real terminal and not ``--quiet``."""
    from rich.console import Console

    if quiet:
        return False
    console = Console(stderr=True)
    return console.is_terminal and not console.is_dumb_terminal


def _rate(task):
    speed = task.finished_speed or task.speed
    if not speed:
        return ""
    unit = task.fields.get("unit", "it")
    return f"{speed:,.0f} {unit}/s" if speed >= 10 else f"{speed:,.2f} {unit}/s"


class Progress:
    """Context manager: ``with Progress(quiet) as bars: run(progress=bars.task("tables"))``.

    When no bar is shown (``--quiet``, piped, a dumb terminal) every task is ``None``, which
    analyses take as "no progress wanted"; so the work is the same either way.
    """

    def __init__(self, quiet=False):
        self.enabled = shows_progress(quiet)
        self._bars = None

    def __enter__(self):
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                ProgressColumn,
                SpinnerColumn,
                TextColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bars
            from rich.text import Text

            class Rate(ProgressColumn):
                def render(self, task):
                    return Text(_rate(task), style="progress.data.speed")

            self._bars = Bars(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(bar_width=20),
                MofNCompleteColumn(), Rate(), TimeRemainingColumn(compact=True),
                TextColumn("left"), console=Console(stderr=True), transient=True)
            self._bars.__enter__()
        return self

    def __exit__(self, *exc):
        if self._bars is not None:
            self._bars.__exit__(*exc)
            self._bars = None
        return False

    def task(self, label, total=None, unit="it"):
        """A callback ``progress(done, total=None)`` for one stage, or None when not shown.

        ``total`` may be given now, later through the callback, or never (a spinner and a
        count).  Units per second are shown with ``unit``.
        """
        if self._bars is None:
            return None
        bars = self._bars
        task = bars.add_task(label, total=total, unit=unit)

        def progress(done, total=None):
            if total is not None:
                bars.update(task, total=total)
            bars.update(task, completed=done)

        return progress

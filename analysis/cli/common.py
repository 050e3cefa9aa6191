"""What every command shares: bad input as one line and exit status 2, output paths checked
before any work, comma-separated lists, the options many commands take (``--rules``, ``--seed``,
``--json``, ``--quiet``), the console, the first-compile notice, and the line an interrupted
run leaves behind.

Nothing here imports Numba, so ``sapsam --help`` and ``--version`` answer at once.
"""

import functools
import math
import os
import shlex
import sys
from pathlib import Path

import click

from sapsam.base.files import unwritable

WIDE = 120  # columns from which tables show every column


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit status 2."""

    exit_code = 2


def reports_bad_input(command):
    """Turn ``ValueError``/``TypeError`` raised by validation into an :class:`InputError`."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (ValueError, TypeError) as exc:
            raise InputError(" ".join(str(exc).split())) from None

    return wrapper


class Names(click.ParamType):
    """A comma-separated list of names (rulesets, policies, seat names), each given once.

    ``choices`` limits the names; ``every`` is a word standing for all of them ("all");
    ``repeats`` allows a name more than once; ``whole`` asks for whole numbers >= 0 instead
    (chip stacks), returned as ints."""

    name = "names"

    def __init__(self, choices=None, every=None, repeats=False, whole=False):
        self.choices, self.every, self.repeats, self.whole = choices, every, repeats, whole

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        names = tuple(x.strip() for x in str(value).split(","))
        if not all(names):
            self.fail(f"{value!r} has an empty name: separate names by single commas", param, ctx)
        if self.every and names == (self.every,):
            return names
        if self.every and self.every in names:
            self.fail(f"{self.every!r} stands for every name and goes alone: {value!r}", param, ctx)
        if self.whole and not all(x.isdigit() for x in names):
            self.fail(f"{value!r}: use whole numbers separated by commas", param, ctx)
        if self.choices is not None:
            unknown = [x for x in names if x not in self.choices]
            if unknown:
                self.fail(f"unknown {unknown[0]!r}: use {', '.join(self.choices)}", param, ctx)
        if not self.repeats:
            twice = sorted({x for x in names if names.count(x) > 1})
            if twice:
                self.fail(f"{', '.join(twice)} given twice", param, ctx)
        return tuple(int(x) for x in names) if self.whole else names


class Number(click.FloatRange):
    """A float in a range, and a number: click's FloatRange lets NaN through (no comparison
    fails), which then ran as if the option were not given."""

    def convert(self, value, param, ctx):
        import math

        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


class OutputFile(click.ParamType):
    """A file the command will write: checked writable before any work (its folder is made only
    when the file is written: :func:`sapsam.base.files.unwritable`)."""

    name = "file"

    def convert(self, value, param, ctx):
        if not str(value).strip():
            self.fail("an empty path: give the file's name", param, ctx)
        path = Path(value)
        if path.is_dir():
            self.fail(f"{value} is a folder, not a file", param, ctx)
        reason = unwritable(path.parent if str(path.parent) else Path("."))
        if reason:
            self.fail(f"cannot write {value}: {reason}", param, ctx)
        return str(path)


class OutputFolder(click.ParamType):
    """A folder the command will write in: checked writable before any work, but not made: the
    first file written in it makes it (:func:`sapsam.base.files.unwritable`), so a command that
    refuses its input, or writes nothing there, leaves no empty folder behind."""

    name = "folder"

    def convert(self, value, param, ctx):
        if not str(value).strip():  # not the working folder unasked
            self.fail("an empty path: give the folder's name (. for the working folder)", param, ctx)
        reason = unwritable(Path(value))
        if reason:
            self.fail(f"cannot write to {value}: {reason}", param, ctx)
        return str(value)


RULESET_HELP = "Ruleset id or TOML file."


def rules_option(default="standard", help=RULESET_HELP, **attrs):
    """--rules, one ruleset (``ruleset``), shown with its ``default``; None for none (a
    required option: ``required=True``)."""
    if default is not None:
        attrs.update(default=default, show_default=True)
    return click.option("--rules", "ruleset", help=help, **attrs)


def seed_option(default=0):
    """--seed, a whole number shown with its default."""
    return click.option("--seed", type=click.IntRange(0), default=default, show_default=True)


def commission_option(help="Taken from a winning bet, a fraction."):
    """--commission, a fraction of a winning bet (Pai Gow's games), 5% by default."""
    return click.option("--commission", type=Number(0, 1, max_open=True), default=0.05, show_default=True,
                        help=help)


def json_option(help="Print JSON."):
    """--json (``as_json``): the result as JSON."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def quiet_option(help="No progress bar."):
    """--quiet: no progress bar."""
    return click.option("--quiet", is_flag=True, help=help)


def resume_options(command):
    """--resume and --fresh, for a command that checkpoints its work."""
    command = click.option("--fresh", is_flag=True,
                           help="Discard the checkpoint of an earlier run and start over.")(command)
    return click.option("--resume", is_flag=True,
                        help="Continue an interrupted run from its checkpoint (none: start at the beginning).")(command)


def given(*names):
    """The options (as written: ``--json``) of the running command's parameters ``names`` that
    were given, on the command line or by an environment variable, not left at their defaults."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    return [p.opts[0] for p in ctx.command.params if p.name in names and ctx.get_parameter_source(p.name)
            in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)]


def resume_or_fresh(resume, fresh, out=True):
    """Refuse --resume with --fresh, and either without ``out`` (a command whose --out is
    optional keeps its checkpoints beside that file): the API's check, in the options' names."""
    from sapsam.base.arguments import resume_or_fresh as check

    check(resume, fresh, out, flag="--")


def distinct_rulesets(names):
    """Load rulesets (ids or files) and refuse one met twice, however it was named; returns
    the names."""
    from sapsam.game.ruleset_files import load_ruleset

    seen = {}
    for name in names:
        rules = load_ruleset(name)
        if rules.id in seen:
            raise ValueError(f"--rules names ruleset {rules.id!r} twice ({seen[rules.id]} and "
                             f"{name})")
        seen[rules.id] = name
    return list(seen.values())


def fits_ready(rulesets, players, policies, bars, quiet):
    """Fit now, with progress, the strategies the ``policies`` need (``fitted``, ``houseway``)
    for any of the ``rulesets`` (ids, files or rulesets) that has neither a shipped nor an
    earlier fit; the fit is cached, so the next command finds it
    (:func:`sapsam.strategy.fit.fitted_strategy`).  Off a terminal, where no bar shows, one
    line on stderr says that a fit of a minute or two has begun."""
    if not {"fitted", "houseway"} & set(policies):
        return
    from sapsam.game.rules import Ruleset
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.play.strategy_files import find_strategy
    from sapsam.strategy.fit import fitted_strategy

    for rules in rulesets:
        rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
        if not bars.enabled and not quiet and find_strategy(rules, players) is None:
            click.echo(f"fitting {rules.id} for {players} players (once: kept for next "
                       "time)...", err=True)
        fitted_strategy(rules, players, bars.task)


def wrapped(text):
    """Text wrapped to the terminal (or $COLUMNS), a list item's lines under its first word."""
    import re
    import textwrap

    width = console().width
    lines = []
    for line in text.splitlines():
        lead = re.match(r"\s*(?:[-*]|\d+\.)?\s*", line).end()
        lines.append(textwrap.fill(line, width, subsequent_indent=" " * lead,
                                   break_on_hyphens=False) if line.strip() else "")
    return "\n".join(lines)


def console():
    """A rich console for results on stdout.  Its width is the terminal's, else $COLUMNS,
    else wide enough for whole rows (a file or a pipe)."""
    from rich.console import Console

    term = Console()
    if not (term.is_terminal or os.environ.get("COLUMNS", "").isdigit()):
        term = Console(width=200, file=None if sys.stdout is None else _Unpadded(sys.stdout))
    term.on_broken_pipe = reader_left  # rich's own exits with status 1
    return term


def stdout_gone():
    """Whether standard output's reader has left, as far as can be told: a pipe whose reader
    closed it polls as an error.  Without a file behind stdout (closed outright, a test's
    runner) there is no other writer to blame: gone."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
    except (AttributeError, OSError, ValueError):
        return True
    return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))


def reader_left():
    """The reader of a pipe left (``sapsam rules | head``): exit with status 0, what is left to
    write (Python flushes stdout at exit) going nowhere."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no file behind stdout (a test's runner): nothing to flush
        pass
    sys.exit(0)


class _Unpadded:
    """A text stream writing to ``stream`` without the spaces rich pads a table's lines with
    to its width (on a terminal they do not show; in a file or a pipe they would)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        return self.stream.write("\n".join(line.rstrip(" ") for line in text.split("\n")))

    def flush(self):
        self.stream.flush()

    def isatty(self):
        return False


def wide(out):
    """Whether a console has room for every column of the wide tables."""
    return out.width >= WIDE


def interval_text(low, high):
    """A 95% interval as text, ``[+a, +b]``; ``n/a`` where there is none (one block of hands)."""
    return f"[{low:+.2f}, {high:+.2f}]" if math.isfinite(low) and math.isfinite(high) else "n/a"


def fitting(out, build):
    """``(build(True), True)``, the wide table, where the console has room for the whole of
    it, else ``(build(False), False)``, the compact one: a wide table squeezed into fewer
    columns than it needs cuts its numbers to an ellipsis."""
    grid, level = fitting_level(out, lambda level: build(level == 0), 1)
    return grid, level == 0


def fitting_level(out, build, last):
    """``(build(level), level)`` for the first level of 0 (the whole table) to ``last`` (the
    most compact) whose table the console has room for whole, else ``last``'s: :func:`fitting`
    over more than two tables, so that a table gives up only as much as the terminal needs."""
    from rich.measure import Measurement

    for level in range(last):
        grid = build(level)
        if Measurement.get(out, out.options.update(max_width=10**4), grid).maximum <= out.width:
            return grid, level
    return build(last), last


def best_marks(best, house_way, short=False):
    """A setting's marks in a table's last column: ``best``, ``house way``, both or neither
    (``short``: ``b``, ``h``, as a narrow terminal has room for)."""
    return ", ".join(m[0] if short else m for m, on in (("best", best), ("house way", house_way)) if on)


def table(*columns, title=None):
    """A compact rich table; a column named with a leading '>' is right-aligned."""
    from rich import box
    from rich.table import Table

    grid = Table(box=box.SIMPLE_HEAD, header_style="bold", title=title, show_edge=False,
                 pad_edge=False, padding=(0, 1))
    for name in columns:
        right = name.startswith(">")
        grid.add_column(name.lstrip(">"), justify="right" if right else "left", no_wrap=True)
    return grid


def compile_notice(quiet, *dispatchers, **arguments):
    """One line on stderr when kernels a command needs are not compiled and cached yet (for
    ``arguments`` of these values' types: :func:`sapsam.base.jit.cached`); whether they are
    not."""
    from sapsam.base.jit import cached

    cold = not cached(dispatchers, **arguments)
    if cold and not quiet:
        click.echo("compiling kernels, first run only (a minute or two)...", err=True)
    return cold


# What to tell the user if the running command is interrupted (set by commands that resume).
_RESUME = {}


def resumable(flag="--resume", saved=()):
    """Note that the running command can be resumed: adding ``flag`` to its command line.
    ``saved``: its checkpoint files; while none is written yet, an interruption says that
    nothing was saved rather than to resume."""
    args = [a for a in sys.argv[1:] if a != "--fresh"]
    if flag not in args:
        args.append(flag)
    _RESUME["command"] = "sapsam " + shlex.join(args)
    _RESUME["saved"] = [Path(p) for p in saved]


def interrupted_line():
    """The one line an interrupted command leaves."""
    command = _RESUME.get("command")
    if not command:
        return "interrupted"
    if _RESUME["saved"] and not any(p.exists() for p in _RESUME["saved"]):
        return "interrupted before the first checkpoint: nothing was saved"
    return f"interrupted; resume with: {command}"


def print_verdict(out, payload, best_found):
    """The end of a review (``review``, ``houseway HAND``): ``best_found`` when the reviewed
    decision is the best, else the best and the loss against it with its 95% CI."""
    if payload["rank"] == 1:
        out.print(best_found)
        return
    low, high = payload["loss_ci"]
    best_low, best_high = payload["best_ci"]
    out.print(f"Best: {payload['best']} (EV {payload['best_ev']:+.3f} [{best_low:+.3f}, {best_high:+.3f}])")
    out.print(f"Loss: {payload['loss']:.3f} [{low:.3f}, {high:.3f}]"
              + ("" if payload["distinguishable"] else " (not distinguishable from 0)"))

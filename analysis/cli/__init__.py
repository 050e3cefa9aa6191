"""The ``sapsam`` command line.

One module per group of commands (:mod:`~sapsam.cli.hands`, :mod:`~sapsam.cli.decide`,
:mod:`~sapsam.cli.strategy`, :mod:`~sapsam.cli.simulate`), each parsing and printing only;
the work is done in :mod:`analysis`.  Every command validates its input first: bad input
prints one line ``Error: ...`` and exits with status 2, never a traceback.  An interrupted
command prints one line (with the command that resumes it, where there is one) and exits
with status 130.  Nothing is imported until a command runs, so ``--help`` and ``--version``
answer at once.
"""

import sys

import click

from sapsam.cli.common import interrupted_line, reader_left, stdout_gone
from sapsam.cli.decide import best_command, review_command
from sapsam.cli.hands import rules_command, score_command, settings_command
from sapsam.cli.match import match_command
from sapsam.cli.serve import serve_command
from sapsam.cli.simulate import report_command, simulate_command
from sapsam.cli.strategy import (
    chart_command,
    exploit_command,
    fit_command,
    houseway_command,
)
from sapsam.games import GAMES


class Sapsam(click.Group):
    """The command group, whose errors are one line however it is invoked (console script,
    ``python -m sapsam`` or click's test runner)."""

    def list_commands(self, ctx):
        return sorted([*self.commands, *(game.command for game in GAMES)])

    def get_command(self, ctx, name):
        """Every other game's command group comes from the registry, loaded when asked for
        (its module imports this package's common parts)."""
        game = next((game for game in GAMES if game.command == name), None)
        return game.load("commands") if game else super().get_command(ctx, name)

    def main(self, args=None, **options):
        options["standalone_mode"] = False
        try:
            code = super().main(args, **options)
        except click.UsageError as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo(interrupted_line(), err=True)
            sys.exit(130)
        except click.Abort as exc:  # click's word for Ctrl-C, and for an EOFError in a command
            if isinstance(exc.__context__, KeyboardInterrupt):
                click.echo(interrupted_line(), err=True)
                sys.exit(130)
            click.echo(f"Error: unexpected end of a file or of the input "
                       f"({exc.__context__ or 'EOFError'})", err=True)
            sys.exit(1)
        except BrokenPipeError:  # the reader of a pipe left (`sapsam rules | head`)
            reader_left()
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:  # before click's main, which would exit with status 1, unsaid
            if stdout_gone():
                reader_left()
            raise click.ClickException(f"a connection broke: {exc}") from None  # not stdout's reader


@click.group(cls=Sapsam, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sapsam")
def main():
    """Strategy analyser for 13-card Chinese Poker (Sap Sam Cheung, Pusoy, Xap Xam, Thirteen)."""


@main.command("compile")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--jobs", type=click.IntRange(1, 64), default=None,
              help="Processes compiling at once  [default: the CPUs this process may use]")
def compile_command(quiet, jobs):
    """Compile and cache every kernel now (otherwise the first run of each command does)."""
    import os
    import time

    from sapsam.base.progress import Progress
    from sapsam.compile import cold, warm

    start = time.perf_counter()
    fresh = cold()
    if fresh and not quiet:
        click.echo("compiling kernels, first run only (one to three minutes on 2 cores)...", err=True)
    jobs = jobs or len(os.sched_getaffinity(0))
    with Progress(quiet) as bars:
        # loading from the cache takes seconds: one process; compiling, one per CPU
        warm(bars.task("compiling kernels" if fresh else "loading kernels", unit="steps"), jobs=jobs if fresh else 1)
    click.echo(f"kernels {'compiled and cached' if fresh else 'loaded from the cache'} in "
               f"{time.perf_counter() - start:.1f} s")


for command in (settings_command, rules_command, score_command, best_command, review_command,
                fit_command, exploit_command, simulate_command, report_command, chart_command,
                houseway_command, serve_command, match_command):
    main.add_command(command)


def run():
    """The ``sapsam`` console command."""
    main()


if __name__ == "__main__":
    run()

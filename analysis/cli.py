"""The ``sapsam`` command line.

Every command validates its input first; bad input prints one line ``Error: ...`` and exits
with status 2 (click's usage errors do the same), never a traceback.
"""

import functools
import json
import sys

import click
from rich.console import Console
from rich.table import Table

from analysis import settings as _settings
from analysis.cards import format_cards


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
            raise InputError(str(exc)) from None

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sapsam")
def main():
    """Strategy analyser for 13-card Chinese Poker (Sap Sam Cheung, Pusoy, Xap Xam, Thirteen)."""


@main.command("settings")
@click.argument("hand")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--wheel-rank", type=click.Choice(["ace-low", "second"]), default="ace-low",
              show_default=True, help="Where A-2-3-4-5 ranks among straights.")
@reports_bad_input
def settings_command(hand, as_json, wheel_rank):
    """Count the legal settings of a 13-card HAND and list its Pareto frontier.

    HAND is 13 cards such as "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d". The frontier keeps
    the legal settings no other legal setting matches or beats in every row, one per
    distinct strength triple (the others with that triple are counted as 'same').
    """
    frontier = _settings.pareto_frontier(hand, wheel_rank=wheel_rank)
    if as_json:
        payload = {
            "hand": format_cards(frontier.hand, descending=True),
            "legal": frontier.legal,
            "distinct": frontier.distinct,
            "frontier": [[format_cards(row, descending=True) for row in (m.front, m.middle, m.back)]
                         for m in frontier.members],
            "details": [{"setting": m.text, "split": m.split, "strengths": list(m.strengths),
                         "rows": list(m.describe()), "same": m.equivalent}
                        for m in frontier.members],
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    console = _console()
    console.print(f"Hand: [bold]{format_cards(frontier.hand, descending=True)}[/bold]")
    console.print(f"Legal splits: {frontier.legal:,} of {_settings.N_SPLITS:,}   "
                  f"distinct strength triples: {frontier.distinct:,}   "
                  f"frontier: {len(frontier.members):,}")
    table = Table(show_lines=False, header_style="bold")
    for name in ("#", "front", "middle", "back", "front hand", "middle hand", "back hand", "same"):
        table.add_column(name, justify="right" if name in ("#", "same") else "left")
    for i, m in enumerate(frontier.members, 1):
        table.add_row(str(i), *m.text.split(" | "), *m.describe(), str(m.equivalent))
    console.print(table)


def _console():
    """A rich console; wide enough for whole rows when the output is not a terminal."""
    console = Console()
    return console if console.is_terminal else Console(width=200)


if __name__ == "__main__":
    sys.exit(main())

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

from analysis import rules as _rules
from analysis import score as _score
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


@main.command("rules")
@click.argument("ruleset", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def rules_command(ruleset, as_json):
    """List the named rulesets, or show RULESET (an id or a TOML file) in full."""
    if ruleset is None:
        listing = {rid: _rules.load_ruleset(rid) for rid in _rules.ruleset_ids()}
        if as_json:
            click.echo(json.dumps({rid: r.describe() for rid, r in listing.items()}, indent=2))
            return
        table = Table(header_style="bold", box=None)
        table.add_column("id")
        table.add_column("name")
        table.add_column("scoring")
        for rid, r in listing.items():
            table.add_row(rid, r.name, r.describe())
        _console().print(table)
        return
    rules = _rules.load_ruleset(ruleset)
    if as_json:
        click.echo(json.dumps(_rules.as_dict(rules), indent=2))
        return
    click.echo(_rules.as_toml(rules))


@main.command("score")
@click.argument("declarations", nargs=-1, required=True)
@click.option("--rules", "ruleset", default="standard", show_default=True,
              help="Ruleset id or TOML file.")
@click.option("--bank", type=int, default=None, help="The bank's seat (1-based) in a bank game.")
@click.option("--chips", default=None, help="Chip stacks A,B,C,D: chip-limited settlement.")
@click.option("--names", default=None, help="Seat names, e.g. North,East,South,West.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def score_command(declarations, ruleset, bank, chips, names, as_json):
    """Settle a showdown of 2-4 players.

    Each DECLARATION is 'front | middle | back', 'natural:<13 cards>' or
    'surrender:<13 cards>'. A foul setting is scored as a foul and flagged.
    """
    chip_stacks = _int_list(chips, "--chips") if chips else None
    seat_names = [x.strip() for x in names.split(",")] if names else None
    if bank is not None and bank < 1:
        raise ValueError(f"--bank is a seat number from 1, got {bank}")
    result = _score.score_showdown(ruleset, declarations, bank=None if bank is None else bank - 1,
                                   chips=chip_stacks, names=seat_names)
    if as_json:
        payload = {"rules": result.rules.id, "names": list(result.names), "status": list(result.status),
                   "totals": result.totals, "pairs": result.pairs()}
        click.echo(json.dumps(payload, indent=2))
        return
    console = _console()
    console.print(f"Ruleset: [bold]{result.rules.id}[/bold] ({result.rules.describe()})")
    for name, decl, status in zip(result.names, result.declarations, result.status):
        flag = "  [red]FOUL[/red]" if status == "foul" else ""
        console.print(f"  {name}: {decl.text}  [dim]({status})[/dim]{flag}")
    pairs = result.pairs()
    if pairs:
        table = Table(header_style="bold")
        for col in ("pair", "front", "middle", "back", "units", "rows", "royalties", "bonus",
                    "naturals", "surrender", "aces"):
            table.add_column(col, justify="left" if col in ("pair", "front", "middle", "back") else "right")
        for p in pairs:
            rows = p["rows"] or {"front": "-", "middle": "-", "back": "-"}
            b = p["breakdown"]
            table.add_row(" v ".join(p["names"]), rows["front"], rows["middle"], rows["back"],
                          f"{p['units']:+g}", *(f"{b[k]:+g}" for k in ("rows", "royalties", "bonus",
                                                                        "naturals", "surrender", "aces")))
        console.print(table)
        console.print("[dim]units: paid to the first seat of the pair by the second[/dim]")
    console.print("Totals: " + ", ".join(f"{n} {t:+g}" for n, t in zip(result.names, result.totals)))


def _int_list(text, option):
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"{option} takes whole numbers separated by commas, got {text!r}") from None


def _console():
    """A rich console; wide enough for whole rows when the output is not a terminal."""
    console = Console()
    return console if console.is_terminal else Console(width=200)


if __name__ == "__main__":
    sys.exit(main())

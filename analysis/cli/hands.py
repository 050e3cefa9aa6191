"""Commands about one hand or one showdown: ``settings``, ``rules``, ``score``."""

import click

from sapsam.base.files import json_text
from sapsam.cli.common import (
    Names,
    compile_notice,
    console,
    fitting,
    json_option,
    reports_bad_input,
    rules_option,
    table,
    wide,
)


@click.command("settings")
@click.argument("hand")
@json_option("Print JSON instead of a table.")
@click.option("--wheel-rank", type=click.Choice(["ace-low", "second"]), default=None,
              help="Where A-2-3-4-5 ranks among straights  [default: ace-low]")
@click.option("--rules", "ruleset", default=None, metavar="RULESET",
              help="Set the hand under a ruleset (an id or a TOML file): its wheel rank, and "
                   "what is legal when its middle plays low.")
@reports_bad_input
def settings_command(hand, as_json, wheel_rank, ruleset):
    """Count the legal settings of a 13-card HAND and list its Pareto frontier.

    HAND is 13 cards such as "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d". The frontier keeps
    the legal settings no other legal setting matches or beats in every row, one per
    distinct strength triple (the others with that triple are counted as 'same').
    """
    from sapsam.compile import hand_kernels
    from sapsam.game import settings as _settings
    from sapsam.game.cards import format_cards, parse_hand
    from sapsam.output.answers import settings_answer, settings_frontier

    parse_hand(hand)  # bad cards are told before anything else
    if ruleset is not None and wheel_rank is not None:
        raise click.UsageError("give --rules or --wheel-rank, not both (a ruleset has its wheel rank)")
    wheel_rank = wheel_rank or "ace-low"
    compile_notice(as_json, *hand_kernels())
    if as_json:
        click.echo(json_text(settings_answer(hand, wheel_rank, ruleset), indent=2,
                              ensure_ascii=False))
        return
    frontier = settings_frontier(hand, wheel_rank, ruleset)
    out = console()
    out.print(f"Hand: [bold]{format_cards(frontier.hand, descending=True)}[/bold]")
    out.print(f"Legal splits: {frontier.legal:,} of {_settings.N_SPLITS:,}   "
              f"distinct strength triples: {frontier.distinct:,}   "
              f"frontier: {len(frontier.members):,}")

    def members(full):
        grid = table(">#", "front", "middle", "back",
                     *(("front hand", "middle hand", "back hand") if full else ()), ">same")
        for i, m in enumerate(frontier.members, 1):
            grid.add_row(str(i), *m.text.split(" | "), *(m.describe() if full else ()),
                         str(m.equivalent))
        return grid

    grid, full = fitting(out, members)
    out.print(grid)
    if not full:
        out.print("[dim]the rows' hand names show in a wider terminal (or --json)[/dim]")


@click.command("rules")
@click.argument("ruleset", required=False)
@json_option()
@reports_bad_input
def rules_command(ruleset, as_json):
    """List the named rulesets, or show RULESET (an id or a TOML file) in full.

    RULES.md explains every ruleset: where it comes from and each default chosen where the
    sources are silent.
    """
    from sapsam.game import ruleset_files as _rules
    from sapsam.output.answers import rules_answer

    if ruleset is None:
        if as_json:
            click.echo(json_text(rules_answer(), indent=2))
            return
        listing = {rid: _rules.load_ruleset(rid) for rid in _rules.ruleset_ids()}
        out = console()
        grid = table("id", *(("name",) if wide(out) else ()), "scoring")
        grid.columns[-1].no_wrap = False
        for rid, r in listing.items():
            grid.add_row(rid, *((r.name,) if wide(out) else ()), r.describe())
        out.print(grid)
        return
    if as_json:
        click.echo(json_text(rules_answer(ruleset), indent=2))
        return
    click.echo(_rules.as_toml(_rules.load_ruleset(ruleset)))


@click.command("score")
@click.argument("declarations", nargs=-1, required=True)
@rules_option()
@click.option("--bank", type=click.IntRange(1), default=None,
              help="The bank's seat (1-based) in a bank game.")
@click.option("--chips", type=Names(repeats=True, whole=True), default=None,
              help="Chip stacks A,B,C,D: chip-limited settlement.")
@click.option("--names", type=Names(), default=None, help="Seat names, e.g. North,East,South,West.")
@json_option()
@reports_bad_input
def score_command(declarations, ruleset, bank, chips, names, as_json):
    """Settle a showdown of 2-4 players.

    Each DECLARATION is 'front | middle | back', 'natural:<13 cards>' or
    'surrender:<13 cards>'. A foul setting is scored as a foul and flagged.
    """
    from sapsam.game import score as _score
    from sapsam.output.answers import score_answer

    result = _score.score_showdown(ruleset, declarations, bank=None if bank is None else bank - 1,
                                   chips=list(chips) if chips else None, names=list(names) if names else None)
    if as_json:
        click.echo(json_text(score_answer(result), indent=2))
        return
    out = console()
    out.print(f"Ruleset: [bold]{result.rules.id}[/bold] ({result.rules.describe()})")
    for name, decl, status in zip(result.names, result.declarations, result.status):
        flag = "  [red]FOUL[/red]" if status == "foul" else ""
        out.print(f"  {name}: {decl.text}  [dim]({status})[/dim]{flag}")
    pairs = result.pairs()
    if pairs:
        parts = ("rows", "royalties", "bonus", "naturals", "surrender", "aces")
        shown = parts if wide(out) else tuple(k for k in parts
                                              if any(p["breakdown"][k] for p in pairs))
        grid = table("pair", "front", "middle", "back", ">units", *(">" + k for k in shown))
        for p in pairs:
            rows = p["rows"] or {"front": "-", "middle": "-", "back": "-"}
            b = p["breakdown"]
            grid.add_row(" v ".join(p["names"]), rows["front"], rows["middle"], rows["back"],
                         f"{p['units']:+g}", *(f"{b[k]:+g}" for k in shown))
        out.print(grid)
        out.print("[dim]units: paid to the first seat of the pair by the second[/dim]")
    if chips:
        stacks = ", ".join(f"{n} {c}" for n, c in zip(result.names, chips))
        out.print(f"[dim]chip-limited ({stacks}): units as paid, the other columns before the limit[/dim]")
    out.print("Totals: " + ", ".join(f"{n} {t:+g}" for n, t in zip(result.names, result.totals)))
    if result.rules.hands > 1:
        out.print("Players: " + ", ".join(f"{n} {t:+g}" for n, t in result.player_totals.items()))


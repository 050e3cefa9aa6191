"""Match play (first to 11): ``match`` plays matches between the seats' policies."""

import click

from sapsam.base.files import json_text
from sapsam.cli.common import (
    Names,
    compile_notice,
    console,
    fits_ready,
    fitting,
    json_option,
    quiet_option,
    reports_bad_input,
    rules_option,
    seed_option,
    table,
)
from sapsam.play.names import POLICY_NAMES


@click.command("match")
@rules_option("first-to-11", help="A ruleset played as a match (scoring.game = 'match'): id or TOML file.")
@click.option("--seats", type=Names(POLICY_NAMES, repeats=True), default="fitted,fitted,fitted,fitted",
              show_default=True, help="A policy per seat, comma-separated (2 to 4 seats).")
@click.option("--matches", type=click.IntRange(1, 10**7), default=2000, show_default=True)
@seed_option()
@click.option("--strategy", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Strategy file for the fitted seats.")
@json_option()
@quiet_option()
@reports_bad_input
def match_command(ruleset, seats, matches, seed, strategy, as_json, quiet):
    """Play matches to the target between the seats' policies: each seat's chance of winning
    the match, with its 95% interval, and its points per deal.

    Every match is dealt from its own tables (fixed by --seed), everyone playing each deal by
    their policy; a tie for the lead at the target is played on until one player leads alone.
    """
    from sapsam.base.progress import Progress
    from sapsam.compile import match_kernels
    from sapsam.measure.match import CHUNK, match_rules, play_matches

    rules = match_rules(ruleset)
    try:
        rules.check_players(len(seats))
    except ValueError as exc:
        raise click.BadParameter(f"a policy a seat: {len(seats)} given ({exc})", param_hint="'--seats'") from None
    quiet = quiet or as_json
    compile_notice(quiet, *match_kernels())
    with Progress(quiet) as bars:
        if strategy is None:
            fits_ready([rules], len(seats), sorted(set(seats)), bars, quiet)
        result = play_matches(rules, seats, matches, seed, strategy,
                              progress=bars.task("playing matches", matches, unit="matches"))
    if as_json:
        click.echo(json_text(result.to_dict(), indent=2))
        return
    out = console()
    out.print(f"{rules.id}: first to {rules.match.target}, {len(seats)} players, "
              f"{result.matches:,} matches (seed {seed}), {result.lengths.mean():.1f} deals a match")
    grid = table(">seat", "policy", ">won", ">share", ">95% CI", ">points/deal", ">±95%")
    for row in result.frame().itertuples(index=False):
        grid.add_row(str(row.seat), row.policy, f"{row.wins:,}", f"{row.share:.3f}",
                     f"[{row.ci_low:.3f}, {row.ci_high:.3f}]", f"{row.points_per_deal:.3f}",
                     f"{(row.points_ci_high - row.points_ci_low) / 2:.3f}")
    out.print(grid)
    out.print("[dim]share: of the matches won (Wilson 95% interval); a player's share is "
              f"1/{len(seats)} when all play alike; points/deal: over all {result.deals:,} tables "
              f"dealt (in chunks of {CHUNK:,}), those past the last match too[/dim]")


def print_match_decision(result, top=None):
    """``sapsam best --score``: the settings by the chance of winning the match."""
    from sapsam.game.cards import format_cards

    out = console()
    scores = ",".join(map(str, result.scores.tolist()))
    out.print(f"Hand: [bold]{format_cards(result.hand, descending=True)}[/bold]")
    out.print(f"{result.rules.id} at {scores} (yours first): you win {result.now:.1%} of such "
              f"matches before this deal; {result.opponents} opponents, {result.samples:,} sampled tables")
    points_best = result.points_best.name

    def ranking(full):
        columns = (">#", "setting", ">win match" if full else ">win", ">95% CI" if full else ">±95%",
                   ">gap", ">points" if full else ">pts")
        grid = table(*columns + ((">95% CI",) if full else ()))
        digits = 2 if full else 1
        for i, row in enumerate(result.table.head(top).itertuples()):
            ci = (f"[{row.win_ci_low:.2%}, {row.win_ci_high:.2%}]" if full
                  else f"{(row.win_ci_high - row.win_ci_low) / 2:.1%}")
            cells = [str(i + 1), row.setting + (" *" if row.Index == points_best else ""),
                     f"{row.win:.{digits}%}", ci,
                     "best" if i == 0 else f"{row.win_gap:+.{digits}%}" + (" ~" if row.win_gap_ci_high >= 0 else ""),
                     f"{row.points:.{digits + 1}f}"]
            grid.add_row(*cells + ([f"[{row.points_ci_low:.3f}, {row.points_ci_high:.3f}]"] if full else []))
        return grid

    grid, full = fitting(out, ranking)
    out.print(grid)
    best, most = result.match_best, result.points_best
    if best.name == most.name:
        out.print("Playing for the match and for points agree here.")
    else:
        low, high = -100 * most.win_gap_ci_high, -100 * most.win_gap_ci_low
        out.print(f"For the match: [bold]{best.setting}[/bold]; for points: {most.setting}, which "
                  f"wins the match {-100 * most.win_gap:.2f} percentage points less often (95% CI "
                  f"[{low:.2f}, {high:.2f}]{'' if low > 0 else ': not distinguishable'}).")
    out.print("[dim]* the most points this deal (points: per deal); win match: the chance of "
              "winning if everyone plays the opponents' policy after this deal; ~: the gap not "
              "distinguishable from the best at 95%[/dim]")

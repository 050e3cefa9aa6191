"""Commands that decide one hand: ``best`` ranks its settings, ``review`` grades one."""

import click

from sapsam.base.files import json_text, write_atomic
from sapsam.cli.common import (
    Names,
    Number,
    OutputFile,
    compile_notice,
    console,
    fits_ready,
    fitting_level,
    json_option,
    print_verdict,
    quiet_option,
    reports_bad_input,
    rules_option,
    seed_option,
    table,
)
from sapsam.game.cards import format_cards
from sapsam.play.names import POLICY_NAMES

_POLICY = click.Choice(POLICY_NAMES)


def _opponents(bars, quiet, name, rules, players, strategy):
    """The opponents' policy, made before sampling (a fit on demand or a house way takes
    seconds)."""
    from sapsam.strategy.registry import make_policy

    if strategy is not None and name != "fitted":  # it would be silently ignored
        raise ValueError(f"--strategy is for fitted opponents, and these are {name}: "
                         "drop it, or play --opponents fitted")
    if strategy is None:
        fits_ready([rules], players, [name], bars, quiet)
    return make_policy(name, rules, players, strategy, stage=bars.task)


def _decide(hand, ruleset, players, opponents, samples, seed, strategy, quiet, others=(None,),
            then=None, **options):
    """Load, warn of a first compile, and rank the candidates with a progress bar: one
    result per entry of ``others`` (the player's other hand in criss-cross, where ``hand``
    is a pair of hands and each is ranked knowing the other).  ``then(results, policy,
    bars)``: more work against the same opponents, its answer returned beside the results."""
    from sapsam.base.memory import require_memory
    from sapsam.base.progress import Progress
    from sapsam.compile import best_kernels, join_beside, start_beside
    from sapsam.game.cards import parse_hand
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.measure.best import SAMPLE_BYTES, best_setting, sampler_search, unseen_cards, warm_sampler

    hands = hand if isinstance(hand, tuple) else (hand,)
    for each in (*hands, *others):
        if isinstance(each, str):
            parse_hand(each)  # bad cards are told before anything else
    rules = load_ruleset(ruleset)
    players = rules.check_players(rules.players if players is None else players)
    for each, other in zip(hands, others):
        unseen_cards(each, rules, other)  # a missing or needless other hand, before any fit on demand
    require_memory(samples * SAMPLE_BYTES, f"{samples:,} samples")  # with one candidate
    cold = compile_notice(quiet, *best_kernels(rules, opponents), search=sampler_search(opponents, rules))
    # a first run compiles the hand's own kernels in a second process while this one compiles
    # the sampler (docs/performance.md, "Compile time")
    beside = start_beside(ruleset) if cold and rules.hands == 1 else None
    try:
        with Progress(quiet) as bars:
            policy = _opponents(bars, quiet, opponents, rules, players, strategy)
            if beside is not None:
                warm_sampler(rules, players, policy)
                join_beside(beside)
            results = [best_setting(each, rules, players, policy, samples, seed, other=other,
                                    progress=bars.task("sampling tables" + (f" (hand {i + 1})" if other is not None
                                                                            else ""), unit="tables"),
                                    **options)
                       for i, (each, other) in enumerate(zip(hands, others))]
            return results if then is None else (results, then(results, policy, bars))
    finally:
        join_beside(beside, timeout=0)


def _decide_match(hand, ruleset, scores, opponents, samples, seed, strategy, quiet):
    """As :func:`_decide`, ranking by the chance of winning a match from ``scores``."""
    from sapsam.base.progress import Progress
    from sapsam.compile import best_kernels, match_equity_kernels
    from sapsam.game.cards import parse_hand
    from sapsam.measure.best import sampler_search
    from sapsam.measure.match import check_scores, match_rules, match_setting

    parse_hand(hand)
    rules = match_rules(ruleset)
    check_scores(scores, rules)
    compile_notice(quiet, *best_kernels(rules, opponents), *match_equity_kernels(),
                   search=sampler_search(opponents, rules))
    with Progress(quiet) as bars:
        policy = _opponents(bars, quiet, opponents, rules, len(scores), strategy)
        return match_setting(hand, rules, scores, policy, samples, seed,
                             progress=bars.task("sampling tables", unit="tables"))


_PLAYERS = click.option("--players", type=click.IntRange(2, 4), default=None,
                        help="Table size  [default: the ruleset's, 4 but in criss-cross]")
_OTHER = click.option("--other", default=None,
                      help="Criss-cross: your other hand (13 cards); the opponent holds the rest.")


@click.command("best")
@click.argument("hand")
@rules_option()
@_PLAYERS
@_OTHER
@click.option("--opponents", type=_POLICY, default="fitted", show_default=True, help="Opponent policy.")
@click.option("--samples", type=click.IntRange(1), default=10000, show_default=True,
              help="Sampled opponent tables (the most used with --precision).")
@seed_option()
@click.option("--precision", type=Number(0, min_open=True), default=None,
              help="Stop once the best is separated or every CI half-width is below this.")
@click.option("--top", type=click.IntRange(1), default=None, help="Show only the best K.")
@click.option("--strategy", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Strategy file for fitted opponents.")
@json_option()
@click.option("--csv", "csv_path", type=OutputFile(), default=None,
              help="Also write every candidate to this CSV file.")
@click.option("--score", "scores", type=Names(whole=True, repeats=True), default=None,
              help="A match's score, yours first (e.g. 8,10,3,6): rank by the chance of winning it.")
@quiet_option()
@reports_bad_input
def best_command(hand, ruleset, players, other, opponents, samples, seed, precision, top,
                 strategy, as_json, csv_path, scores, quiet):
    """Rank every sensible way to set a 13-card HAND by Monte Carlo EV.

    Candidates are the Pareto frontier (plus declaring a natural and surrendering where the
    ruleset has them); all meet the same sampled opponents, so gaps between them are paired.
    In criss-cross, give your other hand with --other: both are ranked, each knowing the other.
    In a match (first-to-11), --score ranks by the chance of winning the match from that score
    and shows where it differs from playing for the points of this deal.
    """
    if scores is not None:
        from sapsam.cli.match import print_match_decision

        if precision is not None or other is not None:
            raise ValueError("--score ranks a match's settings: without --precision or --other")
        if players is not None and players != len(scores):
            raise ValueError(f"--score gives {len(scores)} players' scores, --players {players}")
        result = _decide_match(hand, ruleset, scores, opponents, samples, seed, strategy,
                               quiet or as_json)
        if csv_path:
            write_atomic(csv_path, result.table.to_csv(index=False))
        if as_json:
            click.echo(json_text(result.to_dict(), indent=2))
        else:
            print_match_decision(result, top)
        return
    pair = (hand, other) if other is not None else (hand,)
    results = _decide(pair, ruleset, players, opponents, samples, seed, strategy,
                      quiet or as_json, others=pair[::-1] if other is not None else (None,),
                      precision=precision)
    if csv_path:
        import pandas as pd

        frames = [r.table.assign(hand=r.hand_text) if len(results) > 1 else r.table for r in results]
        write_atomic(csv_path, pd.concat(frames).to_csv(index=False))
    if as_json:
        payload = [r.to_dict(top) for r in results]
        click.echo(json_text(payload[0] if len(payload) == 1 else {"hands": payload}, indent=2))
        return
    for result in results:
        _print_ranking(result, top, samples, precision)


def _print_ranking(result, top, asked=None, precision=None):
    out = console()
    out.print(f"Hand: [bold]{result.hand_text}[/bold]" + (
        "" if result.other is None else f"  [dim](other hand {format_cards(result.other, descending=True)})[/dim]"))
    out.print(f"{result.rules.id}, {result.players} players, {result.opponents} opponents, "
              f"{result.samples:,} sampled tables (seed {result.seed})")
    if precision is not None and result.samples < asked:  # the race ended early: say why
        separated = bool((result.table["gap_high"].iloc[1:] < 0).all())  # the race's two ends
        out.print(f"[dim]stopped at {result.samples:,} of {asked:,} tables: "
                  + ("the best setting led every other at 95%" if separated else
                     f"the settings still racing each within ±{precision:g}") + "[/dim]")

    def ranking(level):  # 0: whole; 1: compact; 2: compact, each setting's rows on lines of their own
        full = level == 0
        columns = (">#", "setting", ">EV", ">95% CI" if full else ">±95%", ">gap to best")
        if full:
            columns += (">gap CI", ">F w/t/l", ">M w/t/l", ">B w/t/l", ">sweep", ">swept")
        grid = table(*columns)
        grid.show_lines = level == 2
        for i, row in enumerate(result.table.head(top).itertuples(index=False), 1):
            gap = "best" if i == 1 else f"{row.gap:+.3f}" + ("" if row.distinguishable else " ~")
            ci = f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}]" if full else f"{(row.ci_high - row.ci_low) / 2:.3f}"
            cells = [str(i), row.setting.replace(" | ", "\n") if level == 2 else row.setting, f"{row.ev:+.3f}",
                     ci, gap]
            if full:
                rowless = "|" not in row.setting  # a surrender or a natural: no row meets another
                cells += ["" if i == 1 else f"[{row.gap_low:+.3f}, {row.gap_high:+.3f}]",
                          *("-" if rowless else f"{getattr(row, r + '_win'):.2f}/{getattr(row, r + '_tie'):.2f}/"
                            f"{getattr(row, r + '_loss'):.2f}" for r in ("front", "middle", "back")),
                          *(("-", "-") if rowless else (f"{row.sweep:.3f}", f"{row.swept:.3f}"))]
            grid.add_row(*cells)
        return grid

    grid, level = fitting_level(out, ranking, 2)
    full = level == 0
    out.print(grid)
    out.print("[dim]EV: units per hand; ~: not distinguishable from the best at 95%"
              + ("; w/t/l per opponent" if full else "") + "[/dim]")
    if not full:
        out.print("[dim]rows' win/tie/loss, sweeps and gap CIs: a wider terminal or --json[/dim]")


@click.command("review")
@click.argument("hand", required=False)
@click.argument("setting", required=False)
@click.option("--file", "played", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Review every hand of this CSV file instead (columns hand, setting and, in "
                   "criss-cross, other), each hand seeded --seed plus its line's number.")
@rules_option()
@_PLAYERS
@_OTHER
@click.option("--opponents", type=_POLICY, default="fitted", show_default=True, help="Opponent policy.")
@click.option("--samples", type=click.IntRange(1), default=10000, show_default=True)
@seed_option()
@click.option("--strategy", type=click.Path(dir_okay=False, exists=True), default=None)
@json_option()
@click.option("--csv", "csv_path", type=OutputFile(), default=None,
              help="Also write the table to this CSV file: the hand's candidates with the played "
                   "setting among them (as best --csv), or with --file a row a hand.")
@quiet_option()
@reports_bad_input
def review_command(hand, setting, played, ruleset, players, other, opponents, samples, seed, strategy,
                   as_json, csv_path, quiet):
    """Review the SETTING played with a 13-card HAND: its rank and EV loss against the best
    (SETTING "front | middle | back", or surrender or natural where the ruleset has them).
    Or every hand of a CSV --file (a night's hands), with the losses summed."""
    from sapsam.game.cards import parse_hand
    from sapsam.measure.review import extra_rows, held_out, played_setting, review_of

    if played is not None and (hand is not None or setting is not None or other is not None):
        raise click.UsageError("give HAND and SETTING, or --file, not both (in criss-cross the file's other "
                               "column holds each hand's other hand)")
    if played is not None:
        return _review_file(played, ruleset, players, opponents, samples, seed, strategy, as_json, csv_path, quiet)
    if hand is None or setting is None:
        raise click.UsageError("give HAND and SETTING (the 13 cards and how they were set), or --file with "
                               "a CSV file of hands")
    if other is not None:
        parse_hand(other)  # bad cards are told before the ruleset, as _decide tells them
    cards, rows = played_setting(hand, setting, ruleset)

    def apart(results, policy, bars):  # the loss measured again, on tables of its own
        shown = bars.task("measuring apart", samples, unit="tables")  # None when quiet
        measured = held_out(results[0], rows, policy, samples, seed, other, progress=shown)
        if shown is not None:
            shown(samples)  # nothing sampled where the played setting is the best
        return measured

    (result,), (loss, ci) = _decide(cards, ruleset, players, opponents, samples, seed, strategy,
                                    quiet or as_json, others=(other,), then=apart, extra=extra_rows(rows))
    payload = review_of(result, rows) | {"held_out_loss": loss, "held_out_ci": ci}
    if csv_path:
        write_atomic(csv_path, result.table.to_csv(index=False))
    if as_json:
        click.echo(json_text(payload, indent=2))
        return
    out = console()
    declared = isinstance(rows, str)  # a surrender or a natural: no rows to be legal or foul
    out.print(f"Played: [bold]{payload['setting']}[/bold]" + ("" if declared else
                                                              f" ({'legal' if payload['legal'] else 'foul'})"))
    low, high = payload["ci"]
    out.print(f"Rank {payload['rank']} of {payload['candidates']}; EV {payload['ev']:+.3f} "
              f"[{low:+.3f}, {high:+.3f}] units per hand")
    print_verdict(out, payload, "This is the best setting found.")
    if payload["rank"] > 1:
        low, high = payload["held_out_ci"]
        out.print(f"Measured apart: {payload['held_out_loss']:.3f} [{low:.3f}, {high:.3f}]")
        out.print("[dim]The loss as ranked is measured on the tables that chose the best, and leans high where "
                  "settings are near-tied; measured apart, the played and the chosen best meet tables of their "
                  "own (a lower estimate: the best chosen may not be the best).[/dim]")
    out.print(f"[dim]{result.samples:,} sampled tables, {result.players} players, {opponents} opponents, "
              f"{result.rules.id}[/dim]")


def _review_file(path, ruleset, players, opponents, samples, seed, strategy, as_json, csv_path, quiet):
    """``review --file``: every hand of the file reviewed, a row each, the losses summed; any
    hand refused is told on stderr (its line and why) and the status is 2.  ``csv_path``: a row
    a hand written there too (an interrupted run's hands done)."""
    from sapsam.base.progress import Progress
    from sapsam.compile import best_kernels
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.measure.best import sampler_search
    from sapsam.measure.review import read_played
    from sapsam.output.answers import ReviewedHands

    rules = load_ruleset(ruleset)
    played = read_played(path, rules)  # the file's faults before any work, and read once (a pipe)
    players = rules.check_players(rules.players if players is None else players)
    compile_notice(quiet or as_json, *best_kernels(rules, opponents), search=sampler_search(opponents, rules))
    with Progress(quiet or as_json) as bars:
        policy = _opponents(bars, quiet or as_json, opponents, rules, players, strategy)
        # interrupted, it shows the hands it had reviewed before saying so
        reviewed = ReviewedHands.of(path, rules, players, policy, samples, seed, progress=bars.task(
            "reviewing hands", unit="hands"), stop_on_interrupt=True, played=played)
    if csv_path and reviewed.hands:
        write_atomic(csv_path, reviewed.to_frame().to_csv())
    if as_json:
        click.echo(json_text(reviewed.to_dict(), indent=2))
    else:
        _print_reviewed(reviewed)
    for hand in reviewed.refused:
        click.echo(f"line {hand['line']} refused: {' '.join(hand['error'].split())}", err=True)
    if reviewed.interrupted:
        raise KeyboardInterrupt
    if reviewed.refused:
        raise click.exceptions.Exit(2)


def _print_reviewed(reviewed):
    out = console()
    total = reviewed.total
    out.print(f"Reviewed [bold]{reviewed.file}[/bold]: {total['hands']} hand{'s' * (total['hands'] != 1)}"
              + (f", {total['refused']} refused" if total["refused"] else "")
              + (f" (interrupted after line {reviewed.hands[-1]['line']})" if reviewed.interrupted and reviewed.hands
                 else " (interrupted before the first hand)" if reviewed.interrupted else ""))
    out.print(f"{reviewed.rules}, {reviewed.players} players, {reviewed.opponents} opponents, "
              f"{reviewed.samples:,} sampled tables a hand (seed {reviewed.seed} plus its line's number)")
    hands = sorted((h for h in reviewed.hands if "error" not in h), key=lambda h: -h["loss"])
    if not hands:
        out.print("No hand could be reviewed: each refused hand is told below, with its line.")
        return

    def grid(level):  # 0: whole; 1: compact; 2: compact, each setting's rows on lines of their own
        full = level == 0
        rows = table(">line", "played", ">EV lost", ">95% CI" if full else ">±95%", ">rank",
                     *(("best",) if full else ()))
        rows.show_lines = level == 2
        for h in hands:
            low, high = h["loss_ci"]
            mark = " ~" if h["rank"] > 1 and not h["distinguishable"] else ""
            rank = f"{h['rank']} of {h['candidates']}" if full else f"{h['rank']}/{h['candidates']}"
            rows.add_row(str(h["line"]), h["setting"].replace(" | ", "\n") if level == 2 else h["setting"],
                         f"{h['loss']:.3f}{mark}", f"[{low:.3f}, {high:.3f}]" if full else f"{(high - low) / 2:.3f}",
                         rank + ("" if h["legal"] else " foul"),
                         *(("played" if h["rank"] == 1 else h["best"],) if full else ()))
        return rows

    out.print(fitting_level(out, grid, 2)[0])
    for label, name, ci, prefix in (("as ranked", "loss", "loss_ci", ""),
                                    ("measured apart", "held_out_loss", "held_out_ci", "held_out_")):
        (low, high), (per_low, per_high) = total[ci], total[f"{prefix}per_hand_ci"]
        out.print(f"Lost in all, {label}: {total[name]:.3f} [{low:.3f}, {high:.3f}] units, "
                  f"{total[f'{prefix}per_hand']:.3f} [{per_low:.3f}, {per_high:.3f}] a hand")
    out.print("[dim]EV lost: units per hand against the best setting found, paired; ~: not distinguishable "
              "from 0 at 95%. As ranked, a loss is measured on the tables that chose the best, and leans high "
              "where settings are near-tied (an upper estimate); measured apart, the played and the chosen "
              "best meet tables of their own (a lower one: the best chosen may not be the best). The hands' "
              "estimates are independent, so a total's interval adds their variances.[/dim]")

"""``sapsam ofc``: Open-Face Chinese Poker (fantasyland, stay, place, simulate, duel, improve, learn)."""

import click

from sapsam.base.files import json_text
from sapsam.cli.common import (
    Names,
    Number,
    OutputFile,
    compile_notice,
    console,
    fitting,
    interval_text,
    json_option,
    quiet_option,
    reports_bad_input,
    resumable,
    resume_options,
    resume_or_fresh,
    rules_option,
    seed_option,
    table,
)

RULES_HELP = "An OFC ruleset: ofc-pineapple, ofc-pineapple-progressive, ofc-classic or a TOML file."


def _notice(quiet, command):
    from sapsam.ofc.measure.compile import command_kernels

    compile_notice(quiet, *command_kernels(command))


def _reach(*frames, fantasyland=False):
    """The fouls' and entries' intervals at most, in a line under the table; ``fantasyland``:
    the stays' and Fantasyland's worth's too, where a seat played Fantasyland hands."""
    from sapsam.ofc.measure.simulate import interval_reach, shares_reach

    text = f"95% intervals: fouls, FL in ±{100 * shares_reach(*frames):.1f}%"  # of the shares shown in %
    shown = (("stays", "stays", 100, "%"), ("FL worth", "fl_worth", 1, " points"))
    for name, column, scale, unit in shown if fantasyland else ():
        reach = interval_reach(frames, column)
        text += f"; {name} ±{scale * reach:.1f}{unit}" if reach == reach else ""  # NaN: no Fantasyland hands
    return text


def _rules(ruleset):
    from sapsam.ofc.game import load_ofc_rules

    return load_ofc_rules(ruleset)


@click.group("ofc")
def ofc_command():
    """Open-Face Chinese Poker: boards built face up street by street (classic: 5 cards, then
    one at a time; Pineapple: 5, then four rounds of 3, placing 2), Fantasyland, royalties."""


@ofc_command.command("fantasyland")
@click.argument("cards")
@rules_option("ofc-pineapple", help=RULES_HELP)
@json_option()
@reports_bad_input
def fantasyland_command(cards, ruleset, as_json):
    """The best setting of a Fantasyland hand of CARDS, as many as the ruleset deals (13 to 17),
    exactly: the most royalties plus the worth of staying in Fantasyland, discards chosen too
    (ties: the strongest rows).

    CARDS: "As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h"
    """
    from sapsam.ofc.measure.fantasyland import best_fantasyland, parse_fantasyland_cards

    rules = _rules(ruleset)
    hand = parse_fantasyland_cards(cards, rules)
    _notice(as_json, "fantasyland")
    best = best_fantasyland(hand, rules)
    answer = best.to_dict()
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    out = console()
    out.print(f"{rules.id}: {len(hand)} cards, the best of every setting that is not fouled "
              f"({1000 * best.seconds:.1f} ms)")
    grid = table("row", "cards", "hand", ">royalty")
    for name, row in answer["rows"].items():
        grid.add_row(name, row["cards"], row["hand"], str(row["royalty"]))
    out.print(grid)
    discards = " ".join(answer["discards"]) or "none"
    stays = (f"stays in Fantasyland (+{rules.fantasyland.worth:g} counted)" if best.stays
             else "does not stay")
    out.print(f"Discard: {discards}.  Royalties {best.royalties}; {stays}; value {best.value:g}.")


@ofc_command.command("stay")
@rules_option("ofc-pineapple", help=RULES_HELP)
@click.option("--cards", "sizes", type=Names(whole=True), default="13,14,15,16,17", show_default=True,
              help="Hand sizes, comma-separated (13 to 17).")
@click.option("--samples", type=click.IntRange(1, 10**9), default=200_000, show_default=True,
              help="Random hands per size.")
@seed_option(1)
@json_option()
@quiet_option()
@reports_bad_input
def stay_command(ruleset, sizes, samples, seed, as_json, quiet):
    """How often n random cards can be set, not fouled, to stay in Fantasyland (trips in
    front or quads or better in back; a middle full house where the ruleset says so), with
    95% intervals."""
    from sapsam.base.progress import Progress
    from sapsam.ofc.measure.fantasyland import stay_chance

    rules = _rules(ruleset)
    for n in sizes:
        if not 13 <= n <= 17:
            raise ValueError(f"--cards: a Fantasyland hand has 13 to 17 cards, not {n}")
    quiet = quiet or as_json
    _notice(quiet, "stay")
    with Progress(quiet) as bars:
        chances = [stay_chance(n, rules, samples, seed, bars.task(f"{n} cards", samples, unit="hands"))
                   for n in sizes]
    if as_json:
        click.echo(json_text({"rules": rules.id, "seed": seed,
                               "sizes": [c.to_dict() for c in chances]}, indent=2))
        return
    out = console()
    out.print(f"{rules.id}: the chance that n random cards can stay in Fantasyland "
              f"({samples:,} hands each, seed {seed})")
    grid = table(">cards", ">stays", ">chance", ">95% CI")
    for c in chances:
        low, high = c.interval
        grid.add_row(str(c.cards), f"{c.stays:,}", f"{c.chance:.2%}", f"[{low:.2%}, {high:.2%}]")
    out.print(grid)


@ofc_command.command("place")
@click.option("--board", default="", help="Your board so far, 'front | middle | back' (empty: the "
              "first street).")
@click.option("--hand", required=True, help="The cards dealt to you now (5 on the first street; then "
              "3 in Pineapple, 1 in classic).")
@click.option("--dead", default="", help="Cards you know are out: your earlier discards, folded hands.")
@click.option("--opponents", multiple=True, help="An opponent's board, 'front | middle | back', "
              "or 'fantasyland:N' for one in Fantasyland dealt N cards (repeat for a second).  Not "
              "given: the ruleset's table, dealt from the unseen cards.")
@rules_option("ofc-pineapple", help=RULES_HELP)
@click.option("--samples", type=click.IntRange(1, 10**7), default=500, show_default=True,
              help="Rollouts of every placement (rounded up to a multiple of 32, its streams).")
@seed_option(1)
@click.option("--policy", type=click.Choice(["heuristic", "improved", "learned"]), default=None,
              help="Who plays the later streets, every board's  [default: learned where the "
                   "ruleset and table have its weights, else improved where they have self-play "
                   "weights, else heuristic]")
@click.option("--exact/--no-exact", default=True, show_default=True,
              help="Where every opponent's board is finished and at most one street is left after "
                   "this one, value every placement over every deal of the last street instead of "
                   "rolling it out.")
@click.option("--race/--no-race", default=True, show_default=True,
              help="Roll out in rounds and drop the placements clearly worse than the leader early "
                   "(each listed with the rollouts it had); --no-race: SAMPLES rollouts of every one.")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True)
@json_option("Print JSON (every placement).")
@reports_bad_input
def place_command(board, hand, dead, opponents, ruleset, samples, seed, policy, exact, race, top, as_json):
    """Rank every legal placement (and discard) of the cards in hand by expected points: each
    played out to the end of the hand up to SAMPLES times, every board finished by the policy
    (its last street exactly), plus the worth of Fantasyland if your board enters.  In rounds,
    all placements on the same deals: one whose gap to the leader is clearly below 0 is dropped
    (the chance of dropping the best at most 5%) and keeps the EV and interval of the rollouts
    it had.  Where every opponent's board is finished, the last two streets are exact: every
    deal enumerated.

    \b
    Example:
      sapsam ofc place --board "As Ad | Kc Qc 5d | 9h 9s" --hand "Ah 2c 7d"
    """
    from sapsam.ofc.measure.place import parse_position, rank_placements

    parse_position(ruleset, board, hand, dead, opponents)
    _notice(as_json, "place")
    result = rank_placements(ruleset, board, hand, dead, opponents, samples, seed, policy=policy, exact=exact,
                             race=race)
    if as_json:
        click.echo(json_text(result.to_dict(), indent=2))
        return
    out = console()
    away = sum(n > 0 for n in result.fantasyland)
    out.print(f"{result.rules}: {result.opponents} opponent{'s' * (result.opponents > 1)}"
              f"{f' ({away} in Fantasyland)' if away else ''}, "
              f"{result.how()}")
    out.print(f"Board: [bold]{result.board}[/bold]   Hand: [bold]{result.hand}[/bold]")

    def ranking(full):
        columns = [">#", "board after", "discard", ">EV", ">95% CI" if full else ">±95%", ">gap"]
        grid = table(*columns) if result.exact else table(*columns, ">rollouts")
        for i, row in enumerate(result.table.head(top).itertuples()):
            gap = "best" if i == 0 else f"{row.gap:+.2f}"
            interval = ("exact" if row.exact else f"[{row.ci_low:+.2f}, {row.ci_high:+.2f}]" if full
                        else f"{(row.ci_high - row.ci_low) / 2:.2f}")
            cells = [str(i + 1), row.setting, row.discard or "-", f"{row.ev:+.2f}", interval, gap]
            if not result.exact:
                cells.append(f"{row.rollouts:,}" + ((" dropped" if full else "*") if row.dropped else ""))
            grid.add_row(*cells)
        return grid

    grid, full = fitting(out, ranking)
    out.print(grid)
    shown = result.table.head(top)
    second = result.table.iloc[1] if len(result.table) > 1 else None
    if result.exact:
        out.print("[dim]points a hand against every opponent; exact: nothing sampled[/dim]")
    elif second is not None:
        verdict = "distinguishable" if second.gap_high < 0 else "not distinguishable"
        out.print(f"[dim]points a hand against every opponent; gap: to the best, the second's "
                  f"{second.gap:+.2f} (paired 95% CI [{second.gap_low:+.2f}, {second.gap_high:+.2f}]: "
                  f"{verdict}){'' if full or not shown.dropped.any() else '; *: dropped early'}[/dim]")
    if result.dropped:
        out.print(f"[dim]{result.dropped_note()}[/dim]")


@ofc_command.command("simulate")
@click.option("--rules", "rulesets", default="ofc-pineapple", show_default=True,
              help="OFC rulesets, comma-separated: each plays the same decks (a paired comparison).")
@click.option("--seats", default=None,
              help="A policy per player, comma-separated: random, heuristic, rollout, improved, learned or "
                   "lookahead (2 or 3)  [default: two of lookahead where the learned weights are shipped for "
                   "every ruleset, else improved, else heuristic]")
@click.option("--hands", type=click.IntRange(1, 10**8), default=1000, show_default=True,
              help="Hands played (rounded up to whole blocks of 50, the interval's unit).")
@seed_option(1)
@json_option()
@click.option("--out", type=OutputFile(), default=None,
              help="Write the result with its provenance to this JSON file (and checkpoint "
                   "finished hands beside it).")
@resume_options
@quiet_option()
@reports_bad_input
def simulate_command(rulesets, seats, hands, seed, as_json, out, resume, fresh, quiet):
    """Play hands between policies, Fantasyland carried from hand to hand: each seat's points
    a hand (95% CI), fouls, Fantasyland entries and stays, royalties, and what a Fantasyland
    hand is worth over a normal one; under each ruleset, on the same decks.  With --out,
    finished hands are checkpointed: an interrupted run continues with --resume (to the same
    numbers, or to more hands)."""

    from sapsam.base.files import checkpoint_beside, provenance, write_json, writing_result
    from sapsam.base.progress import Progress
    from sapsam.ofc.measure.simulate import default_seats, simulate_ofc, table_rules

    resume_or_fresh(resume, fresh, out)
    ids = [r.strip() for r in rulesets.split(",")]
    names = tuple(s.strip() for s in seats.split(",")) if seats else default_seats(ids)
    rules = table_rules(ids, names, f"--rules {rulesets!r}")
    quiet = quiet or as_json
    _notice(quiet, "simulate")

    def checkpoint(r):  # one a ruleset, beside the result file
        return checkpoint_beside(out, r.id) if out else None

    if out:
        resumable(saved=[checkpoint(r) for r in rules])
    with writing_result(out, resume, fresh), Progress(quiet) as bars:
        runs = [simulate_ofc(r, names, hands, seed, bars.task(f"{r.id}", hands, unit="hands"),
                             checkpoint=checkpoint(r), resume=resume, fresh=fresh) for r in rules]
        payload = {"seed": seed, "runs": [run.to_dict() for run in runs]}
        if out:
            write_json(out, {**payload, "provenance": provenance(rules=ids, seats=list(names), hands=hands,
                                                                 seed=seed)})
            for r in rules:
                checkpoint(r).unlink(missing_ok=True)
    if as_json:
        click.echo(json_text(payload, indent=2))
        return
    out = console()
    for run in runs:
        out.print(f"{run.rules}: {run.hands:,} hands (seed {seed})")
        grid = table(">seat", "policy", ">points", ">95% CI", ">fouls", ">FL in", ">stays", ">FL worth")
        frame = run.frame()
        for r in frame.itertuples():  # seats counted from 1, as the 13-card game's (the JSON's from 0)
            grid.add_row(str(r.seat + 1), r.policy, f"{r.points:+.3f}", interval_text(r.ci_low, r.ci_high),
                         f"{r.fouls:.1%}", f"{r.entries:.1%}", "-" if r.fl_hands == 0 else f"{r.stays:.0%}",
                         "-" if r.fl_hands < 2 else f"{r.fl_worth:+.1f}")
        out.print(grid)
        out.print(f"[dim]{_reach(frame, fantasyland=True)}[/dim]")
    out.print("[dim]points a hand; fouls and FL in: of normal hands; stays: of Fantasyland hands; FL worth: "
              "points in a Fantasyland hand less in a normal one (--json: every interval)[/dim]")


@ofc_command.command("improve")
@rules_option("ofc-pineapple", help=RULES_HELP)
@click.option("--players", type=click.IntRange(2, 3), default=2, show_default=True)
@click.option("--rounds", type=click.IntRange(1, 20), default=3, show_default=True)
@click.option("--hands", type=click.IntRange(100, 10**7), default=8000, show_default=True,
              help="Hands a duel.")
@seed_option(1)
@click.option("--out", type=OutputFile(), default=None,
              help="File to write (default: your own, used by the 'improved' policy).")
@quiet_option()
@reports_bad_input
def improve_command(ruleset, players, rounds, hands, seed, out, quiet):
    """Tune the heuristic's weights by self-play: each weight halved and doubled against the
    incumbent, kept when it wins with a 95% interval above zero.  The result is the
    'improved' policy of this ruleset and table size."""
    from pathlib import Path

    from sapsam.base.progress import Progress
    from sapsam.ofc.play import TUNED, own_weights_path
    from sapsam.ofc.strategy.improve import FACTORS, improve, write_improvement

    rules = _rules(ruleset)
    rules.check_players(players)
    target = Path(out) if out else own_weights_path("improved", rules.id, players)
    _notice(quiet, "improve")
    with Progress(quiet) as bars:
        weights, history = improve(rules, players, rounds, hands, seed,
                                   bars.task("self-play duels", rounds * len(TUNED) * len(FACTORS), unit="duels"))
    write_improvement(target, rules, players, weights, history, rounds, hands, seed)
    grid = table(">round", "weight", ">tried", ">lead", ">95% CI", "kept")
    for h in history:
        grid.add_row(str(h["round"]), h["weight"], f"{h['value']:g}", f"{h['lead']:+.3f}",
                     f"[{h['low']:+.2f}, {h['high']:+.2f}]", "yes" if h["kept"] else "")
    screen = console()
    screen.print(grid)
    screen.print(f"weights: {', '.join(f'{k} {v:g}' for k, v in weights.items())}; wrote {target}")


@ofc_command.command("duel")
@click.argument("first")
@click.argument("second")
@rules_option("ofc-pineapple", help=RULES_HELP)
@click.option("--players", type=click.IntRange(2, 3), default=2, show_default=True)
@click.option("--hands", type=click.IntRange(1, 10**8), default=10_000, show_default=True,
              help="Hands a seating (rounded up to whole blocks of 50, the interval's unit).")
@seed_option(1)
@json_option()
@quiet_option()
@reports_bad_input
def duel_command(first, second, ruleset, players, hands, seed, as_json, quiet):
    """Policy FIRST against SECOND in duplicate: FIRST in each seat in turn, SECOND in the
    others, every seating on the same decks; FIRST's points a hand with a paired 95% CI, and
    each seating's fouls and Fantasyland entries."""
    from sapsam.base.progress import Progress
    from sapsam.ofc.measure.duplicate import duel_rules, duplicate_duel

    duel_rules(ruleset, first, second, players)
    quiet = quiet or as_json
    _notice(quiet, "duel")
    with Progress(quiet) as bars:
        result = duplicate_duel(ruleset, first, second, players, hands, seed,
                                bars.task("seatings", players, unit="seatings"))
    if as_json:
        click.echo(json_text(result.to_dict(), indent=2))
        return
    out = console()
    out.print(f"{result.rules}: {first} against {second}, {result.hands:,} hands a seating on the same "
              f"decks (seed {seed}): {first} {result.lead:+.3f} points a hand {interval_text(result.low, result.high)}")
    grid = table(">seating", "policy", ">points", ">95% CI", ">fouls", ">FL in", ">royalties")
    for seating, run in enumerate(result.runs):
        for r in run.frame().itertuples():
            grid.add_row(str(seating + 1), r.policy, f"{r.points:+.3f}", interval_text(r.ci_low, r.ci_high),
                         f"{r.fouls:.1%}", f"{r.entries:.1%}", f"{r.royalties:.2f}")
    out.print(grid)
    out.print(f"[dim]{_reach(*(run.frame() for run in result.runs))} (--json: each)[/dim]")


@ofc_command.command("learn")
@rules_option("ofc-pineapple", help=RULES_HELP)
@click.option("--players", type=click.IntRange(2, 3), default=2, show_default=True)
@click.option("--rounds", type=click.IntRange(1, 100), default=12, show_default=True)
@click.option("--hands", type=click.IntRange(100, 10**7), default=30_000, show_default=True,
              help="Self-play hands a round.")
@click.option("--worth", type=Number(0, 100), default=None,
              help="Points entering Fantasyland adds to a result  [default: the ruleset's worth]")
@seed_option(1)
@click.option("--out", type=OutputFile(), default=None,
              help="File to write (default: your own, used by the 'learned' policy).")
@quiet_option()
@reports_bad_input
def learn_command(ruleset, players, rounds, hands, worth, seed, out, quiet):
    """Fit the learned policy's values by self-play: each round every seat plays by the current
    weights, and each street's weights are refitted by least squares to the seats' results of
    the hand (Fantasyland's worth included).  Starts from the improved heuristic."""
    from pathlib import Path

    from sapsam.base.progress import Progress
    from sapsam.ofc.play import own_weights_path
    from sapsam.ofc.strategy.learn import learn, write_learned

    rules = _rules(ruleset)
    rules.check_players(players)
    target = Path(out) if out else own_weights_path("learned", rules.id, players)
    _notice(quiet, "learn")
    with Progress(quiet) as bars:
        weights, history = learn(rules, players, rounds, hands, seed, worth=worth,
                                 progress=bars.task("self-play rounds", rounds, unit="rounds"))
    write_learned(target, rules, players, weights, history, rounds, hands, seed, worth)
    grid = table(">round", "R^2 by cards placed", ">lead on the best", ">95% CI", "kept")
    for h in history:
        fits = ", ".join(f"{placed}: {fitted['r2']:.3f}" for placed, fitted in h["streets"].items())
        grid.add_row(str(h["round"]), fits, f"{h['lead']:+.3f}", f"[{h['low']:+.2f}, {h['high']:+.2f}]",
                     "yes" if h["kept"] else "")
    screen = console()
    screen.print(grid)
    screen.print(f"wrote {target}")

"""``sapsam paigow-poker``: Pai Gow Poker against a casino's house way, exactly (best, edge,
cost, chart, best-play, side-bets, house-ways)."""

import click

from sapsam.base.files import json_text
from sapsam.cli.common import (
    OutputFile,
    OutputFolder,
    best_marks,
    commission_option,
    compile_notice,
    console,
    fitting,
    fitting_level,
    json_option,
    quiet_option,
    reports_bad_input,
    resumable,
    resume_options,
    resume_or_fresh,
    table,
)


@click.group("paigow-poker")
def paigow_poker_command():
    """Pai Gow Poker: seven cards of 53 (a joker) set into a five-card high hand and a
    two-card low hand against a dealer who sets by a casino's house way.  Every figure is
    exact: all 53,524,680 dealer hands of the 46 cards left."""


@paigow_poker_command.command("best")
@click.argument("cards")
@click.option("--house-way", "way", default="foxwoods", show_default=True,
              help="The dealer's house way: foxwoods, canterbury-park, harrahs-reno, or a .toml file.")
@click.option("--banking", is_flag=True, help="You bank: copies are yours.")
@commission_option("Taken from a winning bet, a fraction (0 for no commission).")
@click.option("--wheel", type=click.Choice(["second", "lowest"]), default="second", show_default=True,
              help="Where A-2-3-4-5 ranks among straights.")
@click.option("--deck", default=None, help="Draw the dealer's hands from these cards only (a "
              "check on a small deck); all 53 by default.")
@json_option()
@reports_bad_input
def best_command(cards, way, banking, commission, wheel, deck, as_json):
    """Rank every setting of seven CARDS by its exact value against the house way.

    CARDS are seven cards of the 53, the joker written Jk or joker: "Jk As Kd Th 9c 3s 2d".
    """
    from sapsam.paigow_poker.game import Rules, parse_deck, parse_hand
    from sapsam.paigow_poker.measure.exact import compiled_kernels
    from sapsam.paigow_poker.output import best_answer
    from sapsam.paigow_poker.strategy import house_way

    hand = parse_hand(cards)
    full = None if deck is None else parse_deck(deck, hand)
    chosen = house_way(way)
    compile_notice(as_json, *compiled_kernels())
    _tables_notice([chosen], as_json or full is not None, Rules(wheel_second=wheel == "second"))
    answer = best_answer(hand, way, banking, commission, wheel == "second", full)
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    out = console()
    out.print(f"Cards: [bold]{answer['cards']}[/bold]   {'banking' if banking else 'not banking'}, "
              f"{100 * commission:g}% commission, against the {chosen.name} house way")

    def settings(level):  # 0: whole; 1: no hands' names; 2: marks shortened (b, h); 3: no push %
        names = ("high hand", "low hand") if level == 0 else ("high", "low")  # a low's two cards are 5 wide
        grid = table(*names, ">win %", *((">push %",) if level < 3 else ()), ">loss %", ">value", "")
        for s in answer["settings"]:
            marks = best_marks(s["best"], s["house_way"], short=level >= 2)
            high, low = (f"{s[k]['cards']}  {s[k]['hand']}" if level == 0 else s[k]["cards"] for k in ("high", "low"))
            grid.add_row(high, low, f"{100 * s['p_win']:.3f}", *((f"{100 * s['p_push']:.3f}",) if level < 3 else ()),
                         f"{100 * s['p_loss']:.3f}", f"{s['value']:+.5f}", marks)
        return grid

    grid, level = fitting_level(out, settings, 3)
    out.print(grid)
    if level:  # what the terminal's width shortened or left out
        shortened = "b: the best setting, h: the house way's; " if level >= 2 else ""
        out.print(f"[dim]{shortened}the hands' names{' and push %' if level == 3 else ''} in a wider terminal[/dim]")
    gives = answer["house_way_gives_up"]
    out.print(f"house way's setting: {'the best' if gives == 0 else f'gives up {gives:.5f} a unit'}")
    out.print(f"[dim]exact, against all {answer['dealer_hands']:,} dealer hands of the "
              f"{'46 cards left' if deck is None else 'deck given'}; value per unit bet[/dim]")


@paigow_poker_command.command("edge")
@click.option("--house-way", "way", default="foxwoods", show_default=True,
              help="The house way both sides play: foxwoods, canterbury-park, harrahs-reno, or a .toml file.")
@click.option("--deals", type=click.IntRange(1, 10**10), default=10_000_000, show_default=True,
              help="Random deals of 14 cards, each met both ways round (rounded up to a multiple of 64).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="The deals' seed.")
@commission_option()
@click.option("--wheel", type=click.Choice(["second", "lowest"]), default="second", show_default=True,
              help="Where A-2-3-4-5 ranks among straights.")
@json_option()
@reports_bad_input
def edge_command(way, deals, seed, commission, wheel, as_json):
    """The house way against itself, banking or not: win, push, loss and the house edge with
    their 95% confidence intervals, the published exact figures beside them."""
    from sapsam.paigow_poker.game import Rules
    from sapsam.paigow_poker.measure.exact import compiled_kernels
    from sapsam.paigow_poker.output import edge_answer
    from sapsam.paigow_poker.strategy import house_way

    chosen = house_way(way)
    compile_notice(as_json, *compiled_kernels())
    _tables_notice([chosen], as_json, Rules(wheel_second=wheel == "second"))
    answer = edge_answer(way, deals, seed, commission, wheel == "second")
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    out = console()
    out.print(f"The {chosen.name} house way against itself, {100 * commission:g}% commission, "
              f"{answer['rows'][0]['deals']:,} deals (seed {seed}), each both ways round")
    grid = table("player", ">win %", ">push %", ">loss %", ">house edge %", ">95% ±")
    for r in answer["rows"]:
        grid.add_row("banking" if r["banking"] else "not banking", f"{100 * r['win']:.4f}",
                     f"{100 * r['push']:.4f}", f"{100 * r['loss']:.4f}", f"{100 * r['edge']:.4f}",
                     f"{100 * r['half_width']:.4f}")
    p = answer["published"]
    if p:
        grid.add_row("published, not banking", f"{100 * p['win']:.4f}", f"{100 * p['push']:.4f}",
                     f"{100 * p['loss']:.4f}", f"{100 * p['edge']:.4f}", "exact")
    out.print(grid)
    halves = ", ".join(f"{100 * answer['rows'][0][f'{k}_half_width']:.4f}" for k in ("win", "push", "loss"))
    out.print(f"95% intervals of win, push and loss: ± {halves} (banking, the win's and loss's swap)")
    if p:
        out.print(f"[dim]published: {p['source']}[/dim]")


@paigow_poker_command.command("cost")
@click.option("--house-way", "way", default="foxwoods", show_default=True,
              help="The dealer's house way, which the player's own setting is also held to.")
@click.option("--hands", type=click.IntRange(2, 10**6), default=200, show_default=True,
              help="Random hands, each valued exactly (about a quarter of a second each).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="The hands' seed.")
@click.option("--banking", is_flag=True, help="You bank: copies are yours.")
@commission_option()
@json_option()
@reports_bad_input
def cost_command(way, hands, seed, banking, commission, as_json):
    """What setting by the house way gives up against the best setting, over random hands:
    the mean per unit bet with a 95% interval, how often the best play departs, by pattern."""
    from sapsam.paigow_poker.measure.exact import compiled_kernels
    from sapsam.paigow_poker.output import gap_answer
    from sapsam.paigow_poker.strategy import house_way

    chosen = house_way(way)
    compile_notice(as_json, *compiled_kernels())
    _tables_notice([chosen], as_json)
    answer = gap_answer(way, hands, seed, commission, banking)
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    out = console()
    out.print(f"The {chosen.name} house way against the best setting, {hands:,} hands (seed {seed}), "
              f"{'banking' if banking else 'not banking'}: gives up {100 * answer['mean_gap']:.3f} "
              f"± {100 * answer['half_width']:.3f}% of a bet a hand; the best play departs on "
              f"{_share(answer)} of hands (95% intervals)")
    def patterns(wide):  # compact: shorter headers (a million hands' counts at 80 columns)
        grid = table("pattern", "s/f", ">hands", *((">best departs %", ">gives up (% bet)", ">95% ±") if wide
                                                   else (">departs", ">gives up", ">±")))
        for r in answer["by_pattern"]:
            half = "" if r["half_width"] is None else f"{100 * r['half_width']:.3f}"
            grid.add_row(r["pattern"], "yes" if r["straight_or_flush"] else "", f"{r['hands']:,}",
                         _share(r), f"{100 * r['mean_gap']:.3f}", half)
        return grid

    out.print(fitting(out, patterns)[0])
    out.print("s/f: a straight or flush can be made; gives up: percent of a bet a hand")


def _departures_table(rows, wide):
    """The chart's rows; ``wide``: with each row's share of the hands and its interval."""
    grid = table("hand", "the best play", ">n", *([">share % (95%)"] if wide else []), ">per departure", ">per hand")
    grid.columns[0].no_wrap = grid.columns[1].no_wrap = False  # words wrap; the numbers keep their room
    grid.columns[0].max_width, grid.columns[1].max_width = (24, 40) if wide else (None, None)
    for r in rows:
        share = [f"{100 * r['share']:.1f} [{100 * r['share_low']:.1f}, {100 * r['share_high']:.1f}]"]
        grid.add_row(r["group"], r["move"], str(r["departures"]), *(share if wide else []),
                     _points(r["cost_per_departure"], r["cost_per_departure_half_width"], 2),
                     _points(r["cost_per_hand"], r["cost_per_hand_half_width"], 3))
    return grid


def _points(value, half, digits):
    """A fraction of a bet in points with its 95% half-width, if it has one: 0.158 ± 0.095."""
    return f"{100 * value:.{digits}f}" + ("" if half is None else f" ± {100 * half:.{digits}f}")


def _share(answer):  # how often the best play departs, with its Wilson 95% interval: 10.5% [6.9, 15.6]
    return f"{100 * answer['departs']:.1f}% [{100 * answer['departs_low']:.1f}, {100 * answer['departs_high']:.1f}]"


@paigow_poker_command.command("chart")
@click.option("--house-way", "ways", default="foxwoods", show_default=True,
              help="House ways, comma-separated (foxwoods, canterbury-park, harrahs-reno, .toml "
                   "files), or all.")
@click.option("--hands", type=click.IntRange(2, 10**6), default=600, show_default=True,
              help="Random hands, the same for every house way, each valued exactly (about a "
                   "quarter of a second each per house way).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="The hands' seed (the same hands as cost with this seed).")
@click.option("--banking", is_flag=True, help="You bank: copies are yours.")
@commission_option()
@click.option("--out", type=OutputFolder(), default=None,
              help="Write chart.md, chart.csv, chart-departures.csv, chart.json and chart.png here.")
@click.option("--deck", default=None, help="Deal the hands and the dealer's hands from these cards "
              "only (a check on a small deck); all 53 by default.")
@click.option("--edge-deals", type=click.IntRange(1, 10**10), default=10_000_000, show_default=True,
              help="Deals of the house way against itself (as edge), for the best play's house edge.")
@json_option()
@reports_bad_input
def chart_command(ways, hands, seed, banking, commission, out, deck, edge_deals, as_json):
    """The strategy chart: where the best play departs from each house way, what each
    departure is worth and what the house way costs per hand, with 95% intervals; and the
    house edge of the best play against each house way (the house way against itself less
    the cost per hand), the published figures beside."""
    from sapsam.paigow_poker.game import parse_deck
    from sapsam.paigow_poker.measure.exact import compiled_kernels
    from sapsam.paigow_poker.output.chart_files import best_play_lines, write_chart
    from sapsam.paigow_poker.output.departures import chart_answer, house_way_names

    chosen = house_way_names(ways)
    cards = None if deck is None else parse_deck(deck)
    compile_notice(as_json, *compiled_kernels())
    _tables_notice(chosen, as_json or cards is not None)
    if not as_json:
        click.echo(f"valuing {hands:,} hands exactly against {len(chosen)} house way"
                   f"{'s' if len(chosen) > 1 else ''}...", err=True)
    answer = chart_answer(chosen, hands, seed, commission, banking, cards, edge_deals=edge_deals)
    if out is not None:
        from pathlib import Path

        path = write_chart(answer, Path(out))
        if not as_json:
            click.echo(f"wrote {path} and its .csv, -departures.csv, .json, .png", err=True)
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    con = console()
    con.print(f"{hands:,} random hands (seed {seed}), each valued exactly; "
              f"{'banking' if banking else 'not banking'}, {100 * commission:g}% commission; "
              "costs in points (percent of a bet), 95% intervals")
    for w in answer["house_ways"]:
        con.print(f"[bold]{w['house_way']['name']}[/bold]: the best play departs on "
                  f"{100 * w['share']:.1f}% [{100 * w['share_low']:.1f}, {100 * w['share_high']:.1f}] of hands "
                  f"({w['departures']}); the house way costs {_points(w['cost_per_hand'], w['half_width'], 3)} "
                  "% of a bet a hand")
        if not w["rows"]:
            continue
        grid, wide = fitting(con, lambda wide, rows=w["rows"]: _departures_table(rows, wide))
        con.print(grid)
        if not wide:
            con.print(f"n: of the {hands:,} hands (each share's 95% interval where the terminal is "
                      "wider, and in --json and --out)")
    lines = best_play_lines(answer)
    if lines:
        con.print(f"[bold]House edge[/bold], {'banking' if banking else 'not banking'} (percent, 95% "
                  "intervals; the best play's: the house way's less the cost per hand):")
        for line in lines:
            con.print(f"  {line}")


@paigow_poker_command.command("best-play")
@click.option("--house-way", "ways", default="foxwoods", show_default=True,
              help="House ways, comma-separated (foxwoods, canterbury-park, harrahs-reno, .toml "
                   "files), or all.")
@click.option("--hands", type=click.IntRange(2, 10**8), default=200_000, show_default=True,
              help="Random hands valued against the pool of dealer hands (about a millisecond each).")
@click.option("--exact-hands", type=click.IntRange(2, 10**6), default=500, show_default=True,
              help="Other random hands valued exactly as well (about a tenth of a second each).")
@click.option("--pool", type=click.IntRange(64, 10**8), default=1_000_000, show_default=True,
              help="Random dealer hands the many hands are valued against.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="The hands' and pool's seed.")
@commission_option()
@click.option("--edge-deals", type=click.IntRange(1, 10**10), default=100_000_000, show_default=True,
              help="Deals of the house way against itself (as edge).")
@click.option("--deck", default=None, help="Deal every hand from these cards only (a check on a small "
              "deck); all 53 by default.")
@click.option("--out", type=OutputFile(), default=None,
              help="Write the result with its provenance to this JSON file (and checkpoint finished "
                   "hands beside it).")
@resume_options
@quiet_option()
@json_option()
@reports_bad_input
def best_play_command(ways, hands, exact_hands, pool, seed, commission, edge_deals, deck, out, resume, fresh,
                      quiet, as_json):
    """The best play's house edge against each house way, banking and not, to about a hundredth
    of a point: the house way against itself less the mean gain of each hand's best setting,
    from many hands valued against a pool of dealer hands corrected by a few valued exactly.
    With --out, finished hands are checkpointed: an interrupted run continues with --resume."""
    from sapsam.base.files import checkpoint_beside
    from sapsam.base.progress import Progress
    from sapsam.paigow_poker.game import Rules, parse_deck
    from sapsam.paigow_poker.measure.exact import compiled_kernels
    from sapsam.paigow_poker.output.best_play import best_play_to_file
    from sapsam.paigow_poker.output.departures import house_way_names

    resume_or_fresh(resume, fresh, out)
    chosen = house_way_names(ways)
    cards = None if deck is None else parse_deck(deck)
    quiet = quiet or as_json
    compile_notice(quiet, *compiled_kernels())
    _tables_notice(chosen, quiet or cards is not None)
    if out:
        resumable(saved=[checkpoint_beside(out)])
    with Progress(quiet) as bars:
        answer = best_play_to_file(chosen, Rules(commission=commission), hands, exact_hands, pool, seed, cards,
                                   edge_deals, bars.task("hands", unit="chunks"), out or None, resume, fresh)
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    con = console()
    con.print(f"The best play against the house way, {100 * commission:g}% commission: {hands:,} hands "
              f"against a pool of {pool:,} dealer hands, {exact_hands:,} more exactly (seed {seed}); 95% "
              "intervals")
    grid = table("house way", "player", ">house way", ">best play", ">gain")
    for w in answer["house_ways"]:
        for r in w["rows"]:
            house = f"{100 * r['house_way_edge']:.4f}" + (" exact" if r["house_way_exact"]
                                                        else f" ± {100 * r['house_way_half_width']:.4f}")
            grid.add_row(w["house_way"]["name"], "banking" if r["banking"] else "not banking", house,
                         _points(r["edge"], r["half_width"], 3), _points(r["gain"], r["gain_half_width"], 3))
    p = answer["published"]
    if p:
        gain = p["house_way_edge"] - p["best_play_edge"]
        grid.add_row("Foxwoods", "published", f"{100 * p['house_way_edge']:.4f} exact",
                     f"about {100 * p['best_play_edge']:.2f}", f"{100 * gain:.2f}")
    con.print(grid)
    con.print("[dim]house edge in percent (the player's, not banking; the banker's, banking); gain: the "
              "best setting over the house way's, percent of a bet a hand[/dim]")
    if p:
        con.print(f"[dim]published: {p['best_play_source']}[/dim]")


def _tables_notice(ways, quiet, rules=None):
    """One line on stderr for each house way whose table of every hand (``rules``'s) is not built yet."""
    from sapsam.paigow_poker.game import Rules
    from sapsam.paigow_poker.measure.exact import table_ready

    for way in [] if quiet else ways:
        if not table_ready(way, rules or Rules()):
            click.echo(f"setting all 154,143,080 hands by the {way.name} house way, once "
                       "(a minute or two; about 460 MB in the cache folder)...", err=True)


@paigow_poker_command.command("side-bets")
@json_option()
@reports_bad_input
def side_bets_command(as_json):
    """The side bets' pay tables with the exact count of every bonus hand over all
    154,143,080 hands, and each table's house edge."""
    from sapsam.paigow_poker.output import side_bets_answer

    answer = side_bets_answer()
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    out = console()
    for t in answer["pay_tables"]:
        out.print(f"[bold]{t['name']}[/bold], {t['casino']}")

        def pays(full, rows=t["rows"]):  # without the probability (hands / all) where it cannot fit
            grid = table("hand", ">pays", ">hands", *((">probability",) if full else ()), ">return")
            for r in rows:
                grid.add_row(r["hand"], "loses" if r["pays"] is None else f"{r['pays']:,}", f"{r['count']:,}",
                             *((f"{r['probability']:.8f}",) if full else ()), f"{r['return']:+.6f}")
            return grid

        out.print(fitting(out, pays)[0])
        published = "" if t["published_edge"] is None else f" (published: {100 * t['published_edge']:g}%)"
        out.print(f"house edge {100 * t['house_edge']:.4f}%{published}   [dim]{t['source']}[/dim]\n")


@paigow_poker_command.command("house-ways")
@json_option()
@reports_bad_input
def house_ways_command(as_json):
    """The shipped house ways, their casinos and sources."""
    from sapsam.paigow_poker.output import house_ways_answer

    answer = house_ways_answer()
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    out = console()
    for w in answer["house_ways"]:  # lines, not a table: a source's address is long
        out.print(f"[bold]{w['id']}[/bold]  {w['casino']}")
        out.print(f"  source: {w['source']}", overflow="fold")
        if w["unstated"]:
            out.print(f"  not in the source, played as Foxwoods: {', '.join(w['unstated'])}")

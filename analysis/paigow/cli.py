"""``sapsam paigow``: Pai Gow tiles, solved exactly (best, table, chart)."""

import click

from sapsam.base.files import json_text
from sapsam.cli.common import (
    OutputFolder,
    best_marks,
    commission_option,
    compile_notice,
    console,
    fitting_level,
    json_option,
    reports_bad_input,
    table,
)


def _notice(quiet):
    from sapsam.paigow.measure import compiled_kernels

    compile_notice(quiet, *compiled_kernels())


@click.group("paigow")
def paigow_command():
    """Pai Gow tiles: four tiles set into a low and a high hand against a banker who sets
    by the Foxwoods house way.  Every figure is exact: all 20,475 banker hands of the 28
    tiles left."""


@paigow_command.command("best")
@click.argument("tiles")
@click.option("--banking", is_flag=True, help="You bank: copies are yours, the house's hand "
              "is set by the house way.")
@commission_option("The commission on a winning bet, a fraction (0.05, 0.0476).")
@json_option()
@reports_bad_input
def best_command(tiles, banking, commission, as_json):
    """Rank the settings of four TILES by exact value against the house way's banker.

    TILES are four tiles by their faces or names: "6-6 1-1 4-2 5-3", "teen day gee joon eight".
    """
    from sapsam.paigow.game import parse_tiles, tile_label
    from sapsam.paigow.output import best_answer

    hand = parse_tiles(tiles)
    _notice(as_json)
    answer = best_answer(hand, banking, commission)
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    out = console()
    out.print(f"Tiles: [bold]{'  '.join(tile_label(t) for t in hand)}[/bold]   "
              f"{'banking' if banking else 'not banking'}, {100 * commission:g}% commission")

    def settings(level):  # 0: whole; 1: hands' names short; 2: tiles alone; 3: marks b and h; 4: no push %
        def cell(half):  # "1-1 4-2  8 (high day)", "1-1 4-2  8", "1-1 4-2"
            words = half["hand"] if level == 0 else half["hand"].split(" (")[0]
            return " ".join(half["tiles"]) + (f"  {words}" if level < 2 else "")

        push = level < 4
        grid = table("low hand", "high hand", ">win %", *((">push %",) if push else ()), ">loss %", ">value", "")
        for s in answer["settings"]:
            grid.add_row(cell(s["low"]), cell(s["high"]), f"{100 * s['win']:.2f}",
                         *((f"{100 * s['push']:.2f}",) if push else ()), f"{100 * s['loss']:.2f}",
                         f"{s['value']:+.4f}", best_marks(s["best"], s["house_way"], short=level >= 3))
        return grid

    grid, level = fitting_level(out, settings, 4)
    out.print(grid)
    if level >= 2:  # what the terminal's width left out
        marks = "b: the best setting, h: the house way's; " if level >= 3 else ""
        out.print(f"[dim]{marks}the hands' names{' and push %' if level == 4 else ''} in a wider terminal[/dim]")
    out.print("[dim]exact, against all 20,475 banker hands; value per unit bet[/dim]")


@paigow_command.command("table")
@click.option("--high-three", "high_three", metavar="TILE", default="chong", show_default=True,
              help='The house way\'s "lower than a high 3" is a 3 topped by a tile below TILE: '
                   'chong (3-3, the booklet\'s "High 6") or teen (6-6, the other reading); any '
                   "tile's name or faces.")
@json_option()
@reports_bad_input
def table_command(high_three, as_json):
    """The house edge of the house way and of the best strategy against it, banking or
    not, at 5% and 4.76% commission, beside the published figures."""
    from sapsam.paigow.output import SOURCE, table_answer, table_frame
    from sapsam.paigow.strategy import high_three_tile

    tile = high_three_tile(high_three)
    _notice(as_json)
    answer = table_answer(tile)
    if as_json:
        click.echo(json_text(answer, indent=2))
        return
    frame = table_frame(tile)
    out = console()
    grid = table("strategy", "bank", ">comm %", ">win %", ">loss %", ">push %", ">edge %",
                 ">published")
    for row in frame.itertuples(index=False):
        grid.add_row(row[0], row[1], f"{row[2]:.2f}", f"{row[3]:.2f}", f"{row[4]:.2f}",
                     f"{row[5]:.2f}", f"{row[6]:.2f}", f"{row[7]:.2f}")
    out.print(grid)
    out.print(f"[dim]house way: a high 3 is a 3 topped by the {tile} or better; "
              f"published: {SOURCE}[/dim]")


@paigow_command.command("chart")
@click.option("--out", type=OutputFolder(), default="results/paigow", show_default=True,
              help="Folder for house-edge.md/.json, strategy.md and strategy.png.")
@reports_bad_input
def chart_command(out):
    """Write the strategy chart: which pairs to split, when the high hand goes up, and what
    the house way costs against the best strategy."""
    from pathlib import Path

    from sapsam.paigow.output import write_paigow

    _notice(False)
    write_paigow(Path(out))
    click.echo(f"wrote {Path(out) / 'strategy.md'}, strategy.png, house-edge.md and .json")

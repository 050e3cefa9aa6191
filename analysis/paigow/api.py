"""The Python API of Pai Gow tiles, ``sapsam.paigow.best``, ``table`` and ``chart``: the same
computations as ``sapsam paigow best``, ``table`` and ``chart``, each result's ``to_dict()`` the
command's ``--json`` (``chart``, which has none, its figures) and ``to_frame()`` a pandas
DataFrame.  Every figure is exact; ``chart`` writes files only in a folder it is given.

>>> import sapsam
>>> hand = sapsam.paigow.best("6-6 1-1 4-2 5-3")
>>> hand.to_frame().loc[1, ["low", "high"]].tolist(), hand.settings[0]["house_way"]
(['1-1 4-2', '6-6 5-3'], True)
"""

from dataclasses import dataclass, field, replace
from pathlib import Path


def _frame(records):
    import pandas as pd

    frame = pd.DataFrame(records)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="rank")
    return frame


@dataclass(frozen=True)
class PaigowBest:
    """The distinct settings of four tiles, best first, each with its exact chances and value
    per unit bet against the house way's banker (``sapsam paigow best``)."""

    tiles: list  # as faces, "6-6"
    banking: bool
    commission: float
    opponent: str
    deals: int  # banker hands, every one met
    settings: list = field(repr=False)  # per setting: low, high, win, push, loss, value, ...

    def to_dict(self):
        """The command's ``--json`` (``sapsam paigow best``)."""
        return {"tiles": self.tiles, "banking": self.banking, "commission": self.commission,
                "opponent": self.opponent, "deals": self.deals, "settings": self.settings}

    def to_frame(self):
        """One row per setting, best first: the halves' tiles and hands, win, push, loss,
        value, and whether it is the house way's or the best."""
        return _frame([{"low": " ".join(s["low"]["tiles"]), "high": " ".join(s["high"]["tiles"]),
                        "low_hand": s["low"]["hand"], "high_hand": s["high"]["hand"],
                        **{k: s[k] for k in ("win", "push", "loss", "value", "house_way", "best")}}
                       for s in self.settings])


def best(tiles, banking=False, commission=0.05):
    """Rank the settings of four tiles by exact value against the house way's banker.

    Parameters
    ----------
    tiles : str or sequence of int
        Four tiles by faces or names, ``"6-6 1-1 4-2 5-3"``, ``"teen day gee joon eight"``
        (:func:`sapsam.paigow.game.parse_tiles`), or their indices.
    banking : bool
        You bank: copies are yours, the house's hand is set by the house way.
    commission : float
        On a winning bet, a fraction (0.05, 0.0476).

    Returns
    -------
    PaigowBest
    """
    from sapsam.base.arguments import flag, fraction
    from sapsam.paigow.game import parse_tiles, tile_indices
    from sapsam.paigow.output import best_answer

    hand = parse_tiles(tiles) if isinstance(tiles, str) else tile_indices(tiles)
    return PaigowBest(**best_answer(hand, flag("banking", banking), fraction("commission", commission)))


@dataclass(frozen=True)
class HouseEdgeTable:
    """The house edge of the house way and of the best strategy against it, banking or not,
    at 5% and 4.76% commission (``sapsam paigow table``), beside the published figures."""

    source: str  # where the published figures are from
    high_three: str  # the house way's lowest high 3 is a 3 topped by this tile
    rows: list = field(repr=False)  # strategy, opponent, banking, commission, win, loss, ...

    def to_dict(self):
        """The command's ``--json`` (``sapsam paigow table``)."""
        return {"source": self.source, "high_three": self.high_three, "rows": self.rows}

    def to_frame(self):
        """One row per strategy, banking and commission, in percent, with the published
        edge (:func:`sapsam.paigow.output.table_frame`)."""
        from sapsam.paigow.output import table_frame

        return table_frame(self.high_three)


def table(high_three="chong"):
    """The house-edge table.

    Parameters
    ----------
    high_three : str
        The house way's line "lower than a high 3" (its "Other hands" rule) is a 3 topped by
        this tile: ``"chong"`` (3-3), the booklet's "High 6", or ``"teen"`` (6-6), the other
        reading of it; any tile's name or faces (:func:`sapsam.paigow.strategy.high_three`).

    Returns
    -------
    HouseEdgeTable

    Examples
    --------
    >>> import sapsam
    >>> edges = sapsam.paigow.table()
    >>> len(edges.rows), edges.to_frame().loc[0, ["house edge %", "published edge %"]].tolist()
    (8, [2.42..., 2.44])
    >>> teen = sapsam.paigow.table(high_three="teen")  # the "High 6" read as the 6-6
    >>> teen.high_three, f"{100 * teen.rows[0]['push']:.2f}"
    ('teen', '40.73')
    """
    from sapsam.paigow.output import table_answer

    return HouseEdgeTable(**table_answer(high_three))


@dataclass(frozen=True)
class PaigowChart:
    """The strategy chart of the best play against the house way (``sapsam paigow chart``): what
    the house way costs (``cost``, house-edge points per unit bet, and ``differs``, the share of
    hands it sets otherwise than the best play), when the best play splits each pair
    (``pairs``), and per distinct hand (``to_frame()``) the values behind them; ``folder`` and
    ``paths`` the files written, where :func:`chart` was given a folder."""

    cost: float
    differs: float
    pairs: list = field(repr=False)  # per pair: pair, split to make, cost, share
    frame: object = field(repr=False)  # pandas.DataFrame (sapsam.paigow.output.hands_frame)
    folder: Path = None
    paths: tuple = ()

    def to_dict(self):
        return {"cost": self.cost, "differs": self.differs, "pairs": self.pairs}

    def to_frame(self):
        """One row per distinct hand: its tiles, probability, the house way's and the best
        setting's values and what the house way costs on it."""
        return self.frame.copy()

    def figure(self):
        """When the best play puts the high hand up, as a matplotlib figure (``strategy.png``)."""
        from sapsam.paigow.output import strategy_figure

        return strategy_figure(self.frame)

    def text(self):
        """The chart in Markdown (``strategy.md``)."""
        from sapsam.paigow.output import strategy_text, table_frame

        return strategy_text(self.frame, table_frame())


def chart(out=None):
    """The strategy chart (``sapsam paigow chart``): which pairs to split, when the high hand
    goes up, what the house way costs.

    Parameters
    ----------
    out : path, optional
        A folder to write the chart's files in, as the command does (its default is
        ``results/paigow``): ``house-edge.json`` and ``.md``, ``strategy.md`` and
        ``strategy.png``.  Without it nothing is written: the result holds the chart
        (``figure()``, ``text()``).

    Returns
    -------
    PaigowChart

    Examples
    --------
    >>> import sapsam
    >>> found = sapsam.paigow.chart()  # writes nothing
    >>> found.paths, len(found.to_frame()), f"{100 * found.cost:.2f}", found.pairs[0]["pair"]
    ((), 3620, '0.88', 'teen')
    """
    from sapsam.base.files import writable_folder
    from sapsam.paigow.output import hands_frame, house_way_cost, pair_chart, write_paigow

    folder = None if out is None else writable_folder(out, "out")
    frame = hands_frame()
    pairs = [{**p, "cost": float(p["cost"]), "share": float(p["share"])} for p in pair_chart(frame)]
    found = PaigowChart(*house_way_cost(frame), pairs, frame)
    if folder is None:
        return found
    return replace(found, folder=folder, paths=write_paigow(folder, frame))

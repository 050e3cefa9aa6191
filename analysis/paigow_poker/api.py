"""The Python API of Pai Gow Poker, ``sapsam.paigow_poker.best`` and ``house_ways``: the same
computations as ``sapsam paigow-poker best`` and ``house-ways``, each result's ``to_dict()``
the command's ``--json`` and ``to_frame()`` a pandas DataFrame.  Every figure is exact.

>>> import sapsam
>>> hand = sapsam.paigow_poker.best("Jk As Kd Th 9c 3s 2d", deck="As Kd Th 9c 3s 2d Jk "
...     "Ah Ad Ac Kh Kc Ks Qs Qh Qd Js Jh Jd 8s 8h")  # a 21-card deck: quick
>>> hand.dealer_hands, hand.settings[0]["best"]
(3432, True)
"""

from dataclasses import dataclass, field

from sapsam.base.arguments import api_function, flag, fraction, resume_or_fresh, whole


def _frame(records):
    import pandas as pd

    frame = pd.DataFrame(records)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="rank")
    return frame


@dataclass(frozen=True)
class PaiGowPokerBest:
    """The distinct legal settings of seven cards, best first, each with its exact win, push
    and loss counts against the dealer's house way (``sapsam paigow-poker best``)."""

    cards: str
    house_way: dict  # id, name, casino, source, note, unstated
    banking: bool
    commission: float
    wheel: str
    dealer_hands: int  # every one met
    fouls: int  # of the 21 ways to set the cards, those whose low hand outranks the high
    best_value: float
    house_way_value: float
    house_way_gives_up: float
    settings: list = field(repr=False)  # per setting: high, low, win, push, loss, value, ...

    def to_dict(self):
        """The command's ``--json`` (``sapsam paigow-poker best``)."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def to_frame(self):
        """One row per setting, best first: the hands' cards and words, the counts, the value
        and whether it is the house way's setting."""
        return _frame([{"high": s["high"]["cards"], "low": s["low"]["cards"],
                        "high_hand": s["high"]["hand"], "low_hand": s["low"]["hand"],
                        **{k: s[k] for k in ("win", "push", "loss", "value", "gap", "house_way")}}
                       for s in self.settings])


def best(cards, house_way="foxwoods", banking=False, commission=0.05, wheel="second", deck=None):
    """Rank every setting of seven cards by its exact value against the house way.

    Parameters
    ----------
    cards : str
        Seven cards of the 53, the joker ``Jk`` or ``joker``: ``"Jk As Kd Th 9c 3s 2d"``.
    house_way : str
        A shipped house way (``"foxwoods"``, ``"canterbury-park"``, ``"harrahs-reno"``) or the
        path of a TOML file of one's own.
    banking : bool
        You bank: copies are yours; the dealer's hand is set by the house way.
    commission : float
        Taken from a winning bet (0.05; 0 in the commission-free variants).
    wheel : {"second", "lowest"}
        Where A-2-3-4-5 ranks among straights.
    deck : str, optional
        The cards the dealer's hands are drawn from (the 53 by default): a smaller deck for
        checks; the whole deck reads the house way's table, built once (a minute or two).

    Returns
    -------
    PaiGowPokerBest
    """
    from sapsam.paigow_poker.game import parse_deck, parse_hand
    from sapsam.paigow_poker.output import best_answer

    _wheel(wheel)
    hand = parse_hand(cards)
    full = None if deck is None else parse_deck(deck, hand)
    return PaiGowPokerBest(**best_answer(hand, house_way, flag("banking", banking),
                                         fraction("commission", commission), wheel == "second", full))


def _wheel(wheel):
    if wheel not in ("second", "lowest"):
        raise ValueError(f"wheel must be 'second' or 'lowest', got {wheel!r}")


def house_edge(house_way="foxwoods", deals=10_000_000, seed=0, commission=0.05, wheel="second"):
    """The house way against itself, banking or not (``sapsam paigow-poker edge``): a dict
    with a row per banking (win, push, loss and their 95% ``win_half_width``, ...; edge, its
    95% ``half_width``; deals) and, for Foxwoods, the published exact figures.  Each deal of
    14 cards is met both ways round; ``seed`` fixes the deals, whatever the threads.  The deals
    are dealt in 64 equal blocks, so ``deals`` is rounded up to a multiple of 64 (``deals=100``
    deals 128): each row's ``deals`` is the number dealt."""
    from sapsam.paigow_poker.output import edge_answer

    _wheel(wheel)
    return edge_answer(house_way, whole("deals", deals, 1), whole("seed", seed, 0),
                       fraction("commission", commission), wheel == "second")


def house_way_cost(house_way="foxwoods", hands=200, seed=0, commission=0.05, banking=False):
    """What setting by the house way gives up against the best setting, sampled over random
    hands each valued exactly (``sapsam paigow-poker cost``): a dict with the mean gap per unit
    bet, its 95% ``half_width`` (Student's t, so ``hands`` is at least 2; in ``by_pattern``,
    None for a pattern only one hand has), how often the best play departs (``departs``, its
    Wilson 95% ``departs_low`` and ``departs_high``), and the same by pattern."""
    from sapsam.paigow_poker.output import gap_answer

    return gap_answer(house_way, whole("hands", hands, 2), whole("seed", seed, 0),
                      fraction("commission", commission), flag("banking", banking))


def chart(house_way="foxwoods", hands=600, seed=0, banking=False, commission=0.05, out=None,
          edge_deals=10_000_000):
    """The strategy chart (``sapsam paigow-poker chart``): where the best play departs from
    each house way on random hands, each valued exactly, and what each departure is worth.

    Parameters
    ----------
    house_way : str
        House ways' ids or .toml paths separated by commas, or ``"all"``.
    hands : int
        Random hands (the same for every house way; about a quarter of a second each per house
        way).
    seed : int
        The hands' seed: the same hands as :func:`house_way_cost` with this seed.
    banking, commission
        As in :func:`best`.
    out : path, optional
        A folder to write ``chart.md``, ``chart.csv``, ``chart-departures.csv``,
        ``chart.json`` and ``chart.png`` in (``chart-banking.*`` when banking).
    edge_deals : int
        Deals of the house way against itself (as :func:`house_edge`, seeded by ``seed``), of
        which the best play's house edge is the house way's less the cost per hand.

    Returns
    -------
    dict
        Per house way (``house_ways``): the share of hands that depart and the cost per hand
        (per unit bet) with their 95% intervals, ``rows`` per hand group and move (departures,
        share, mean cost per departure, part of the cost per hand, each with its 95%
        interval, the costliest example), ``by_group``, every departing hand and
        ``best_play``: the house way against itself (``house_way_edge``, its 95%
        ``house_way_half_width``) and the best play's house edge against it (``edge``, its 95%
        ``half_width``); ``published``: the published figures beside Foxwoods, not banking.
    """
    from sapsam.paigow_poker.output.chart_files import write_chart
    from sapsam.paigow_poker.output.departures import chart_answer

    hands, seed, edge_deals = whole("hands", hands, 1), whole("seed", seed, 0), whole("edge_deals", edge_deals, 1)
    commission, banking = fraction("commission", commission), flag("banking", banking)
    if out is not None:
        from sapsam.base.files import writable_folder

        writable_folder(out, "out")
    answer = chart_answer(house_way, hands, seed, commission, banking, edge_deals=edge_deals)
    if out is not None:
        write_chart(answer, out)
    return answer


@api_function
def best_play(house_way="foxwoods", hands=200_000, exact_hands=500, pool=1_000_000, seed=0, commission=0.05,
              edge_deals=100_000_000, out=None, resume=False, fresh=False):
    """The best play's house edge against each house way, banking and not, to about a
    hundredth of a point (``sapsam paigow-poker best-play``): the house way against itself
    (as :func:`house_edge`) less the mean gain of each hand's best setting over the house way's,
    from ``hands`` random hands valued against a pool of ``pool`` random dealer hands,
    corrected by ``exact_hands`` other hands valued both that way and exactly
    (:mod:`sapsam.paigow_poker.measure.best_play`).

    Parameters
    ----------
    house_way : str
        House ways' ids or .toml paths separated by commas, or ``"all"``.
    hands, exact_hands, pool : int
        About a millisecond a pooled hand and a tenth of a second an exact one, per house way.
    out : path, optional
        A JSON file to write the answer to; finished hands are checkpointed beside it, and
        ``resume`` continues an interrupted run (``fresh`` discards its checkpoint).

    Returns
    -------
    dict
        Per house way (``house_ways``), ``rows`` not banking then banking: the house way's
        edge (``house_way_edge``, its 95% ``house_way_half_width``), the best play's
        (``edge``, ``half_width``), the mean ``gain`` (with its ``pooled_gain`` and
        ``correction`` parts), all per unit bet; ``published``: the figures beside Foxwoods.
    """
    from sapsam.paigow_poker.game import Rules
    from sapsam.paigow_poker.output.best_play import best_play_to_file
    from sapsam.paigow_poker.output.departures import house_way_names

    resume_or_fresh(resume, fresh, out)
    hands, exact_hands = whole("hands", hands, 2), whole("exact_hands", exact_hands, 2)
    pool, seed, edge_deals = whole("pool", pool, 64), whole("seed", seed, 0), whole("edge_deals", edge_deals, 1)
    return best_play_to_file(house_way_names(house_way), Rules(commission=fraction("commission", commission)),
                             hands, exact_hands, pool, seed, None, edge_deals, None, out, resume, fresh)


def side_bets():
    """The side bets' pay tables, every bonus hand's exact count over all 154,143,080 hands
    and each table's house edge (``sapsam paigow-poker side-bets``): a dict."""
    from sapsam.paigow_poker.output import side_bets_answer

    return side_bets_answer()


def house_ways():
    """The shipped house ways: a list of dicts (id, name, casino, source, note, unstated).

    >>> import sapsam
    >>> [w["id"] for w in sapsam.paigow_poker.house_ways()][0]
    'foxwoods'
    """
    from sapsam.paigow_poker.output import house_ways_answer

    return house_ways_answer()["house_ways"]

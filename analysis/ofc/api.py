"""The Python API of Open-Face Chinese Poker, ``sapsam.ofc.place``, ``fantasyland``, ``stay``
and ``simulate``: the same computations as the ``sapsam ofc`` commands of those names, with
their defaults, each result's ``to_dict()`` the command's ``--json`` and ``to_frame()`` a
pandas DataFrame.

>>> import sapsam
>>> best = sapsam.ofc.fantasyland("As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h")
>>> best.to_frame()["royalty"].tolist(), best.stays
([8, 12, 15], True)
"""

from dataclasses import dataclass, field

from sapsam.base.arguments import api_function

RULES = "ofc-pineapple"


def place(hand, board="", dead="", opponents=(), rules=RULES, samples=500, seed=1, policy=None, exact=True,
          race=True):
    """Rank every legal placement (and discard) of the cards in ``hand`` on ``board`` by
    expected points, each played out up to ``samples`` times (``sapsam ofc place``).

    Parameters
    ----------
    hand : str
        The cards dealt now (5 on the first street; then 3 in Pineapple, 1 in classic).
    board : str
        Your board so far, ``"front | middle | back"`` (empty: the first street).
    dead : str
        Cards you know are out.
    opponents : str or sequence of str
        Opponents' boards, or ``"fantasyland:N"`` for one in Fantasyland dealt N cards;
        none: the ruleset's table, dealt from the unseen cards.
    rules : str
        An OFC ruleset id or TOML file.
    samples, seed : int
    policy : {"heuristic", "improved", "learned"}, optional
        Who plays the later streets; default learned where the ruleset and table have its
        weights, else improved where they have the heuristic's.  Every board's last street is
        played exactly.
    exact : bool
        Where every opponent's board is finished and at most one street is left after this
        one, value every placement exactly, over every deal of the last street (``samples``
        and ``policy`` unused; the result's ``exact`` and each placement's say so); False:
        roll such a position out too.
    race : bool
        Roll out in rounds, dropping the placements clearly worse than the leader early
        (each keeps the EV and interval of the rollouts it had: the ``rollouts`` and
        ``dropped`` columns); False: ``samples`` rollouts of every placement.

    Returns
    -------
    PlaceResult
        :class:`~sapsam.ofc.measure.place.PlaceResult`; ``to_frame()`` has a row per placement.

    Examples
    --------
    >>> import sapsam
    >>> ranked = sapsam.ofc.place("Ah 2c 7d", board="As Ad | Kc Qc 5d | 9h 9s", samples=64)
    >>> len(ranked.to_frame()), ranked.samples
    (24, 64)
    """
    from sapsam.base.arguments import flag, whole
    from sapsam.ofc.measure.place import rank_placements

    samples, seed = whole("samples", samples, 1), whole("seed", seed, 0)
    exact, race = flag("exact", exact), flag("race", race)
    opponents = (opponents,) if isinstance(opponents, str) else tuple(opponents)
    return rank_placements(rules, board, hand, dead, opponents, samples, seed, policy=policy, exact=exact,
                           race=race)


def fantasyland(cards, rules=RULES):
    """The best setting of a Fantasyland hand (text, a list of cards as text, or card codes),
    exactly (``sapsam ofc fantasyland``): as many cards as ``rules`` deals a Fantasyland hand
    (14 under ``ofc-pineapple``, 13 under ``ofc-classic``, 14 to 17 progressive); another
    count is a ValueError that names a ruleset dealing it.  A
    :class:`~sapsam.ofc.measure.fantasyland.FantasylandSetting`, whose
    ``to_frame()`` has a row per row of the board.  Its ``to_dict()["seconds"]`` is the time
    the search took, which varies."""
    from sapsam.ofc.game import load_ofc_rules
    from sapsam.ofc.measure.fantasyland import best_fantasyland, parse_fantasyland_cards

    rules = load_ofc_rules(rules)
    return best_fantasyland(parse_fantasyland_cards(cards, rules, naming="rules={!r}"), rules)


@dataclass(frozen=True)
class StayChances:
    """How often n random cards can stay in Fantasyland, per n (``sapsam ofc stay``)."""

    rules: str
    seed: int
    sizes: tuple = field(repr=False)  # StayChance per hand size

    def to_dict(self):
        """The command's ``--json`` (``sapsam ofc stay``)."""
        return {"rules": self.rules, "seed": self.seed, "sizes": [c.to_dict() for c in self.sizes]}

    def to_frame(self):
        """One row per hand size: stays, samples, chance and its 95% Wilson interval."""
        import pandas as pd

        return pd.DataFrame([c.to_dict() for c in self.sizes])


def stay(rules=RULES, cards=(13, 14, 15, 16, 17), samples=200_000, seed=1):
    """The chance that ``cards`` random cards (each size of them, 13 to 17) can be set, not
    fouled, to stay in Fantasyland, by ``samples`` random hands a size.

    >>> import sapsam
    >>> sapsam.ofc.stay(cards=[14], samples=2000).to_frame()["samples"].tolist()
    [2000]
    """
    from sapsam.base.arguments import whole
    from sapsam.ofc.game import load_ofc_rules
    from sapsam.ofc.measure.fantasyland import stay_chance

    rules = load_ofc_rules(rules)
    samples, seed = whole("samples", samples, 1), whole("seed", seed, 0)
    sizes = [whole("cards", n) for n in ([cards] if isinstance(cards, str) or not hasattr(cards, "__iter__")
                                         else cards)]
    for n in sizes:
        if not 13 <= n <= 17:
            raise ValueError(f"cards: a Fantasyland hand has 13 to 17 cards, not {n}")
    return StayChances(rules.id, seed, tuple(stay_chance(n, rules, samples, seed) for n in sizes))


@dataclass(frozen=True)
class OfcSimulation:
    """Hands played between policies under each ruleset (``sapsam ofc simulate``): ``runs``
    holds an :class:`~sapsam.ofc.measure.simulate.OfcRun` a ruleset."""

    seed: int
    runs: tuple = field(repr=False)

    def to_dict(self):
        """The command's ``--json`` (``sapsam ofc simulate``)."""
        return {"seed": self.seed, "runs": [run.to_dict() for run in self.runs]}

    def to_frame(self):
        """One row per ruleset and seat: points a hand and its 95% CI, fouls, Fantasyland."""
        import pandas as pd

        return pd.concat([run.frame().assign(rules=run.rules) for run in self.runs],
                         ignore_index=True)


@api_function
def simulate(rules=RULES, seats=None, hands=1000, seed=1, *, out=None,
             resume=False, fresh=False):
    """Play hands between ``seats`` (a policy a player: random, heuristic, rollout, improved,
    learned or lookahead; default two of the strongest shipped for every ruleset,
    :func:`sapsam.ofc.measure.simulate.default_seats`), Fantasyland carried from hand to hand,
    under each of ``rules`` (an id or a list, each on the same decks).  With ``out``, the
    result and its provenance are written there as JSON and finished hands checkpointed beside
    it (``resume``, ``fresh``).  Hands are played in blocks of 50 (``hands`` rounded up to
    whole blocks) and the points' 95% interval comes from the spread of the blocks' means: NaN
    with one block.

    >>> import sapsam
    >>> sapsam.ofc.simulate(seats=["improved", "heuristic"], hands=50).to_frame()["seat"].tolist()
    [0, 1]
    """

    from sapsam.base.arguments import resume_or_fresh, whole
    from sapsam.base.files import checkpoint_beside, provenance, write_json, writing_result
    from sapsam.ofc.measure.simulate import default_seats, simulate_ofc, table_rules

    hands, seed = whole("hands", hands, 1), whole("seed", seed, 0)
    resume_or_fresh(resume, fresh, out)
    ids = [rules] if isinstance(rules, str) else list(rules)
    names = default_seats(ids) if seats is None else (seats,) if isinstance(seats, str) else tuple(seats)
    loaded = table_rules(ids, names, f"rules {ids}")

    def checkpoint(r):  # one a ruleset, beside the result file
        return checkpoint_beside(out, r.id) if out else None

    with writing_result(out, resume, fresh):
        runs = tuple(simulate_ofc(r, names, hands, seed, checkpoint=checkpoint(r), resume=resume,
                                  fresh=fresh) for r in loaded)
        result = OfcSimulation(seed, runs)
        if out:
            write_json(out, {**result.to_dict(), "provenance": provenance(
                rules=ids, seats=list(names), hands=hands, seed=seed)})
            for r in loaded:
                checkpoint(r).unlink(missing_ok=True)
    return result

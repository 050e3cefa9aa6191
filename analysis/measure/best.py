"""Which setting wins more: Monte Carlo EV of every candidate decision for one hand.

Candidates are the Pareto frontier of the hand, plus declaring its best natural and
surrendering where the ruleset has them (and, for a review, the setting actually played).
Opponents are dealt from the 39 unseen cards and decide by an opponent policy; every
candidate meets the same opponents (common random numbers), so the paired gap between two
candidates has a much tighter interval than either EV.  Intervals are normal-theory 95%
intervals over independent samples (mean +- 1.96 SD / sqrt(n)).

With ``precision``, samples come in rounds and a candidate leaves the race once its gap to
the leader is distinguishably negative (successive elimination); the run stops when one
candidate is left or every interval is narrower than ``precision`` (half-width).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sapsam.base.arguments import real
from sapsam.base.memory import require_memory
from sapsam.base.stats import Z95
from sapsam.game.cards import format_cards, format_setting
from sapsam.game.mechanisms import Game, SurrenderMode
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.score import points_scale
from sapsam.game.settings import pareto_frontier, scales, settled_rows, sorted_hand
from sapsam.kernels import montecarlo as _mc
from sapsam.kernels import policies as _kp
from sapsam.kernels.naturals import NAT_KIND, NATURAL_KINDS, best_natural
from sapsam.play.policy import Policy
from sapsam.play.seeds import Stream
from sapsam.strategy.registry import make_policy

BLOCK = 100  # samples per RNG block
SAMPLE_BYTES = 40  # memory per candidate and sample: points, their copies and the summary's


@dataclass(frozen=True)
class Candidate:
    """A decision for the hand: a setting, declaring a natural, or surrendering."""

    label: str  # "front | middle | back", "natural (kind)" or "surrender"
    rows: tuple  # strength triple on the ruleset's scale (zeros unless a setting)
    natural: int = -1
    natural_key: int = 0
    surrender: bool = False


@dataclass(frozen=True)
class BestResult:
    """The ranked candidates of one analysis with what it was run with."""

    hand: np.ndarray
    rules: Ruleset
    players: int
    opponents: str
    seed: int
    samples: int
    table: pd.DataFrame  # one row per candidate, best first
    other: np.ndarray = None  # the player's other hand, in criss-cross

    def to_records(self, top=None):
        """Candidates as JSON-ready dicts, best first."""
        frame = self.table if top is None else self.table.head(top)
        out = []
        for row in frame.itertuples(index=False):
            out.append({
                "setting": row.setting, "ev": row.ev, "ci": [row.ci_low, row.ci_high],
                "gap": row.gap, "gap_ci": [row.gap_low, row.gap_high],
                "distinguishable": bool(row.distinguishable), "samples": int(row.samples),
                "rows": {name: {"win": getattr(row, f"{name}_win"), "tie": getattr(row, f"{name}_tie"),
                                "loss": getattr(row, f"{name}_loss")}
                         for name in ("front", "middle", "back")},
                "sweep": row.sweep, "swept": row.swept, "royalty_ev": row.royalty_ev,
            })
        return out

    @property
    def hand_text(self):
        """The hand as text, strongest card first."""
        return format_cards(self.hand, descending=True)

    def to_dict(self, top=None):
        """The whole result as JSON-ready data (the JSON of ``sapsam best``)."""
        return {"hand": self.hand_text, "rules": self.rules.id,
                **({} if self.other is None else
                   {"other_hand": format_cards(self.other, descending=True)}),
                "players": self.players, "opponents": self.opponents, "samples": self.samples,
                "seed": self.seed, "candidates": self.to_records(top)}

    def to_frame(self):
        """The ranking as a DataFrame, one row per candidate, best first, indexed by rank
        from 1: setting, EV and CI, paired gap to the best and its CI, rows' win/tie/loss,
        sweeps, royalties."""
        frame = self.table.copy()
        frame.index = pd.RangeIndex(1, len(frame) + 1, name="rank")
        return frame

    def __str__(self):
        """The ranking as ``sapsam best`` shows it, in plain text."""
        other = "" if self.other is None else f" (other hand {format_cards(self.other, descending=True)})"
        columns = ["setting", "ev", "ci_low", "ci_high", "gap", "gap_low", "gap_high"]
        return (f"Hand: {self.hand_text}{other}\n{self.rules.id}, {self.players} players, "
                f"{self.opponents} opponents, {self.samples:,} sampled tables (seed {self.seed})\n"
                + self.to_frame()[columns].to_string(float_format="{:+.3f}".format))


def candidates(hand, rules, extra=()):
    """The candidate decisions of a sorted hand under a ruleset (frontier first)."""
    frontier = pareto_frontier(hand, **scales(rules))
    out = [Candidate(m.text, m.strengths) for m in frontier.members]
    compiled = rules.compile()
    if len(compiled.naturals):
        index, key = best_natural(hand, compiled.naturals)
        if index >= 0:
            kind = NATURAL_KINDS[compiled.naturals[index, NAT_KIND]]
            out.append(Candidate(f"natural ({kind})", (0, 0, 0), int(index), int(key)))
    if rules.surrender.mode != SurrenderMode.NONE:
        out.append(Candidate("surrender", (0, 0, 0), surrender=True))
    for front, middle, back in extra:
        rows = settled_rows(front, middle, back, rules)[0]
        if not any(c.rows == rows and c.natural < 0 and not c.surrender for c in out):
            out.append(Candidate(format_setting(front, middle, back), rows))
    return out


def best_setting(hand, rules="standard", players=4, opponents="fitted", samples=10000, seed=0,
                 precision=None, extra=(), strategy=None, progress=None, other=None):
    """Rank every candidate decision of ``hand`` by Monte Carlo EV.

    Parameters
    ----------
    hand : str or array-like of 13 card codes
    rules : Ruleset or str
    players : int
        Table size, 2 to 4 (the hand is seat 1; in a bank game the bank is the last seat).
    opponents : str or sapsam.play.policy.Policy
        Opponent policy: random, greedy, balanced, table, fitted or houseway (or one made).
    samples : int
        Sampled opponent tables (the most used with ``precision``).
    seed : int
    precision : float, optional
        Stop early once the best is separated or every CI half-width is below this.
    extra : sequence of (front, middle, back) card arrays
        Settings to evaluate besides the candidates (e.g. the one played).
    strategy : path, optional
        Strategy file for ``fitted`` opponents.
    progress : callable, optional
        ``progress(done, total)`` about twenty times; the numbers do not depend on it.
    other : str or array-like of 13 card codes, optional
        The player's other hand, in criss-cross (and only there): the opponent holds the rest.
    """
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    rules.check_players(players)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if precision is not None and real("precision", precision) <= 0:  # a finite number first: NaN ran unraced
        raise ValueError(f"precision must be positive, got {precision}")
    cards = sorted_hand(hand)
    unseen = unseen_cards(cards, rules, other)
    stream = Stream(seed, "opponents")
    policy = opponents if isinstance(opponents, Policy) else make_policy(opponents, rules,
                                                                          players, strategy)
    policy = policy.crossed(rules, unseen, players) if rules.hands == 2 else policy  # once, not per round
    cands = candidates(cards, rules, extra)
    scale = points_scale(rules)
    n = len(cands)
    require_memory(n * samples * SAMPLE_BYTES, f"{samples:,} samples of {n} candidates")
    points = np.zeros((n, samples), np.int64)
    stats = np.zeros((n, _mc.N_STATS), np.int64)
    seen = np.zeros(n, np.int64)  # samples each candidate has met
    alive = np.arange(n)
    round_blocks = min(20, -(-samples // BLOCK)) if precision else -(-samples // BLOCK)
    # with progress, a round is sampled in steps of about a twentieth of the samples; the
    # rounds, and so the stopping rule, stay the same
    step_blocks = max(1, -(-samples // (20 * BLOCK))) if progress is not None else round_blocks
    done = 0
    while done < samples:
        end = min(done + round_blocks * BLOCK, samples)
        while done < end:
            count = min(step_blocks * BLOCK, end - done)
            part, part_stats = simulate(cards, rules, players, policy, [cands[c] for c in alive],
                                        count, stream, first_block=done // BLOCK, unseen=unseen)
            points[alive, done:done + count] = part
            stats[alive] += part_stats
            seen[alive] += count
            done += count
            if progress is not None:
                progress(done, samples)
        if precision:
            table = _summarise(cands, points, stats, seen, scale)
            if all(table["ci_high"].loc[alive] - table["ev"].loc[alive] < precision):
                break
            best = int(table.index[0])
            alive = np.array([c for c in alive if c == best or table.loc[c, "gap_high"] >= 0])
            if len(alive) == 1:
                break
    table = _summarise(cands, points, stats, seen, scale)
    return BestResult(cards, rules, players, policy.name, seed, done, table.reset_index(drop=True),
                      None if other is None else sorted_hand(other))


def warm_sampler(rules, players, policy):
    """Compile (or load) the sampler for these opponents on its own: one sampled table for one
    made-up candidate, without the hand's own kernels (its frontier and naturals), which a
    first ``sapsam best`` compiles in a process beside this one meanwhile
    (:func:`sapsam.compile.start_beside`).  Not in criss-cross, whose opponents' field needs
    the player's hands (nothing is compiled there)."""
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    if rules.hands == 1:
        simulate(sorted_hand(np.arange(13, dtype=np.uint8)), rules, players, policy,
                 [Candidate("warm-up", (0, 0, 0))], 1, 0)


def settlement_signature():
    """The Numba types of the sampler's settling call (:func:`sapsam.kernels.montecarlo.sample_block`:
    ``settle_into``'s inlined twin on a one-table :class:`~sapsam.kernels.settle.Table`,
    ``detailed`` the literal ``True``, ``only`` an int64), for :func:`warm_settlement`."""
    from numba import typeof, types

    from sapsam.kernels import settle as S

    i64 = np.zeros((1, 1), np.int64)
    rules = S.Rules(np.zeros(S.N_PARAMS, np.int64), i64, i64)
    table = S.Table(np.zeros((1, 1, 3), np.int16), i64, i64, np.zeros((1, 1), np.bool_), i64,
                    np.zeros(1, np.int64), i64)
    net, t, work, detail = i64, np.int64(0), np.zeros((1, 1, 1), np.int64), np.zeros((1, 1, 1), np.int64)
    results = np.zeros((1, 1, 1), np.int8)
    arguments = (rules, table, net, t, work, detail, results)
    return tuple(typeof(a) for a in arguments) + (types.literal(True), types.int64)


def search_signature():
    """The Numba types of the opponents' search as the sampler reaches it, in every route
    (:func:`sapsam.kernels.policies.choose`'s call of
    :func:`sapsam.kernels.search.best_split`: the hand's subset strengths, the policy's arrays
    and card-removal model, the scratch of a thread), for :func:`warm_search`.  The scratch comes
    from its own constructors, run as Python (nothing compiles)."""
    from numba import typeof

    from sapsam.kernels.policies import POINTS_SHAPE
    from sapsam.kernels.removal import no_removal, removal_scratch
    from sapsam.kernels.search import search_scratch
    from sapsam.kernels.settings import frontier_scratch
    from sapsam.kernels.value import N_VALUES, TABLE_SHAPE

    s3, s5 = frontier_scratch.py_func()[:2]
    tables, values, points = np.zeros(TABLE_SHAPE), np.zeros(N_VALUES), np.zeros(POINTS_SHAPE)
    arguments = (s3, s5, np.int64(0), np.bool_(False), tables, values, points, no_removal(),
                 removal_scratch.py_func(), np.zeros(1, np.int64), np.int64(1), search_scratch.py_func())
    return tuple(typeof(a) for a in arguments)


def warm_search():
    """Compile (or load) the opponents' search on its own: the sampler's compile reaches it
    after their naturals, a third of the way in, and it is the largest part left (13 s of a
    first ``best``'s 55 on this project's AMD VM): the process beside a first ``sapsam best``
    compiles it first (:func:`sapsam.compile.start_beside`), and the sampler then loads it
    from the cache."""
    from sapsam.kernels.search import best_split

    best_split.compile(search_signature())


def warm_settlement():
    """Compile (or load) the sampler's settlement on its own, the last kernel the sampler's
    compile reaches (4-5 s of compiling on 2 cores): the process beside a first
    ``sapsam best`` compiles it after the hand's kernels (:func:`sapsam.compile.start_beside`),
    and the sampler then loads it from the cache."""
    from sapsam.kernels import settle as S

    S.settle_into_inline.compile(settlement_signature())


def sampler_search(opponents, rules):
    """The ``search`` argument the sampler is compiled for against opponents named
    ``opponents`` (:func:`sapsam.kernels.policies.search_mode`, told from the name before the policy
    is made: a valued policy under a high middle searches alone), so that a command can say
    whether that kernel still has to compile."""
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    valued = opponents in ("balanced", "table", "fitted", "houseway")
    return _kp.SEARCH_ONLY if valued and not rules.low_middle else False


def unseen_cards(cards, rules, other=None):
    """The cards the opponents are dealt from: all but the hand's, and in criss-cross
    (``rules.hands`` = 2) all but the player's two hands (``other`` is the second), so
    exactly the opponent's 26.  A second hand anywhere else, or none in criss-cross, is an
    error."""
    cards = sorted_hand(cards)
    if rules.hands == 1:
        if other is not None:
            raise ValueError(f"{rules.id} deals one hand to each player: give no other hand "
                             f"(criss-cross deals two)")
        return np.setdiff1d(np.arange(52, dtype=np.uint8), cards)
    if other is None:
        raise ValueError(f"{rules.id} deals each player two hands: give your other hand too "
                         f"(13 cards), the opponent holds the 26 outside both")
    other = sorted_hand(other)
    if np.intersect1d(cards, other).size:
        shared = format_cards(np.intersect1d(cards, other))
        raise ValueError(f"your two hands share {shared}: they are dealt from one deck")
    return np.setdiff1d(np.arange(52, dtype=np.uint8), np.concatenate([cards, other]))


def simulate(cards, rules, players, policy, cands, samples, stream, first_block=0, unseen=None,
             packed=False):
    """Points of each candidate against the same sampled opponents.

    Samples are numbered from ``first_block * BLOCK``; block ``b`` always draws the same
    opponents for the same hand and ``stream`` (an :class:`sapsam.play.seeds.Stream`, or a seed
    for ``Stream(seed, "opponents")``), so rounds of a race extend one run.  ``unseen``
    (default: the 39 cards not in the hand; required in criss-cross, :func:`unseen_cards`) is the
    pack the opponents are dealt from; a smaller one models dead cards, or makes an exactly
    enumerable case.  In criss-cross the hand meets the opponent's two hands, dealt from it.

    Returns
    -------
    points : ndarray(int64), shape (C, samples)
        The hand's points (units of 1 / scale) per candidate and sample; in the match game
        with ``packed``, every seat's (:data:`sapsam.kernels.montecarlo.sample_blocks`).
    stats : ndarray(int64), shape (C, sapsam.kernels.montecarlo.N_STATS)
    """
    compiled = rules.compile()
    table = rules.opposing_hands(players) + 1  # the hand and the hands it is compared with
    unseen = np.ascontiguousarray(unseen_cards(cards, rules) if unseen is None else unseen, np.uint8)
    if len(unseen) < 13 * (table - 1) or np.intersect1d(unseen, cards).size:
        raise ValueError(f"the opponents need {13 * (table - 1)} unseen cards outside the hand")
    bank = players - 1 if rules.scoring.game == Game.BANK else -1
    if rules.hands == 2:  # the opponent holds the unseen cards: its play (Policy.crossed)
        policy = policy.crossed(rules, unseen, players)
    blocks = -(-samples // BLOCK)
    stream = stream if isinstance(stream, Stream) else Stream(stream, "opponents")
    points = np.zeros((len(cands), samples), np.int64)
    stats = np.zeros((blocks, len(cands), _mc.N_STATS), np.int64)
    _mc.sample_blocks(cards, np.array([c.rows for c in cands], np.int16).reshape(-1, 3),
                      np.array([c.natural for c in cands], np.int64),
                      np.array([c.natural_key for c in cands], np.int64),
                      np.array([c.surrender for c in cands], np.bool_), unseen, table,
                      policy.arrays, _kp.search_mode(*policy.arrays, compiled.params), compiled.arrays,
                      bank, stream.states(blocks, first_block), BLOCK, samples, points, stats)
    if rules.scoring.game == Game.MATCH and not packed:
        points &= 7  # the hand's own
    return points, stats.sum(axis=0)


def _summarise(cands, points, stats, seen, scale):
    """Per-candidate EV, CIs, paired gap to the best, and row statistics (best first)."""
    n = len(cands)
    ev = np.empty(n)
    half = np.empty(n)
    for c in range(n):
        x = points[c, :seen[c]] / scale
        ev[c] = x.mean()
        half[c] = Z95 * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else np.inf
    # the leader among the candidates that met the most samples
    most = seen.max()
    full = np.flatnonzero(seen == most)
    best = int(full[np.argmax(ev[full])])
    gap = np.empty(n)
    gap_half = np.empty(n)
    for c in range(n):
        m = min(seen[c], seen[best])
        d = (points[c, :m] - points[best, :m]) / scale
        gap[c] = d.mean()
        gap_half[c] = Z95 * d.std(ddof=1) / np.sqrt(m) if m > 1 else np.inf
    compared = np.maximum(stats[:, _mc.ST_COMPARED], 1)
    frame = pd.DataFrame({
        "setting": [c.label for c in cands],
        "ev": ev, "ci_low": ev - half, "ci_high": ev + half,
        "gap": gap, "gap_low": gap - gap_half, "gap_high": gap + gap_half,
        "samples": seen,
    })
    frame["gap_low"] = frame["gap_low"].where(frame.index != best, 0.0)
    frame["gap_high"] = frame["gap_high"].where(frame.index != best, 0.0)
    frame["distinguishable"] = frame["gap_high"] < 0
    for k, name in enumerate(("front", "middle", "back")):
        for j, what in enumerate(("win", "tie", "loss")):
            frame[f"{name}_{what}"] = stats[:, 3 * k + j] / compared
    frame["sweep"] = stats[:, _mc.ST_SWEEPS] / compared
    frame["swept"] = stats[:, _mc.ST_SWEPT] / compared
    frame["royalty_ev"] = stats[:, _mc.ST_ROYALTIES] / np.maximum(seen, 1) / scale
    order = np.lexsort((np.arange(n), -ev, -seen))
    frame = frame.iloc[order]
    return frame

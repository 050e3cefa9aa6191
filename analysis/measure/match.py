"""Match play (the ``match`` game, first to 11): who wins matches between policies, each
player's chance of winning from any score, and the setting that most often wins the match.

- :func:`play_matches` deals tables in chunks (chunk ``c`` from ``Stream(seed, "match", (c,))``,
  each seat deciding by its policy), plays their points out into matches in order
  (:func:`sapsam.kernels.match.play_out`) and counts each seat's wins (Wilson 95% intervals; the
  matches are independent, each from its own deals).
- :func:`match_equity` estimates the distribution of a deal's points among players of one
  policy (``deals`` tables, made symmetric over the seats, which it is in truth) and solves
  each player's chance of winning from every score (:func:`sapsam.kernels.match.equity`).
- :func:`match_setting` ranks a hand's settings both ways from a score: the points of this
  deal, and the chance of winning the match when, after this deal, everyone plays the
  opponents' policy (which plays for points).  Every candidate meets the same sampled
  opponents, so the gap between the two choices has a paired interval.
"""

import re
from dataclasses import dataclass
from itertools import permutations

import numpy as np
import pandas as pd

from sapsam.base.stats import Z95, wilson_interval
from sapsam.game.cards import format_cards
from sapsam.game.mechanisms import Game
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.settings import sorted_hand
from sapsam.kernels import match as _km
from sapsam.measure.best import BLOCK, candidates, simulate
from sapsam.measure.compare import Decisions, decide, settle_decisions
from sapsam.play.deal import deal_tables, table_setup
from sapsam.play.policy import Policy
from sapsam.play.seeds import CHUNKS, Stream
from sapsam.strategy.registry import make_policy

CHUNK = 4096  # tables dealt per chunk of a match run (fixed: it fixes the numbers)
EQUITY_DEALS = 40000  # tables the field's points per deal are estimated from


def match_rules(rules, players=None):
    """A ruleset of the match game (refused otherwise), and ``players`` checked for it."""
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    if rules.scoring.game != Game.MATCH:
        raise ValueError(f"{rules.id} is not played as a match (scoring.game = "
                         f"'{rules.scoring.game}'): use first-to-11 or a ruleset with "
                         f"scoring.game = 'match'")
    if players is not None:
        rules.check_players(players)
    return rules


def deal_points(rules, policies, tables, stream):
    """Every seat's points (int64 (tables, P)) over ``tables`` tables dealt from ``stream``,
    seat p deciding by ``policies[p]`` with its own choices (``stream.child(p + 1)``)."""
    players = len(policies)
    hands = deal_tables(tables, players, stream)
    aces, bank = table_setup(rules, hands)
    seats = [decide(policy, rules, players, hands[:, p], stream.child(p + 1).states(CHUNKS))
             for p, policy in enumerate(policies)]
    decisions = Decisions(*(np.stack([getattr(s, name) for s in seats], axis=1)
                            for name in ("rows", "natural", "natural_key", "surrender")))
    return settle_decisions(rules, decisions, aces, bank)


@dataclass(frozen=True)
class MatchResult:
    """Matches played between seats' policies."""

    rules: Ruleset
    seats: tuple  # policy names
    seed: int
    wins: np.ndarray  # int64 (P,)
    lengths: np.ndarray  # int64 (M,): deals of each match
    points: np.ndarray  # float64 (P, 2): sum and sum of squares of each seat's points per deal
    deals: int  # tables dealt (the last ones may belong to an unfinished match)

    @property
    def matches(self):
        return int(self.wins.sum())

    def frame(self):
        """Per seat: policy, matches won, their share with a Wilson 95% interval, and points per
        deal with a normal 95% interval."""
        low, high = wilson_interval(self.wins, self.matches)
        mean = self.points[:, 0] / self.deals
        sd = np.sqrt(np.maximum(self.points[:, 1] / self.deals - mean ** 2, 0.0) * self.deals
                     / max(self.deals - 1, 1))
        half = Z95 * sd / np.sqrt(self.deals)
        return pd.DataFrame({"seat": np.arange(1, len(self.seats) + 1), "policy": list(self.seats),
                             "wins": self.wins, "share": self.wins / self.matches,
                             "ci_low": low, "ci_high": high, "points_per_deal": mean,
                             "points_ci_low": mean - half, "points_ci_high": mean + half})

    def to_dict(self):
        """JSON-ready (``sapsam match --json``)."""
        return {"rules": self.rules.id, "target": self.rules.match.target, "seed": self.seed,
                "matches": self.matches, "deals": self.deals,
                "mean_deals_per_match": float(self.lengths.mean()),
                "seats": self.frame().to_dict(orient="records")}


def play_matches(rules, seats, matches=1000, seed=0, strategy=None, progress=None):
    """Play ``matches`` matches between the seats' policies (one name per seat; 2 to 4).

    ``strategy`` is a strategy file for the fitted seats; ``progress(done, matches)`` after
    every chunk of deals.  Returns a :class:`MatchResult`.
    """
    seats = tuple(seats)
    rules = match_rules(rules, len(seats))
    if matches < 1:
        raise ValueError(f"matches must be at least 1, got {matches}")
    if strategy is not None and "fitted" not in seats:  # it would be silently ignored
        raise ValueError(f"a strategy file is for fitted seats, and these are {','.join(seats)}")
    made = {}
    policies = [made.setdefault(name, make_policy(name, rules, len(seats), strategy))
                for name in seats]
    target = rules.match.target
    state = np.zeros(len(seats) + 1, np.int64)
    winners = np.zeros(matches, np.int64)
    lengths = np.zeros(matches, np.int64)
    totals = np.zeros((len(seats), 2))
    done, chunk = 0, 0
    while done < matches:
        points = deal_points(rules, policies, CHUNK, Stream(seed, "match", (chunk,)))
        totals += np.stack([points.sum(axis=0), (points.astype(float) ** 2).sum(axis=0)], axis=1)
        done = _km.play_out(points, target, state, winners, lengths, done)
        chunk += 1
        if progress is not None:
            progress(done, matches)
    return MatchResult(rules, seats, seed, np.bincount(winners, minlength=len(seats)), lengths,
                       totals, chunk * CHUNK)


@dataclass(frozen=True)
class MatchEquity:
    """Each player's chance of winning the match from every score, for a field of one policy."""

    target: int
    outcomes: np.ndarray  # int64 (K, P): a deal's distinct points
    probs: np.ndarray  # float64 (K,)
    pre: np.ndarray  # sapsam.kernels.match.equity
    tie: np.ndarray
    deals: int

    def of(self, scores):
        """Each player's chance from ``scores`` (below the target, or tied for the lead)."""
        scores = np.asarray(scores, np.int64)
        out = np.empty(len(scores))
        for p in range(len(scores)):  # the kernel answers for the first player: rotate each in
            order = np.roll(np.arange(len(scores)), -p)
            out[p] = _km.equity_after(scores[order], np.zeros(1, np.int64), self.target,
                                      self.pre, self.tie)[0]
        return out


_EQUITIES = {}


def match_equity(rules, players, policy, deals=EQUITY_DEALS):
    """:class:`MatchEquity` of a field of ``policy`` players (kept for the process)."""
    key = (rules, players, policy.name, policy.source, deals)
    if key not in _EQUITIES:
        points = deal_points(rules, [policy] * players, deals, Stream(0, "equity"))
        sym = np.concatenate([points[:, list(order)] for order in permutations(range(players))])
        outcomes, counts = np.unique(sym, axis=0, return_counts=True)
        probs = counts / counts.sum()
        pre, tie = _km.equity(outcomes.astype(np.int64), probs, rules.match.target)
        _EQUITIES[key] = MatchEquity(rules.match.target, outcomes, probs, pre, tie, deals)
    return _EQUITIES[key]


def score_list(scores):
    """A match's scores as a tuple: from a sequence, or from text ``"3,5"`` or ``"3 5"`` as the
    command line takes them (a word that is not a number is kept, for :func:`check_scores` to
    refuse)."""
    if isinstance(scores, str):
        return tuple(int(x) if x.isdigit() else x for x in re.split(r"[\s,]+", scores.strip()))
    if not hasattr(scores, "__iter__"):
        raise ValueError(f"scores are a player's score each, e.g. [8, 10] or '8,10', got {scores!r}")
    return tuple(scores)


def check_scores(scores, rules):
    """The match's scores, the hand's first (whole numbers >= 0, one per player): refused if
    the match is over (a sole leader at the target)."""
    scores = score_list(scores)
    try:
        rules.check_players(len(scores))
    except ValueError as exc:
        raise ValueError(f"scores are one a player, yours first: {len(scores)} given ({exc})") from None
    if any(not isinstance(x, (int, np.integer)) or x < 0 for x in scores):
        raise ValueError(f"scores are whole numbers >= 0, got {','.join(map(str, scores))}")
    top = max(scores)
    if top >= rules.match.target and scores.count(top) == 1:
        raise ValueError(f"the match is over at {','.join(map(str, scores))}: player "
                         f"{scores.index(top) + 1} has {top} of {rules.match.target} and leads alone")
    if top - min(scores) > _km.CLIP and top >= rules.match.target:
        raise ValueError(f"a tie at the target is solved for players at most {_km.CLIP} behind")
    return np.array(scores, np.int64)


@dataclass(frozen=True)
class MatchDecision:
    """A hand's settings ranked by the chance of winning the match and by points."""

    hand: np.ndarray
    rules: Ruleset
    scores: np.ndarray  # the hand's player first
    opponents: str
    samples: int
    seed: int
    now: float  # the chance of winning before the deal (the field's equity)
    table: pd.DataFrame  # per candidate, most match wins first

    @property
    def match_best(self):
        return self.table.iloc[0]

    @property
    def points_best(self):
        return self.table.loc[self.table["points"].idxmax()]

    def to_dict(self):
        """JSON-ready (``sapsam best --score --json``)."""
        return {"hand": format_cards(self.hand, descending=True), "rules": self.rules.id,
                "scores": self.scores.tolist(), "opponents": self.opponents,
                "samples": self.samples, "seed": self.seed, "win_now": self.now,
                "match_best": self.match_best["setting"],
                "points_best": self.points_best["setting"],
                "candidates": self.table.to_dict(orient="records")}

    def to_frame(self):
        """One row per candidate, most match wins first, indexed by rank from 1."""
        frame = self.table.copy()
        frame.index = pd.RangeIndex(1, len(frame) + 1, name="rank")
        return frame


def match_setting(hand, rules, scores, opponents="fitted", samples=10000, seed=0,
                  strategy=None, progress=None):
    """Rank a hand's settings by the chance of winning the match from ``scores`` (the hand's
    player first, then the others in turn), beside the points of this deal.

    The opponents decide by ``opponents`` (for points, whatever the score); after this deal
    every player does (:func:`match_equity`).  Returns a :class:`MatchDecision`.
    """
    rules = match_rules(rules)
    scores = check_scores(scores, rules)
    players = len(scores)
    if samples < 2:
        raise ValueError(f"samples must be at least 2, got {samples}")
    policy = opponents if isinstance(opponents, Policy) else make_policy(opponents, rules, players,
                                                                          strategy)
    equity = match_equity(rules, players, policy)
    cards = sorted_hand(hand)
    cands = candidates(cards, rules)
    codes = np.zeros((len(cands), samples), np.int64)
    stream = Stream(seed, "opponents")
    step = max(1, -(-samples // (20 * BLOCK))) * BLOCK
    for done in range(0, samples, step):
        count = min(step, samples - done)
        codes[:, done:done + count] = simulate(cards, rules, players, policy, cands, count, stream,
                                               first_block=done // BLOCK, packed=True)[0]
        if progress is not None:
            progress(done + count, samples)
    win = _km.equity_after(scores, codes, rules.match.target, equity.pre, equity.tie)
    table = decision_table([c.label for c in cands], codes & 7, win)
    return MatchDecision(cards, rules, scores, policy.name, samples, seed,
                         float(equity.of(scores)[0]), table)


def decision_table(labels, points, win):
    """Per candidate: points and chance of winning (means, normal 95% intervals), and the
    paired gap in that chance to the candidate that wins most; most wins first."""
    n = points.shape[1]

    def interval(x):
        half = Z95 * x.std(axis=1, ddof=1) / np.sqrt(n)
        mean = x.mean(axis=1)
        return mean, mean - half, mean + half

    p, p_low, p_high = interval(points.astype(float))
    w, w_low, w_high = interval(win)
    best = int(np.argmax(w))
    g, g_low, g_high = interval(win - win[best])
    frame = pd.DataFrame({"setting": labels, "win": w, "win_ci_low": w_low, "win_ci_high": w_high,
                          "win_gap": g, "win_gap_ci_low": g_low, "win_gap_ci_high": g_high,
                          "points": p, "points_ci_low": p_low, "points_ci_high": p_high})
    return frame.sort_values(["win", "points"], ascending=False, kind="stable").reset_index(drop=True)


def warm_equity():
    """Compile the equity kernels for the argument types the functions above pass."""
    pre, tie = _km.equity(np.array([[1, 0], [0, 1]], np.int64), np.array([0.5, 0.5]), 2)
    MatchEquity(2, None, None, pre, tie, 0).of([0, 0])
    _km.equity_after(np.zeros(2, np.int64), np.zeros((1, 1), np.int64), 2, pre, tie)


def decision_differences(rules, players, hands=200, samples=1000, seed=0, progress=None):
    """How often, and by how much, playing for the match differs from playing for points, by
    score: your score against every opponent's (all at one score), each below the target.

    For each of ``hands`` seeded hands (``Stream(seed, "hands")``) every candidate meets
    ``samples`` sampled tables of fitted opponents once; the two choices are made on the first
    half of the samples and their chances of winning the match compared on the other half (so a
    choice's luck on the samples it was made on does not count as a gain).  Per score: the
    share of hands where the choices differ (Wilson 95% interval) and the mean gain in the
    chance of winning (normal 95% interval; zero where they agree).
    """
    from sapsam.play.deal import deal_sorted_hands

    rules = match_rules(rules, players)
    if hands < 2 or samples < 4:
        raise ValueError(f"need at least 2 hands and 4 samples, got {hands} and {samples}")
    policy = make_policy("fitted", rules, players)
    equity = match_equity(rules, players, policy)
    target = rules.match.target
    grid = [(mine, theirs) for mine in range(target) for theirs in range(target)]
    differ = np.zeros((len(grid), hands), np.bool_)
    gain = np.zeros((len(grid), hands))
    half = samples // 2
    for h, cards in enumerate(deal_sorted_hands(hands, Stream(seed, "hands"))):
        cands = candidates(cards, rules)
        codes, _ = simulate(cards, rules, players, policy, cands, samples,
                            Stream(seed, "opponents", (h,)), packed=True)
        for_points = int(np.argmax((codes[:, :half] & 7).mean(axis=1)))
        for g, (mine, theirs) in enumerate(grid):
            scores = np.array([mine] + [theirs] * (players - 1), np.int64)
            win = _km.equity_after(scores, codes, target, equity.pre, equity.tie)
            for_match = int(np.argmax(win[:, :half].mean(axis=1)))
            differ[g, h] = for_match != for_points
            gain[g, h] = win[for_match, half:].mean() - win[for_points, half:].mean()
        if progress is not None:
            progress(h + 1, hands)
    low, high = wilson_interval(differ.sum(axis=1), hands)
    mean = gain.mean(axis=1)
    spread = Z95 * gain.std(axis=1, ddof=1) / np.sqrt(hands)
    return pd.DataFrame({"mine": [m for m, _ in grid], "theirs": [t for _, t in grid],
                         "hands": hands, "share_differ": differ.mean(axis=1),
                         "share_ci_low": low, "share_ci_high": high, "gain": mean,
                         "gain_ci_low": mean - spread, "gain_ci_high": mean + spread})

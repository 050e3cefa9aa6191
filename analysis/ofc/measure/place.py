"""Where the cards in hand go (``sapsam ofc place``): every legal placement (and discard)
ranked by its expected points, each played out to the end of the hand many times.

A placement's value in one rollout: the unseen cards shuffled, every board (yours and the
opponents' as they stand) finished street by street by one policy (the self-play weights where
a ruleset has them, else the heuristic; with few random fills, for speed), the boards
settled, plus the worth of Fantasyland if your board enters it.  An opponent in Fantasyland
is dealt its cards at once and sets them by the exact solver, unseen.  Every placement meets the
same shuffles and the same random choices, so their differences are measured more tightly than
their values: the gap to the best comes with its paired 95% interval.  Every board's last street
is played exactly in the rollouts (:func:`sapsam.ofc.kernels.policies.exact_last_choice`), and
the opponents' turns that cannot see where your cards went are played once a deal for every
placement (:mod:`sapsam.ofc.kernels.race`).

A race (``race=True``, the default): the rollouts come in rounds, 64 a placement, then doubling
to ``samples``; after each round but the last, a placement is dropped when the paired interval
of its gap to the leader (the highest mean so far) lies below 0, the interval's one-sided level
``DROP_ALPHA`` / (placements x looks) (Bonferroni's: about 3.8 standard errors for the 232
placements of a first street), so that the chance of ever dropping the best placement, however
the leader changes, is at most ``DROP_ALPHA`` (5%, as far as the normal approximation of a mean
of 64 or more rollouts holds).  A dropped placement keeps the EV, 95%
interval and gap to the best (paired, on the same deals as the best's first ones) of the
rollouts it had; the table lists it after those that ran to the end, and its ``rollouts`` and
``dropped`` columns say so.  Those figures are honest for the rollouts it had but were what
dropped it: a placement dropped early tends to have been unlucky, its EV leaning low.
``race=False`` rolls every placement out ``samples`` times.

Exact values: where every opponent's board is finished and seen (none in Fantasyland) and your
board has at most one street left after this one, or where this is your last street and the one
opponent still building has only its last street to play, after you, nothing is sampled:
every placement is worth its settlement against the opponents' boards plus the worth of
Fantasyland, over every deal of the last street left (:func:`exact_deals`,
:func:`sapsam.ofc.kernels.simulate.exact_placements`), and each placement says ``exact``.
``exact=False`` rolls such a position out too.

>>> result = rank_placements("ofc-pineapple", "As Ad | Kc Qc 5d | 9h 9s", "Ah 2c 7d", samples=64)
>>> len(result.table), result.table.iloc[0]["setting"].count("|")
(24, 2)
"""

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

from sapsam.base.stats import Z95
from sapsam.game.cards import format_cards, parse_cards
from sapsam.ofc.game import ROW_SIZES, Board, check_distinct, load_ofc_rules, parse_board
from sapsam.ofc.kernels.policies import DISCARD, H_FILLS, H_INNER_FILLS, legal_codes
from sapsam.ofc.kernels.race import race_rollouts
from sapsam.ofc.kernels.simulate import exact_placements
from sapsam.ofc.play import game_tables, seat_arrays, seat_values, weights_path
from sapsam.play.seeds import Stream

STREAMS = 32  # the rollouts' streams: the chunking, not the threads, fixes the numbers
EXACT_DEALS = 200_000  # the most deals of the last street an exact ranking enumerates
FIRST_LOOK = 2  # deals a stream before a race's first look (64 rollouts a placement)
DROP_ALPHA = 0.05  # the chance, at most, that a race drops the best placement
ROLLOUT_POLICIES = ("heuristic", "improved", "learned")  # who can play the rollouts' streets


@dataclass(frozen=True)
class PlaceResult:
    rules: str
    board: str
    hand: str
    opponents: int
    fantasyland: tuple  # per opponent: the cards it is dealt in Fantasyland, 0 if it builds
    samples: int
    policy: str  # the policy that plays the later streets, every board's; "exact" where enumerated
    table: pd.DataFrame  # a row per placement, best first; its "exact" column: the EV is exact
    exact: bool = False  # every EV exact: ``samples`` is the number of deals enumerated
    race: bool = False  # rolled out in a race: placements clearly worse than the leader dropped early
    dropped: int = 0  # placements dropped before ``samples`` rollouts (their "dropped" column)

    def to_dict(self):
        return {"rules": self.rules, "board": self.board, "hand": self.hand, "opponents": self.opponents,
                "fantasyland": list(self.fantasyland), "samples": self.samples, "policy": self.policy,
                "exact": self.exact, "race": self.race, "dropped": self.dropped,
                "placements": self.table.to_dict(orient="records")}

    def to_frame(self):
        """One row per placement, best first, indexed by rank from 1."""
        frame = self.table.copy()
        frame.index = pd.RangeIndex(1, len(frame) + 1, name="rank")
        return frame

    def how(self):
        """How the EVs were made, in words (the heading of ``sapsam ofc place``)."""
        if not self.exact:
            if self.dropped:
                return (f"{self.samples:,} rollouts a placement ({self.dropped} of {len(self.table)} "
                        f"dropped early), played out by {self.policy}")
            return f"{self.samples:,} rollouts a placement, played out by {self.policy}"
        if self.samples > 1:
            return f"exact: every one of the {self.samples:,} deals of the last street, each played best"
        return "exact: every placement finishes the board"

    def dropped_note(self):
        """What the race dropped and why, in words (the foot of ``sapsam ofc place``'s table)."""
        dropped = self.table[self.table["dropped"]]
        fewest, most = int(dropped["rollouts"].min()), int(dropped["rollouts"].max())
        after = f"{fewest:,}" if fewest == most else f"{fewest:,} to {most:,}"
        return (f"{self.dropped} placement{'s' * (self.dropped > 1)} dropped after {after} rollouts: "
                f"each clearly worse than the leader then (its gap's paired interval below 0; the chance "
                f"of dropping the best at most 5%), listed last with the EV, 95% CI and gap of the "
                f"rollouts it had (which dropped it: they lean low)")


def parse_position(rules, board, hand, dead="", opponents=()):
    """Check a decision's input: the board (not complete), the cards in hand (as many as the
    street deals), dead cards and opponents' boards, no card twice, enough unseen cards to
    finish every board.  Returns ``(rules, board, cards, dead cards, opponents' boards, cards
    each opponent is dealt in Fantasyland or 0)``, the opponents the ruleset's table of empty
    boards when none are given."""
    rules = load_ofc_rules(rules)
    mine = parse_board(board, "board") if isinstance(board, str) else board
    if not isinstance(mine, Board):
        raise ValueError(f"a board is text, 'front | middle | back' of the cards placed so far, or a Board, "
                         f"got {board!r}")
    if mine.complete:
        raise ValueError(f"board {mine} is complete: nothing is left to place")
    cards = parse_cards(hand, what="hand")
    need = rules.deal.first if mine.placed == 0 else rules.deal.draw
    if len(cards) != need:
        street = "the first street" if mine.placed == 0 else "a later street"
        raise ValueError(f"{rules.id} deals {need} card{'s' * (need > 1)} on {street}, got {len(cards)} in hand")
    dead_cards = parse_cards(dead, what="dead cards")
    parsed = [parse_opponent(b, i, rules) for i, b in enumerate(opponents)]
    theirs, fantasyland = [b for b, _ in parsed], [n for _, n in parsed]
    rules.check_players(1 + (len(theirs) or rules.players - 1))
    for name, b in [("board", mine)] + [(f"opponent {i + 1}'s board", b) for i, b in enumerate(theirs)]:
        if b.placed and (b.placed < rules.deal.first or (b.placed - rules.deal.first) % rules.deal.keep):
            raise ValueError(f"{name} {b} has {b.placed} cards: {rules.id} places {rules.deal.first}, "
                             f"then {rules.deal.keep} a street")
    check_distinct([("board", mine.cards), ("hand", cards), ("dead cards", dead_cards)]
                   + [(f"opponent {i + 1}'s board", b.cards) for i, b in enumerate(theirs)])
    if not theirs:  # not given: the ruleset's table, dealt from the unseen cards
        theirs, fantasyland = [Board()] * (rules.players - 1), [0] * (rules.players - 1)
    builders = [b for b, n in zip(theirs, fantasyland) if n == 0]
    known = len(mine.cards) + len(cards) + len(dead_cards) + sum(len(b.cards) for b in theirs)
    need = (_to_finish(rules, mine.placed + (len(cards) if mine.placed == 0 else rules.deal.keep))
            + sum(_to_finish(rules, b.placed) for b in builders) + sum(fantasyland))
    if need > 52 - known:
        raise ValueError(f"the {52 - known} unseen cards cannot finish every board: the hand "
                         f"deals {need} more")
    return rules, mine, cards, dead_cards, theirs, fantasyland


def parse_opponent(text, i, rules):
    """An opponent's board, or ``fantasyland`` / ``fantasyland:N``: in Fantasyland, dealt N
    cards (default the fewest the ruleset deals there) and set at once, unseen until the end.
    Returns ``(board, cards dealt in Fantasyland or 0)``."""
    name = f"opponent {i + 1}'s board"
    word, colon, count = text.strip().partition(":")
    if word.strip().lower() != "fantasyland":
        return parse_board(text, name), 0
    dealt = rules.fantasyland.dealt
    if not colon:
        return Board(), dealt[0]
    if not count.strip().isdigit() or int(count) not in dealt:
        raise ValueError(f"{name} {text.strip()!r}: {rules.id} deals "
                         f"{' or '.join(map(str, dealt))} cards in Fantasyland, e.g. "
                         f"'fantasyland:{dealt[-1]}'")
    return Board(), int(count)


def _to_finish(rules, placed):
    """Cards still dealt to a board with ``placed`` cards, until it holds 13."""
    deal = rules.deal
    if placed == 0:
        return deal.first + (13 - deal.first) // deal.keep * deal.draw
    return (13 - placed) // deal.keep * deal.draw


def placements(board, cards, keep):
    """The legal placement codes of ``cards`` on ``board`` (sapsam.ofc.kernels.policies's encoding)."""
    return legal_codes(len(cards), keep, np.array([len(r) for r in board.rows], np.int64))


def describe_placement(board, cards, code):
    """``(board after, discarded)`` as text."""
    rows = [list(r) for r in board.rows]
    discards = []
    for i, card in enumerate(cards):
        row = (code >> (2 * i)) & 3
        (discards if row == DISCARD else rows[row]).append(card)
    after = Board(tuple(np.array(r, np.uint8) for r in rows))
    return str(after), format_cards(discards)


def rollout_policy(rules, players):
    """The policy rollouts play with: ``learned`` where its weights exist for the ruleset and
    table size (heads-up Pineapple: it beats ``improved`` by 3.45 points a hand in duplicate,
    docs/ofc.md), else ``improved`` where the heuristic's self-play weights do, else
    ``heuristic``."""
    if weights_path("learned", rules.id, players).is_file():
        return "learned"
    return "improved" if weights_path("improved", rules.id, players).is_file() else "heuristic"


def rank_placements(rules, board, hand, dead="", opponents=(), samples=1000, seed=1, progress=None,
                    policy=None, exact=True, race=True, share=True):
    """Every placement of ``hand`` on ``board`` ranked by expected points (module doc), the
    later streets played by ``policy`` (``heuristic``, ``improved`` or ``learned``; default
    :func:`rollout_policy`), or valued exactly where :func:`exact_deals` allows and ``exact``.
    ``race``: drop the placements clearly worse than the leader early (module doc); False:
    every placement gets ``samples`` rollouts.  ``share``: the opponents' turns that cannot
    see where your cards went are played once a deal (False: once a placement, the same
    numbers, slower)."""
    rules, mine, cards, dead_cards, theirs, fantasyland = parse_position(rules, board, hand, dead,
                                                                         opponents)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    keep = len(cards) if mine.placed == 0 else rules.deal.keep
    codes = placements(mine, cards, keep)
    players = 1 + len(theirs)
    boards = np.zeros((players, 13), np.uint8)
    counts = np.zeros((players, 3), np.int64)
    for p, b in enumerate([mine, *theirs]):
        for r, row in enumerate(b.rows):
            start = sum(ROW_SIZES[:r])
            boards[p, start:start + len(row)] = row
            counts[p, r] = len(row)
    known = {int(c) for c in np.concatenate([cards, dead_cards, *(b.cards for b in [mine, *theirs])])}
    seen = np.uint64(sum(1 << c for c in known))
    pool = np.array([c for c in range(52) if c not in known], np.uint8)
    policy = policy or rollout_policy(rules, players)
    if policy not in ROLLOUT_POLICIES:
        raise ValueError(f"rollouts play with the heuristic, improved or learned policy, not {policy!r}")
    seat_codes, params = seat_arrays([policy] * players, rules, players)
    seat_weights = seat_values([policy] * players, rules, players)
    params[:, H_FILLS] = params[:, H_INNER_FILLS]
    if exact and exact_deals(rules, mine, keep, theirs, fantasyland, len(pool)):
        values = np.zeros(len(codes))
        deals = exact_placements(boards[0].copy(), counts[0].copy(), cards, codes, boards, counts, pool,
                                 game_tables(rules), params[0], values)
        if progress is not None:
            progress(1, 1)
        table = _ranked(mine, cards, codes, values[:, None], exact=True)
        return PlaceResult(rules.id, str(mine), format_cards(cards), len(theirs), tuple(fantasyland),
                           int(deals), "exact", table, exact=True)
    game = game_tables(rules)
    n_codes = len(codes)
    per_state = -(-samples // STREAMS)
    looks = _looks(per_state) if race and n_codes > 1 else [per_state]
    z_drop = NormalDist().inv_cdf(1 - DROP_ALPHA / (n_codes * max(len(looks) - 1, 1)))
    states = Stream(seed, "ofc-place").states(STREAMS)
    decks = np.tile(pool, (STREAMS, 1))
    out = np.zeros((n_codes, STREAMS, per_state))
    had = np.zeros(n_codes, np.int64)  # deals a stream each placement had
    active = np.arange(n_codes)
    done = 0
    for look in looks:
        race_rollouts(boards[0].copy(), counts[0].copy(), cards, codes, active, boards, counts,
                      np.array([0, *fantasyland], np.int64), decks, seen, states, done, look - done, share,
                      seat_codes, params, seat_weights, game, rules.tables.stay, rules.tables.worth_milli,
                      rules.tables.scores, out)
        done = look
        had[active] = done
        if progress is not None:
            progress(look, per_state)
        if look < per_state:
            active = active[_still_in(out[active, :, :done].reshape(len(active), -1), z_drop)]
    return PlaceResult(rules.id, str(mine), format_cards(cards), len(theirs), tuple(fantasyland),
                       STREAMS * per_state, policy, _raced(mine, cards, codes, out, had), race=race,
                       dropped=int((had < per_state).sum()))


def _looks(per_state):
    """The deals a stream after each round of a race: ``FIRST_LOOK``, then doubling, to
    ``per_state``."""
    looks = [min(FIRST_LOOK, per_state)]
    while looks[-1] < per_state:
        looks.append(min(2 * looks[-1], per_state))
    return looks


def _still_in(values, z):
    """Which placements stay in the race, ``values[a, sample]`` their rollouts so far (the same
    deals for each): those whose paired interval of the gap to the leader (the highest mean), at
    ``z`` standard errors, reaches 0."""
    diff = values - values[int(np.argmax(values.mean(axis=1)))]
    half = z * diff.std(axis=1, ddof=1) / np.sqrt(values.shape[1])
    return diff.mean(axis=1) + half >= 0


def exact_deals(rules, mine, keep, theirs, fantasyland, unseen):
    """How many deals an exact ranking enumerates, or 0 where it cannot.  It can where no
    opponent is in Fantasyland (its board unseen) and either every opponent's board is finished
    and your board has at most one street left after this one (the deals of your last street;
    1 if this is it), or this is your last street and one opponent, the others finished, has
    its last street to play after you (the deals of its last street, each played best knowing
    every board: ``exact_last_choice``, as in the rollouts).  At most ``EXACT_DEALS``."""
    if any(fantasyland):
        return 0
    left = 13 - mine.placed - keep
    building = [b for b in theirs if not b.complete]
    if not building and left == 0:
        return 1
    if building and (left != 0 or len(building) > 1 or building[0].placed + rules.deal.keep != 13):
        return 0
    if not building and left != rules.deal.keep:
        return 0
    deals = math.comb(unseen, rules.deal.draw)
    return deals if deals <= EXACT_DEALS else 0


def _ranked(board, cards, codes, out, exact=False):
    """The table of placements from their values, ``out[o, sample]`` (``exact``: one column,
    each placement's exact value)."""
    means = out.mean(axis=1)
    best = int(np.argmax(means))
    n = out.shape[1]
    rows = []
    for o, code in enumerate(codes):
        after, discards = describe_placement(board, cards, code)
        diff = out[o] - out[best]
        half = 0.0 if exact else Z95 * out[o].std(ddof=1) / np.sqrt(n)
        gap_half = 0.0 if exact else Z95 * diff.std(ddof=1) / np.sqrt(n)
        rows.append({"setting": after, "discard": discards, "ev": float(means[o]),
                     "ci_low": float(means[o] - half), "ci_high": float(means[o] + half),
                     "gap": float(diff.mean()), "gap_low": float(diff.mean() - gap_half),
                     "gap_high": float(diff.mean() + gap_half), "exact": exact,
                     "rollouts": 0 if exact else n, "dropped": False})
    return pd.DataFrame(rows).sort_values("ev", ascending=False, kind="stable").reset_index(drop=True)


def _raced(board, cards, codes, out, had):
    """The table of a race's placements, ``out[o, stream, deal]`` their rollouts and ``had[o]``
    the deals a stream each had: the ones that ran to the end first, best first, then the
    dropped ones, best first, each with its EV and interval from the rollouts it had and its
    gap to the best over those same deals (paired)."""
    full = had.max()
    means = np.array([out[o, :, :had[o]].mean() for o in range(len(codes))])
    best = int(np.argmax(np.where(had == full, means, -np.inf)))
    rows = []
    for o, code in enumerate(codes):
        after, discards = describe_placement(board, cards, code)
        values = out[o, :, :had[o]].ravel()
        diff = values - out[best, :, :had[o]].ravel()
        n = values.size
        half = Z95 * values.std(ddof=1) / np.sqrt(n)
        gap_half = Z95 * diff.std(ddof=1) / np.sqrt(n)
        rows.append({"setting": after, "discard": discards, "ev": float(means[o]),
                     "ci_low": float(means[o] - half), "ci_high": float(means[o] + half),
                     "gap": float(diff.mean()), "gap_low": float(diff.mean() - gap_half),
                     "gap_high": float(diff.mean() + gap_half), "exact": False, "rollouts": int(n),
                     "dropped": bool(had[o] < full)})
    return pd.DataFrame(rows).sort_values(["dropped", "ev"], ascending=[True, False],
                                          kind="stable").reset_index(drop=True)


"""Sapsam's fitted heads-up strategy head to head with Paul Hankin's cpoker, on duplicate deals.

Usage::

    python benchmarks/peer_cpoker.py play --cpoker PATH [--strategy FILE] [--deals 80000]
        [--seed 1] [--chunk 2000] [--threads 1] [--out results/peer/NAME.json] [--resume|--fresh]
    python benchmarks/peer_cpoker.py check --cpoker PATH [--poker PATH] [--hands 2000]

``PATH`` is a checkout of https://github.com/paulhankin/cpoker (MIT licence, (c) 2018 Paul
Hankin) or its ``coefficients.data``, the trained strategy it ships.  Nothing here is part of
sapsam's package and nothing in CI needs the checkout: the peer is read at run time.

**The peer's decision.**  cpoker's ``Play`` (cpoker.go) tries every split of the 13 cards in a
fixed order, skips splits whose front is not below both five-card rows or whose middle and
back are of equal strength, skips (and prunes) splits whose strength triple is dominated by one
already seen (a list of at most 128 maxima), and keeps the split of the highest value under its
``SampledEvaluator`` (evaluator.go): with ``p`` the trained chance that a row of that strength
wins (``coefficients.data``, one table per row, indexed by the rank of poker/v2's evaluator)
and ``q = 1 - p``, the value is ``sum(p) - sum(q)`` plus the chance of winning two rows or more
minus that of losing two or more, i.e. 2-4 scoring with independent rows.  Ties go to the split
met last.  :func:`peer_play` reimplements that loop for loop in Numba, and :func:`peer_rank`
reimplements poker/v2's ``evalSlow`` (v2.0.6, the version cpoker's go.mod names): a hand's rank
is the index of its score among the 7,930 scores of all 3- and 5-card hands.  Cards reach the
peer in sapsam's sorted order (cpoker's own matches pass them shuffled; the order only decides
between splits of exactly equal value).

**The match.**  Each deal gives two hands, A and B, from one shuffled pack; sapsam sets A and
the peer B, then sapsam sets B and the peer A.  Both tables are settled by
:func:`sapsam.game.score.settle_tables` under the ruleset (``two-four``), and the deal's value
is sapsam's mean units per hand over the two.  The report is the mean over deals with a normal
95% interval: paired by construction, since both strategies play both hands.  Deals come in
chunks, chunk ``c`` from ``Stream(seed, "tables", (c,))`` and sapsam's own random choices from
``Stream(seed, "seat", (c,))`` (:mod:`sapsam.play.seeds`), so a run is the same resumed or not;
a checkpoint beside ``--out`` keeps finished chunks.

**The check.**  ``check`` builds a small Go driver around cpoker's own ``Play`` (with the Go
toolchain; ``--poker`` names a local checkout of github.com/paulhankin/poker at v2.0.6 when
there is no network), sets the same seeded hands both ways and demands the same cards in every
row, then demands that every peer setting is legal under sapsam's rules and that poker/v2's rank
orders all 3- and 5-card hands as sapsam's strengths do.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

import numpy as np
from numba import njit, prange

N_RANKS = 7930  # poker/v2's ScoreMax + 1: scores of all 3- and 5-card hands, five of a kind too
MAXIMA = 128  # cpoker's Play keeps at most this many non-dominated strength triples
NO_SPLIT = -1
CHUNK = 2000


# ---------------------------------------------------------------- poker/v2's evaluator, ported

@njit(cache=True)
def _poptop(x):
    """(value 2..14 of the highest rank bit of ``x``, ``x`` without it); (0, 0) for none."""
    if x == 0:
        return 0, 0
    top = 0
    for bit in range(16):
        if x >> bit & 1:
            top = bit
    return top + 2, x & ~(1 << top)


@njit(cache=True)
def _slow_score(cards, n):
    """poker/v2 ``evalSlow(c, replace=true)``: the score of ``n`` (3 or 5) cards in poker/v2's
    codes (``(rank - 1) * 4 + suit``, ace rank 1), category then five rank nibbles."""
    flush = False
    if n == 5:
        suit = cards[0] & 3
        flush = True
        for k in range(1, 5):
            if cards[k] & 3 != suit:
                flush = False
    ranks = np.zeros(13, np.int64)
    dupes = np.zeros(6, np.int64)
    straights = np.zeros(13, np.int64)
    top = 0
    bits = np.zeros(6, np.int64)
    for k in range(n):
        cr = ((cards[k] >> 2) & 15) + 1
        raw = (cr + 11) % 13
        bits[ranks[raw]] |= 1 << raw
        ranks[raw] += 1
        dupes[ranks[raw]] += 1
        dupes[ranks[raw] - 1] -= 1
        for i in range(5):
            idx = (cr + i) % 13
            straights[idx] |= 1 << i
            if straights[idx] == 31 and (idx <= 1 or idx >= 5):
                top = (idx + 12) % 13 + 1
    for k in range(5):
        bits[k] &= ~bits[k + 1]
    singles, pairs, trips, quads, quins = bits[0], bits[1], bits[2], bits[3], bits[4]
    v = -1
    a = b = c = d = e = 0
    if not flush and top == 0 and dupes[1] == n:
        v = 0
        a, singles = _poptop(singles)
        b, singles = _poptop(singles)
        c, singles = _poptop(singles)
        d, singles = _poptop(singles)
        e, singles = _poptop(singles)
    elif dupes[2] == 1 and dupes[3] == 0:
        v = 1
        a, pairs = _poptop(pairs)
        b, singles = _poptop(singles)
        c, singles = _poptop(singles)
        d, singles = _poptop(singles)
    elif dupes[2] == 2:
        v = 2
        a, pairs = _poptop(pairs)
        b, pairs = _poptop(pairs)
        c, singles = _poptop(singles)
    elif dupes[3] == 1 and dupes[2] == 0:
        v = 3
        a, trips = _poptop(trips)
        b, singles = _poptop(singles)
        c, singles = _poptop(singles)
    elif top != 0 and not flush:
        v, a = 4, (top + 11) % 13 + 2
    elif flush and top == 0:
        v = 5
        a, singles = _poptop(singles)
        b, singles = _poptop(singles)
        c, singles = _poptop(singles)
        d, singles = _poptop(singles)
        e, singles = _poptop(singles)
    elif dupes[2] == 1 and dupes[3] == 1:
        v = 6
        a, trips = _poptop(trips)
        b, pairs = _poptop(pairs)
    elif dupes[4] == 1:
        v = 7
        a, quads = _poptop(quads)
        b, singles = _poptop(singles)
    elif top != 0 and flush:
        v, a = 8, (top + 11) % 13 + 2
    elif dupes[5] == 1:
        v = 9
        a, quins = _poptop(quins)
    return ((((((v * 16 + a) * 16 + b) * 16 + c) * 16 + d) * 16) + e) if v >= 0 else -1


def _score_list():
    """Every distinct score, sorted: poker/v2's ``makeEvalInfo`` enumeration (rank multisets
    with suits C, D, H, S, C for 3 and 5 cards, and five distinct ranks in spades)."""
    scores = set()
    for size in (3, 5):
        suits = (0, 1, 2, 3, 0)
        for ranks in _multisets(size):
            cards = np.array([r * 4 + suits[i] for i, r in enumerate(ranks)], np.int64)
            scores.add(int(_slow_score(cards, size)))
        if size == 5:
            for ranks in _multisets(5):
                if len(set(ranks)) == 5:
                    cards = np.array([r * 4 + 3 for r in ranks], np.int64)
                    scores.add(int(_slow_score(cards, 5)))
    listed = np.array(sorted(scores), np.int64)
    if len(listed) != N_RANKS or listed[0] < 0:
        raise AssertionError(f"poker/v2 has {N_RANKS} scores, the port found {len(listed)}")
    return listed


def _multisets(size, low=0):
    if size == 0:
        yield ()
        return
    for r in range(low, 13):
        for rest in _multisets(size - 1, r):
            yield (r,) + rest


SCORES = None


def scores():
    """The sorted scores whose index is poker/v2's rank (built once)."""
    global SCORES
    if SCORES is None:
        SCORES = _score_list()
    return SCORES


@njit(cache=True)
def _rank(cards, n, table):
    return np.searchsorted(table, _slow_score(cards, n))


@njit(cache=True, parallel=True)
def _ranks(hands, table, out):
    for i in prange(hands.shape[0]):
        out[i] = _rank(hands[i], hands.shape[1], table)


def peer_rank(hands):
    """poker/v2's rank (0..7929, ``Eval3``/``Eval5``) of 3- or 5-card hands in sapsam's codes.

    Parameters
    ----------
    hands : ndarray(uint8), shape (n, 3) or (n, 5)

    Returns
    -------
    ndarray(int64), shape (n,)
    """
    hands = np.asarray(hands)
    if hands.dtype != np.uint8 or hands.ndim != 2 or hands.shape[1] not in (3, 5):
        raise ValueError("hands must be uint8 of shape (n, 3) or (n, 5)")
    out = np.empty(len(hands), np.int64)
    _ranks(to_peer_codes(hands), scores(), out)
    return out


def to_peer_codes(cards):
    """sapsam's card codes (``rank * 4 + suit``, deuce 0 .. ace 12) as poker/v2's
    (``(rank - 1) * 4 + suit``, ace 1 .. king 13; the suits c, d, h, s alike): int64."""
    cards = np.asarray(cards, np.int64)
    return ((cards >> 2) + 1) % 13 * 4 + (cards & 3)


def from_peer_codes(cards):
    """The inverse of :func:`to_peer_codes`: uint8."""
    cards = np.asarray(cards, np.int64)
    return (((cards >> 2) + 12) % 13 * 4 + (cards & 3)).astype(np.uint8)


# ---------------------------------------------------------------- cpoker's Play, ported

@njit(cache=True)
def _next3(ix):
    for i in range(2):
        ix[i] += 1
        if ix[i] != ix[i + 1]:
            return True
        ix[i] = i
    ix[2] += 1
    return ix[2] < 13


@njit(cache=True)
def _next4(ix):
    for i in range(1, 4):
        ix[i] += 1
        if ix[i] != ix[i + 1]:
            return True
        ix[i] = i - 1
    ix[4] += 1
    return ix[4] < 9


@njit(cache=True)
def _value(wins, f, m, b):
    """cpoker's ``SampledEvaluator.evaluateHand``, in its order of operations."""
    pf = wins[0, f]
    pm = wins[1, m]
    pb = wins[2, b]
    qf = 1 - pf
    qm = 1 - pm
    qb = 1 - pb
    pbon = pf * pm + pf * pb + pm * pb - 2 * pf * pm * pb
    qbon = qf * qm + qf * qb + qm * qb - 2 * qf * qm * qb
    return pf + pm + pb - qf - qm - qb + pbon - qbon


@njit(cache=True)
def _row_rank(hand, rows, mask, size, table, cache):
    if cache[mask] < 0:
        cards = np.empty(size, np.int64)
        for k in range(size):
            cards[k] = hand[rows[k]]
        cache[mask] = _rank(cards, size, table)
    return cache[mask]


@njit(cache=True)
def _play(hand, wins, table, out):
    """cpoker's ``Play`` on one hand (poker/v2 codes, in the order given): ``out`` gets the
    positions of the front (3), middle (5) and back (5); False when no split qualifies."""
    cache = np.full(8192, -1, np.int64)
    maxima = np.empty((MAXIMA, 3), np.int64)
    n_maxima = 0
    best = -9999999.9
    found = False
    front = np.array([-1, 1, 2])
    back = np.empty(5, np.int64)
    middle = np.empty(5, np.int64)
    while _next3(front):
        front_mask = (1 << front[0]) | (1 << front[1]) | (1 << front[2])
        ef = _row_rank(hand, front, front_mask, 3, table, cache)
        split = np.array([-1, -1, 1, 2, 3])
        while _next4(split):
            f = 0
            b = 0
            for i in range(13):
                if f < 3 and front[f] == i:
                    f += 1
                elif b < 5 and i == split[b] + f + 1:
                    back[b] = i
                    b += 1
                else:
                    middle[i - f - b] = i
            back_mask = 0
            middle_mask = 0
            for k in range(5):
                back_mask |= 1 << back[k]
                middle_mask |= 1 << middle[k]
            eb = _row_rank(hand, back, back_mask, 5, table, cache)
            em = _row_rank(hand, middle, middle_mask, 5, table, cache)
            if ef >= em or ef >= eb:
                continue
            if em == eb:
                continue
            low, high = (eb, em) if em > eb else (em, eb)
            dominated = False
            i = 0
            while i < n_maxima:
                if maxima[i, 0] >= ef and maxima[i, 1] >= low and maxima[i, 2] >= high:
                    dominated = True
                    break
                if maxima[i, 0] <= ef and maxima[i, 1] <= low and maxima[i, 2] <= high:
                    maxima[i] = maxima[n_maxima - 1]  # as cpoker: the moved one is not rechecked
                    n_maxima -= 1
                i += 1
            if dominated:
                continue
            if n_maxima < MAXIMA:
                maxima[n_maxima, 0] = ef
                maxima[n_maxima, 1] = low
                maxima[n_maxima, 2] = high
                n_maxima += 1
            value = _value(wins, ef, low, high)
            if value >= best:
                best = value
                found = True
                out[:3] = front
                if em > eb:
                    out[3:8] = back
                    out[8:] = middle
                else:
                    out[3:8] = middle
                    out[8:] = back
    return found


@njit(cache=True, parallel=True)
def _play_many(hands, wins, table, out, found):
    for i in prange(hands.shape[0]):
        found[i] = _play(hands[i], wins, table, out[i])


def setting_values(settings, wins):
    """cpoker's value of settings (sapsam's codes, front, middle, back): ndarray(float64)."""
    f = peer_rank(np.ascontiguousarray(settings[:, :3]))
    m = peer_rank(np.ascontiguousarray(settings[:, 3:8]))
    b = peer_rank(np.ascontiguousarray(settings[:, 8:]))
    return np.array([_value(wins, *row) for row in zip(f, m, b)])


def read_coefficients(path):
    """cpoker's trained strategy: ``coefficients.data`` (or a checkout holding it) as win
    chances, ndarray(float64) shape (3, 7930): front, middle, back, by poker/v2 rank."""
    path = Path(path)
    if path.is_dir():
        path = path / "coefficients.data"
    tokens = path.read_text(encoding="ascii").split()
    rows, at = [], 0
    for _ in range(3):
        length = int(tokens[at])
        rows.append([float(t) for t in tokens[at + 1:at + 1 + length]])
        at += 1 + length
    if at != len(tokens) or any(len(r) != N_RANKS for r in rows):
        raise ValueError(f"{path} is not cpoker's coefficients.data: three tables of {N_RANKS}")
    return np.array(rows, np.float64)


def peer_play(hands, wins):
    """cpoker's setting of each hand.

    Parameters
    ----------
    hands : ndarray(uint8), shape (n, 13)
        sapsam's card codes, in the order the peer is to see them.
    wins : ndarray(float64), shape (3, 7930)
        :func:`read_coefficients`.

    Returns
    -------
    ndarray(uint8), shape (n, 13)
        Each setting front (3), middle (5), back (5), in sapsam's codes.
    """
    hands = np.asarray(hands)
    if hands.dtype != np.uint8 or hands.ndim != 2 or hands.shape[1] != 13:
        raise ValueError("hands must be uint8 of shape (n, 13)")
    wins = np.ascontiguousarray(wins, np.float64)
    if wins.shape != (3, N_RANKS):
        raise ValueError(f"wins must have shape (3, {N_RANKS})")
    peer = np.ascontiguousarray(to_peer_codes(hands))
    positions = np.empty(hands.shape, np.int64)
    found = np.zeros(len(hands), np.bool_)
    _play_many(peer, wins, scores(), positions, found)
    if not found.all():
        raise ValueError(f"cpoker's Play finds no split for hand {np.flatnonzero(~found)[0]}")
    return np.take_along_axis(hands, positions, axis=1)


# ---------------------------------------------------------------- settling, statistics

def setting_rows(settings, rules):
    """Strength triples on the ruleset's scale and legality of card settings.

    Parameters
    ----------
    settings : ndarray(uint8), shape (n, 13)
        Front, middle, back.
    rules : Ruleset

    Returns
    -------
    rows : ndarray(int16), shape (n, 3)
    legal : ndarray(bool), shape (n,)
    """
    from sapsam.game.hands import rank3, rank5
    from sapsam.kernels.evaluate import WHEEL_SECOND

    if rules.low_middle:
        raise ValueError("the peer plays a high middle; this ruleset's middle plays low")
    rows = np.stack([rank3(settings[:, :3]), rank5(settings[:, 3:8]), rank5(settings[:, 8:])],
                    axis=1).astype(np.int16)
    if str(rules.wheel_rank) == "second":
        rows[:, 1:] = WHEEL_SECOND[rows[:, 1:]]
    legal = (rows[:, 0] <= rows[:, 1]) & (rows[:, 1] <= rows[:, 2])
    return rows, legal


def duplicate_values(ours, theirs, scale):
    """Sapsam's units per hand on each duplicate deal.

    Parameters
    ----------
    ours, theirs : ndarray(int64), shape (2 * D,)
        Points of sapsam's and the peer's seat on the deals' first tables (sapsam holds hand A),
        then their second (sapsam holds hand B), in units of ``1 / scale``.
    scale : int

    Returns
    -------
    ndarray(float64), shape (D,)
        The mean of the two tables for sapsam; pairwise games are zero-sum, so this is also
        half of sapsam's lead over the peer.
    """
    ours = np.asarray(ours, np.float64)
    half = len(ours) // 2
    if len(ours) != 2 * half or len(theirs) != len(ours):
        raise ValueError("points come in two equal halves, one per table of each deal")
    return (ours[:half] + ours[half:]) / (2 * scale)


def play_chunk(rules, policy, wins, seed, chunk, deals):
    """One chunk of duplicate deals: ``(values (deals,), same (int), illegal (int))``."""
    from sapsam.game.cards import count_aces
    from sapsam.game.score import points_scale, settle_tables
    from sapsam.measure.compare import decide
    from sapsam.play.deal import deal_tables, table_setup
    from sapsam.play.seeds import CHUNKS, Stream

    hands = deal_tables(deals, 2, Stream(seed, "tables", (chunk,)))
    ours = decide(policy, rules, 2, hands, Stream(seed, "seat", (chunk,)).states(CHUNKS))
    peer_cards = peer_play(hands.reshape(-1, 13), wins)
    peer_rows, legal = setting_rows(peer_cards, rules)
    peer_rows = peer_rows.reshape(deals, 2, 3)
    # table t < deals: sapsam holds hand A, the peer B; table deals + t: the other way round
    seats = np.concatenate([np.stack([ours.rows[:, 0], peer_rows[:, 1]], 1),
                            np.stack([ours.rows[:, 1], peer_rows[:, 0]], 1)])
    table_hands = np.concatenate([hands, hands[:, ::-1]])
    none = np.full(deals, -1, np.int64)
    natural = np.concatenate([np.stack([ours.natural[:, 0], none], 1),
                              np.stack([ours.natural[:, 1], none], 1)])
    key = np.concatenate([np.stack([ours.natural_key[:, 0], 0 * none], 1),
                          np.stack([ours.natural_key[:, 1], 0 * none], 1)])
    surrender = np.concatenate([np.stack([ours.surrender[:, 0], none > 0], 1),
                                np.stack([ours.surrender[:, 1], none > 0], 1)])
    _, bank = table_setup(rules, table_hands)
    points = settle_tables(rules, seats, natural, key, surrender,
                           count_aces(table_hands).astype(np.int64), bank)
    values = duplicate_values(points[:, 0], points[:, 1], points_scale(rules))
    same = int((ours.rows.reshape(-1, 3) == peer_rows.reshape(-1, 3)).all(axis=1).sum())
    return values, same, int((~legal).sum())


def _shown(path):
    """A path as the result records it: relative to the repository when inside it."""
    path = Path(path).resolve()
    root = Path(__file__).resolve().parents[1]
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def peer_source(path):
    """Where the peer came from: its coefficients' digest and, for a git checkout, its commit."""
    path = Path(path)
    folder = path if path.is_dir() else path.parent
    data = path / "coefficients.data" if path.is_dir() else path
    commit = None
    if (folder / ".git").exists():
        run = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True,
                             text=True)
        commit = run.stdout.strip() or None
    return {"repository": "https://github.com/paulhankin/cpoker", "licence": "MIT",
            "commit": commit, "coefficients_sha256": sha256(data),
            "decision": "cpoker.Play with SampledEvaluator, reimplemented in "
                        "benchmarks/peer_cpoker.py; cards in sapsam's sorted order"}


def run_match(args):
    import numba

    from sapsam.base.files import provenance, read_checkpoint, write_json, write_npz
    from sapsam.base.stats import mean_interval
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.play.strategy_files import SHIPPED_STRATEGY_DIR, strategy_name
    from sapsam.strategy.registry import make_policy

    numba.set_num_threads(args.threads)
    rules = load_ruleset(args.rules)
    strategy = Path(args.strategy or SHIPPED_STRATEGY_DIR / strategy_name(rules.id, 2))
    policy = make_policy("fitted", rules, 2, strategy=strategy)
    removal = "removal_gamma" in np.load(strategy).files
    if removal and not hasattr(policy, "removal"):
        # an older sapsam loads such a file as its row masses alone: another strategy
        raise SystemExit(f"{strategy} holds a card-removal model this checkout of sapsam cannot "
                         "play; run this script in a checkout that has sapsam.kernels.removal")
    wins = read_coefficients(args.cpoker)
    out = Path(args.out)
    checkpoint = out.with_suffix(".checkpoint.npz")
    run = {"rules": rules.id, "digest": rules.digest(), "strategy_sha256": sha256(strategy),
           "coefficients_sha256": peer_source(args.cpoker)["coefficients_sha256"],
           "deals": args.deals, "chunk": args.chunk, "seed": args.seed}
    stored = read_checkpoint(checkpoint, run, resume=args.resume, fresh=args.fresh)
    values = list(stored["values"]) if stored is not None else []
    same = int(stored["same"]) if stored is not None else 0
    illegal = int(stored["illegal"]) if stored is not None else 0
    chunks = -(-args.deals // args.chunk)
    started = time.perf_counter()
    for chunk in range(len(values) // args.chunk, chunks):
        deals = min(args.chunk, args.deals - chunk * args.chunk)
        chunk_values, chunk_same, chunk_illegal = play_chunk(rules, policy, wins, args.seed,
                                                             chunk, deals)
        values.extend(chunk_values)
        same += chunk_same
        illegal += chunk_illegal
        out.parent.mkdir(parents=True, exist_ok=True)
        write_npz(checkpoint, run=json.dumps(run), values=np.array(values), same=same,
                  illegal=illegal)
        mean, _, low, high = mean_interval(values)
        print(f"{len(values):>7,} deals  {mean:+.5f} [{low:+.5f}, {high:+.5f}] units/hand  "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    mean, sd, low, high = mean_interval(values)
    manifest_path = strategy.with_suffix(".json")
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else None
    result = {"units_per_hand": mean, "ci95": [low, high], "sd_per_deal": sd,
              "deals": len(values), "hands_per_strategy": 2 * len(values),
              "same_setting": same / (2 * len(values)), "peer_illegal_settings": illegal,
              "peer": peer_source(args.cpoker),
              "sapsam_strategy": {"file": _shown(strategy), "sha256": sha256(strategy),
                                  "card_removal": removal, "manifest": manifest},
              "method": "duplicate deals: each deal's two hands set by both strategies, seats "
                        "swapped; units per hand for sapsam, paired normal 95% interval over "
                        "deals",
              "streams": "deals Stream(seed, 'tables', (chunk,)), sapsam's choices "
                         "Stream(seed, 'seat', (chunk,))"}
    write_json(out, provenance(ruleset=rules.id, ruleset_digest=rules.digest(), players=2,
                               seed=args.seed, chunk=args.chunk, threads=args.threads,
                               command=" ".join(sys.argv), **result))
    checkpoint.unlink(missing_ok=True)  # the result holds everything it kept
    print(f"sapsam {mean:+.5f} units/hand [{low:+.5f}, {high:+.5f}] over {len(values):,} "
          f"duplicate deals; peer illegal settings: {illegal}; written {out}")


# ---------------------------------------------------------------- the check

GO_DRIVER = """// Command peerplay: cpoker.Play's setting of each 13-card hand read on stdin
// (poker.Card codes, a hand a line), written front, middle, back.
package main

import (
	"bufio"
	"fmt"
	"log"
	"os"

	"github.com/paulhankin/cpoker"
	"github.com/paulhankin/poker/v2/poker"
)

func main() {
	se, err := cpoker.LoadSampledEvaluator(os.Args[1])
	if err != nil {
		log.Fatalf("failed to load coefficients: %s", err)
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for {
		var c [13]int
		n, err := fmt.Fscanln(in, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7],
			&c[8], &c[9], &c[10], &c[11], &c[12])
		if n == 0 {
			break
		}
		if err != nil {
			log.Fatalf("bad line: %s", err)
		}
		cards := make([]poker.Card, 13)
		for i := range c {
			cards[i] = poker.Card(c[i])
		}
		h, _ := cpoker.Play(cards, se)
		row := append(append(append([]poker.Card{}, h.Front[:]...), h.Middle[:]...), h.Back[:]...)
		for i, x := range row {
			sep := " "
			if i == 12 {
				sep = "\\n"
			}
			fmt.Fprintf(out, "%d%s", x, sep)
		}
	}
}
"""


def build_driver(cpoker, poker, folder):
    """Build :data:`GO_DRIVER` against a copy of the cpoker checkout (and a local poker/v2)."""
    module = Path(folder) / "cpoker"
    shutil.copytree(cpoker, module, ignore=shutil.ignore_patterns(".git", "poker.dat"))
    (module / "cmd" / "peerplay").mkdir(parents=True)
    (module / "cmd" / "peerplay" / "main.go").write_text(GO_DRIVER)
    env = dict(os.environ, GOFLAGS="-mod=mod", GOCACHE=str(Path(folder) / "cache"),
               GOPATH=str(Path(folder) / "gopath"))
    if poker is not None:
        # poker/v2 v2.0.6's go.mod lists tools it never imports; offline they cannot resolve
        local = Path(folder) / "poker"
        shutil.copytree(poker, local, ignore=shutil.ignore_patterns(".git"))
        (local / "go.mod").write_text("module github.com/paulhankin/poker/v2\n\ngo 1.13\n")
        with open(module / "go.mod", "a") as mod:
            mod.write(f"\nreplace github.com/paulhankin/poker/v2 => {local}\n")
        env["GOPROXY"] = "off"
    binary = Path(folder) / "peerplay"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/peerplay"], cwd=module, env=env,
                   check=True)
    return binary


def run_check(args):
    from sapsam.game.hands import rank3, rank5
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.play.deal import deal_sorted_hands
    from sapsam.play.seeds import Stream

    rules = load_ruleset(args.rules)
    wins = read_coefficients(args.cpoker)
    folder = Path(args.cpoker) if Path(args.cpoker).is_dir() else Path(args.cpoker).parent
    failures = []
    found = {"peer": peer_source(args.cpoker), "ruleset": rules.id, "seed": args.seed,
             "hands": args.hands}
    # 1. poker/v2's rank orders every 3- and 5-card hand as sapsam's strength does, and
    #    fronts against five-card rows too (both put them on one scale)
    classes = []
    for size, ours in ((3, rank3), (5, rank5)):
        every = np.array(list(combinations(range(52), size)), np.uint8)
        classes.append(np.unique(np.stack([ours(every).astype(np.int64), peer_rank(every)], 1),
                                 axis=0))
        print(f"every {size}-card hand ({len(every):,}): {len(classes[-1]):,} classes")
    pairs = np.unique(np.concatenate(classes), axis=0)  # sorted by sapsam's strength
    agree = len(np.unique(pairs[:, 0])) == len(pairs) == len(np.unique(pairs[:, 1])) \
        and bool(np.all(np.diff(pairs[:, 1]) > 0))
    print(f"poker/v2's rank and sapsam's strength order all {len(pairs):,} classes alike: {agree}")
    found["rank_classes"] = len(pairs)
    found["rank_orders_agree"] = agree
    if not agree:
        failures.append("orders differ")
    # 2. the port's settings equal cpoker's own on seeded hands, and are legal
    hands = deal_sorted_hands(args.hands, Stream(args.seed, "hands", (1,)))
    mine = peer_play(hands, wins)
    rows, legal = setting_rows(mine, rules)
    print(f"{args.hands:,} hands: the port's settings legal under {rules.id}: "
          f"{int(legal.sum()):,}")
    found["legal"] = int(legal.sum())
    if not legal.all():
        failures.append("illegal settings")
    # what sapsam's sorted order decides: the same hands shuffled (as cpoker's matches pass
    # them) differ only between splits of equal value
    rng = np.random.default_rng(args.seed)
    shuffled = np.ascontiguousarray(rng.permuted(hands, axis=1))
    again = peer_play(shuffled, wins)
    other, _ = setting_rows(again, rules)
    moved = ~(other == rows).all(axis=1)
    worth = setting_values(again, wins) != setting_values(mine, wins)
    found["rows_changed_by_card_order"] = int(moved.sum())
    found["value_changed_by_card_order"] = int(worth.sum())
    print(f"{args.hands:,} hands shuffled: set to other rows {int(moved.sum()):,}, "
          f"to another value {int(worth.sum()):,}")
    if worth.any():
        failures.append("card order changed a value")
    if shutil.which("go") is None:
        print("no Go toolchain: the port is not compared with cpoker's own program")
        failures.append("not compared")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            binary = build_driver(folder, args.poker, tmp)
            text = "\n".join(" ".join(map(str, h)) for h in to_peer_codes(hands)) + "\n"
            run = subprocess.run([str(binary), str(folder / "coefficients.data")], input=text,
                                 capture_output=True, text=True, check=True)
        theirs = from_peer_codes(np.array(run.stdout.split(), np.int64).reshape(-1, 13))
        equal = (theirs == mine).all(axis=1)
        print(f"{args.hands:,} hands: the port's setting is cpoker's own, card for card: "
              f"{int(equal.sum()):,}")
        found["same_as_cpoker"] = int(equal.sum())
        found["poker_module"] = "github.com/paulhankin/poker/v2 v2.0.6" + \
            (f" (local copy {args.poker})" if args.poker else "")
        found["go"] = subprocess.run(["go", "version"], capture_output=True,
                                     text=True).stdout.strip()
        if not equal.all():
            failures.append(f"{int((~equal).sum())} settings differ")
    print("check passed" if not failures else f"check FAILED: {'; '.join(failures)}")
    if args.out:
        from sapsam.base.files import provenance, write_json

        write_json(Path(args.out), provenance(**found, failures=failures,
                                              command=" ".join(sys.argv)))
    return 1 if failures else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="sapsam's fitted strategy against cpoker")
    check = sub.add_parser("check", help="the port against cpoker's own program")
    for p in (play, check):
        p.add_argument("--cpoker", required=True, help="cpoker checkout or its coefficients.data")
        p.add_argument("--rules", default="two-four")
        p.add_argument("--seed", type=int, default=1)
    play.add_argument("--strategy", help="sapsam strategy .npz (default: the shipped 2-player fit)")
    play.add_argument("--deals", type=int, default=80_000)
    play.add_argument("--chunk", type=int, default=CHUNK)
    play.add_argument("--threads", type=int, default=1)
    play.add_argument("--out", default="results/peer/two-four-2p.json")
    play.add_argument("--resume", action="store_true")
    play.add_argument("--fresh", action="store_true")
    check.add_argument("--poker", help="local checkout of github.com/paulhankin/poker at v2.0.6 "
                                       "(offline builds)")
    check.add_argument("--hands", type=int, default=2000)
    check.add_argument("--out", help="write what the check found as JSON")
    args = parser.parse_args(argv)
    if args.command == "play":
        run_match(args)
        return 0
    return run_check(args)


if __name__ == "__main__":
    # run as the module peer_cpoker (this folder is sys.path[0]), so that Numba's cache holds
    # one module's kernels whether a test imports it or a person runs it
    import peer_cpoker

    sys.exit(peer_cpoker.main())

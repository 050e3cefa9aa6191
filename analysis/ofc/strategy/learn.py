"""Self-play for Open-Face Chinese Poker's learned policy (``sapsam ofc learn``): the weights
of :mod:`sapsam.ofc.kernels.learned`'s value, fitted round by round.

Round 0's weights make the learned value the ``improved`` heuristic's (its foul cost, row
weight and Fantasyland weight on the random-fill features, nothing on the rest), so learning
starts from today's best policy.  Each round every seat plays by the current weights (with a
small chance ``explore`` of a random placement, so that placements the weights rate low are
still seen); every board a decision left before the last street becomes a row of features,
its target the seat's result of the hand (points against every other board, royalties, scoop
and fouls included, plus the worth of Fantasyland if it enters); and the weights of each count
of cards placed are refitted by least squares on the boards of the last few rounds (a small
ridge keeps features a street never sees at 0).  A refit can play worse than the weights before
it (a linear value overrates some boards until the policy plays them and learns better), so
each round's weights duel the best so far in duplicate, and the best are what is shipped.  The
last street is always played exactly, so it needs no weights.
"""

import numpy as np

from sapsam.base.files import provenance, write_json
from sapsam.base.stats import mean_interval
from sapsam.ofc.game import load_ofc_rules
from sapsam.ofc.kernels.learned import F_ENTRY, F_FOUL, F_ROWS, F_ROYALTY, LEARNED, N_FEATURES, N_PLACED
from sapsam.ofc.kernels.policies import H_EXPLORE, H_FANTASY, H_FOUL, H_ROW
from sapsam.ofc.kernels.selfplay import TRACE, selfplay_blocks, trace_features
from sapsam.ofc.kernels.simulate import A_POINTS, N_TALLY, simulate_blocks
from sapsam.ofc.play import default_params, game_tables, improved_params
from sapsam.play.seeds import Stream

LEARN_BLOCK = 25  # consecutive hands a block of self-play
RIDGE = 1.0  # the fit's ridge (features are about 0 to 1; tens of thousands of rows a street)
EXPLORE = 0.03  # a decision's chance of a random placement in self-play
MEMORY = 3  # rounds of boards a fit takes: a board the weights overrate is met again and corrected


def start_weights(rules, players):
    """Round 0: the weights that make the learned value the improved heuristic's (module doc);
    the default heuristic's where no improved weights are shipped."""
    try:
        params = improved_params(rules.id, players)
    except ValueError:
        params = default_params()
    weights = np.zeros((N_PLACED, N_FEATURES))
    weights[:, F_FOUL] = -params[H_FOUL]
    weights[:, F_ENTRY] = params[H_FANTASY] * rules.fantasyland.worth
    weights[:, F_ROYALTY] = 1.0
    weights[:, F_ROWS] = params[H_ROW]
    return weights


def self_play(rules, weights, players, hands, stream, explore=EXPLORE, worth=None):
    """About ``hands`` hands of every seat playing by ``weights``: ``(records, targets)``, a
    ``TRACE`` row for every decision before the last street and the seat's result of its hand
    (Fantasyland worth ``worth`` points, the ruleset's if None)."""
    game = game_tables(rules)
    if worth is not None:
        game = game._replace(worth=float(worth))
    tables = rules.tables
    blocks = max(1, -(-hands // LEARN_BLOCK))
    codes = np.full(players, LEARNED, np.int64)
    params = np.tile(default_params(), (players, 1))
    params[:, H_EXPLORE] = explore
    values = np.tile(weights, (players, 1, 1))
    traces = np.zeros((blocks, LEARN_BLOCK, players, N_PLACED, TRACE), np.uint64)
    targets = np.zeros((blocks, LEARN_BLOCK, players))
    selfplay_blocks(stream.states(blocks), LEARN_BLOCK, codes, params, values, game, tables.stay,
                    tables.worth_milli, rules.fantasyland.stay_cards, tables.scores, traces, targets)
    placed = traces[..., 13:16].sum(axis=-1)
    keep = (placed > 0) & (placed < 13) & ~np.isnan(targets)[..., None]
    rows = np.broadcast_to(targets[..., None], placed.shape)
    return traces[keep], rows[keep]


def weights_duel(rules, challenger, incumbent, players, hands, stream):
    """Learned seats with weights ``challenger`` against ones with ``incumbent``, the
    challenger in each seat in turn on the same decks: its points a hand and 95% interval."""
    game = game_tables(rules)
    tables = rules.tables
    blocks = max(2, -(-hands // LEARN_BLOCK))
    states = stream.states(blocks)
    codes = np.full(players, LEARNED, np.int64)
    params = np.tile(default_params(), (players, 1))
    lead = np.zeros(blocks)
    for seat in range(players):
        values = np.tile(incumbent, (players, 1, 1))
        values[seat] = challenger
        tally = np.zeros((blocks, players, N_TALLY), np.int64)
        simulate_blocks(states, LEARN_BLOCK, codes, params, values, game, tables.stay, tables.worth_milli,
                        rules.fantasyland.stay_cards, tables.scores, tally)
        lead += tally[:, seat, A_POINTS] / (LEARN_BLOCK * players)
    mean, _, low, high = mean_interval(lead)
    return mean, low, high


def fit(x, y, ridge=RIDGE):
    """Least-squares weights of ``y`` on the columns of ``x`` (the first, the bias, unpenalised)."""
    penalty = np.full(x.shape[1], float(ridge))
    penalty[0] = 0.0
    return np.linalg.solve(x.T @ x + np.diag(penalty), x.T @ y)


def learn(rules, players=2, rounds=12, hands=30_000, seed=1, fills=16, worth=None, memory=MEMORY, progress=None):
    """Rounds of self-play and refits (module doc): ``(weights, history)``.  ``worth``: what
    entering Fantasyland adds to a target (the ruleset's worth if None); each fit takes the
    boards of the last ``memory`` rounds.  A round's weights play on; the ones returned are the
    best so far by duels (each round's against the best before it, ``hands`` hands on the same
    decks from every seat, kept when it leads), since a refit can play worse.  The history has
    a row a round: each count of cards placed's rows and R^2, the duel's lead and interval."""
    rules = load_ofc_rules(rules)
    rules.check_players(players)
    game = game_tables(rules)
    weights = start_weights(rules, players)
    best = weights.copy()
    history = []
    kept = []
    for round_ in range(rounds):
        records, targets = self_play(rules, weights, players, hands, Stream(seed, "ofc-learn", (round_,)),
                                     worth=worth)
        x = np.zeros((len(records), N_FEATURES))
        trace_features(records, fills, Stream(seed, "ofc-learn", (round_, 1)).states(64), game, x)
        kept = (kept + [(records[:, 13:16].sum(axis=1).astype(np.int64), x, targets)])[-memory:]
        placed = np.concatenate([k[0] for k in kept])
        x = np.concatenate([k[1] for k in kept])
        targets = np.concatenate([k[2] for k in kept])
        fitted = {}
        for n in np.unique(placed):
            rows = placed == n
            w = fit(x[rows], targets[rows])
            residual = targets[rows] - x[rows] @ w
            r2 = 1 - residual.var() / targets[rows].var()
            weights[n] = w
            fitted[int(n)] = {"rows": int(rows.sum()), "r2": float(r2)}
        lead, low, high = weights_duel(rules, weights, best, players, hands, Stream(seed, "ofc-learn", (round_, 2)))
        if lead > 0:
            best = weights.copy()
        history.append({"round": round_ + 1, "hands": hands, "streets": fitted, "lead": lead, "low": low,
                        "high": high, "kept": bool(lead > 0)})
        if progress is not None:
            progress(round_ + 1, rounds)
    return best, history


def write_learned(path, rules, players, weights, history, rounds, hands, seed, worth=None):
    rules = load_ofc_rules(rules)
    write_json(path, {"rules": rules.id, "players": players, "features": N_FEATURES,
                      "weights": weights.tolist(), "history": history,
                      "provenance": provenance(rounds=rounds, hands=hands, seed=seed,
                                               worth=rules.fantasyland.worth if worth is None else worth)})

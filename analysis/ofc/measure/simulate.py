"""Open-Face Chinese Poker hands between policies (``sapsam ofc simulate``): points per hand
with 95% intervals, fouls, Fantasyland entries and stays, and what Fantasyland is worth.

Hands are played in blocks of consecutive hands (Fantasyland carried from one to the next,
everyone outside it when a block starts), each block from its own stream, so the blocks are
independent and a figure's interval comes from the spread of its block means.
"""

import json
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from sapsam.base.files import read_checkpoint, write_npz
from sapsam.base.stats import difference_interval, mean_interval, wilson_interval
from sapsam.ofc.game import load_ofc_rules
from sapsam.ofc.kernels.simulate import (
    A_ENTRIES,
    A_FL_HANDS,
    A_FL_POINTS,
    A_FL_SQUARES,
    A_FOULS,
    A_HANDS,
    A_POINTS,
    A_ROYALTIES,
    A_SQUARES,
    A_STAYS,
    N_TALLY,
    simulate_blocks,
)
from sapsam.ofc.play import game_tables, policy_code, seat_arrays, seat_values
from sapsam.play.seeds import Stream

BLOCK_HANDS = 50  # consecutive hands a block (Fantasyland carries over within it)
ROUND_BLOCKS = 16  # blocks a kernel call (the progress bar's step)


@dataclass(frozen=True)
class OfcRun:
    rules: str
    seats: tuple
    seed: int
    tally: np.ndarray  # int64 (blocks, seats, N_TALLY)
    block_hands: int = BLOCK_HANDS

    @property
    def hands(self):
        return int(self.tally[:, 0, A_HANDS].sum() + self.tally[:, 0, A_FL_HANDS].sum())

    def frame(self):
        """A row per seat (``seat`` counted from 0, the index of ``seats``): points a hand (95%
        CI over blocks), fouls, entries and stays (95% Wilson intervals), royalties, and
        Fantasyland's worth (points in a Fantasyland hand less in a normal one, its 95% interval
        by Welch's t, :func:`sapsam.base.stats.difference_interval`); a stay's figures are NaN
        without Fantasyland hands."""
        total = self.tally.sum(axis=0)
        per_block = self.tally[:, :, A_POINTS] / (self.tally[:, :, A_HANDS] + self.tally[:, :, A_FL_HANDS])
        rows = []
        for seat, policy in enumerate(self.seats):
            t = total[seat]
            mean, _, low, high = mean_interval(per_block[:, seat])
            normal, fl = t[A_HANDS], t[A_FL_HANDS]
            foul_low, foul_high = wilson_interval(t[A_FOULS], normal)
            entry_low, entry_high = wilson_interval(t[A_ENTRIES], normal)
            stay_low, stay_high = wilson_interval(t[A_STAYS], fl) if fl else (float("nan"),) * 2
            worth, worth_half = difference_interval(t[A_FL_POINTS], t[A_FL_SQUARES], fl,
                                            t[A_POINTS] - t[A_FL_POINTS], t[A_SQUARES] - t[A_FL_SQUARES], normal)
            rows.append({"seat": seat, "policy": policy, "points": mean, "ci_low": low, "ci_high": high,
                         "fouls": t[A_FOULS] / normal, "fouls_low": foul_low, "fouls_high": foul_high,
                         "entries": t[A_ENTRIES] / normal, "entries_low": entry_low,
                         "entries_high": entry_high, "fl_hands": int(fl),
                         "stays": t[A_STAYS] / fl if fl else float("nan"), "stays_low": stay_low,
                         "stays_high": stay_high,
                         "royalties": t[A_ROYALTIES] / (normal + fl),
                         "fl_worth": worth, "fl_worth_low": worth - worth_half, "fl_worth_high": worth + worth_half})
        return pd.DataFrame(rows)

    def to_frame(self):
        """As :meth:`frame`: a row per seat."""
        return self.frame()

    def to_dict(self):
        return {"rules": self.rules, "seats": list(self.seats), "seed": self.seed, "hands": self.hands,
                "block_hands": self.block_hands, "by_seat": self.frame().to_dict(orient="records")}


def shares_reach(*frames):
    """How far the fouls' and entries' 95% (Wilson) intervals reach from their shares, at most,
    over the rows of ``frames`` (:meth:`OfcRun.frame` each)."""
    return interval_reach(frames, "fouls", "entries")


def interval_reach(frames, *columns):
    """How far the 95% intervals of ``columns`` (each with its ``_low`` and ``_high`` columns)
    reach from their figures, at most, over the rows of ``frames`` (:meth:`OfcRun.frame` each)
    that have them: NaN where none has (no seat played a Fantasyland hand)."""
    reaches = [np.maximum(f[c] - f[f"{c}_low"], f[f"{c}_high"] - f[c]).to_numpy(np.float64)
               for f in frames for c in columns]
    reaches = np.concatenate(reaches)
    return float(np.max(reaches[np.isfinite(reaches)])) if np.isfinite(reaches).any() else float("nan")


def default_seats(ids, players=2):
    """The seats a simulation plays when none are named: ``players`` of the strongest policy
    whose weights are shipped for every ruleset of ``ids`` at that table size (lookahead where
    the learned weights are, which it shortlists by, else improved, else heuristic;
    :func:`sapsam.ofc.measure.place.rollout_policy`)."""
    from sapsam.ofc.measure.place import rollout_policy

    order = ("heuristic", "improved", "learned")
    strongest = order[min(order.index(rollout_policy(load_ofc_rules(r), players)) for r in ids)]
    return ("lookahead" if strongest == "learned" else strongest,) * players


def table_rules(ids, names, given=None):
    """The rulesets ``ids`` loaded for a table of the policies ``names``, checked as a
    simulation needs them: every policy known, each ruleset named once and dealt to this many
    seats, an improved, learned or lookahead seat's weights shipped.  ``given`` is how the
    rulesets were written, for the error."""
    for name in names:
        policy_code(name)
    if len(set(ids)) != len(ids):
        raise ValueError(f"{given or ids}: name each ruleset once")
    loaded = [load_ofc_rules(r) for r in ids]
    for r in loaded:
        r.check_players(len(names))
        seat_arrays(names, r, len(names))  # an improved seat's weights exist
        seat_values(names, r, len(names))  # and a learned or lookahead seat's
    return loaded


def simulate_ofc(rules, seats, hands, seed=1, progress=None, block_hands=BLOCK_HANDS,
                 checkpoint=None, resume=False, fresh=False):
    """Play about ``hands`` hands (whole blocks of ``block_hands``) between ``seats`` (policy
    names, one per player) under OFC ``rules``.

    Block ``i`` has its own stream, so with a ``checkpoint`` (written atomically after every
    round of blocks) an interrupted run resumes (``resume``), for as many hands or more, and
    ends with the same numbers; ``fresh`` discards the checkpoint, and an existing one is
    refused without either (:func:`sapsam.base.files.read_checkpoint`).
    """
    rules = load_ofc_rules(rules)
    rules.check_players(len(seats))
    if hands < 1:
        raise ValueError(f"hands must be at least 1, got {hands}")
    codes, params = seat_arrays(seats, rules, len(seats))
    values = seat_values(seats, rules, len(seats))
    game = game_tables(rules)
    tables = rules.tables
    blocks = -(-hands // block_hands)
    states = Stream(seed, "ofc-play").states(blocks)
    tally = np.zeros((blocks, len(seats), N_TALLY), np.int64)
    done = np.zeros(blocks, np.bool_)
    # what the numbers depend on: the rules' content (a TOML file can change under its id) and
    # the seats' weights ('improved' ones can be remade)
    content = {k: v for k, v in asdict(rules).items() if k not in ("name", "source", "defaults", "options")}
    run = {"rules": content, "seats": list(seats), "params": params.tolist(), "values": values.tolist(),
           "seed": seed, "block_hands": block_hands, "seeds": "ofc-play"}
    saved = read_checkpoint(checkpoint, run, resume, fresh) if checkpoint else None
    if saved is not None:
        kept = min(blocks, saved["done"].shape[0])
        tally[:kept], done[:kept] = saved["tally"][:kept], saved["done"][:kept]
    todo = np.flatnonzero(~done)
    for start in range(0, len(todo), ROUND_BLOCKS):
        chosen = todo[start:start + ROUND_BLOCKS]
        part = np.zeros((len(chosen), len(seats), N_TALLY), np.int64)
        simulate_blocks(states[chosen], block_hands, codes, params, values, game, tables.stay,
                        tables.worth_milli, rules.fantasyland.stay_cards, tables.scores, part)
        tally[chosen], done[chosen] = part, True
        if checkpoint:
            write_npz(checkpoint, tally=tally, done=done, run=json.dumps(run))
        if progress is not None:
            progress(int(done.sum()) * block_hands, blocks * block_hands)
    return OfcRun(rules.id, tuple(seats), seed, tally, block_hands)

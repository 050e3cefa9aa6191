"""Pai Gow tiles in files a person reads: the house-edge table, and the strategy chart (which
pairs the best strategy splits, when it plays the high hand up, where the house way costs).

``write_paigow(folder)`` writes ``house-edge.json`` and ``.md``, ``strategy.md`` and the chart
``strategy.png``; every figure is exact (:mod:`sapsam.paigow.measure`).
"""

from collections import defaultdict

import numpy as np
import pandas as pd

from sapsam.base.files import provenance, write_atomic, write_json
from sapsam.output.plots import figure, save_figure, styled
from sapsam.paigow import measure as exact
from sapsam.paigow.game import group_name, hand_points, hand_text, tile_text
from sapsam.paigow.kernels import GROUP, HANDS, N_HANDS

SOURCE = ("Wizard of Odds, \"'Wizard Way' for Pai Gow\", table \"Pai Gow House Edge\" "
          "(wizardofodds.com/games/pai-gow-tiles/strategy/wizard-way/)")
# the published rows (player strategy, banking, commission): win, loss, push, house edge in %
PUBLISHED = {("house way", False, 0.05): (29.21, 30.18, 40.61, 2.44),
             ("house way", True, 0.05): (30.18, 29.21, 40.61, 0.53),
             ("house way", False, 0.0476): (29.21, 30.18, 40.61, 2.37),
             ("house way", True, 0.0476): (30.18, 29.21, 40.61, 0.46),
             ("optimal", False, 0.05): (29.27, 29.48, 41.26, 1.67),
             ("optimal", True, 0.05): (30.17, 28.46, 41.37, -0.20),
             ("optimal", False, 0.0476): (29.27, 29.48, 41.26, 1.60),
             ("optimal", True, 0.0476): (30.17, 28.46, 41.37, -0.27)}


def table_frame(high_three="chong"):
    """The house-edge table with the published figures beside ours (percent), the house way's
    high 3 topped by ``high_three`` (:func:`sapsam.paigow.measure.house_way`)."""
    rows = []
    for r in exact.house_edge_table(high_three):
        pub = PUBLISHED[(r.strategy, r.banking, r.commission)]
        rows.append({"strategy": r.strategy, "banking": "yes" if r.banking else "no",
                     "commission %": round(100 * r.commission, 2), "win %": 100 * r.win,
                     "loss %": 100 * r.loss, "push %": 100 * r.push,
                     "house edge %": 100 * r.house_edge, "published edge %": pub[3],
                     "published win/loss/push %": "/".join(f"{x:.2f}" for x in pub[:3])})
    return pd.DataFrame(rows)


def hands_frame(banking=False, commission=0.05):
    """One row per distinct hand: its tiles, probability, the house way's and the best
    setting's values and the cost of the house way (value per unit bet)."""
    reps, weights, _ = exact.distinct_hands()
    worth = exact.values(exact.counts(banking), commission)  # (3620, 3)
    house = exact.house_way()[reps]
    best = np.argmax(worth, axis=1)
    rows = np.arange(len(reps))
    strengths = exact.strengths()[reps]
    return pd.DataFrame({
        "hand": [" ".join(tile_text(t) for t in HANDS[r]) for r in reps],
        "groups": [tuple(int(g) for g in GROUP[HANDS[r]]) for r in reps],
        "probability": weights / N_HANDS,
        "house": house, "best": best,
        "house_value": worth[rows, house], "best_value": worth[rows, best],
        "cost": worth[rows, best] - worth[rows, house],
        "best_low": strengths[rows, best, 0], "best_high": strengths[rows, best, 1],
        "house_low": strengths[rows, house, 0], "house_high": strengths[rows, house, 1],
        "max_low": strengths[:, :, 0].max(axis=1), "max_high": strengths[:, :, 1].max(axis=1),
        "one_best": ((strengths[:, :, 0] == strengths[:, :, 0].max(axis=1, keepdims=True))
                     & (strengths[:, :, 1] == strengths[:, :, 1].max(axis=1, keepdims=True))
                     ).any(axis=1),  # one setting makes both the best low and the best high
    })


def pair_chart(frame, banking=False, commission=0.05):
    """Per pair (hands holding exactly one pair): the least a split must make for the best play
    to split, as the minimal (low, high) points of the splits it plays, and what that one-line
    rule ("split to make these or better") costs against the best play, per hand of the set."""
    reps, _, _ = exact.distinct_hands()
    worth = exact.values(exact.counts(banking), commission)
    strengths = exact.strengths()[reps]
    hands = defaultdict(list)  # pair -> (probability, split points, best splits, values, k)
    for i, row in enumerate(frame.itertuples()):
        groups = list(row.groups)
        pairs = [g for g in set(groups) if groups.count(g) == 2]
        split = [k for k in range(3) if max(strengths[i, k]) < 192]
        if len(pairs) != 1 or not split:
            continue
        k_split = max(split, key=lambda k: worth[i, k])
        kept = [k for k in range(3) if k not in split][0]
        at = (hand_points(strengths[i, k_split, 0]), hand_points(strengths[i, k_split, 1]))
        hands[pairs[0]].append((row.probability, at, row.best == k_split,
                                worth[i, kept], worth[i, k_split]))
    rows = []
    for pair, found in sorted(hands.items()):
        splits = {at for _, at, chose, _, _ in found if chose}
        least = sorted(a for a in splits
                       if not any(b != a and b[0] <= a[0] and b[1] <= a[1] for b in splits))
        cost = 0.0
        for p, at, _, keep, split in found:
            rule = any(at[0] >= x and at[1] >= y for x, y in least)
            cost += p * (max(keep, split) - (split if rule else keep))
        rows.append({"pair": group_name(pair),
                     "split to make": " or ".join(f"{_name(x)}/{_name(y)}" for x, y in least)
                     + (" or better" if least else ""),
                     "cost": cost, "share": sum(p for p, *_ in found)})
    return rows


def _name(points):
    return {10: "gong", 11: "wong"}.get(points, str(points))


def _pair_lines(frame):
    lines = ["| pair | the best play splits it to make | cost of that rule, % of a bet |",
             "|---|---|--:|"]
    for row in pair_chart(frame):
        rule = row["split to make"] or "never split"
        lines.append(f"| {row['pair']} | {rule} | {100 * row['cost']:.4f} |")
    return lines + ["", "The cost is per hand dealt (all hands, not only those holding the "
                    "pair): the rule errs where the pair's other two tiles matter."]


def special_table(frame):
    """Hands with no pair and a 2 or 12 with a 7, 8 or 9: by the low hand that the wong, gong
    or high nine leaves (its best), the share of such hands and how often the best play still
    makes the wong, gong or high nine.  Rows: (low points, share of hands, share made)."""
    from sapsam.paigow.strategy import special_hands

    reps, _, _ = exact.distinct_hands()
    strengths = exact.strengths()[reps]
    held, made = defaultdict(float), defaultdict(float)
    for i, row in enumerate(frame.itertuples()):
        if strengths[i].max() >= 192:
            continue
        found = special_hands(HANDS[reps[i]])
        settings = [k for k in range(3) if found[k]]
        if not settings:
            continue
        low = hand_points(max(strengths[i, k, 0] for k in settings))
        held[low] += row.probability
        made[low] += row.probability * bool(found[row.best])
    return [(low, held[low], made[low] / held[low]) for low in sorted(held)]


def up_grid(frame):
    """Hands with no pair, wong or gong, where no setting makes both the strongest low and the
    strongest high hand: the share (by probability) whose best setting is the one with the
    strongest high hand, by the best low and best high points the tiles can make."""
    plain = frame[(frame.max_high < 192) & (frame.max_high // 16 < 10)
                  & (frame.max_low < 192) & ~frame.one_best].copy()
    plain["low_points"] = plain.max_low // 16
    plain["high_points"] = plain.max_high // 16
    plain["up"] = (plain.best_high == plain.max_high) & (plain.best_low < plain.max_low)
    plain["weighted_up"] = plain.up * plain.probability
    grid = plain.groupby(["low_points", "high_points"])[["weighted_up", "probability"]].sum()
    return (grid.weighted_up / grid.probability).unstack()


def _markdown(frame):
    """A DataFrame as a Markdown table, numbers to two decimals."""
    def cell(x):
        return f"{x:.2f}" if isinstance(x, float) else str(x)

    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |"
              for row in frame.itertuples(index=False)]
    return "\n".join(lines)


@styled
def strategy_figure(frame, path=None):
    """The chart of :func:`up_grid`, saved as ``path`` + ``.png`` where a path is given: the Figure."""
    grid = up_grid(frame)
    fig = figure(7.5, 5.0)
    ax = fig.add_subplot()
    image = ax.imshow(grid.values, origin="lower", cmap="RdBu_r", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(grid.shape[1]), grid.columns)
    ax.set_yticks(range(grid.shape[0]), grid.index)
    for (i, j), share in np.ndenumerate(grid.values):
        if not np.isnan(share):
            ax.text(j, i, f"{share:.0%}", ha="center", va="center", fontsize=7)
    ax.set_xlabel("best high hand the tiles can make (points)")
    ax.set_ylabel("best low hand the tiles can make (points)")
    ax.set_title("Pai Gow, best play against the house way: how often the high hand goes up\n"
                 "(no pair, wong or gong; the strongest low and high hands not in one setting)")
    fig.colorbar(image, ax=ax, label="share of hands: strongest high hand played")
    if path is not None:
        save_figure(fig, path, formats=("png",))
    return fig


def house_way_cost(frame):
    """What the house way costs against the best setting over the distinct hands of
    :func:`hands_frame`: (house-edge points per unit bet, the share of hands it sets otherwise)."""
    return float((frame.cost * frame.probability).sum()), float(frame.probability[frame.cost > 1e-12].sum())


def strategy_text(frame, table):
    """strategy.md: the table, the pair splits, the chart and the house way's costliest hands."""
    cost, differ = house_way_cost(frame)
    lines = ["# Pai Gow tiles: the best strategy against the house way", "",
             "Exact: every four tiles against every banker hand of the 28 left (35,960 x 20,475 "
             "deals), the banker setting by the Foxwoods house way; not banking, 5% commission.",
             "", _markdown(table), "",
             f"Published figures: {SOURCE}.", "",
             f"**The cost of the house way:** {100 * cost:.2f} percentage points of house edge "
             f"against the best setting; the two differ on {100 * differ:.1f}% of hands.", "",
             "## Pairs: when the best play splits them", ""]
    lines += _pair_lines(frame)
    lines += ["", "## Wong, gong and high nine: when to make them", "",
              "| low hand it leaves (points) | share of hands | the best play makes it |",
              "|--:|--:|--:|"]
    lines += [f"| {low} | {100 * share:.2f}% | {100 * kept:.0f}% |"
              for low, share, kept in special_table(frame)]
    lines += ["", "## Other hands: high hand up or low hand up", "",
              "![when the high hand goes up](strategy.png)", "",
              "## Where the house way costs most", "",
              "The 15 hands where it gives up the most over all hands dealt (probability x cost), most "
              "first.", "",
              "| hand | probability | house way (low / high) | best (low / high) | cost |",
              "|---|---:|---|---|---:|"]
    worst = frame.assign(weighted=frame.cost * frame.probability).nlargest(15, "weighted")
    for row in worst.itertuples():
        lines.append(f"| {row.hand} | {row.probability:.5f} | {hand_text(row.house_low)} / "
                     f"{hand_text(row.house_high)} | {hand_text(row.best_low)} / "
                     f"{hand_text(row.best_high)} | {row.cost:.3f} |")
    return "\n".join(lines) + "\n"


def write_paigow(folder, frame=None):
    """Write the house-edge table and the strategy chart into ``folder`` (``frame``: the
    :func:`hands_frame` where the caller has it); the paths written."""
    table = table_frame()
    rows = [r.to_dict() for r in exact.house_edge_table()]
    paths = (folder / "house-edge.json", folder / "house-edge.md", folder / "strategy.md",
             folder / "strategy.png")
    write_json(paths[0], {"source": SOURCE, "rows": rows, "provenance": provenance(game="pai gow tiles")})
    write_atomic(paths[1], _markdown(table) + "\n")
    frame = hands_frame() if frame is None else frame
    write_atomic(paths[2], strategy_text(frame, table))
    strategy_figure(frame, folder / "strategy")
    return paths


def table_answer(high_three="chong"):
    """The JSON of ``sapsam paigow table``: the published source, the tile that tops the house
    way's lowest high 3, and every row."""
    from sapsam.paigow.strategy import high_three_tile

    tile = high_three_tile(high_three)
    return {"source": SOURCE, "high_three": tile,
            "rows": [r.to_dict() for r in exact.house_edge_table(tile)]}


def best_answer(tiles, banking=False, commission=0.05):
    """The JSON of ``sapsam paigow best``: each distinct setting, best first."""
    from sapsam.paigow.game import tile_label

    def half(cells, s):
        return {"tiles": [tile_text(t) for t in cells], "names": [tile_label(t) for t in cells],
                "hand": hand_text(s)}

    return {"tiles": [tile_text(t) for t in tiles], "banking": banking,
            "commission": commission, "opponent": "banker by the Foxwoods house way",
            "deals": exact.N_BANKER,
            "settings": [{"low": half(c.low, c.low_strength),
                          "high": half(c.high, c.high_strength),
                          "win": c.win, "push": c.push, "loss": c.loss, "value": c.value,
                          "house_way": c.house_way, "best": c.optimal}
                         for c in exact.best(tiles, banking, commission)]}

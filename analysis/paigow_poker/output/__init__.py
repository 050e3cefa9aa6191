"""Pai Gow Poker's answers: one hand's ranked settings as the JSON that ``sapsam paigow-poker
best --json``, the web API and :func:`sapsam.paigow_poker.best` share."""

from sapsam.base.stats import mean_interval, wilson_interval
from sapsam.paigow_poker.game import Rules, format_cards, high_words, low_words, tables
from sapsam.paigow_poker.measure.exact import PUBLISHED_HOUSE_WAY, house_edge, rank_settings
from sapsam.paigow_poker.strategy import house_way, house_way_ids


def best_answer(hand, way="foxwoods", banking=False, commission=0.05, wheel_second=True, deck=None):
    """Every distinct legal setting of seven cards (ascending codes), best value first, with
    its exact win, push and loss counts against the house way over every dealer hand of the
    cards left (of ``deck``, all 53 by default), and what the house way's setting gives up."""
    rules = Rules(wheel_second=wheel_second, commission=commission)
    way = house_way(way)
    ranked, house, fouls, deals = rank_settings(hand, way, rules, banking, deck)
    scale, _ = tables(rules)
    best_value = ranked[0].value(commission)
    settings = []
    for i, s in enumerate(ranked):
        value = s.value(commission)
        settings.append({
            "high": {"cards": format_cards(s.high_cards), "hand": high_words(scale.packed[s.high])},
            "low": {"cards": format_cards(s.low_cards), "hand": low_words(s.low)},
            "win": s.win, "push": s.push, "loss": s.loss,
            "p_win": s.win / deals, "p_push": s.push / deals, "p_loss": s.loss / deals,
            "value": value, "gap": value - best_value,
            "house_way": (s.high, s.low) == house, "best": i == 0})
    house_value = next(s["value"] for s in settings if s["house_way"])
    return {"cards": format_cards(hand), "house_way": way.to_dict(), "banking": banking,
            "commission": commission, "wheel": "second" if wheel_second else "lowest",
            "dealer_hands": deals, "fouls": fouls, "best_value": best_value,
            "house_way_value": house_value, "house_way_gives_up": best_value - house_value,
            "settings": settings}


def house_ways_answer():
    """The shipped house ways, each with its casino, source and unstated sections."""
    return {"house_ways": [house_way(i).to_dict() for i in house_way_ids()]}


def published_edge(commission):
    """The published house way against house way (Foxwoods, not banking) at a commission:
    its win, push and loss fractions and house edge, from its counts."""
    p = PUBLISHED_HOUSE_WAY
    win, push, loss = (p[k] / p["total"] for k in ("win", "push", "loss"))
    return {"win": win, "push": push, "loss": loss, "edge": loss - (1 - commission) * win,
            "source": p["source"]}


def edge_answer(way="foxwoods", deals=10_000_000, seed=0, commission=0.05, wheel_second=True):
    """The house way against itself, banking and not, sampled with 95% half-widths; the
    published exact figures beside the Foxwoods house way's, not banking."""
    rules = Rules(wheel_second=wheel_second, commission=commission)
    chosen = house_way(way)
    edges = house_edge(chosen, rules, deals, seed)
    rows = [{"banking": banking, **edges[banking]} for banking in (False, True)]
    published = published_edge(commission) if chosen.id == "foxwoods" and wheel_second else None
    return {"house_way": chosen.to_dict(), "commission": commission, "seed": seed,
            "wheel": "second" if wheel_second else "lowest", "rows": rows,
            "published": published}


def side_bets_answer(wheel_second=True):
    """Each shipped side bet's pay table with the exact count of every bonus hand over all
    154,143,080 hands, its return and the house edge (the published figure beside, if any)."""
    from sapsam.paigow_poker.game import pay_table, pay_table_ids
    from sapsam.paigow_poker.measure.exact import N_HANDS, bonus_counts_of_deck

    counts = bonus_counts_of_deck(Rules(wheel_second=wheel_second))
    tables_out = []
    for ident in pay_table_ids():
        table = pay_table(ident)
        rows, ret = [], 0.0
        for hand, count in counts.items():
            pay = table.pays.get(hand)
            p = count / N_HANDS
            contribution = p * pay if pay is not None else -p
            ret += contribution
            rows.append({"hand": hand, "pays": pay, "count": count, "probability": p,
                         "return": contribution})
        tables_out.append({**table.to_dict(), "rows": rows, "house_edge": -ret})
    return {"hands": N_HANDS, "pay_tables": tables_out}


def gap_answer(way="foxwoods", hands=200, seed=0, commission=0.05, banking=False):
    """What the house way gives up against the best play, by sampling hands: the mean gap per
    unit bet with its 95% half-width (Student's t; None for one hand), how often the best
    play departs with its Wilson 95% interval, and the same per pattern."""
    from sapsam.paigow_poker.game import format_cards
    from sapsam.paigow_poker.measure.exact import PATTERNS, sample_gaps

    rules = Rules(commission=commission)
    chosen = house_way(way)
    rows = sample_gaps(chosen, rules, hands, seed, banking)

    def summary(part):
        n, departing = len(part), sum(r["departs"] for r in part)
        mean, _, low, _ = mean_interval([r["gap"] for r in part])
        departs_low, departs_high = wilson_interval(departing, n)
        return {"hands": n, "mean_gap": mean, "half_width": None if n < 2 else mean - low,
                "departs": departing / n, "departs_low": departs_low, "departs_high": departs_high}

    by_pattern = []
    for name in PATTERNS:
        for complete in (False, True):
            part = [r for r in rows if r["pattern"] == name and r["straight_or_flush"] == complete]
            if part:
                by_pattern.append({"pattern": name, "straight_or_flush": complete, **summary(part)})
    worst = sorted(rows, key=lambda r: -r["gap"])[:10]
    return {"house_way": chosen.to_dict(), "commission": commission, "banking": banking, "seed": seed,
            **summary(rows), "by_pattern": by_pattern,
            "largest": [{"cards": format_cards(r["cards"]), "gap": r["gap"]} for r in worst]}

"""The best play's house edge against each house way, banking and not (``sapsam paigow-poker
best-play``): the house way against itself less the best play's mean gain
(:mod:`sapsam.paigow_poker.measure.best_play`), the two estimates independent, so their 95%
half-widths add in quadrature; the published figures beside Foxwoods."""

from math import sqrt

from sapsam.paigow_poker.measure.best_play import EDGE_DEALS, EXACT_HANDS, HANDS, POOL, best_play_gains
from sapsam.paigow_poker.measure.exact import house_edge
from sapsam.paigow_poker.output.departures import house_way_edge, published_best_play


def best_play_answer(ways, rules, hands=HANDS, exact_hands=EXACT_HANDS, pool=POOL, seed=0, deck=None,
                     edge_deals=EDGE_DEALS, progress=None, checkpoint=None, resume=True, fresh=False):
    """Per house way (``house_ways``) two ``rows``, not banking then banking: the house way's
    edge against itself (sampled over ``edge_deals`` deals, or exact on a small ``deck``), the
    mean gain (:func:`~sapsam.paigow_poker.measure.best_play.mean_gain`) and the best play's
    ``edge`` and 95% ``half_width``, per unit bet.  The rest as
    :func:`~sapsam.paigow_poker.measure.best_play.best_play_gains`."""
    if int(edge_deals) < 1:
        raise ValueError(f"edge_deals must be at least 1, got {edge_deals!r}")
    gains = best_play_gains(ways, rules, hands, exact_hands, pool, seed, deck, progress, checkpoint, resume, fresh)
    deck = None if deck is None else [int(c) for c in deck]
    out = []
    for way, rows in zip(ways, gains):
        if deck is None:
            both = house_edge(way, rules, int(edge_deals), seed)
            houses = [{**both[b], "exact": False} for b in (False, True)]
        else:
            houses = [house_way_edge(way, rules, b, edge_deals, seed, deck) for b in (False, True)]
        out.append({"house_way": way.to_dict(), "house_way_deals": int(houses[0]["deals"]),
                    "rows": [{"banking": bool(b), "house_way_edge": house["edge"],
                              "house_way_half_width": house["half_width"], "house_way_exact": house["exact"],
                              **gain, "edge": house["edge"] - gain["gain"],
                              "half_width": sqrt(house["half_width"] ** 2 + gain["gain_half_width"] ** 2)}
                             for b, (house, gain) in enumerate(zip(houses, rows))]})
    return {"hands": int(hands), "exact_hands": int(exact_hands), "pool": int(pool), "seed": int(seed),
            "commission": rules.commission, "wheel_second": rules.wheel_second, "deck": deck,
            "edge_deals": None if deck is not None else int(edge_deals), "house_ways": out,
            "published": published_best_play(rules.commission, False, deck, ways)}


def best_play_to_file(ways, rules, hands=HANDS, exact_hands=EXACT_HANDS, pool=POOL, seed=0, deck=None,
                      edge_deals=EDGE_DEALS, progress=None, out=None, resume=False, fresh=False):
    """:func:`best_play_answer`, and with ``out`` (a JSON path) the run holds its lock,
    checkpoints beside it, writes the answer there with its provenance and then drops the
    checkpoint (``sapsam paigow-poker best-play --out`` and the API's ``out``)."""

    from sapsam.base.files import checkpoint_beside, provenance, write_json, writing_result

    with writing_result(out, resume, fresh):
        answer = best_play_answer(ways, rules, hands, exact_hands, pool, seed, deck, edge_deals, progress,
                                  checkpoint_beside(out) if out is not None else None, resume, fresh)
        if out is not None:
            write_json(out, {**answer, "provenance": provenance(house_ways=[w.id for w in ways], hands=hands,
                                                                seed=seed)})
            checkpoint_beside(out).unlink(missing_ok=True)
    return answer

"""Reviewing a setting someone played: its place among the best candidates of the hand.

:func:`best_setting` runs with the played setting as an extra candidate (``extra_rows``), so
that the played setting meets the same sampled opponents as every candidate and its loss is a
paired gap; :func:`review_of` reads its place from that ranking.  A surrender or a declared
natural is reviewed as the candidate it already is.  A night's hands, a CSV file of them
(:func:`read_played`), are reviewed one by one (:func:`review_played`) and their losses
summed (:func:`review_total`).
"""

import numpy as np

from sapsam.base.stats import Z95
from sapsam.game.cards import format_cards, format_setting, parse_hand, parse_setting
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.settings import settled_rows, sorted_hand
from sapsam.measure.best import candidates
from sapsam.play.policy import Policy

DECLARED = ("surrender", "natural")  # played decisions that set no rows


def played_setting(hand, setting, rules=None):
    """The hand's cards and the played rows ``(front, middle, back)``, parsed; a setting of
    other cards than the hand's is refused (``ValueError``).  Or, for ``setting`` "surrender"
    or "natural" (any case), that word: the hand surrendered, or declared its natural, refused
    where ``rules`` (a Ruleset, an id or a file, when given) has no surrender or the hand no
    natural under it: before any table is sampled."""
    cards = parse_hand(hand)
    if isinstance(setting, str) and setting.strip().lower() in DECLARED:
        declared = setting.strip().lower()
        if rules is not None:
            rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
            _played(candidates(sorted_hand(cards), rules), declared, rules)
        return cards, declared
    rows = parse_setting(setting)
    played, held = set(np.concatenate(rows).tolist()), set(cards.tolist())
    if played != held:
        extra, missing = format_cards(sorted(played - held)), format_cards(sorted(held - played))
        raise ValueError("the setting must use exactly the 13 cards of the hand: "
                         + "; ".join(part for part in (f"{extra} not in the hand" if extra else "",
                                                       f"{missing} of the hand not set" if missing else "")
                                     if part))
    return cards, rows


def extra_rows(rows):
    """``best_setting``'s ``extra`` for a played decision: its setting, or none for a surrender
    or a natural (candidates already where the ruleset and hand have them)."""
    return [] if isinstance(rows, str) else [rows]


def _played(cands, rows, rules):
    """The candidates that stand for the played ``rows``: the setting and any with its strength
    triple (they score the same), or the surrender or the natural; refused (``ValueError``)
    where the ruleset or the hand has none."""
    if rows == "surrender":
        found = [c for c in cands if c.surrender]
    elif rows == "natural":
        found = [c for c in cands if c.natural >= 0]
    else:
        triple, _ = settled_rows(*rows, rules)
        found = [c for c in cands if c.rows == triple and c.natural < 0 and not c.surrender]
    if not found:
        raise ValueError(f"{rules.id} has no surrender" if rows == "surrender" else
                         f"the hand holds no natural under {rules.id}")
    return found


def review_of(result, rows):
    """The played ``rows`` (or "surrender", "natural": :func:`played_setting`) in a
    :class:`~sapsam.measure.best.BestResult` computed with ``extra=extra_rows(rows)``: a dict
    of its rank, EV and CI, the best setting, the loss and its CI, whether the loss is
    distinguishable from 0, and whether the setting is legal (the JSON of ``sapsam review``)."""
    ranking = result.table
    played = _played(candidates(result.hand, result.rules, extra=extra_rows(rows)), rows, result.rules)
    same = {c.label for c in played}
    rank = [i for i, c in enumerate(ranking["setting"]) if c in same][0]
    declared = isinstance(rows, str)
    return {"setting": played[0].label if declared else format_setting(*rows),
            "legal": declared or bool(settled_rows(*rows, result.rules)[1]), **_verdict(result, rank)}


def _verdict(result, rank):
    """Candidate ``rank`` (0-based) of a result against its best: rank, EV and CI, the best
    setting, its EV and CI, the loss and its CI, whether the loss is distinguishable from 0:
    Python's numbers, not the table's numpy ones (as JSON holds them)."""
    ranking = result.table
    row, best = ranking.iloc[rank], ranking.iloc[0]
    return {"rank": int(rank) + 1, "candidates": len(ranking), "ev": float(row.ev),
            "ci": [float(row.ci_low), float(row.ci_high)], "best": str(best.setting),
            "best_ev": float(best.ev), "best_ci": [float(best.ci_low), float(best.ci_high)],
            # 0.0 - x, not -x: the best's loss is 0.0, never -0.0 ("-0.000" when printed)
            "loss": 0.0 - float(row.gap), "loss_ci": [0.0 - float(row.gap_high), 0.0 - float(row.gap_low)],
            "distinguishable": bool(row.distinguishable), "samples": int(result.samples)}


def houseway_review(hand, rules, players=4, opponents="fitted", samples=10000, seed=0,
                    stage=None, other=None):
    """How the house way sets ``hand`` and which rule decided it, beside the best setting
    against ``opponents`` (a policy name or a ready Policy): the
    JSON of ``sapsam houseway HAND`` (the review of the house way's decision, with ``hand`` and
    ``houseway``: :meth:`~sapsam.strategy.houseway_chart.HandDecision.to_dict`).
    ``stage(label, total, unit)`` gives progress callbacks (deriving, sampling); ``other`` is
    the player's other hand in criss-cross (:func:`sapsam.measure.best.best_setting`)."""
    return houseway_ranked(hand, rules, players, opponents, samples, seed, stage, other)[0]


def houseway_ranked(hand, rules, players=4, opponents="fitted", samples=10000, seed=0,
                    stage=None, other=None):
    """:func:`houseway_review`'s JSON and the :class:`~sapsam.measure.best.BestResult` that
    ranked the house way's setting among the hand's candidates."""
    from sapsam.measure.best import best_setting, unseen_cards
    from sapsam.strategy.houseway import derive
    from sapsam.strategy.houseway_chart import decide_hand
    from sapsam.strategy.registry import make_policy

    cards = parse_hand(hand)
    unseen_cards(cards, rules, other)  # a missing or needless other hand, before any fit on demand
    way = derive(rules, players, progress=stage("deriving the house way", None, "hands")
                 if stage else None)
    decision = decide_hand(way, cards, rules, players)
    policy = opponents if isinstance(opponents, Policy) else make_policy(opponents, rules,
                                                                          players, stage=stage)
    result = best_setting(cards, rules, players, policy, samples, seed, other=other,
                          progress=stage("sampling tables", None, "tables") if stage else None)
    rank = int(np.flatnonzero(result.table["setting"].to_numpy() == decision.label)[0])
    return {"hand": result.hand_text, "rules": result.rules.id, "players": players,
            "opponents": policy.name, "seed": seed, "houseway": decision.to_dict(),
            **_verdict(result, rank)}, result


PLAYED_COLUMNS = ("hand", "setting", "other")  # other: the player's other hand, criss-cross's


def _utf16_without_mark(raw):
    """``"utf-16-le"`` or ``"utf-16-be"`` where bytes look like UTF-16 text saved without its
    byte-order mark, else None: a CSV file's text is mostly ASCII, whose UTF-16 has a zero
    byte in every pair, on one side (little- or big-endian); other text has few zero bytes."""
    head = raw[:512]
    pairs = len(head) // 2
    if pairs == 0:
        return None
    even, odd = head[0:2 * pairs:2].count(0), head[1:2 * pairs:2].count(0)
    if odd >= pairs / 4 and even <= pairs / 32:
        return "utf-16-le"
    if even >= pairs / 4 and odd <= pairs / 32:
        return "utf-16-be"
    return None


def read_played(path, rules=None):
    """The played hands of a CSV file: a header line naming the columns ``hand`` and
    ``setting`` (``front | middle | back``) and, in criss-cross, ``other`` (the player's other
    hand), in any order and case, other columns ignored; then a played hand a line.  Cells are
    parted by commas, or by semicolons or tabs where the header line has more of those (as
    spreadsheets save CSV in many locales); the text is UTF-8, UTF-16 (a spreadsheet's
    "Unicode text": by its byte-order mark, or without one by the zero bytes of its ASCII),
    or else Windows' Western encoding (cp1252, a spreadsheet's "CSV" there).  Returns
    ``[(line, hand, setting, other or None)]`` with the file's line numbers (the header's is
    1; blank lines before it are skipped).  A file that cannot be read, lacks that header,
    holds no hand, or under ``rules`` (a Ruleset) lacks the other hands criss-cross needs or
    gives them to a game of one hand, is refused (``ValueError`` naming the file)."""
    import codecs
    import csv
    import io
    from pathlib import Path

    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if raw[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        text = raw.decode("utf-16", errors="replace")
    elif unmarked := _utf16_without_mark(raw):
        text = raw.decode(unmarked, errors="replace")
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
    stripped = text.lstrip("\r\n")  # blank lines before the header: skipped, and counted
    lead = text[:len(text) - len(stripped)]
    skipped, text = lead.count("\n") + lead.replace("\r\n", "\n").count("\r"), stripped
    first = text.splitlines()[0] if text else ""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=max(",;\t", key=first.count))
    try:
        header = [name.strip().lower() for name in next(reader, [])]
        rows = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as exc:
        raise ValueError(f"{path}: line {reader.line_num} is not CSV ({exc})") from None
    if "hand" not in header or "setting" not in header:
        raise ValueError(f"{path}: the first line must name the columns hand and setting (and other, "
                         f"your other hand, in criss-cross), got {','.join(header) or 'nothing'}")
    twice = [name for name in PLAYED_COLUMNS if header.count(name) > 1]
    if twice:
        raise ValueError(f"{path}: the first line names the column {twice[0]} {header.count(twice[0])} times: "
                         "which one holds it?")
    if not rows:
        raise ValueError(f"{path}: no hands after the header line")
    at = {name: header.index(name) for name in PLAYED_COLUMNS if name in header}

    def cell(row, name):
        return row[at[name]].strip() if name in at and at[name] < len(row) else ""

    played = [(line + skipped, cell(row, "hand"), cell(row, "setting"), cell(row, "other") or None)
              for line, row in rows]
    if rules is not None and rules.hands == 2 and "other" not in at:
        raise ValueError(f"{path}: {rules.id} deals each player two hands: add a column other, each "
                         "hand's other hand (the opponent holds the 26 cards outside both)")
    if rules is not None and rules.hands == 1 and any(other for *_, other in played):
        raise ValueError(f"{path}: its column other gives other hands, which only criss-cross deals: "
                         f"drop the column, or review under --rules criss-cross ({rules.id} deals one hand)")
    return played


def held_out(result, rows, policy, samples, seed, other=None, progress=None):
    """The played ``rows``' loss against the best setting of a ranking (a
    :class:`~sapsam.measure.best.BestResult`), measured again on ``samples`` tables of their
    own (``Stream(seed, "review")``, which no ranking draws).  The ranking's own loss is measured
    on the tables that chose the best, whose estimate is the highest of many and leans high
    where settings are near-tied (most at few samples); measured apart it does not, but the
    best chosen may not be the best, so this is a lower estimate of the loss, as exploit's
    held-out gap is.  ``(loss, [low, high])``, a 95% normal interval; nothing to measure where
    the played setting is the best chosen.  ``progress(done, total)`` about twenty times; the
    numbers do not depend on it."""
    from sapsam.game.score import points_scale
    from sapsam.measure.best import BLOCK, simulate, unseen_cards
    from sapsam.play.seeds import Stream

    cands = candidates(result.hand, result.rules, extra=extra_rows(rows))
    best = next(c for c in cands if c.label == result.table["setting"].iloc[0])
    played = _played(cands, rows, result.rules)[0]
    if played.label == best.label or (played.rows == best.rows and best.natural < 0 and not best.surrender
                                      and played.natural < 0 and not played.surrender):
        return 0.0, [0.0, 0.0]
    unseen = unseen_cards(result.hand, result.rules, other)
    policy = policy.crossed(result.rules, unseen, result.players) if result.rules.hands == 2 else policy
    # in steps of whole blocks, each drawing its own opponents: the same tables however stepped
    step = max(1, -(-samples // (20 * BLOCK))) * BLOCK if progress is not None else samples
    points = np.empty((2, samples), np.int64)
    for start in range(0, samples, step):
        count = min(step, samples - start)
        points[:, start:start + count], _ = simulate(result.hand, result.rules, result.players, policy,
                                                     [best, played], count, Stream(seed, "review"),
                                                     first_block=start // BLOCK, unseen=unseen)
        if progress is not None:
            progress(start + count, samples)
    gap = (points[0] - points[1]) / points_scale(result.rules)
    half = float(Z95 * gap.std(ddof=1) / np.sqrt(samples)) if samples > 1 else np.inf
    loss = float(gap.mean())
    return loss, [loss - half, loss + half]


def review_played(played, rules, players, policy, samples, seed=0, progress=None, reviews=None):
    """Each hand of :func:`read_played` reviewed against ``policy`` (a Policy) under ``rules``
    (a Ruleset), its ``samples`` tables sampled with the seed ``seed`` plus its line's number,
    so that the hands' estimates are independent (the web app's Review tab: seed 0), and its
    loss measured apart too (:func:`held_out`, on as many tables).  A list of dicts in the
    file's order, each the hand's ``line``, ``hand`` and ``other`` and either :func:`review_of`'s
    answer with ``held_out_loss`` and ``held_out_ci`` or the ``error`` that refused it
    (``setting`` as given), appended to ``reviews`` where given (what an interrupted run had
    finished is there).  ``progress(done, total)`` after each hand."""
    from sapsam.measure.best import best_setting

    reviews = [] if reviews is None else reviews
    for done, (line, hand, setting, other) in enumerate(played, 1):
        try:
            cards, rows = played_setting(hand, setting, rules)
            result = best_setting(cards, rules, players, policy, samples, seed + line, other=other,
                                  extra=extra_rows(rows))
            apart, apart_ci = held_out(result, rows, policy, samples, seed + line, other)
            reviews.append({"line": line, "hand": result.hand_text, "other": other, **review_of(result, rows),
                            "held_out_loss": apart, "held_out_ci": apart_ci})
        except ValueError as exc:
            reviews.append({"line": line, "hand": hand, "other": other, "setting": setting, "error": str(exc)})
        if progress is not None:
            progress(done, len(played))
    return reviews


def review_total(reviews):
    """The reviewed hands' losses summed and a hand's mean, each with its 95% interval, as
    ranked (``loss``: each on the tables that chose its best, an upper estimate) and measured
    apart (``held_out_loss``: a lower one, :func:`held_out`): the hands' estimates are
    independent (:func:`review_played`), so the sum's variance is the sum of theirs, and its
    half-width the root of the sum of the hands' squared half-widths (None without a reviewed
    hand)."""
    losses = [r for r in reviews if "error" not in r]
    n = len(losses)
    out = {"hands": n, "refused": len(reviews) - n}
    for name, ci, prefix in (("loss", "loss_ci", ""), ("held_out_loss", "held_out_ci", "held_out_")):
        total = sum(r[name] for r in losses)
        half = float(np.sqrt(sum(((r[ci][1] - r[ci][0]) / 2) ** 2 for r in losses)))
        out |= {name: total if n else None, ci: [total - half, total + half] if n else None,
                f"{prefix}per_hand": total / n if n else None,
                f"{prefix}per_hand_ci": [(total - half) / n, (total + half) / n] if n else None}
    return out

"""A slow, obviously-correct reference for Open-Face Chinese Poker scoring (the tests' yardstick).

Plain Python written from analysis/ofc/rules.md part E, without calling or copying
``kernels/`` or ``analysis/``: the tests feed the same boards to both and demand the same answers.
Hands are ranked by ``naive`` (RULES.md A1: one scale for 3- and 5-card hands, a front's missing
kickers rank lowest, A-2-3-4-5 the lowest straight).

A board is ``(front, middle, back)``: lists of 3, 5 and 5 card codes (``rank * 4 + suit``).
"""

from itertools import combinations, product

from naive import (
    ACE,
    FULL_HOUSE,
    PAIR,
    QUADS,
    RANK_CHARS,
    STRAIGHT_FLUSH,
    TRIPS,
    category_of_key,
    hand_key,
    strength,
)

# --------------------------------------------------------------------------------------------
# Default royalty tables (E2)
# --------------------------------------------------------------------------------------------

BACK = {"straight": 2, "flush": 4, "full-house": 6, "quads": 10, "straight-flush": 15, "royal-flush": 25}
MIDDLE = {"trips": 2, "straight": 4, "flush": 8, "full-house": 12, "quads": 20, "straight-flush": 30,
          "royal-flush": 50}
FRONT_PAIR = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]  # by pair rank, deuces .. aces: 66 = 1 .. AA = 9
FRONT_TRIPS = list(range(10, 23))  # by rank, deuces .. aces: 222 = 10 .. AAA = 22

CATEGORY_NAMES = ("high-card", "pair", "two-pair", "trips", "straight", "flush", "full-house",
                  "quads", "straight-flush")
ROWS = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}


# --------------------------------------------------------------------------------------------
# Rows and boards
# --------------------------------------------------------------------------------------------


def category_name(cards):
    """Name of a hand's category as the royalty tables spell it; an ace-high straight flush is
    ``"royal-flush"``."""
    key = hand_key(cards)
    category = category_of_key(key)
    if category == STRAIGHT_FLUSH and key[1] == ACE:
        return "royal-flush"
    return CATEGORY_NAMES[category]


def royalty(row, cards, back=BACK, middle=MIDDLE, front_pair=FRONT_PAIR, front_trips=FRONT_TRIPS):
    """Royalty points of one row's hand (``row`` is ``"front"``, ``"middle"`` or ``"back"``).

    A royal flush takes the table's ``"royal-flush"`` value only (a table without that entry
    pays it as a straight flush).  A front pays by the rank of its pair or trips.
    """
    cards = [int(c) for c in cards]
    if row not in ROW_SIZES:
        raise ValueError(f"row is one of {ROWS}, got {row!r}")
    if len(cards) != ROW_SIZES[row]:
        raise ValueError(f"the {row} holds {ROW_SIZES[row]} cards, got {cards}")
    key = hand_key(cards)
    if row == "front":
        category, rank = category_of_key(key), key[1]
        if category == TRIPS:
            return front_trips[rank]
        if category == PAIR:
            return front_pair[rank]
        return 0
    table = back if row == "back" else middle
    name = category_name(cards)
    if name == "royal-flush" and name not in table:
        name = "straight-flush"
    return table.get(name, 0)


def fouled(front, middle, back):
    """True unless back >= middle >= front on the shared strength scale (ties allowed)."""
    return not strength(back) >= strength(middle) >= strength(front)


def board_fouled(board):
    front, middle, back = board
    return fouled(front, middle, back)


def royalties(board, back=BACK, middle=MIDDLE, front_pair=FRONT_PAIR, front_trips=FRONT_TRIPS):
    """Total royalties of a board's three rows; 0 if the board is fouled."""
    if board_fouled(board):
        return 0
    tables = dict(back=back, middle=middle, front_pair=front_pair, front_trips=front_trips)
    return sum(royalty(row, cards, **tables) for row, cards in zip(ROWS, board))


# --------------------------------------------------------------------------------------------
# Settling a hand (E2)
# --------------------------------------------------------------------------------------------


def row_results(board_a, board_b):
    """+1 / -1 / 0 per row (front, middle, back) for board a against board b.

    A fouled board loses every row to one that is not; two fouled boards tie every row.
    """
    foul_a, foul_b = board_fouled(board_a), board_fouled(board_b)
    if foul_a and foul_b:
        return [0, 0, 0]
    if foul_a:
        return [-1, -1, -1]
    if foul_b:
        return [1, 1, 1]
    results = []
    for a, b in zip(board_a, board_b):
        sa, sb = strength(a), strength(b)
        results.append(1 if sa > sb else -1 if sa < sb else 0)
    return results


def pair_points(board_a, board_b, row=1, scoop=3, back=BACK, middle=MIDDLE, front_pair=FRONT_PAIR,
                front_trips=FRONT_TRIPS):
    """Points board a wins from board b (board b wins the negative): rows, scoop, royalties."""
    results = row_results(board_a, board_b)
    points = row * sum(results)
    if results == [1, 1, 1]:
        points += scoop
    elif results == [-1, -1, -1]:
        points -= scoop
    tables = dict(back=back, middle=middle, front_pair=front_pair, front_trips=front_trips)
    points += royalties(board_a, **tables) - royalties(board_b, **tables)  # a fouled board's are 0
    return points


def settle(boards, row=1, scoop=3, back=BACK, middle=MIDDLE, front_pair=FRONT_PAIR, front_trips=FRONT_TRIPS):
    """Net points of each of 2 or 3 boards: every pair settles zero-sum (:func:`pair_points`)."""
    if len(boards) not in (2, 3):
        raise ValueError(f"2 or 3 boards, got {len(boards)}")
    tables = dict(back=back, middle=middle, front_pair=front_pair, front_trips=front_trips)
    net = [0] * len(boards)
    for i, j in combinations(range(len(boards)), 2):
        points = pair_points(boards[i], boards[j], row=row, scoop=scoop, **tables)
        net[i] += points
        net[j] -= points
    return net


# --------------------------------------------------------------------------------------------
# Fantasyland (E3)
# --------------------------------------------------------------------------------------------


def _entry_rank(name):
    """Order of an entry key: pair names "22".."AA" are 0..12, "trips" is 13."""
    if name == "trips":
        return 13
    if len(name) == 2 and name[0] == name[1] and name[0] in RANK_CHARS:
        return RANK_CHARS.index(name[0])
    raise ValueError(f"an entry key is a pair name '22'..'AA' or 'trips', got {name!r}")


def front_reaches(front, name):
    """Whether a front reaches entry key ``name``: trips reach every key; a pair of rank r the
    pair keys of rank <= r."""
    key = hand_key(front)
    category = category_of_key(key)
    wanted = _entry_rank(name)
    if category == TRIPS:
        return True
    if category == PAIR:
        return wanted <= 12 and wanted <= key[1]
    return False


def fantasyland_cards(board, entry):
    """Cards dealt next hand: the value of the strongest entry key the front reaches, else 0
    (also 0 for a fouled board).  ``entry`` maps "QQ".."AA" / "trips" to cards, e.g. {"QQ": 14}."""
    if board_fouled(board):
        return 0
    reached = [name for name in entry if front_reaches(board[0], name)]
    if not reached:
        return 0
    return entry[max(reached, key=_entry_rank)]


def stays(board, middle_full_house=False):
    """Whether a Fantasyland board stays: not fouled, and trips in front, or quads or better in
    back, or (option) a full house or better in the middle."""
    if board_fouled(board):
        return False
    front, middle, back = (category_of_key(hand_key(row)) for row in board)
    return _stays_by_category(front, middle, back, middle_full_house)


def _check_hand(cards):
    cards = sorted(int(c) for c in cards)
    if len(cards) < 13 or len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
        raise ValueError(f"need 13 or more distinct cards, got {cards}")
    return cards


def settings(cards):
    """Every ``(front, middle, back)`` (ascending tuples) of 13 of ``cards``, fouled or not;
    the cards not used are discarded."""
    cards = _check_hand(cards)
    for back in combinations(cards, 5):
        rest = [c for c in cards if c not in back]
        for middle in combinations(rest, 5):
            left = [c for c in rest if c not in middle]
            for front in combinations(left, 3):
                yield front, middle, back


def _clean_settings(cards, tables):
    """Every non-fouled setting of 13 of ``cards``, in :func:`settings` order, as
    ``((front, middle, back), (front_info, middle_info, back_info))`` where a row's info is
    ``(strength, royalty, category)``, computed once per subset of cards (a cache only)."""
    memo = {}

    def row_info(row, hand):
        if (row, hand) not in memo:
            memo[row, hand] = (strength(hand), royalty(row, hand, **tables), category_of_key(hand_key(hand)))
        return memo[row, hand]

    for front_cards, middle_cards, back_cards in settings(cards):
        back_info = row_info("back", back_cards)
        middle_info = row_info("middle", middle_cards)
        if middle_info[0] > back_info[0]:
            continue  # fouled
        front_info = row_info("front", front_cards)
        if front_info[0] > middle_info[0]:
            continue  # fouled
        yield (front_cards, middle_cards, back_cards), (front_info, middle_info, back_info)


def _stays_by_category(front_category, middle_category, back_category, middle_full_house):
    """:func:`stays` of a non-fouled board from its rows' categories."""
    return (front_category == TRIPS or back_category >= QUADS
            or (middle_full_house and middle_category >= FULL_HOUSE))


def best_fantasyland(cards, worth, middle_full_house=False, back=BACK, middle=MIDDLE, front_pair=FRONT_PAIR,
                     front_trips=FRONT_TRIPS):
    """Brute force over every non-fouled setting of 13 of ``cards``: the greatest
    ``value = royalties + worth * stays``, equal values to the larger sum of the rows' strengths.

    Returns ``(value, strength_sum, (front, middle, back))``; among settings equal in both the
    first in :func:`settings` order is kept.
    """
    tables = dict(back=back, middle=middle, front_pair=front_pair, front_trips=front_trips)
    best = None
    for board, infos in _clean_settings(cards, tables):
        (s_front, r_front, c_front), (s_middle, r_middle, c_middle), (s_back, r_back, c_back) = infos
        stay = _stays_by_category(c_front, c_middle, c_back, middle_full_house)
        value = r_front + r_middle + r_back + (worth if stay else 0)
        total = s_front + s_middle + s_back
        if best is None or (value, total) > best[:2]:
            best = (value, total, board)
    assert best is not None  # 13 cards always have a setting that is not fouled
    return best


def can_stay(cards, middle_full_house=False):
    """Brute force: whether some non-fouled setting of 13 of ``cards`` stays."""
    tables = dict(back=BACK, middle=MIDDLE, front_pair=FRONT_PAIR, front_trips=FRONT_TRIPS)  # royalties unused
    return any(_stays_by_category(f[2], m[2], b[2], middle_full_house)
               for _, (f, m, b) in _clean_settings(cards, tables))


# --------------------------------------------------------------------------------------------
# The last streets, exactly (issue 38): every deal, every placement
# --------------------------------------------------------------------------------------------


def completions(board, cards, keep):
    """Every board made by placing ``keep`` of ``cards`` (the rest discarded) into the empty
    places of ``board`` (rows that may be short), each row's cards in any order."""
    sizes = [ROW_SIZES[row] for row in ROWS]
    for kept in combinations(cards, keep):
        for rows in product(range(3), repeat=keep):
            grown = [list(row) for row in board]
            for card, row in zip(kept, rows):
                grown[row].append(card)
            if all(len(row) <= size for row, size in zip(grown, sizes)):
                yield tuple(grown)


def final_worth(board, opponents, worth, entry, row=1, scoop=3):
    """A finished board's points against each finished opponent's, plus ``worth`` if it
    enters Fantasyland (``entry``: :func:`fantasyland_cards`')."""
    points = sum(pair_points(board, other, row=row, scoop=scoop) for other in opponents)
    return points + (worth if fantasyland_cards(board, entry) else 0)


def best_last_street(board, cards, keep, opponents, worth, entry):
    """The most any placement of the last street's ``cards`` can be worth (:func:`final_worth`)."""
    return max(final_worth(done, opponents, worth, entry) for done in completions(board, cards, keep))


def exact_values(board, cards, keep, opponents, unseen, draw, worth, entry):
    """Every placement of ``cards`` on ``board`` with its exact worth against finished
    ``opponents``: a placement that finishes the board, its :func:`final_worth`; one that
    leaves one street, the mean over every ``draw`` of the ``unseen`` cards of the best placement of
    them.  Returns ``{placed board as sorted rows: worth}``."""
    values = {}
    for placed in completions(board, cards, keep):
        key = tuple(tuple(sorted(row)) for row in placed)
        if sum(len(row) for row in placed) == 13:
            values[key] = final_worth(placed, opponents, worth, entry)
            continue
        deals = list(combinations(unseen, draw))
        values[key] = sum(best_last_street(placed, deal, keep, opponents, worth, entry)
                          for deal in deals) / len(deals)
    return values


def best_reply(board, cards, keep, others, worth, entry):
    """The board the last to act makes of its last street's ``cards``: the completion worth
    most to it (:func:`final_worth`) against the ``others``' finished boards."""
    return max(completions(board, cards, keep), key=lambda done: final_worth(done, others, worth, entry))


def exact_reply_values(board, cards, keep, theirs, unseen, draw, worth, entry):
    """Every placement of the last street's ``cards`` on ``board`` with its exact worth against
    one opponent whose board ``theirs`` has its last street to play after it: the mean over
    every ``draw`` of the ``unseen`` cards of the placement's :func:`final_worth` against the
    opponent's :func:`best_reply` to it.  Returns ``{placed board as sorted rows: worth}``."""
    deals = list(combinations(unseen, draw))
    values = {}
    for placed in completions(board, cards, keep):
        key = tuple(tuple(sorted(row)) for row in placed)
        values[key] = sum(final_worth(placed, [best_reply(theirs, deal, keep, [placed], worth, entry)],
                                      worth, entry) for deal in deals) / len(deals)
    return values

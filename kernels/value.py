"""What a setting is worth to a policy: EV tables, outcome values and the value of a strength triple.

The ``table`` and ``fitted`` policies value a setting by its expected units against a field
whose rows have known strength distributions (:func:`ev_tables`, :func:`outcome_values`);
``balanced`` and ``houseway`` by a sum of per-row points.  :func:`value` computes either from
a strength triple, the one expression the frontier scan (:mod:`sapsam.kernels.policies`) and the
search (:mod:`sapsam.kernels.search`) share, so that both give the same numbers bit for bit.
:func:`monotone` says when a policy's value never falls as a row gets stronger, which is what
lets the search skip most settings.
"""

import numpy as np
from numba import prange

from sapsam.kernels import settle as S
from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import CATEGORY_OF, N_STRENGTHS, THREE_CARD
from sapsam.kernels.lowball import N_LOW
from sapsam.kernels.removal import row_entry, sweep_chances

TABLE_SHAPE = (3, N_STRENGTHS + 1, 4)  # an EV table, see ev_tables
WIN, TIE, LOSS, GAIN = range(4)  # its columns
SURRENDER_RATE = (0, N_STRENGTHS, 0)  # where ev_tables keeps the field's surrender rate
# where ev_tables keeps the chance that a player of the field sweeps another (its rows taken as
# independent): what an opponent's home run over the rest of the table is valued at
FIELD_SWEEP = (1, N_STRENGTHS, 0)
N_VALUES = 27  # outcome values, see outcome_values
POINTS, CLOSED_FORM, ROWS_ONLY, SUMMED = range(4)  # kinds of value, see value_kind
# a kind of value plus REMOVED: the same, over rows corrected for the hand's cards
# (sapsam.kernels.removal, the hand prepared); see value
REMOVED = 4
_FRONT_CLASSES = np.flatnonzero(THREE_CARD)  # each row's strengths in increasing order
_FIVE_CLASSES = np.flatnonzero(~THREE_CARD)
_LOW_CLASSES = np.arange(N_LOW)  # a low middle's strengths (sapsam.kernels.lowball)


@njit(cache=True)
def ev_tables(row_mass, params, royalty, surrender_rate):
    """Per-row EV tables from the field's row strength distributions.

    Parameters
    ----------
    row_mass : ndarray(float64), shape (3, N_STRENGTHS)
        Probability of each strength in each row of an opponent's setting (among opponents
        who set their hands).
    surrender_rate : float
        Share of the field that surrenders (kept at ``tables[0, N_STRENGTHS, 0]``): a
        surrendering opponent pays the surrender cost to a setting, and nothing to another
        surrender.

    Returns
    -------
    ndarray(float64), shape :data:`TABLE_SHAPE` = (3, N_STRENGTHS + 1, 4)
        For row k and own strength s, ``tables[k, s]`` holds [WIN] P(opponent's row weaker),
        [TIE] P(equal), [LOSS] P(stronger) and [GAIN] the expected units of the row alone:
        the row's payment when it wins, less the expected payment to an opponent who beats
        it, plus the royalty s earns and less the opponent's expected royalty (``always``
        mode).  Everything else a comparison pays depends on all three rows (see
        :func:`outcome_values`).  One row of four numbers per lookup keeps a setting's EV
        to three cache lines.  The spare slots keep the field's surrender rate
        (:data:`SURRENDER_RATE`) and sweep chance (:data:`FIELD_SWEEP`).
    """
    out = np.zeros(TABLE_SHAPE)
    out[SURRENDER_RATE] = surrender_rate
    sweep = 1.0
    pay = np.empty(N_STRENGTHS)
    earned = np.zeros(N_STRENGTHS)
    for k in range(3):
        mean_royalty = 0.0
        for s in range(N_STRENGTHS):
            pay[s], earned[s] = S.row_pay(params, royalty[k, CATEGORY_OF[s]])
            mean_royalty += row_mass[k, s] * earned[s]
        below_mass = 0.0
        for s in range(N_STRENGTHS):
            out[k, s, WIN] = below_mass
            out[k, s, TIE] = row_mass[k, s]
            out[k, s, LOSS] = max(0.0, 1.0 - below_mass - row_mass[k, s])
            below_mass += row_mass[k, s]
        wins = 0.0
        for s in range(N_STRENGTHS):
            wins += row_mass[k, s] * out[k, s, WIN]
        sweep *= wins
        above_pay = 0.0
        for s in range(N_STRENGTHS - 1, -1, -1):
            out[k, s, GAIN] = out[k, s, WIN] * pay[s] - above_pay + earned[s] - mean_royalty
            above_pay += row_mass[k, s] * pay[s]
    out[FIELD_SWEEP] = sweep
    return out


@njit(cache=True)
def outcome_values(params, out):
    """What a comparison pays beyond the rows' own units (:data:`GAIN`), per outcome.

    Fills ``out`` (:data:`N_VALUES`,): at ``9 a + 3 b + c`` the units for front, middle and
    back outcomes a, b, c (0 win, 1 tie, 2 loss): the base's extras, the sweep bonus and the
    overall point.  Each depends only on wins minus losses, computed the same way for equal
    differences, so equal differences get identical values (:func:`_summed_ev` relies on it).
    """
    base = params[S.P_BASE]
    for a in range(3):
        for b in range(3):
            for c in range(3):
                wins = (a == 0) + (b == 0) + (c == 0)
                losses = (a == 2) + (b == 2) + (c == 2)
                v = 0.0
                if base == S.BASE_TWO_FOUR:
                    v += 1.0 if wins > losses else (-1.0 if losses > wins else 0.0)
                elif base == S.BASE_ONE_SIX:
                    v += 3.0 if wins == 3 else (-3.0 if losses == 3 else 0.0)
                elif base == S.BASE_TWO_OF_THREE:
                    if wins == 3:
                        v += params[S.P_SWEEP_UNITS]
                    elif losses == 3:
                        v -= params[S.P_SWEEP_UNITS]
                    elif wins > losses:
                        v += params[S.P_MAJORITY_UNITS]
                    elif losses > wins:
                        v -= params[S.P_MAJORITY_UNITS]
                if wins == 3:
                    v += params[S.P_SWEEP_BONUS]
                elif losses == 3:
                    v -= params[S.P_SWEEP_BONUS]
                if params[S.P_OVERALL_POINT]:
                    v += 1.0 if wins > losses else (-1.0 if losses > wins else 0.0)
                out[9 * a + 3 * b + c] = v


@njit(cache=True, inline="always")
def _dot(b0, b1, b2, values, o):
    """Outcome probabilities (win, tie, loss) against the values at ``o .. o + 2``."""
    return b0 * values[o] + b1 * values[o + 1] + b2 * values[o + 2]


@njit(cache=True, inline="always")
def _power(x, n):
    """``x ** n`` for a small whole ``n`` (a float power call costs more than the EV)."""
    y = 1.0
    for _ in range(n):
        y *= x
    return y


@njit(cache=True, inline="always")
def _closed_form_ev(s0, s1, s2, tables, params, opponents):
    """EV in the pool, single-winner and match games, which need no outcome sum.

    Pool: each row's stake goes to its best hand, shared on ties (a tie counted as half a
    win).  Single winner: the whole table to the player who wins two rows of three against
    every opponent.  Match: a point per row beaten by no one, and one more for all three at a
    table of ``P_MATCH_SWEEP_FROM`` (rows taken as independent, as everywhere here).
    """
    return _closed_form(tables[0, s0, WIN], tables[0, s0, TIE], tables[1, s1, WIN],
                        tables[1, s1, TIE], tables[2, s2, WIN], tables[2, s2, TIE], params, opponents)


@njit(cache=True, inline="always")
def _closed_form(f0, f1, m0, m1, b0, b1, params, opponents):
    """:func:`_closed_form_ev` from each row's win and tie chances."""
    game = params[S.P_GAME]
    if game == S.GAME_MATCH:
        points = _power(f0, opponents) + _power(m0, opponents) + _power(b0, opponents)
        if opponents + 1 >= params[S.P_MATCH_SWEEP_FROM]:
            points += _power(f0 * m0 * b0, opponents)
        return points
    stake = params[S.P_POOL_STAKE]
    if game == S.GAME_POOL:
        share = (_power(f0 + 0.5 * f1, opponents) + _power(m0 + 0.5 * m1, opponents)
                 + _power(b0 + 0.5 * b1, opponents))
        return share * stake * (opponents + 1) / 3.0
    two_of_three = f0 * m0 + f0 * b0 + m0 * b0 - 2.0 * f0 * m0 * b0
    return _power(two_of_three, opponents) * (opponents + 1)


@njit(cache=True, _nrt=False)
def removal_value(kind, s0, s1, s2, tables, removal, scratch, values, params, opponents):
    """:func:`value` of a strength triple for the hand :func:`sapsam.kernels.removal.prepare` was
    given: the same expressions over the corrected rows (``kind`` CLOSED_FORM, ROWS_ONLY or
    SUMMED, as :func:`value_kind` says)."""
    f0, f1, f2, fg = row_entry(0, s0, tables, removal, scratch)
    m0, m1, m2, mg = row_entry(1, s1, tables, removal, scratch)
    b0, b1, b2, bg = row_entry(2, s2, tables, removal, scratch)
    if kind == CLOSED_FORM:
        return _closed_form(f0, f1, m0, m1, b0, b1, params, opponents)
    if kind == ROWS_ONLY:
        return (fg + mg + bg) * opponents
    home, field = home_run_terms(params, tables, opponents)
    swept, lost = sweep_chances(removal, f0, m0, b0, f2, m2, b2)
    return _summed(f0, f1, f2, m0, m1, m2, b0, b1, b2, fg + mg + bg, values,
                   params[S.P_SCOOP_MULT], home, field, opponents, swept, lost)


# what value() calls for these games: few rulesets play them, and inlined into value() at the
# search's call sites the closed form cost a first run about 2 s of compile
_closed_form_called = njit(cache=True)(_closed_form_ev.py_func)


@njit(cache=True, inline="always")
def home_run_terms(params, tables, opponents):
    """What :func:`_summed` takes of a home run (sweeping every opponent, at a table of three
    or more): (the multiplier it adds to a sweep's, the chance that an opponent sweeps the
    other ``opponents - 1`` players of the field); (0, 0) where none is paid."""
    home = params[S.P_HOME_RUN_MULT] - params[S.P_SCOOP_MULT] if opponents >= 2 else 0
    if home == 0:
        return 0.0, 0.0
    return float(home), _power(tables[FIELD_SWEEP], opponents - 1)


@njit(cache=True, inline="always")
def _summed_ev(s0, s1, s2, tables, values, scoop, home, field, opponents):
    """EV of the games that sum over outcomes (all but pool and single winner); ``scoop`` is
    the sweep multiplier; ``s0, s1, s2`` the setting's strengths (scalars: a view of a
    frontier row per member costs reference counting).

    The hot loop of every table policy: scalar loads and the 27-outcome sum written out.  An
    outcome's value depends only on wins minus losses (:func:`outcome_values`), so the back's
    three outcomes are dotted once per net result of front and middle (five dots, not nine);
    the sum is the same, bit for bit, as the plain 27 terms.  Loading a member's three table
    rows costs about as much as the sum, so every frontier member is valued (bounds to skip
    some cost as much as they save).  ``home`` and ``field``: :func:`home_run_terms`.
    """
    f0, m0, b0 = tables[0, s0, WIN], tables[1, s1, WIN], tables[2, s2, WIN]
    f2, m2, b2 = tables[0, s0, LOSS], tables[1, s1, LOSS], tables[2, s2, LOSS]
    return _summed(f0, tables[0, s0, TIE], f2, m0, tables[1, s1, TIE], m2, b0, tables[2, s2, TIE], b2,
                   tables[0, s0, GAIN] + tables[1, s1, GAIN] + tables[2, s2, GAIN],
                   values, scoop, home, field, opponents, f0 * m0 * b0, f2 * m2 * b2)


@njit(cache=True, inline="always")
def _summed(f0, f1, f2, m0, m1, m2, b0, b1, b2, gain, values, scoop, home, field, opponents, swept,
            lost):
    """:func:`_summed_ev` from each row's (win, tie, loss) chances and the rows' summed
    :data:`GAIN` (also what :mod:`sapsam.kernels.removal`'s corrected rows are valued by), and
    the chances that the setting sweeps an opponent and is swept by one: ``swept`` and
    ``lost``, the products of the rows' chances for rows drawn apart, or what the field's
    copula says (:func:`sapsam.kernels.removal.sweep_chances`).  The outcome sum takes the
    rows apart; the copula's sweeps replace its own where a sweep pays more than winning two
    rows and tying one (``values[0] - values[1]``; a swept setting likewise), so that the value
    still rises with every row (:func:`monotone`).

    A sweep multiplies what the rows paid (3 units, and the gain if positive) by ``scoop``;
    sweeping every opponent, a home run, by ``scoop + home`` instead.  The setting sweeps each
    opponent alone, so all ``opponents`` at once with the ``opponents``-th power of that chance,
    and the home run adds ``home`` times the rows' 3 units to each pair; an opponent's home run
    over this setting and the rest of the table (``field``: the chance that it sweeps those
    others) costs as much.  Against the exact settlement of independent rows, 3 units is what
    a home run adds (tests/test_policies.py); with the gain too, as for the sweep, it adds
    half as much again."""
    if scoop > 1:
        gain += (swept - lost) * (scoop - 1) * (3.0 + max(0.0, gain))
    if home != 0.0:
        gain += home * 3.0 * (_power(swept, opponents) - lost * field)
    # the back's dot when front and middle net +2, +1, 0, -1, -2 (values at 9 a + 3 b + c)
    up2 = _dot(b0, b1, b2, values, 0)
    up1 = _dot(b0, b1, b2, values, 3)
    even = _dot(b0, b1, b2, values, 6)
    down1 = _dot(b0, b1, b2, values, 15)
    down2 = _dot(b0, b1, b2, values, 24)
    extras = (f0 * (m0 * up2 + m1 * up1 + m2 * even)
              + f1 * (m0 * up1 + m1 * even + m2 * down1)
              + f2 * (m0 * even + m1 * down1 + m2 * down2))
    extras += ((swept - f0 * m0 * b0) * (values[0] - values[1])
               + (lost - f2 * m2 * b2) * (values[26] - values[25]))
    return (gain + extras) * opponents


@njit(cache=True)
def setting_ev(rows, tables, values, params, opponents):
    """Expected units of a setting against ``opponents`` independent players of the field;
    ``values`` from :func:`outcome_values`."""
    game = params[S.P_GAME]
    if game == S.GAME_POOL or game == S.GAME_SINGLE_WINNER or game == S.GAME_MATCH:
        return _closed_form_ev(rows[0], rows[1], rows[2], tables, params, opponents)
    home, field = home_run_terms(params, tables, opponents)
    return _summed_ev(rows[0], rows[1], rows[2], tables, values, params[S.P_SCOOP_MULT], home, field,
                      opponents)


@njit(cache=True)
def _gain(rows, i, tables):
    """Row gain of frontier member ``i``: the units its rows earn on their own."""
    return (tables[0, rows[i, 0], GAIN] + tables[1, rows[i, 1], GAIN]
            + tables[2, rows[i, 2], GAIN])



def _frontier_values_body(rows, tables, values, params, opponents, out):
    for i in prange(rows.shape[0]):
        out[i] = setting_ev(rows[i], tables, values, params, opponents)


_frontier_values = njit(cache=True, parallel=True)(_frontier_values_body)


def frontier_values(rows, tables, values, params, opponents):
    """:func:`setting_ev` of many settings (``rows`` int16 (n, 3)), in parallel: float64 (n,)."""
    out = np.empty(rows.shape[0])
    _frontier_values(rows, tables, values, params, opponents, out)
    return out



@njit(cache=True)
def value_kind(points_policy, params, values):
    """How :func:`value` computes a setting's value: ``POINTS`` for a points policy
    (``balanced``, ``houseway``), else by the game: ``CLOSED_FORM`` for pool, single winner and match,
    ``ROWS_ONLY`` when nothing but the rows' own units is paid (no outcome extras, no sweep
    multiplier), ``SUMMED`` otherwise; ``values`` from :func:`outcome_values`."""
    game = params[S.P_GAME]
    if points_policy:
        return POINTS
    if game == S.GAME_POOL or game == S.GAME_SINGLE_WINNER or game == S.GAME_MATCH:
        return CLOSED_FORM
    if params[S.P_SCOOP_MULT] <= 1 and params[S.P_HOME_RUN_MULT] <= 1 and not values.any():
        return ROWS_ONLY  # every outcome term of SUMMED would be +0.0: the same value, bit for bit
    return SUMMED


@njit(cache=True, _nrt=False, forceinline=True)
def value(kind, s0, s1, s2, tables, values, points, removal, prepared, params, opponents):
    """The value of the strength triple (front ``s0``, middle ``s1``, back ``s2``) to a policy.

    ``POINTS``: the sum of the rows' points.  The other kinds: expected units against
    ``opponents`` players of the field (``tables`` from :func:`ev_tables`); a kind plus
    :data:`REMOVED`, against the field less the hand's cards (``removal``, the policy's
    :class:`sapsam.kernels.removal.Removal`, and ``prepared``, the hand's
    :func:`sapsam.kernels.removal.prepare`; ignored by the other kinds).  Unsigned
    strengths index without Numba's negative-index fix-up (faster in the hot loops).

    Compiled once on its own, without reference counting (``_nrt=False``: it only reads its
    arrays), and inlined by LLVM (``forceinline``).  Inlined by Numba instead
    (``inline="always"``), it was typed and lowered again at each of the search's call
    sites (3-5 s of a first run's compile) and counted references to its four arrays
    at every call, atomic operations Numba's pruner left in the hot loops.
    """
    if kind == POINTS:
        return points[0, s0] + points[1, s1] + points[2, s2]
    if kind > REMOVED:
        return removal_value(kind - REMOVED, s0, s1, s2, tables, removal, prepared, values, params,
                             opponents)
    if kind == CLOSED_FORM:
        return _closed_form_called(s0, s1, s2, tables, params, opponents)
    if kind == ROWS_ONLY:
        return (tables[0, s0, GAIN] + tables[1, s1, GAIN] + tables[2, s2, GAIN]) * opponents
    home, field = home_run_terms(params, tables, opponents)
    return _summed_ev(s0, s1, s2, tables, values, params[S.P_SCOOP_MULT], home, field, opponents)


def _rises(column, classes, tolerance):
    """Whether ``column`` never falls along ``classes`` by more than ``tolerance`` (relative)."""
    a = column[classes[:-1]]
    return not np.any(column[classes[1:]] < a - tolerance * (1.0 + np.abs(a)))


def monotone(kind, tables, values, points, params):
    """Whether the value of a setting never falls when one of its rows gets stronger, among
    the strengths that row can have (three-card ones in front, five-card ones behind), up to
    rounding (a relative 1e-12).

    Points: each row's points rise.  EV tables: each row's win probability rises, its loss
    probability falls (so its outcome rises in distribution), its own units (``GAIN``) rise,
    and so does the pool's share; the outcome values rise with each row's outcome; a sweep
    multiplier is at most 2 (a larger one could make a row's gain cost the sweep more than it
    adds); and a home run pays no less than a sweep.  What the kernels' search relies on
    (:mod:`sapsam.kernels.search`).  Plain NumPy: it runs once per policy and ruleset, and
    compiling it would cost a first run a second.
    """
    tolerance = 1e-12
    for k in range(3):
        classes = _FRONT_CLASSES if k == 0 else _FIVE_CLASSES
        if k == 1 and params[S.P_LOW_MIDDLE]:
            classes = _LOW_CLASSES
        if kind == POINTS:
            if not _rises(points[k], classes, tolerance):
                return False
            continue
        if not (_rises(tables[k, :, WIN], classes, tolerance)
                and _rises(-tables[k, :, LOSS], classes, tolerance)
                and _rises(tables[k, :, GAIN], classes, tolerance)
                and _rises(tables[k, :, WIN] + 0.5 * tables[k, :, TIE], classes, tolerance)):
            return False
    if kind != SUMMED:
        return True
    if params[S.P_SCOOP_MULT] > 2 or params[S.P_HOME_RUN_MULT] < params[S.P_SCOOP_MULT] != 1:
        return False
    for a in range(3):  # outcomes 0 win, 1 tie, 2 loss: a better outcome of any row pays no less
        for b in range(3):
            for c in range(3):
                here = values[9 * a + 3 * b + c]
                if ((a > 0 and values[9 * (a - 1) + 3 * b + c] < here)
                        or (b > 0 and values[9 * a + 3 * (b - 1) + c] < here)
                        or (c > 0 and values[9 * a + 3 * b + c - 1] < here)):
                    return False
    return True

"""The Python API's checks of its plain arguments: a count, a seed, a fraction, a flag, names.

The command line's options are typed by click; a Python caller can pass anything, and a
``"100"`` for ``samples`` would otherwise fail deep inside with a ``TypeError`` about ``<``.
Each check returns the value as the computation takes it or raises ``ValueError`` naming the
argument, what it must be and what was given, as the API promises for bad input.

A message that names what the caller gave (an option such as ``--bank``) names it as the caller
wrote it: :func:`option` gives the command line's ``--bank`` and, within a call of a function
decorated :func:`api_function`, the Python keyword ``bank=``.
"""

import functools
import numbers
from contextvars import ContextVar

_IN_API = ContextVar("sapsam_in_api_call", default=False)


def api_function(function):
    """Decorate a function of the Python API: within its call, :func:`option` names keywords."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        token = _IN_API.set(True)
        try:
            return function(*args, **kwargs)
        finally:
            _IN_API.reset(token)

    return call


def in_api_call():
    """Whether a function of the Python API (:func:`api_function`) is running."""
    return _IN_API.get()


def option(name, value=None):
    """A message's name for the option ``name`` as the caller gave it: ``--name`` on the command
    line (``_`` as ``-``), in a Python API call (:func:`api_function`) the keyword ``name=``, with
    ``value`` where given (``option("fresh", True)``: ``--fresh`` or ``fresh=True``)."""
    if not in_api_call():
        return f"--{name.replace('_', '-')}"
    return f"{name}=" if value is None else f"{name}={value!r}"


def resume_or_fresh(resume, fresh, out=True, flag=""):
    """Refuse ``resume`` with ``fresh``, and either without ``out``, where the checkpoint is kept;
    ``flag`` prefixes the names as the caller wrote them (``"--"``: the command line's options)."""
    if resume and fresh:
        raise ValueError(f"{flag}resume continues a checkpoint and {flag}fresh discards it: give one")
    if (resume or fresh) and not out:
        raise ValueError(f"{flag}resume and {flag}fresh need {flag}out: the checkpoint is kept beside it")


def whole(name, value, least=None):
    """``value`` as an int: a whole number (numpy's too, not a bool), at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{name} must be at least {least}, got {value!r}")
    return int(value)


def counts(**given):
    """Each ``name=(value, least)`` as :func:`whole` checks it, in the order given: a tuple."""
    return tuple(whole(name, value, least) for name, (value, least) in given.items())


def maybe_whole(name, value, least=None):
    """:func:`whole`, or None where None is given (a default to be filled in)."""
    return None if value is None else whole(name, value, least)


def real(name, value):
    """``value`` as a float: a real number (not a bool), finite."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != value or abs(value) == float("inf"):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def fraction(name, value):
    """``value`` as a float from 0 up to (not including) 1, such as a commission."""
    value = real(name, value)
    if not 0 <= value < 1:
        raise ValueError(f"{name} must be a fraction from 0 up to 1, such as 0.05, got {value!r}")
    return value


def flag(name, value):
    """``value`` as a bool: True or False (numpy's too), not a word or a number."""
    numpy_bool = type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")  # numpy 2, 1
    if not (isinstance(value, bool) or numpy_bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def name_list(name, value):
    """A name or a list of names (rulesets, seats' policies) as a tuple; a ``ValueError`` for
    none or for anything else."""
    names = (value,) if isinstance(value, str) else tuple(value) if hasattr(value, "__iter__") else ()
    if not names or not all(isinstance(n, str) for n in names):
        raise ValueError(f"{name}: a name or a list of names, got {value!r}")
    return names

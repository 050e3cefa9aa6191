"""What every route of the web app uses to answer: bad input as a 400 naming its field, the
computing gate.  The core's routes (:mod:`sapsam.web.app`) and every game's
router use these, so that all answer alike."""

from contextlib import contextmanager

from sapsam.game.ruleset_files import ruleset_ids


class BadInput(Exception):
    """Input that only the game could check, with the field it came in."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field, self.message = field, message


@contextmanager
def checking(field):
    """Report a ``ValueError``/``TypeError`` raised inside as bad input in ``field``."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        raise BadInput(field, " ".join(str(exc).split())) from None


def named(field, rid, every=False):
    """A named ruleset's id, checked (a web request never reads a file by its path)."""
    ids = ruleset_ids()
    if rid in ids or (every and rid == "all"):
        return rid
    raise BadInput(field, f"unknown ruleset {rid!r}: use one of {', '.join(ids)}"
                          + (" or 'all'" if every else ""))


def gate(request):
    """The semaphore that bounds the analyses computing at once (the app's ``computing``):
    ``with gate(request): ...``."""
    return request.app.state.gate

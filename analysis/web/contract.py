"""The contract of the web API: the body of every answer that is not a route's own success (a
400, 404, 413, 422, 429 or 500), and :func:`answers`, each route's ``responses=``, so that the
OpenAPI document (``/openapi.json``, ``/docs``) lists every status a route can answer, each with
the model of the body it is sent with; and :func:`handle_errors`, which makes every error of the
app one of these bodies.  The core's routes (:mod:`sapsam.web.app`) and every game's router use
it."""

from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.routing import Match

from sapsam.base.files import finite
from sapsam.web.checks import BadInput
from sapsam.web.requests import JOB_KINDS, MAX_BODY


class Answer(BaseModel):
    """A body the API sends: exactly these fields, no others."""

    model_config = ConfigDict(extra="forbid")


class Error(Answer):
    loc: list[str | int] = Field(description='Where: "body" (or "path"), then the field, e.g. '
                                             '["body", "hand"]; a list\'s index is a number.')
    type: str = Field(description='What kind of error, e.g. "value_error" (a 400), "int_type", '
                                  '"less_than_equal", "missing", "extra_forbidden" (a 422), '
                                  '"too_large" (a 413).')
    msg: str = Field(description="What is wrong and what is allowed.")


class Errors(Answer):
    """Bad input, one error for each field at fault."""

    detail: list[Error]


class Message(Answer):
    """An answer in one line: what was not found, why a job waits no more, a bug (no traceback)."""

    detail: str


class Chart(Answer):
    name: str
    url: str


ANSWERS = {
    400: (Errors, "Input only the game can check (cards, settings, a ruleset's id, counts that "
                  "must agree): the field it came in and what is allowed."),
    404: (Message, "Not found: the message names what is not, and what there is."),
    413: (Errors, f"The request body is over {MAX_BODY // 1024} KiB (refused before it is read whole)."),
    422: (Errors, "The request does not fit the schema: a field missing, unknown, of the wrong JSON "
                  "type (no booleans or strings for numbers) or out of bounds; or the body is not "
                  "JSON."),
    429: (Message, "The job queue is full: try again when a job is done."),
    500: (Message, "A bug: the exception's name, never a traceback."),
}

FILE = {"description": "The file, its media type from its name: PNG, CSV, JSON, Markdown, ...",
        "content": {"application/json": {"schema": {}},  # a job's JSON file: what it wrote
                    "*/*": {"schema": {"type": "string", "format": "binary"}}}}
PNG = {"description": "The figure, a PNG image.",
       "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}}


def answers(*statuses, ok=None):
    """A route's ``responses=``: the answers of ``statuses`` (of :data:`ANSWERS`), with the 413
    and the 500 that any route can answer; ``ok``, its success as ``(status, model,
    description)``, where the route documents its body's model."""
    out = {status: {"model": ANSWERS[status][0], "description": ANSWERS[status][1]}
           for status in sorted({*statuses, 413, 500})}
    if ok is not None:
        status, model, description = ok
        out[status] = {"model": model, "description": description}
    return out


def handle_errors(app):
    """Answer every error of ``app`` with the body its status documents: bad input (400) and a
    request off its schema (422) as :class:`Errors` naming the field, a bug (500) in one line."""

    @app.exception_handler(BadInput)
    async def bad_input(request, exc):
        return JSONResponse({"detail": [{"loc": ["body", exc.field], "type": "value_error",
                                         "msg": exc.message}]}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(request, exc):
        return JSONResponse({"detail": finite([
            {"loc": _loc(e), "type": e["type"], "msg": e["msg"]} for e in exc.errors()])},
            status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request, exc):
        if exc.status_code == 400:  # FastAPI could not read the body (not UTF-8): not JSON
            return JSONResponse({"detail": [{"loc": ["body"], "type": "json_invalid", "msg": (
                "the body is not JSON: JSON is UTF-8 text")}]}, status_code=422)
        if exc.status_code == 405 and (allowed := allowed_methods(request)):  # Starlette's own Allow
            exc = HTTPException(405, exc.detail, headers={"Allow": ", ".join(allowed)})  # names one route
        return await http_exception_handler(request, exc)  # 404, 405, 429: {"detail": "..."}

    @app.exception_handler(Exception)
    async def internal(request, exc):  # a bug: one line, no traceback to the client
        return JSONResponse({"detail": f"internal error: {type(exc).__name__}"}, status_code=500)


def allowed_methods(request):
    """Every method some route of the app answers on ``request``'s path, sorted: a path may
    have a route a method (``/api/jobs/{job_id}``: GET and DELETE).  Empty for a path inside a
    mounted app (its scope is the mount's): its own 405 stands."""
    return [method for method in ("DELETE", "GET", "PATCH", "POST", "PUT")
            if any(route.matches({**request.scope, "method": method})[0] == Match.FULL
                   for route in request.app.router.routes)]


def _loc(error):
    """Where an error is, down to the field: a job's unknown ``kind`` too."""
    loc = list(error["loc"])
    if len(loc) > 2 and loc[0] == "body" and loc[1] in JOB_KINDS:  # the job's kind, put in by pydantic
        del loc[1]
    if error["type"].startswith("union_tag_"):
        loc.append(str(error.get("ctx", {}).get("discriminator", "kind")).strip("'"))
    return loc

"""The web app of ``sapsam serve``: the page, and a REST API under ``/api`` that answers with
exactly the JSON of the command line's ``--json`` for the same request (the same seed gives
the same numbers), documented at ``/docs``.

Bad input is a 400 (what only the game can check: cards, settings, ruleset ids) or a 422 (the
shape and bounds of a body, :mod:`analysis.web.requests`), each with a JSON body naming the
field and what is allowed; never a traceback.  Everything the page loads is served from the
package: no CDN, no internet.
"""

import math
import tempfile
import threading
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from analysis.game.cards import parse_hand
from analysis.game.ruleset_files import load_ruleset, ruleset_ids
from analysis.game.score import score_showdown
from analysis.measure.best import best_setting
from analysis.measure.match import check_scores, match_rules, match_setting
from analysis.measure.review import houseway_review, played_setting, review_of
from analysis.output.answers import rules_answer, score_answer, settings_answer
from analysis.strategy.registry import make_policy
from analysis.web import requests as rq
from analysis.web.jobs import Jobs, QueueFull
from analysis.web.limits import BodyLimit
from analysis.web.work import run_job

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
# the shipped strategy charts: packed into the wheel beside this file, or the checkout's results
CHARTS = next((p for p in (HERE / "charts", HERE.parents[1] / "results" / "charts") if p.is_dir()),
              None)


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


def _ofc_rules(rid):
    """A named OFC ruleset, checked (never a file by its path)."""
    from analysis.game.ofc import load_ofc_rules, ofc_rules_ids

    if rid not in ofc_rules_ids():
        raise BadInput("rules", f"unknown ruleset {rid!r}: use one of {', '.join(ofc_rules_ids())}")
    return load_ofc_rules(rid)


def _finite(value):
    """JSON has no NaN: an undefined figure (one sample's spread) is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


@lru_cache(maxsize=64)
def _policy(name, rid, players):
    """An opponents' policy, made once per server (the EV tables of a fit, a house way)."""
    return make_policy(name, rid, players)


def create_app(job_root=None, running=1, queued=8, computing=4):
    """The app.  Jobs' files go under ``job_root`` (a temporary folder removed at shutdown
    by default); ``running`` jobs run at once with up to ``queued`` waiting; at most
    ``computing`` analyses (``best``, ``review``, a running job) compute at once, the others
    wait: one at a time where Numba's threading layer is not thread-safe."""
    scratch = None if job_root else tempfile.TemporaryDirectory(prefix="sapsam-jobs-")
    gate = threading.BoundedSemaphore(computing if _parallel_safe() else 1)

    def gated(job):
        with gate:
            return run_job(job)

    jobs = Jobs(job_root or scratch.name, gated, running=running, queued=queued)

    @asynccontextmanager
    async def lifespan(app):
        yield
        jobs.shutdown()
        if scratch is not None:
            scratch.cleanup()

    app = FastAPI(title="sapsam", summary="Strategy analyser for 13-card Chinese Poker",
                  version=_version(), docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.jobs = jobs
    app.add_middleware(BodyLimit, limit=rq.MAX_BODY)

    @app.exception_handler(BadInput)
    async def bad_input(request, exc):
        return JSONResponse({"detail": [{"loc": ["body", exc.field], "type": "value_error",
                                         "msg": exc.message}]}, status_code=400)

    @app.exception_handler(Exception)
    async def internal(request, exc):  # a bug: one line, no traceback to the client
        return JSONResponse({"detail": f"internal error: {type(exc).__name__}"}, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def invalid(request, exc):
        return JSONResponse({"detail": _finite([
            {"loc": _loc(e), "type": e["type"], "msg": e["msg"]} for e in exc.errors()])},
            status_code=422)

    # --- one hand ---------------------------------------------------------------------------

    @app.get("/api/rules", summary="Every named ruleset (sapsam rules --json)")
    def rules_list():
        return rules_answer()

    @app.get("/api/rules/{rid}", summary="One ruleset in full (sapsam rules ID --json)")
    def rules_one(rid: str):
        if rid not in ruleset_ids():
            raise HTTPException(404, f"unknown ruleset {rid!r}: use one of {', '.join(ruleset_ids())}")
        return rules_answer(rid)

    @app.post("/api/settings", summary="Legal settings and Pareto frontier (sapsam settings --json)")
    def settings(body: rq.SettingsRequest):
        rules = None if body.rules is None else named("rules", body.rules)
        with checking("hand"):
            parse_hand(body.hand)
            return settings_answer(body.hand, body.wheel_rank, rules)

    @app.post("/api/best", summary="Rank a hand's settings by EV (sapsam best --json); with "
                                   "scores, by the chance of winning a match (--score)")
    def best(body: rq.BestRequest):
        with checking("hand"):
            parse_hand(body.hand)
        rules = load_ruleset(named("rules", body.rules))
        if body.scores is not None:  # a match: by the chance of winning it (best --score)
            if body.players not in (None, len(body.scores)):
                raise BadInput("players", f"{len(body.scores)} scores are {len(body.scores)} "
                                          f"players, not {body.players}")
            for field in ("precision", "other"):
                if getattr(body, field) is not None:
                    raise BadInput(field, f"scores rank a match's settings: give no {field}")
            with checking("scores"):
                check_scores(body.scores, match_rules(rules))  # before the opponents are made
            with gate:
                result = match_setting(body.hand, rules, body.scores, _policy(
                    body.opponents, rules.id, len(body.scores)), body.samples, body.seed)
            answer = result.to_dict()
            answer["candidates"] = answer["candidates"][:body.top]
            return JSONResponse(_finite(answer))
        players = body.players or rules.players
        with gate, checking("hand"):
            result = best_setting(body.hand, rules, players, _policy(body.opponents, rules.id, players),
                                  body.samples, body.seed, precision=body.precision, other=body.other)
        return JSONResponse(_finite(result.to_dict(body.top)))

    @app.post("/api/review", summary="Grade a played setting (sapsam review --json)")
    def review(body: rq.ReviewRequest):
        with checking("hand"):
            parse_hand(body.hand)
        with checking("setting"):
            cards, rows = played_setting(body.hand, body.setting)
        rules = load_ruleset(named("rules", body.rules))
        players = body.players or rules.players
        with gate, checking("hand"):
            result = best_setting(cards, rules, players, _policy(body.opponents, rules.id, players),
                                  body.samples, body.seed, extra=[rows], other=body.other)
        return JSONResponse(_finite(review_of(result, rows)))

    @app.post("/api/houseway",
              summary="Set a hand by the house way, beside the best (sapsam houseway HAND --json)")
    def houseway(body: rq.HandRequest):
        with checking("hand"):
            parse_hand(body.hand)
        rules = load_ruleset(named("rules", body.rules))
        with gate, checking("hand"):
            payload = houseway_review(body.hand, rules, body.players or rules.players,
                                      _policy(body.opponents, rules.id, body.players or rules.players),
                                      body.samples, body.seed, other=body.other)
        return JSONResponse(_finite(payload))

    @app.post("/api/paigow/best",
              summary="Rank four Pai Gow tiles' settings exactly (sapsam paigow best --json)")
    def paigow_best(body: rq.PaiGowRequest):
        from analysis.game.paigow import parse_tiles
        from analysis.output.paigow import best_answer

        with checking("tiles"):
            tiles = parse_tiles(body.tiles)
        return best_answer(tiles, body.banking, body.commission)

    @app.get("/api/paigow/table", summary="Pai Gow's house-edge table (sapsam paigow table --json)")
    def paigow_table():
        from analysis.output.paigow import table_answer

        return table_answer()

    @app.post("/api/ofc/fantasyland",
              summary="The best setting of an OFC Fantasyland hand (sapsam ofc fantasyland --json)")
    def ofc_fantasyland(body: rq.OfcFantasylandRequest):
        from analysis.measure.ofc_fantasyland import best_fantasyland, parse_fantasyland_cards

        rules = _ofc_rules(body.rules)
        with checking("cards"):
            cards = parse_fantasyland_cards(body.cards)
        return best_fantasyland(cards, rules).to_dict()

    @app.post("/api/ofc/place",
              summary="Rank an OFC decision's placements by rollouts (sapsam ofc place --json)")
    def ofc_place(body: rq.OfcPlaceRequest):
        from analysis.game.cards import parse_cards
        from analysis.game.ofc import parse_board
        from analysis.measure.ofc_place import parse_opponent, parse_position, rank_placements

        rules = _ofc_rules(body.rules)
        for field, check in (("board", lambda: parse_board(body.board)), ("hand", lambda: parse_cards(body.hand)),
                             ("dead", lambda: parse_cards(body.dead)),
                             ("opponents", lambda: [parse_opponent(b, i, rules)
                                                    for i, b in enumerate(body.opponents)])):
            with checking(field):
                check()
        with checking("hand"):
            parse_position(rules, body.board, body.hand, body.dead, body.opponents)
        with gate:
            result = rank_placements(rules, body.board, body.hand, body.dead, body.opponents, body.samples,
                                     body.seed)
        return JSONResponse(_finite(result.to_dict()))

    @app.post("/api/score", summary="Settle a showdown (sapsam score --json)")
    def score(body: rq.ScoreRequest):
        rules = named("rules", body.rules)
        seats = len(body.settings)
        for name, given in (("names", body.names), ("chips", body.chips)):
            if given is not None and len(given) != seats:
                raise BadInput(name, f"give one per seat: {seats}, got {len(given)}")
        if body.names is not None and len(set(body.names)) != seats:
            raise BadInput("names", "seat names must differ")
        if body.bank is not None and body.bank > seats:
            raise BadInput("bank", f"the bank is one of the {seats} seats, got seat {body.bank}")
        with checking("settings"):
            result = score_showdown(rules, body.settings,
                                    bank=None if body.bank is None else body.bank - 1,
                                    chips=body.chips, names=body.names)
        return score_answer(result)

    # --- jobs -------------------------------------------------------------------------------

    @app.post("/api/jobs", status_code=202,
              summary="Start long work: simulate, exploit, houseway or chart")
    def job_start(body: rq.JobRequest):
        if body.kind == "simulate":
            for rid in body.rules:
                named("rules", rid)
            if len(set(body.rules)) != len(body.rules):
                raise BadInput("rules", "each ruleset once")
            if len(body.seats) not in (1, body.players):
                raise BadInput("seats", f"give one policy for every seat or {body.players}, "
                                        f"got {len(body.seats)}")
        else:
            named("rules", body.rules, every=body.kind == "chart" and body.chart == "rulesets")
        try:
            job = jobs.submit(body.kind, body.model_dump())
        except QueueFull as exc:
            raise HTTPException(429, str(exc)) from None
        return job.to_dict()

    @app.get("/api/jobs", summary="Every job of this server")
    def job_list():
        return [job.to_dict() for job in jobs.list()]

    def _job(job_id):
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no job {job_id!r}")
        return job

    @app.get("/api/jobs/{job_id}", summary="A job's state, progress and result")
    def job_get(job_id: str):
        return JSONResponse(_finite(_job(job_id).to_dict()))

    @app.get("/api/jobs/{job_id}/files/{name:path}", summary="A file a job wrote")
    def job_file(job_id: str, name: str):
        job = _job(job_id)
        if name not in job.files():
            raise HTTPException(404, f"job {job_id} has no file {name!r}: it has "
                                     f"{', '.join(job.files()) or 'none yet'}")
        return FileResponse(job.folder / name)

    @app.delete("/api/jobs/{job_id}", summary="Cancel a job")
    def job_cancel(job_id: str):
        _job(job_id)
        return jobs.cancel(job_id).to_dict()

    # --- the page, its files and the docs ---------------------------------------------------

    @app.get("/api/charts", summary="The shipped strategy charts")
    def charts():
        if CHARTS is None:
            return []
        return [{"name": p.stem, "url": f"/charts/{p.name}"} for p in sorted(CHARTS.glob("*.png"))]

    if CHARTS is not None:
        app.mount("/charts", StaticFiles(directory=CHARTS), name="charts")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs-static", StaticFiles(directory=_swagger_files()), name="docs-static")

    @app.get("/docs", include_in_schema=False)
    def docs():
        return get_swagger_ui_html(openapi_url=app.openapi_url, title="sapsam API",
                                   swagger_js_url="/docs-static/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-static/swagger-ui.css",
                                   swagger_favicon_url="/docs-static/favicon-32x32.png")

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC / "index.html")

    return app


def _loc(error):
    """Where an error is, down to the field: a job's unknown ``kind`` too."""
    loc = list(error["loc"])
    if error["type"].startswith("union_tag_"):
        loc.append(str(error.get("ctx", {}).get("discriminator", "kind")).strip("'"))
    return loc


def _parallel_safe():
    """Whether Numba's parallel kernels may be called from several threads at once: yes with
    its tbb or omp threading layer, not with workqueue (the last resort where neither loads)."""
    import importlib

    for layer in ("numba.np.ufunc.tbbpool", "numba.np.ufunc.omppool"):
        try:
            importlib.import_module(layer)
            return True
        except ImportError:
            continue
    return False


def _swagger_files():
    import swagger_ui_bundle

    return swagger_ui_bundle.swagger_ui_path


def _version():
    from importlib.metadata import version

    return version("sapsam")

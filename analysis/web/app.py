"""The web app of ``sapsam serve``: the page, and a REST API under ``/api`` that answers with
exactly the JSON of the command line's ``--json`` for the same request (the same seed gives
the same numbers), documented at ``/docs``.

Bad input is a 400 (what only the game can check: cards, settings, ruleset ids) or a 422 (the
shape and bounds of a body, :mod:`sapsam.web.requests`), each with a JSON body naming the
field and what is allowed; never a traceback.  Everything the page loads is served from the
package: no CDN, no internet.
"""

import tempfile
import threading
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from sapsam.base.files import finite
from sapsam.game.cards import parse_hand
from sapsam.game.mechanisms import Game
from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
from sapsam.game.score import score_showdown
from sapsam.games import GAMES
from sapsam.measure.best import best_setting, unseen_cards
from sapsam.measure.match import check_scores, match_rules, match_setting
from sapsam.measure.review import extra_rows, held_out, houseway_review, played_setting, review_of
from sapsam.output.answers import rules_answer, score_answer, settings_answer
from sapsam.strategy.registry import make_policy
from sapsam.web import answer_models as am
from sapsam.web import requests as rq
from sapsam.web.checks import BadInput, checking, named
from sapsam.web.contract import FILE, Chart, answers, handle_errors
from sapsam.web.jobs import Jobs, QueueFull
from sapsam.web.limits import BodyLimit
from sapsam.web.page import assemble
from sapsam.web.work import run_job

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
# the shipped strategy charts: packed into the wheel beside this file, or the checkout's results
CHARTS = next((p for p in (HERE / "charts", HERE.parents[1] / "results" / "charts") if p.is_dir()),
              None)


@lru_cache(maxsize=64)
def _policy(name, rid, players):
    """An opponents' policy, made once per server (the EV tables of a fit, a house way)."""
    return make_policy(name, rid, players)


def _table(rids, players):
    """A job's table: ``players`` checked against each ruleset of ``rids`` (a 400 in
    ``players``), or the first ruleset's own table size where not given."""
    players = players or load_ruleset(rids[0]).players
    with checking("players"):
        for rid in rids:
            load_ruleset(rid).check_players(players)
    return players


def _opponents(name, rules, players):
    """The opponents' policy at a table of ``players``: the table size checked first (a 400 in
    ``players``: criss-cross is heads-up), then the policy (a 400 in ``opponents``: a low middle
    has no house way)."""
    with checking("players"):
        rules.check_players(players)
    with checking("opponents"):
        return _policy(name, rules.id, players)


def _other(hand, rules, other):
    """The player's other hand checked against the ruleset (a 400 in ``other``): criss-cross
    needs one that shares no card with the hand, the other rulesets none."""
    with checking("other"):
        unseen_cards(hand, rules, other)


def create_app(job_root=None, running=1, queued=8, computing=4, work=run_job):
    """The app.  Jobs' files go under ``job_root`` (a temporary folder removed at shutdown
    by default); ``running`` jobs run at once with up to ``queued`` waiting, each done by
    ``work(job)`` (:func:`sapsam.web.work.run_job`); at most ``computing`` analyses (``best``,
    ``review``, a running job) compute at once, the others wait: one at a time where Numba's
    threading layer is not thread-safe."""
    scratch = None if job_root else tempfile.TemporaryDirectory(prefix="sapsam-jobs-")
    gate = threading.BoundedSemaphore(computing if _parallel_safe() else 1)

    def gated(job):
        with gate:
            return work(job)

    jobs = Jobs(job_root or scratch.name, gated, running=running, queued=queued)

    @asynccontextmanager
    async def lifespan(app):
        yield
        jobs.shutdown()
        if scratch is not None:
            scratch.cleanup()

    app = FastAPI(title="sapsam", summary="Strategy analyser for 13-card Chinese Poker",
                  version=_version(), docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.jobs, app.state.gate = jobs, gate
    app.add_middleware(BodyLimit, limit=rq.MAX_BODY)

    handle_errors(app)

    # --- one hand ---------------------------------------------------------------------------

    @app.get("/api/rules", summary="Every named ruleset (sapsam rules --json)",
             responses=answers(ok=(200, am.RulesetList, "Each ruleset's description, by id.")))
    def rules_list():
        return rules_answer()

    @app.get("/api/rules/{rid}", summary="One ruleset in full (sapsam rules ID --json)",
             responses=answers(404, 422, ok=(200, am.RulesetAnswer, "The ruleset in full.")))
    def rules_one(rid: str):
        if rid not in ruleset_ids():
            raise HTTPException(404, f"unknown ruleset {rid!r}: use one of {', '.join(ruleset_ids())}")
        return rules_answer(rid)

    @app.post("/api/settings", summary="Legal settings and Pareto frontier (sapsam settings --json)",
              responses=answers(400, 422, ok=(200, am.SettingsAnswer, "The legal count and the frontier.")))
    def settings(body: rq.SettingsRequest):
        rules = None if body.rules is None else named("rules", body.rules)
        with checking("hand"):
            parse_hand(body.hand)
            return settings_answer(body.hand, body.wheel_rank, rules)

    @app.post("/api/best", summary="Rank a hand's settings by EV (sapsam best --json); with "
                                   "scores, by the chance of winning a match (--score)",
              responses=answers(400, 422, ok=(200, am.BestAnswer | am.MatchBestAnswer,
                                                 "The ranked decisions; with scores, ranked for the match.")))
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
                result = match_setting(body.hand, rules, body.scores, _opponents(
                    body.opponents, rules, len(body.scores)), body.samples, body.seed)
            answer = result.to_dict()
            answer["candidates"] = answer["candidates"][:body.top]
            return JSONResponse(finite(answer))
        players = body.players or rules.players
        _other(body.hand, rules, body.other)
        with gate:
            policy = _opponents(body.opponents, rules, players)
            with checking("hand"):
                result = best_setting(body.hand, rules, players, policy, body.samples, body.seed,
                                      precision=body.precision, other=body.other)
        return JSONResponse(finite(result.to_dict(body.top)))

    @app.post("/api/review", summary="Grade a played setting (sapsam review --json, with held_out)",
              responses=answers(400, 422, ok=(200, am.ReviewAnswer, "The setting's rank and loss.")))
    def review(body: rq.ReviewRequest):
        with checking("hand"):
            parse_hand(body.hand)
        rules = load_ruleset(named("rules", body.rules))
        with checking("setting"):
            cards, rows = played_setting(body.hand, body.setting, rules)
        players = body.players or rules.players
        _other(cards, rules, body.other)
        with gate:
            policy = _opponents(body.opponents, rules, players)
            with checking("hand"):
                result = best_setting(cards, rules, players, policy, body.samples, body.seed,
                                      extra=extra_rows(rows), other=body.other)
                answer = review_of(result, rows)
                if body.held_out:
                    loss, ci = held_out(result, rows, policy, body.samples, body.seed, body.other)
                    answer |= {"held_out_loss": loss, "held_out_ci": ci}
        return JSONResponse(finite(answer))

    @app.post("/api/houseway",
              summary="Set a hand by the house way, beside the best (sapsam houseway HAND --json)",
              responses=answers(400, 422, ok=(200, am.HouseWayAnswer, "The house way's decision, graded.")))
    def houseway(body: rq.HandRequest):
        with checking("hand"):
            parse_hand(body.hand)
        rules = load_ruleset(named("rules", body.rules))
        players = body.players or rules.players
        _other(body.hand, rules, body.other)
        with gate:
            policy = _opponents(body.opponents, rules, players)
            with checking("hand"):
                payload = houseway_review(body.hand, rules, players, policy, body.samples, body.seed,
                                          other=body.other)
        return JSONResponse(finite(payload))

    @app.post("/api/score", summary="Settle a showdown (sapsam score --json)",
              responses=answers(400, 422, ok=(200, am.ScoreAnswer, "The settled showdown.")))
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
        if body.bank is not None and load_ruleset(rules).scoring.game != Game.BANK:
            raise BadInput("bank", f"{rules} is not a bank game: bank applies only to bank rulesets")
        with checking("settings"):
            result = score_showdown(rules, body.settings,
                                    bank=None if body.bank is None else body.bank - 1,
                                    chips=body.chips, names=body.names)
        return score_answer(result)

    # --- jobs -------------------------------------------------------------------------------

    @app.post("/api/jobs", status_code=202,
              summary="Start long work: simulate, exploit, houseway or chart",
              responses=answers(400, 422, 429, ok=(202, am.Job, "The job, queued.")))
    def job_start(body: rq.JobRequest):
        if body.kind == "simulate":
            for rid in body.rules:
                named("rules", rid)
            if len(set(body.rules)) != len(body.rules):
                raise BadInput("rules", "each ruleset once")
            body.players = _table(body.rules, body.players)
            if len(body.seats) not in (1, body.players):
                raise BadInput("seats", f"give one policy for every seat or {body.players}, "
                                        f"got {len(body.seats)}")
        elif body.kind == "chart":
            match = body.chart == "match"
            body.rules = named("rules", body.rules or ("first-to-11" if match else "standard"),
                               every=body.chart == "rulesets")
            if match:
                with checking("rules"):
                    match_rules(load_ruleset(body.rules))
            if body.chart == "rulesets":
                body.players = body.players or 4
            else:
                body.players = _table([body.rules], body.players)
        elif body.kind == "houseway":
            body.players = _table([named("rules", body.rules)], body.players)
        else:
            named("rules", body.rules)
        try:
            job = jobs.submit(body.kind, body.model_dump())
        except QueueFull as exc:
            raise HTTPException(429, str(exc)) from None
        return job.to_dict()

    @app.get("/api/jobs", summary="Every job of this server",
             responses=answers(ok=(200, list[am.Job], "Every job, oldest first.")))
    def job_list():
        return [job.to_dict() for job in jobs.list()]

    def _job(job_id):
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no job {job_id!r}")
        return job

    @app.get("/api/jobs/{job_id}", summary="A job's state, progress and result",
             responses=answers(404, 422, ok=(200, am.Job, "The job.")))
    def job_get(job_id: str):
        return JSONResponse(finite(_job(job_id).to_dict()))

    @app.get("/api/jobs/{job_id}/files/{name:path}", summary="A file a job wrote", response_class=FileResponse,
             responses=answers(404, 422) | {200: FILE})
    def job_file(job_id: str, name: str):
        job = _job(job_id)
        if name not in job.files():
            raise HTTPException(404, f"job {job_id} has no file {name!r}: it has "
                                     f"{', '.join(job.files()) or 'none yet'}")
        return FileResponse(job.folder / name)

    @app.delete("/api/jobs/{job_id}", summary="Cancel a job",
                responses=answers(404, 422, ok=(200, am.Job, "The job: cancelled, or to stop at its "
                                                          "next progress report.")))
    def job_cancel(job_id: str):
        job = jobs.cancel(job_id)
        if job is None:
            raise HTTPException(404, f"no job {job_id!r}")
        return job.to_dict()

    for game in GAMES:  # every other game's routes, from the registry
        app.include_router(game.load("routes"))
    html = assemble({game.name: game.load("page") for game in GAMES})  # and its tab in the page

    # --- the page, its files and the docs ---------------------------------------------------

    @app.get("/api/charts", summary="The shipped strategy charts",
             responses=answers(ok=(200, list[Chart], "Each chart's name and address.")))
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
        return HTMLResponse(html)

    return app


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

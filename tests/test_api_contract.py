"""The web API keeps the contract of its own OpenAPI document.  Requests are generated from the
document itself (schemathesis: property-based, from each route's schemas), and every answer
must be a status the document lists for that path and method (a method it does not list: a
405), with a body of the model it documents, and never a 500; a body off the schema (a boolean
or a string for a number, a float for a whole number, an unknown field) must be refused, not
coerced (schemathesis's ``negative_data_rejection``).

Two passes over every route:

- the document as it is, with bodies that fit it and bodies that break it: random text for a
  hand or a ruleset's id fits the schema, so these mostly test the 400s and 422s;
- the document focused (:data:`OFFER`, :data:`KEEP`): its free-text fields take values the game
  knows (real hands, settings, ruleset ids, job ids), mixed as the schema allows, and counts keep
  small, so that requests also get past the game's checks and compute, on small samples.

The app is the real one, but its jobs are done by a stand-in that takes a few milliseconds (the
real work is tested in test_web.py): generated jobs are accepted (202), fill the queue (429),
are listed, fetched, cancelled and leave a file; no thread outlives the app's lifespan."""

import copy
import threading
import time

import jsonschema
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from sapsam.web.app import create_app
from sapsam.web.contract import Message

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
OTHER = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"  # criss-cross: the player's other hand
SIX_PAIRS = "As Ad Kh Kd Qs Qh Jc Jd Tc Ts 9c 9d 2h"  # a natural
SETTINGS = ["5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts", "9s 9h As | 5d 5c 4h 3s 2d | Kd Qh Jc Ts 2c"]
SEATS = ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d", "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h",
         "Qs Qh 8s | Js Jd Jc Th Tc | Ah Ad Ac Ks Kc", "5h 5c 2h | 6h 6c 4h 4d 3h | 7s 7d 7c 8d 2c",
         "surrender:Ah Ad Ac Ks Kc Qs Qh Js Jd Jc Th Tc 8s"]  # a showdown of any four, one deck
STAND_IN_FILE = "stand-in.json"

# the focused pass: the values a field takes, where its schema allows any text (by name; by
# model and name in OFFER_IN)...
OFFER = {
    "hand": [HAND, SIX_PAIRS],
    "other": [OTHER],
    "setting": SETTINGS,
    "settings": SEATS,
    "names": ["Amy", "Bob", "Cy", "Di"],
    "rules": ["standard", "two-four", "low-middle", "criss-cross", "first-to-11", "pagat-surrender",
              "ofc-pineapple"],
    "cards": ["As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h"],
    "tiles": ["6-6 1-1 4-2 5-3", "teen day gee joon"],
    "rid": ["standard", "criss-cross"],
    "job_id": ["1", "2", "3"],
    "name": [STAND_IN_FILE],
    "high_three": ["chong", "teen"],
}
OFC_RULES = ["ofc-pineapple", "ofc-classic", "standard"]
OFFER_IN = {
    "PlaceRequest": {"hand": ["Ah 2c 7d", "Ah"], "rules": OFC_RULES, "dead": ["", "Kh"],  # later streets
                     "board": ["As Ad | Kc Qc 5d | 9h 9s", "Kd 2h | 8c 8d | Jh Th 9c"],
                     "opponents": ["Kd 2h | 8c 8d | Jh Th 9c", "fantasyland:14"]},
    "FantasylandRequest": {"rules": OFC_RULES},
}
# ...and the bounds it keeps to, where the document allows long work: small samples, and no
# house way to derive (a table of 3, criss-cross, first-to-11: half a minute each)
SMALL = {"samples": {"maximum": 400}, "players": {"enum": [2, 4, None]}}
NO_HOUSE_WAY = {"enum": ["random", "greedy", "balanced", "table", "fitted"]}
KEEP = {
    "BestRequest": {**SMALL, "opponents": NO_HOUSE_WAY},
    "ReviewRequest": {**SMALL, "opponents": NO_HOUSE_WAY},
    "HandRequest": {**SMALL, "rules": {"enum": ["standard", "two-four", "low-middle", "ofc-pineapple"]}},
    "PlaceRequest": {"samples": {"maximum": 32}},
}


def focused(document):
    """The document with :data:`OFFER` and :data:`KEEP` applied to its requests (not its answers)."""
    out = copy.deepcopy(document)

    def offer(values, schema):
        if "anyOf" in schema:  # optional: null, or the values offered
            return {**schema, "anyOf": [offer(values, s) for s in schema["anyOf"]]}
        if schema.get("type") == "array":
            return {**schema, "items": offer(values, schema["items"])}
        if schema.get("type") == "string" and "enum" not in schema:
            return {**schema, "enum": values}
        return schema

    for model, body in out["components"]["schemas"].items():
        if not model.endswith(("Request", "Job")):
            continue
        for name, schema in body.get("properties", {}).items():
            values = OFFER_IN.get(model, {}).get(name, OFFER.get(name))
            schema = schema if values is None else offer(values, schema)
            if name in KEEP.get(model, {}):
                schema = {"allOf": [schema, KEEP[model][name]]}
            body["properties"][name] = schema
    for methods in out["paths"].values():
        for operation in methods.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] in OFFER:  # free text; a flag or a number keeps its schema
                    parameter["schema"] = offer(OFFER[parameter["name"]], parameter["schema"])
    return out


def stand_in(job):
    """A job's work, a few milliseconds long: its progress and a file.  No result: a result is
    typed by the job's kind, and the real ones are held to their models in test_web.py."""
    progress = job.stage_callback("stand-in", 3)
    for done in range(1, 4):
        time.sleep(0.005)
        progress(done)  # raises once the job is cancelled
    (job.folder / STAND_IN_FILE).write_text('{"stand_in": true}')
    return None


APP = create_app(running=1, queued=2, work=stand_in)
DOCUMENT = APP.openapi()
AS_IS = schemathesis.openapi.from_dict(DOCUMENT)
AS_IS.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
FOCUSED = schemathesis.openapi.from_dict(focused(DOCUMENT))
FOCUSED.config.generation.update(modes=[GenerationMode.POSITIVE])
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, negative_data_rejection]
# each route: 20 generated requests and schemathesis's boundary cases; the same ones every run
BOUNDED = settings(max_examples=20, deadline=None, database=None, derandomize=True,
                   suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def client():
    with TestClient(APP, raise_server_exceptions=False) as client:
        yield client
    left = [t.name for t in threading.enumerate() if t.name.startswith("sapsam-job")]
    assert not left, f"job threads outlive the app: {left}"


def send(client, case):
    """The generated request, through the app's own in-process client."""
    sent = case.as_transport_kwargs(base_url="http://testserver")
    body = ({"json": sent["json"]} if "json" in sent else
            {"content": sent["data"]} if "data" in sent else {})
    return client.request(sent["method"], sent["url"], headers=sent["headers"],
                          params=sent.get("params"), **body)


def documented(path, method, response):
    """The status is listed for this path and method, and a JSON body fits its model; a method
    the path does not list is a 405, with the one-line body of a 404 and the methods it lists."""
    if method.lower() not in DOCUMENT["paths"][path]:
        assert response.status_code == 405, response.text
        assert response.headers["allow"] == allow(path), (method, path, response.headers)
        jsonschema.validate(response.json(), Message.model_json_schema())
        return
    answers = DOCUMENT["paths"][path][method.lower()]["responses"]
    status = str(response.status_code)
    assert status in answers, f"{method} {path} answered {status}, not one of {sorted(answers)}: {response.text}"
    content = answers[status]["content"]
    media = response.headers["content-type"].split(";")[0]
    assert media in content or "*/*" in content, f"{method} {path} sent {media}, not one of {sorted(content)}"
    if media == "application/json":  # a job's file is any file: its JSON has no model
        schema = {**content["application/json"]["schema"], "components": DOCUMENT["components"]}
        jsonschema.validate(response.json(), schema, cls=jsonschema.Draft202012Validator)


def allow(path):
    """A 405's Allow header on ``path``: the methods the document lists for it."""
    return ", ".join(sorted(method.upper() for method in DOCUMENT["paths"][path]))


def test_a_405_names_every_method_of_the_path(client):
    """A path with a route a method (a job: GET and DELETE) names both, not only the first."""
    for method, url, path in (("PUT", "/api/jobs/7", "/api/jobs/{job_id}"), ("PATCH", "/api/jobs", "/api/jobs"),
                              ("GET", "/api/best", "/api/best"), ("PUT", "/api/ofc/place", "/api/ofc/place")):
        response = client.request(method, url)
        assert response.status_code == 405 and response.json() == {"detail": "Method Not Allowed"}
        assert response.headers["allow"] == allow(path), (url, response.headers)
    assert allow("/api/jobs/{job_id}") == "DELETE, GET"


def check(client, case):
    response = send(client, case)
    assert response.status_code != 500, response.text
    documented(case.path, case.method, response)
    case.validate_response(response, checks=CHECKS)


@AS_IS.parametrize()
@BOUNDED
def test_the_document_as_it_is(case, client):
    check(client, case)


@FOCUSED.parametrize()
@BOUNDED
def test_the_document_focused_on_what_the_game_accepts(case, client):
    check(client, case)


def test_every_status_a_route_answers_is_documented():
    """What the routes raise, in the document: the game's 400s, the 404s, the queue's 429, the
    job's 202, the 413 and the 500 of every route."""
    statuses = {f"{method.upper()} {path}": set(operation["responses"])
                for path, methods in DOCUMENT["paths"].items() for method, operation in methods.items()}
    everywhere = {"413", "500"}
    for route in ("POST /api/settings", "POST /api/best", "POST /api/review", "POST /api/houseway",
                  "POST /api/score", "POST /api/paigow/best", "POST /api/ofc/fantasyland",
                  "POST /api/ofc/place"):
        assert statuses[route] == {"200", "400", "422"} | everywhere, route
    assert statuses["POST /api/jobs"] == {"202", "400", "422", "429"} | everywhere
    for route in ("GET /api/rules/{rid}", "GET /api/jobs/{job_id}", "DELETE /api/jobs/{job_id}",
                  "GET /api/jobs/{job_id}/files/{name}"):
        assert statuses[route] == {"200", "404", "422"} | everywhere, route
    for route in ("GET /api/rules", "GET /api/jobs", "GET /api/charts"):
        assert statuses[route] == {"200"} | everywhere, route
    assert statuses["GET /api/paigow/table"] == {"200", "422"} | everywhere  # its query
    errors = DOCUMENT["components"]["schemas"]["Errors"]
    assert errors["properties"]["detail"]["items"] == {"$ref": "#/components/schemas/Error"}

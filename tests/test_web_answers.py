"""Every answer of the web API has its model in the OpenAPI document, and each route's real
answers, in each of their variants, are exactly that model: no field more or less, each of its
type (``Model.model_validate``; the models forbid extra fields).  A client can generate its
types from ``/openapi.json`` and validate what it gets.  (tests/test_api_contract.py holds
generated answers to the same schemas.)"""

import copy

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from sapsam.game.ruleset_files import ruleset_ids
from sapsam.ofc import web as ofc
from sapsam.paigow import web as paigow
from sapsam.paigow_poker import web as poker
from sapsam.web import answer_models as am
from sapsam.web.app import create_app

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
OTHER = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"  # criss-cross: the player's other hand
SIX_PAIRS = "As Ad Kh Kd Qs Qh Jc Jd Tc Ts 9c 9d 2h"  # a natural
SETTING = "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"
FOUL = "9s 9h As | 5d 5c 4h 3s 2d | Kd Qh Jc Ts 2c"  # the front beats the middle
SEATS = ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d", "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h",
         "Qs Qh 8s | Js Jd Jc Th Tc | Ah Ad Ac Ks Kc", "5h 5c 2h | 6h 6c 4h 4d 3h | 7s 7d 7c 8d 2c"]
SURRENDER = "surrender:Ah Ad Ac Ks Kc Qs Qh Js Jd Jc Th Tc 8s"
NATURAL = "natural:Ah Ac Kh Kc Qh Qc Jh Jc 9h 9c 7h 7c 5h"  # six pairs, beside SEATS[0]
FOULED = "As Ad Ac | 5h 4h 3h 2c 7d | Kh Qs Jd 9c 8s"  # a front of trips over a king-high back
FANTASYLAND = "As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h"
BOARD = "As Ad | Kc Qc 5d | 9h 9s"
FINISHED = "Kd 2h 3h | 8c 8d 4c 4d 6c | Jh Th 9c 7c 6h"  # an opponent's board, done
SMALL = {"samples": 200, "seed": 3}


def best(answer):
    return answer["candidates"][0]["setting"]


# (route, request, the model of its answer, what shows the variant in the answer)
ANSWERS = {
    "rules": ("GET /api/rules", None, am.RulesetList, lambda a: "standard" in a),
    "settings": ("POST /api/settings", {"hand": HAND}, am.SettingsAnswer, lambda a: a["details"]),
    "settings, wheel second": ("POST /api/settings", {"hand": HAND, "wheel_rank": "second"},
                               am.SettingsAnswer, lambda a: a["details"]),
    "settings, low middle": ("POST /api/settings", {"hand": HAND, "rules": "low-middle"}, am.SettingsAnswer,
                             lambda a: "low" in str(a["details"])),
    "best": ("POST /api/best", {"hand": HAND, **SMALL}, am.BestAnswer, lambda a: "other_hand" not in a),
    "best, top": ("POST /api/best", {"hand": HAND, "top": 2, **SMALL}, am.BestAnswer,
                  lambda a: len(a["candidates"]) == 2),
    "best, a natural": ("POST /api/best", {"hand": SIX_PAIRS, **SMALL}, am.BestAnswer,
                        lambda a: best(a).startswith("natural")),
    "best, surrender": ("POST /api/best", {"hand": HAND, "rules": "pagat-surrender", **SMALL}, am.BestAnswer,
                        lambda a: "surrender" in [c["setting"] for c in a["candidates"]]),
    "best, criss-cross": ("POST /api/best", {"hand": HAND, "rules": "criss-cross", "other": OTHER,
                                             "opponents": "balanced", **SMALL},
                          am.BestAnswer, lambda a: a["other_hand"] and a["players"] == 2),
    "best, precision": ("POST /api/best", {"hand": HAND, "precision": 2.0, "samples": 4000}, am.BestAnswer,
                        lambda a: a["samples"] < 4000),
    "best, a match": ("POST /api/best", {"hand": HAND, "rules": "first-to-11", "scores": [8, 10, 3, 6],
                                         "opponents": "greedy", "samples": 100},
                      am.MatchBestAnswer, lambda a: 0 < a["win_now"] < 1),
    "review": ("POST /api/review", {"hand": HAND, "setting": SETTING, **SMALL}, am.ReviewAnswer,
               lambda a: a["legal"]),
    "review, a foul": ("POST /api/review", {"hand": HAND, "setting": FOUL, **SMALL}, am.ReviewAnswer,
                       lambda a: not a["legal"]),
    "review, criss-cross": ("POST /api/review", {"hand": HAND, "setting": SETTING, "rules": "criss-cross",
                                                 "other": OTHER, "opponents": "balanced", **SMALL},
                            am.ReviewAnswer, lambda a: a["rank"] >= 1),
    "houseway": ("POST /api/houseway", {"hand": HAND, **SMALL}, am.HouseWayAnswer,
                 lambda a: len(a["houseway"]["lines"]) == 3),
    "houseway, a natural": ("POST /api/houseway", {"hand": SIX_PAIRS, **SMALL}, am.HouseWayAnswer,
                            lambda a: a["houseway"]["lines"] == []),
    "score": ("POST /api/score", {"settings": SEATS[:2], "names": ["Amy", "Bob"]}, am.ScoreAnswer,
              lambda a: a["pairs"][0]["rows"] and "players" not in a),
    "score, criss-cross": ("POST /api/score", {"rules": "criss-cross", "settings": SEATS}, am.ScoreAnswer,
                           lambda a: a["players"]),
    "score, a surrender": ("POST /api/score", {"rules": "pagat-surrender", "settings": [SEATS[0], SURRENDER]},
                           am.ScoreAnswer, lambda a: a["pairs"][0]["rows"] is None),
    "score, a natural": ("POST /api/score", {"settings": [SEATS[0], NATURAL]}, am.ScoreAnswer,
                         lambda a: a["status"][1] == "natural: six-pairs"),
    "score, a foul": ("POST /api/score", {"settings": [SEATS[0], FOULED]}, am.ScoreAnswer,
                      lambda a: a["status"][1] == "foul"),
    "score, a pool": ("POST /api/score", {"rules": "pagat-pool", "settings": SEATS[:3]}, am.ScoreAnswer,
                      lambda a: a["pairs"] == [] and isinstance(a["totals"][0], float)),
    "score, a bank with chips": ("POST /api/score", {"rules": "house", "settings": SEATS[:3], "bank": 2,
                                                     "chips": [5, 0, 3]}, am.ScoreAnswer, lambda a: a["pairs"]),
    "score, a match": ("POST /api/score", {"rules": "first-to-11", "settings": SEATS[:2]}, am.ScoreAnswer,
                       lambda a: a["pairs"] == []),
    "paigow best": ("POST /api/paigow/best", {"tiles": "6-6 1-1 4-2 5-3"}, paigow.PaiGowBestAnswer,
                    lambda a: not a["banking"]),
    "paigow best, banking": ("POST /api/paigow/best", {"tiles": "teen day gee joon eight", "banking": True,
                                                       "commission": 0}, paigow.PaiGowBestAnswer,
                             lambda a: a["banking"]),
    "paigow table": ("GET /api/paigow/table", None, paigow.PaiGowTableAnswer, lambda a: len(a["rows"]) == 8),
    "paigow table, teen": ("GET /api/paigow/table?high_three=teen", None, paigow.PaiGowTableAnswer,
                           lambda a: a["high_three"] == "teen"),
    "ofc fantasyland": ("POST /api/ofc/fantasyland", {"cards": FANTASYLAND}, ofc.FantasylandAnswer,
                        lambda a: a["discards"] and a["stays"]),
    "ofc fantasyland, classic": ("POST /api/ofc/fantasyland", {"cards": FANTASYLAND[:-3], "rules": "ofc-classic"},
                                 ofc.FantasylandAnswer, lambda a: a["discards"] == []),
    "ofc fantasyland, not staying": ("POST /api/ofc/fantasyland", {"cards": "2s 3d 4h 5c 7s 8d 9h Jc Qs Kd 6h Th 4d",
                                                                   "rules": "ofc-classic"},
                                     ofc.FantasylandAnswer, lambda a: not a["stays"]),
    "ofc place, first street": ("POST /api/ofc/place", {"hand": "Ah 2c 3d 4d 5d", "samples": 32}, ofc.PlaceAnswer,
                                lambda a: a["placements"][0]["discard"] == ""),
    "ofc place, an opponent": ("POST /api/ofc/place", {"board": BOARD, "hand": "Ah 2c 7d", "samples": 64,
                                                       "opponents": ["Kd 2h | 8c 8d | Jh Th 9c"]},
                               ofc.PlaceAnswer, lambda a: a["race"] and not a["exact"]),
    "ofc place, fantasyland": ("POST /api/ofc/place", {"board": BOARD, "hand": "Ah 2c 7d", "samples": 32,
                                                       "opponents": ["fantasyland:14"]},
                               ofc.PlaceAnswer, lambda a: a["fantasyland"] == [14]),
    "ofc place, dropped": ("POST /api/ofc/place", {"board": BOARD, "hand": "Ah 2c 7d", "samples": 1024},
                           ofc.PlaceAnswer, lambda a: a["dropped"] and a["placements"][-1]["dropped"]),
    "ofc place, exact": ("POST /api/ofc/place", {"board": "As Ad | Kc Qc 5d 5s | 9h 9s 8s", "hand": "Ah 2c 7d",
                                                 "opponents": [FINISHED], "samples": 32},
                         ofc.PlaceAnswer, lambda a: a["exact"] and a["policy"] == "exact"),
    "ofc place, classic": ("POST /api/ofc/place", {"board": BOARD, "hand": "Ah", "rules": "ofc-classic",
                                                   "samples": 32},
                           ofc.PlaceAnswer, lambda a: len(a["placements"]) == 3),
    "paigow-poker best": ("POST /api/paigow-poker/best", {"cards": "Jk As Kd Th 9s 2d 2h"},
                          poker.PaiGowPokerBestAnswer, lambda a: a["house_way"]["id"] == "foxwoods"),
    "paigow-poker best, banking": ("POST /api/paigow-poker/best",
                                   {"cards": "Jk As Kd Th 9s 2d 2h", "banking": True, "commission": 0,
                                    "house_way": "canterbury-park", "wheel": "lowest"},
                                   poker.PaiGowPokerBestAnswer, lambda a: a["house_way"]["unstated"]),
    "paigow-poker house ways": ("GET /api/paigow-poker/house-ways", None, poker.HouseWaysAnswer,
                                lambda a: len(a["house_ways"]) == 3),
    "paigow-poker chart": ("GET /api/paigow-poker/chart", None, poker.ChartAnswer, lambda a: a["published"]),
    "paigow-poker chart, banking": ("GET /api/paigow-poker/chart?banking=true", None, poker.ChartAnswer,
                                    lambda a: a["banking"] and a["published"] is None),
    "paigow-poker best play": ("GET /api/paigow-poker/best-play", None, poker.BestPlayAnswer,
                               lambda a: a["house_ways"]),
}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("jobs"))) as client:
        yield client


@pytest.fixture(scope="module")
def answers(client):
    """Each of :data:`ANSWERS` as the route sends it, asked once."""
    found = {}

    def ask(name):
        if name not in found:
            route, body, _, _ = ANSWERS[name]
            method, path = route.split()
            response = client.request(method, path, json=body)
            assert response.status_code == 200, response.text
            found[name] = response.json()
        return found[name]

    return ask


def test_every_json_answer_has_its_model():
    """No route's success is untyped in the OpenAPI document but a job's file (any JSON it
    wrote); and every object in those answers forbids fields it does not name."""
    document = create_app().openapi()
    schemas = document["components"]["schemas"]
    untyped, open_objects = [], set()

    def closed(schema, seen):
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                closed(schemas[name], seen)
            return
        if "properties" in schema and schema.get("additionalProperties") is not False:
            open_objects.add(schema.get("title", str(schema)[:60]))
        for value in schema.values():
            for part in value if isinstance(value, list) else [value]:
                if isinstance(part, dict):
                    closed(part, seen)

    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            for status, answer in operation["responses"].items():
                schema = answer.get("content", {}).get("application/json", {}).get("schema")
                if status.startswith("2") and schema is not None:
                    if schema == {}:
                        untyped.append(f"{method.upper()} {path}")
                    else:
                        closed(schema, set())
    assert untyped == ["GET /api/jobs/{job_id}/files/{name}"]
    assert not open_objects, f"answers' objects that take any field: {sorted(open_objects)}"


def test_the_best_route_documents_both_its_answers():
    document = create_app().openapi()
    schema = document["paths"]["/api/best"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["anyOf"] == [{"$ref": "#/components/schemas/BestAnswer"},
                               {"$ref": "#/components/schemas/MatchBestAnswer"}]


@pytest.mark.parametrize("name", ANSWERS)
def test_each_answer_is_its_model(answers, name):
    """The real answer, in the variant its request makes (checked), validates as its model."""
    _, _, model, variant = ANSWERS[name]
    answer = answers(name)
    assert variant(answer), f"{name}: not the variant meant"
    model.model_validate(answer)


@pytest.mark.parametrize("rid", ruleset_ids())
def test_each_ruleset_is_its_model(client, rid):
    answer = client.get(f"/api/rules/{rid}")
    assert answer.status_code == 200, answer.text
    assert am.RulesetAnswer.model_validate(answer.json()).id == rid


@pytest.mark.parametrize("name, where", [
    ("best", lambda a: a), ("best", lambda a: a["candidates"][0]), ("best", lambda a: a["candidates"][0]["rows"]),
    ("best, a match", lambda a: a["candidates"][0]), ("score", lambda a: a["pairs"][0]["breakdown"]),
    ("ofc place, exact", lambda a: a["placements"][0]), ("paigow best", lambda a: a["settings"][0]["low"]),
    ("paigow-poker chart", lambda a: a["house_ways"][0]["best_play"]),
    ("paigow-poker best play", lambda a: a["house_ways"][0]["rows"][1]),
])
def test_the_models_refuse_a_field_more_or_one_missing(answers, name, where):
    """The models are exact: an answer with a field more (anywhere in it), or one missing, or
    null where a figure is always defined, is refused."""
    _, _, model, _ = ANSWERS[name]
    part = where(copy.deepcopy(answers(name)))
    figure = next((k for k, v in part.items() if isinstance(v, float)), None)
    changes = [{**part, "unknown": 1}, dict(list(part.items())[1:])] + ([{**part, figure: None}] if figure else [])
    for changed in changes:
        answer = copy.deepcopy(answers(name))
        inside = where(answer)
        inside.clear()
        inside.update(changed)
        with pytest.raises(ValidationError):
            model.model_validate(answer)


def test_a_wrong_type_is_refused(answers):
    answer = {**answers("score"), "names": "Amy,Bob"}
    with pytest.raises(ValidationError):
        am.ScoreAnswer.model_validate(answer)
    with pytest.raises(ValidationError):
        am.RulesetList.model_validate({"standard": 4})

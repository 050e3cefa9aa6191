"""The REST API of ``sapsam serve`` through an in-process client: every endpoint answers with
the JSON of the command line's ``--json`` for the same request (the same seed, the same
numbers), every class of bad input is a 400/413/422 naming the field, never a 500, and the
long work runs as jobs that report progress, keep their files and can be cancelled."""

import json
import math
import time

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from sapsam.cli import main
from sapsam.web import answer_models as am
from sapsam.web import requests as rq
from sapsam.web.app import create_app

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
SETTING = "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"
SHOWDOWN = ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",
            "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("jobs"), queued=2)) as client:
        yield client


def cli_json(*args):
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def bad(response, status, field):
    """The error names ``field`` (in the body's ``detail[].loc``) and says what is allowed."""
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert any(e["loc"][-1] == field and e["msg"] for e in detail), detail
    return " ".join(e["msg"] for e in detail)


# --- the same answers as the command line ----------------------------------------------------

def test_rules_as_the_cli(client):
    assert client.get("/api/rules").json() == cli_json("rules")
    assert client.get("/api/rules/two-four").json() == cli_json("rules", "two-four")


def test_settings_as_the_cli(client):
    assert client.post("/api/settings", json={"hand": HAND}).json() == cli_json("settings", HAND)
    low = client.post("/api/settings", json={"hand": HAND, "rules": "low-middle"})
    assert low.json() == cli_json("settings", HAND, "--rules", "low-middle")
    assert low.json() != cli_json("settings", HAND)  # a low middle has other settings
    unknown = client.post("/api/settings", json={"hand": HAND, "rules": "no-such"})
    assert unknown.status_code == 400 and "no-such" in unknown.text


def test_best_as_the_cli_with_the_same_seed(client):
    body = {"hand": HAND, "rules": "two-four", "players": 3, "samples": 1500, "seed": 7, "top": 4}
    answer = client.post("/api/best", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json("best", HAND, "--rules", "two-four", "--players", "3",
                                     "--samples", "1500", "--seed", "7", "--top", "4")
    assert len(answer.json()["candidates"]) == 4
    other = client.post("/api/best", json={**body, "seed": 8}).json()
    assert other["candidates"][0]["ev"] != answer.json()["candidates"][0]["ev"]  # the seed counts


def test_review_as_the_cli(client):
    body = {"hand": HAND, "setting": SETTING, "players": 2, "samples": 1000, "seed": 3}
    cli = cli_json("review", HAND, SETTING, "--players", "2", "--samples", "1000", "--seed", "3")
    apart = client.post("/api/review", json={**body, "held_out": True}).json()
    assert apart == cli  # the CLI always measures the loss apart too; the API when asked
    answer = client.post("/api/review", json=body).json()
    assert answer == {k: v for k, v in cli.items() if k not in ("held_out_loss", "held_out_ci")}
    assert answer["legal"] and 1 <= answer["rank"] <= answer["candidates"]
    surrendered = client.post("/api/review", json={**body, "setting": "surrender"}).json()
    assert surrendered["setting"] == "surrender" and surrendered["loss"] > 0
    best = client.post("/api/review", json={**body, "setting": answer["best"]}).json()
    assert best["rank"] == 1 and math.copysign(1, best["loss"]) == 1  # 0.0, not -0.0 ("-0.000")


def test_houseway_as_the_cli(client):
    body = {"hand": HAND, "players": 4, "samples": 1000, "seed": 3}
    answer = client.post("/api/houseway", json=body).json()
    assert answer == cli_json("houseway", HAND, "--samples", "1000", "--seed", "3")
    assert answer["houseway"]["rule"] >= 1 and 1 <= answer["rank"] <= answer["candidates"]


def test_criss_cross_houseway_takes_the_other_hand(client):
    other = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"
    body = {"hand": HAND, "rules": "criss-cross", "players": 2, "opponents": "balanced",
            "samples": 300, "seed": 3}
    answer = client.post("/api/houseway", json={**body, "other": other})
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json("houseway", HAND, "--rules", "criss-cross", "--players", "2",
                                     "--opponents", "balanced", "--other", other, "--samples", "300",
                                     "--seed", "3")
    assert "other hand" in bad(client.post("/api/houseway", json=body), 400, "other")  # blamed on the field missing


def test_score_as_the_cli(client):
    answer = client.post("/api/score", json={"rules": "standard", "settings": SHOWDOWN,
                                             "names": ["Amy", "Bob"]}).json()
    assert answer == cli_json("score", "--rules", "standard", "--names", "Amy,Bob", *SHOWDOWN)
    assert answer["totals"] == [-answer["totals"][1], answer["totals"][1]]


def test_paigow_as_the_cli(client):
    tiles = "6-6 1-1 4-2 5-3"
    answer = client.post("/api/paigow/best", json={"tiles": tiles, "banking": True})
    assert answer.json() == cli_json("paigow", "best", tiles, "--banking")
    assert client.get("/api/paigow/table").json() == cli_json("paigow", "table")
    assert client.get("/api/paigow/table", params={"high_three": "teen"}).json() \
        == cli_json("paigow", "table", "--high-three", "teen")


def test_ofc_as_the_cli(client):
    cards = "As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h"
    assert client.post("/api/ofc/fantasyland", json={"cards": cards}).json() == \
        {**cli_json("ofc", "fantasyland", cards), "seconds": pytest.approx(0, abs=5)}
    body = {"board": "As Ad | Kc Qc 5d | 9h 9s", "hand": "Ah 2c 7d", "samples": 64, "seed": 3,
            "opponents": ["Kd 2h | 8c 8d | Jh Th 9c"]}
    answer = client.post("/api/ofc/place", json=body).json()
    assert answer == cli_json("ofc", "place", "--board", body["board"], "--hand", body["hand"], "--samples", "64",
                              "--seed", "3", "--opponents", body["opponents"][0])
    assert len(answer["placements"]) == 24 and answer["opponents"] == 1


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("body, field, words", [
    ({"board": "As Ad | Kc Qc 5d | 9h 9s", "hand": "Ah 2c As"}, "hand", "given twice"),
    ({"board": "As Ad As | - | -", "hand": "Ah 2c 3d"}, "board", "duplicate"),
    ({"board": "As Ad Ah Kd | - | -", "hand": "Ah 2c 3d"}, "board", "holds 3 cards"),
    ({"board": "", "hand": "Ah 2c 3d"}, "hand", "deals 5 cards"),
    ({"hand": "Ah 2c 3d 4d 5d", "dead": "2c"}, "dead", "given twice"),  # where it comes again
    ({"board": "As Ad | Kc Qc 5d | 9h 9s", "hand": "Ah 2c 7d", "dead": "As"}, "dead", "given twice"),
    ({"board": "As Ad | Kc Qc 5d | 9h 9s", "hand": "Ah 2c 7d", "opponents": ["Kd 2h | 8c 8d | 9h"]}, "opponents",
     "given twice"),
    ({"hand": "Ah 2c 3d 4d 5d", "opponents": ["Zz | - | -"]}, "opponents", "unknown card"),
    ({"hand": "Ah 2c 3d 4d 5d", "opponents": ["fantasyland:99"]}, "opponents", "deals 14 cards"),
    ({"hand": "Ah 2c 3d 4d 5d", "rules": "standard"}, "rules", "unknown ruleset"),
])
def test_ofc_place_bad_input(client, body, field, words):
    assert words in bad(client.post("/api/ofc/place", json=body), 400, field)


def test_ofc_fantasyland_bad_input(client):
    assert "13 to 17" in bad(client.post("/api/ofc/fantasyland", json={"cards": "As Kd"}), 400, "cards")
    # as many cards as the ruleset deals, as the command says, a ruleset that deals them named as the API takes it
    hand = "As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h"
    assert "ofc-classic deals 13 cards in Fantasyland, not 14 (ofc-pineapple and ofc-pineapple-progressive deal " \
        '14: rules "ofc-pineapple")' in bad(client.post("/api/ofc/fantasyland", json={
            "cards": hand, "rules": "ofc-classic"}), 400, "cards")
    assert "not 15" in bad(client.post("/api/ofc/fantasyland", json={"cards": hand + " 4h"}), 400, "cards")
    assert client.post("/api/ofc/fantasyland", json={"cards": hand + " 4h", "rules": "ofc-pineapple-progressive"}
                       ).json()["discards"]
    bad(client.post("/api/ofc/place", json={"hand": "Ah 2c 3d 4d 5d", "samples": 10**6}), 422, "samples")

def test_paigow_bad_input(client):
    answer = client.post("/api/paigow/best", json={"tiles": "6-6 6-6 6-6 1-1"})
    assert "more times" in bad(answer, 400, "tiles")
    bad(client.post("/api/paigow/best", json={"tiles": "teen day nine eight", "commission": 1.5}),
        422, "commission")
    assert "chong" in bad(client.get("/api/paigow/table", params={"high_three": "dragon"}), 422,
                          "high_three")


@pytest.mark.parametrize("hand, words", [
    ("As As Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d", "duplicate"),  # a card twice
    ("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c", "13"),  # 12 cards
    ("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 1d", "1d"),  # an unknown rank
])
@pytest.mark.parametrize("path", ["/api/settings", "/api/best", "/api/review", "/api/houseway"])
def test_bad_hand(client, path, hand, words):
    body = {"hand": hand} | ({"setting": SETTING} if path == "/api/review" else {})
    assert words in bad(client.post(path, json=body), 400, "hand")


def test_unknown_ruleset(client):
    message = bad(client.post("/api/best", json={"hand": HAND, "rules": "nope"}), 400, "rules")
    assert "standard" in message and "two-four" in message  # what is allowed
    bad(client.post("/api/score", json={"rules": "../etc/passwd", "settings": SHOWDOWN}), 400,
        "rules")  # a web request never names a file
    missing = client.get("/api/rules/nope")
    assert missing.status_code == 404 and "standard" in missing.json()["detail"]


@pytest.mark.parametrize("path", ["/api/best", "/api/houseway"])
@pytest.mark.parametrize("rules, other, words", [
    ("standard", "Ac Kc Qc Jd Td 8s 8h 7c 6d 6h 4s 3c 3d", "give no other hand"),
    ("criss-cross", None, "give your other hand"),
    ("criss-cross", "As Kc Qc Jd Td 8s 8h 7c 6d 6h 4s 3c 3d", "share As"),
])
def test_the_other_hand_is_blamed_for_what_is_wrong_with_it(client, path, rules, other, words):
    body = {"hand": HAND, "rules": rules, "samples": 100} | ({"other": other} if other else {})
    assert words in bad(client.post(path, json=body), 400, "other")


def test_bad_setting(client):
    wrong = "5d 5c | 9s 9h 3s 2d 2c 4h | As Kd Qh Jc Ts"  # 2 in front, 6 in the middle
    bad(client.post("/api/review", json={"hand": HAND, "setting": wrong}), 400, "setting")
    other = "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc 7s"  # a card not in the hand
    bad(client.post("/api/review", json={"hand": HAND, "setting": other}), 400, "setting")
    # a surrender the ruleset has not: the setting is blamed
    body = {"hand": HAND, "setting": "surrender", "rules": "two-four", "samples": 100}
    assert "two-four has no surrender" in bad(client.post("/api/review", json=body), 400, "setting")


def test_a_foul_setting_is_graded_as_the_cli_does(client):
    foul = "9s 9h As | 5d 5c 4h 3s 2d | Kd Qh Jc Ts 2c"  # the front beats the middle
    answer = client.post("/api/review", json={"hand": HAND, "setting": foul, "samples": 200})
    assert answer.status_code == 200 and answer.json()["legal"] is False


def test_bad_score(client):
    bad(client.post("/api/score", json={"settings": SHOWDOWN[:1]}), 422, "settings")
    bad(client.post("/api/score", json={"settings": SHOWDOWN, "names": ["A"]}), 400, "names")
    bad(client.post("/api/score", json={"settings": SHOWDOWN, "names": ["A", "A"]}), 400, "names")
    bad(client.post("/api/score", json={"settings": SHOWDOWN, "bank": 3}), 400, "bank")
    assert "not a bank game" in bad(client.post("/api/score", json={"settings": SHOWDOWN, "bank": 1}), 400, "bank")
    twice = [SHOWDOWN[0], SHOWDOWN[0]]
    bad(client.post("/api/score", json={"settings": twice}), 400, "settings")


@pytest.mark.parametrize("body, field", [
    ({"hand": HAND, "samples": rq.MAX_SAMPLES + 1}, "samples"),  # over the cap
    ({"hand": HAND, "samples": 10}, "samples"),
    ({"hand": HAND, "players": 5}, "players"),
    ({"hand": HAND, "opponents": "oracle"}, "opponents"),
    ({"hand": HAND, "seed": -1}, "seed"),
    ({"hand": HAND, "colour": "red"}, "colour"),  # unknown fields are refused
    ({"hand": 13}, "hand"),
    ({}, "hand"),
])
def test_bad_body(client, body, field):
    assert bad(client.post("/api/best", json=body), 422, field)


@pytest.mark.parametrize("path, body, field", [
    ("/api/best", {"hand": HAND, "seed": False}, "seed"),  # not the seed 0
    ("/api/best", {"hand": HAND, "samples": True}, "samples"),
    ("/api/best", {"hand": HAND, "samples": "5000"}, "samples"),  # not coerced
    ("/api/best", {"hand": HAND, "samples": 5000.0}, "samples"),  # a whole number is an integer
    ("/api/best", {"hand": HAND, "players": 2.5}, "players"),
    ("/api/best", {"hand": HAND, "scores": [8, "10"]}, 1),
    ("/api/score", {"settings": SHOWDOWN, "bank": True}, "bank"),
    ("/api/score", {"settings": SHOWDOWN, "names": ["Amy", 2]}, 1),
    ("/api/paigow/best", {"tiles": "6-6 1-1 4-2 5-3", "banking": 1}, "banking"),
    ("/api/paigow/best", {"tiles": "6-6 1-1 4-2 5-3", "banking": "true"}, "banking"),
    ("/api/paigow/best", {"tiles": "6-6 1-1 4-2 5-3", "commission": "0.05"}, "commission"),
    ("/api/ofc/place", {"hand": "Ah 2c 3d 4d 5d", "seed": "1"}, "seed"),
    ("/api/jobs", {"kind": "exploit", "deals": False}, "deals"),
    ("/api/jobs", {"kind": "simulate", "tables": 400.0}, "tables"),
])
def test_strict_types(client, path, body, field):
    """Each field takes only its own JSON type: no boolean, string or float for a whole number,
    no number for a boolean, no string for a number (a 422, never coerced)."""
    bad(client.post(path, json=body), 422, field)


def test_a_number_for_a_fraction_and_a_body_not_utf8(client):
    answer = client.post("/api/paigow/best", json={"tiles": "6-6 1-1 4-2 5-3", "commission": 0})
    assert answer.status_code == 200, answer.text  # a whole number is a number
    response = client.post("/api/best", content=b'{"hand": "\xff"}', headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["detail"][0]["type"] == "json_invalid"


def test_malformed_json_and_a_body_too_large(client):
    response = client.post("/api/best", content=b'{"hand": ', headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["detail"]
    big = json.dumps({"hand": HAND, "pad": "x" * rq.MAX_BODY})
    response = client.post("/api/best", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413 and "bytes" in response.json()["detail"][0]["msg"]
    # sent in chunks, without its length: refused as it is read, with the same answer
    pieces = (big[i:i + 4096].encode() for i in range(0, len(big), 4096))
    response = client.post("/api/best", content=pieces, headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["detail"][0]["type"] == "too_large"


# --- jobs --------------------------------------------------------------------------------------

JOB = TypeAdapter(am.Job)


def wait(client, job_id, states=("done", "failed", "cancelled"), seconds=300):
    """The job once it is in one of ``states``; every answer on the way is held to its kind's
    model of the OpenAPI document (its params the request's, its result its command's)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        answer = client.get(f"/api/jobs/{job_id}")
        job = answer.json()
        assert JOB.validate_json(answer.content).kind == job["kind"]
        if job["state"] in states:
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job['state']} after {seconds} s: {job}")


def test_exploit_job_as_the_cli(client):
    start = client.post("/api/jobs", json={"kind": "exploit", "deals": 3, "samples": 200, "seed": 2})
    assert start.status_code == 202, start.text
    job = wait(client, start.json()["id"])
    assert job["state"] == "done", job
    assert job["progress"] == {"stage": "deals", "done": 3, "total": 3}
    assert job["result"] == cli_json("exploit", "--deals", "3", "--samples", "200", "--seed", "2")
    assert job["id"] in [j["id"] for j in client.get("/api/jobs").json()]
    saved = client.get(f"/api/jobs/{job['id']}/files/exploit.json")
    assert saved.status_code == 200 and saved.json()["gap"] == job["result"]["gap"]


def test_simulate_job_writes_its_report(client):
    start = client.post("/api/jobs", json={"kind": "simulate", "rules": ["standard", "two-four"],
                                           "players": 2, "seats": ["fitted", "greedy"],
                                           "tables": 400, "block_size": 200})
    job = wait(client, start.json()["id"])
    assert job["state"] == "done", job
    seats = job["result"]["seats"]
    assert {s["ruleset"] for s in seats} == {"standard", "two-four"} and len(seats) == 4
    assert all(s["ci_low"] <= s["mean"] <= s["ci_high"] for s in seats)
    files = job["files"]
    assert any(f.endswith(".csv") for f in files) and any(f.endswith(".png") for f in files)
    png = client.get(f"/api/jobs/{job['id']}/files/{next(f for f in files if f.endswith('.png'))}")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    assert client.get(f"/api/jobs/{job['id']}/files/../../etc/passwd").status_code == 404


def test_chart_and_houseway_jobs(client):
    chart = client.post("/api/jobs", json={"kind": "chart", "chart": "front", "samples": 300})
    houseway = client.post("/api/jobs", json={"kind": "houseway", "players": 2, "tables": 300})
    job = wait(client, chart.json()["id"])
    assert job["state"] == "done", job
    assert "front-standard-4p.png" in job["files"]
    job = wait(client, houseway.json()["id"])
    assert job["state"] == "done", job
    assert job["result"]["house_way"] and job["result"]["ci"][0] <= job["result"]["cost"]


def test_a_job_plays_at_its_rulesets_table_unless_told(client):
    """As the commands: a houseway, chart or simulate job without players takes the (first)
    ruleset's table, heads-up for criss-cross; a rulesets chart four players."""
    for body, players in (({"kind": "houseway", "rules": "criss-cross"}, 2),
                          ({"kind": "chart", "chart": "rows", "rules": "criss-cross"}, 2),
                          ({"kind": "chart", "chart": "rulesets"}, 4),
                          ({"kind": "simulate", "rules": ["criss-cross"]}, 2),
                          ({"kind": "simulate"}, 4)):
        started = client.post("/api/jobs", json=body)
        assert started.status_code == 202 and started.json()["params"]["players"] == players, body
        assert client.delete(f"/api/jobs/{started.json()['id']}").status_code == 200  # cancelled


def test_a_match_chart_job_plays_first_to_11_unless_told(client):
    """The match chart, as ``sapsam chart match`` and ``sapsam.chart("match")`` draw it: its
    ruleset a match's (first-to-11 by default; another is refused before the job is queued)."""
    started = client.post("/api/jobs", json={"kind": "chart", "chart": "match", "samples": 2})
    assert started.status_code == 202 and started.json()["params"]["rules"] == "first-to-11"
    job = wait(client, started.json()["id"])
    assert job["state"] == "done" and "match-first-to-11-4p.png" in job["files"], job
    assert "first-to-11" in bad(client.post("/api/jobs", json={"kind": "chart", "chart": "match",
                                                                "rules": "standard"}), 400, "rules")


def test_cancel_a_running_and_a_queued_job(client):
    long = {"kind": "simulate", "tables": rq.MAX_TABLES, "block_size": 100}
    running = client.post("/api/jobs", json=long).json()
    queued = client.post("/api/jobs", json=long).json()
    wait(client, running["id"], states=("running",))
    cancelled = client.delete(f"/api/jobs/{queued['id']}").json()
    assert cancelled["state"] == "cancelled"
    client.delete(f"/api/jobs/{running['id']}")
    job = wait(client, running["id"])
    assert job["state"] == "cancelled" and job["progress"]["done"] < rq.MAX_TABLES


def test_a_full_queue_is_refused(client):
    long = {"kind": "simulate", "tables": rq.MAX_TABLES, "block_size": 100}
    started = [client.post("/api/jobs", json=long).json() for _ in range(3)]  # 1 runs, 2 wait
    refused = client.post("/api/jobs", json=long)
    assert refused.status_code == 429 and "waiting" in refused.json()["detail"]
    for job in started:
        client.delete(f"/api/jobs/{job['id']}")
    for job in started:
        assert wait(client, job["id"])["state"] == "cancelled"


@pytest.mark.parametrize("body, field", [
    ({"kind": "poker"}, "kind"),
    ({"kind": "exploit", "deals": rq.MAX_DEALS + 1}, "deals"),
    ({"kind": "simulate", "tables": rq.MAX_TABLES + 1}, "tables"),
    ({"kind": "chart", "chart": "pie"}, "chart"),
])
def test_bad_jobs(client, body, field):
    response = client.post("/api/jobs", json=body)
    bad(response, 422, field)
    assert response.json()["detail"][0]["loc"] == ["body", field]  # the job's kind not put in


def test_bad_jobs_the_game_checks(client):
    bad(client.post("/api/jobs", json={"kind": "simulate", "rules": ["standard", "nope"]}), 400,
        "rules")
    bad(client.post("/api/jobs", json={"kind": "simulate", "players": 3,
                                       "seats": ["fitted", "greedy"]}), 400, "seats")
    bad(client.post("/api/jobs", json={"kind": "exploit", "rules": "all"}), 400, "rules")
    for body in ({"kind": "simulate", "rules": ["standard", "criss-cross"], "players": 4},
                 {"kind": "houseway", "rules": "criss-cross", "players": 4},
                 {"kind": "chart", "chart": "front", "rules": "criss-cross", "players": 3}):
        assert "players must be 2" in bad(client.post("/api/jobs", json=body), 400, "players")
    missing = client.get("/api/jobs/999")
    assert missing.status_code == 404 and "999" in missing.json()["detail"]
    assert client.delete("/api/jobs/999").status_code == 404


# --- the page, the docs, nothing from the internet ---------------------------------------------

def test_page_and_docs_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "sapsam" in page.text
    docs = client.get("/docs")
    assert docs.status_code == 200
    for text in (page.text, docs.text):
        assert "cdn" not in text.lower() and "https://" not in text
    assert client.get("/docs-static/swagger-ui-bundle.js").status_code == 200
    spec = client.get("/openapi.json").json()
    assert {"/api/best", "/api/review", "/api/score", "/api/settings", "/api/rules",
            "/api/jobs", "/api/jobs/{job_id}"} <= set(spec["paths"])


def test_shipped_charts(client):
    charts = client.get("/api/charts").json()
    assert any(c["name"] == "rulesets-all-4p" for c in charts)
    image = client.get(charts[0]["url"])
    assert image.status_code == 200 and image.content[:4] == b"\x89PNG"


def test_criss_cross_best_takes_the_other_hand(client):
    """Criss-cross through the API: the other hand given, the opponent holds the other 26; as
    the command line's JSON for the first hand; without it, a 400 naming the hand."""
    other = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"
    body = {"hand": HAND, "rules": "criss-cross", "other": other, "opponents": "balanced",
            "samples": 200, "seed": 3}
    answer = client.post("/api/best", json=body).json()
    assert answer["players"] == 2 and "other_hand" in answer
    cli = CliRunner().invoke(main, ["best", HAND, "--other", other, "--rules", "criss-cross",
                                    "--opponents", "balanced", "--samples", "200", "--seed", "3",
                                    "--json"])
    assert json.loads(cli.stdout)["hands"][0] == answer
    message = bad(client.post("/api/best", json={**body, "other": None}), 400, "other")
    assert "other hand" in message


def test_match_best_by_the_chance_of_winning_as_the_cli(client):
    """With a match's scores, /api/best ranks by the chance of winning the match, as
    ``sapsam best --score --json``; bad scores and what cannot go with them name their field."""
    body = {"hand": HAND, "rules": "first-to-11", "scores": [8, 10, 3, 6], "opponents": "greedy",
            "samples": 400, "seed": 2}
    answer = client.post("/api/best", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json("best", HAND, "--rules", "first-to-11", "--score", "8,10,3,6",
                                     "--opponents", "greedy", "--samples", "400", "--seed", "2")
    top = client.post("/api/best", json={**body, "top": 2}).json()
    assert top["candidates"] == answer.json()["candidates"][:2]
    assert "not played as a match" in bad(client.post("/api/best", json={**body, "rules": "standard"}),
                                          400, "scores")
    assert "over" in bad(client.post("/api/best", json={**body, "scores": [11, 3, 2, 0]}), 400, "scores")
    bad(client.post("/api/best", json={**body, "players": 3}), 400, "players")
    bad(client.post("/api/best", json={**body, "precision": 0.1}), 400, "precision")
    bad(client.post("/api/best", json={**body, "scores": [8]}), 422, "scores")
    bad(client.post("/api/best", json={**body, "scores": [8, -1]}), 422, 1)

"""Pai Gow Poker's web routes: the command's JSON, errors naming the field, its tab in the page."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from sapsam.cli import main
from sapsam.web.app import create_app
from tests.paigow_poker.test_best import DECK


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("jobs"), queued=2)) as client:
        yield client


def cli_json(*args):
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_best_and_house_ways_as_the_command(client):
    cards = "Jk As Kd Th 9s 2d 2h"
    answer = client.post("/api/paigow-poker/best", json={"cards": cards, "banking": True, "deck": DECK,
                                                         "house_way": "canterbury-park", "commission": 0})
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json("paigow-poker", "best", cards, "--banking", "--deck", DECK,
                                      "--house-way", "canterbury-park", "--commission", "0")
    assert client.get("/api/paigow-poker/house-ways").json() == cli_json("paigow-poker", "house-ways")


@pytest.mark.parametrize("body, field, words", [
    ({"cards": "Jk As Kd"}, "cards", "hand needs 7 cards"),
    ({"cards": "Jk As Kd Th 9s 2d 2h", "house_way": "nowhere"}, "house_way", "unknown house way"),
    ({"cards": "Jk As Kd Th 9s 2d 2h", "house_way": "/etc/x.toml"}, "house_way", "shipped house way"),
    ({"cards": "Jk As Kd Th 9s 2d 2h", "deck": "Jk As"}, "deck", "at least 14 cards"),
    ({"cards": "Jk As Kd Th 9s 2d 2h", "commission": 1.5}, "commission", ""),
    ({"cards": "Jk As Kd Th 9s 2d 2h", "wheel": "top"}, "wheel", ""),
])
def test_bad_input_names_the_field(client, body, field, words):
    answer = client.post("/api/paigow-poker/best", json=body)
    assert answer.status_code in (400, 422), answer.text
    detail = answer.json()["detail"]
    assert any(e["loc"][-1] == field and words in e["msg"] for e in detail), detail


def test_the_page_has_its_tab_and_script(client):
    page = client.get("/").text
    assert 'data-testid="tab-paigow_poker">Pai Gow Poker</button>' in page
    assert '<script src="/games/paigow_poker.js" defer></script>' in page
    script = client.get("/games/paigow_poker.js")
    assert script.status_code == 200 and "/api/paigow-poker/best" in script.text


RESULTS = Path(__file__).resolve().parents[2] / "results" / "paigow_poker"


@pytest.mark.parametrize("banking, name", [(False, "chart"), (True, "chart-banking")])
def test_the_shipped_chart_is_the_committed_run(client, banking, name):
    """The tab's chart is package data: the committed run's chart.json less its departing
    hands, and its figure drawn from it is the committed chart.png, byte for byte (a new run
    into results/paigow_poker without ``ship_charts`` fails here)."""
    from sapsam.paigow_poker.output.chart_files import shipped_chart

    committed = json.loads((RESULTS / f"{name}.json").read_text())
    answer = client.get(f"/api/paigow-poker/chart?banking={str(banking).lower()}")
    assert answer.status_code == 200, answer.text
    assert answer.json() == json.loads(json.dumps(shipped_chart(committed)))
    assert answer.json()["banking"] is banking and all(w["best_play"] for w in answer.json()["house_ways"])
    figure = client.get(f"/api/paigow-poker/chart.png?banking={str(banking).lower()}")
    assert figure.status_code == 200 and figure.headers["content-type"] == "image/png"
    assert figure.content == (RESULTS / f"{name}.png").read_bytes()


def test_the_shipped_chart_is_package_data():
    from importlib.resources import files

    shipped = files("sapsam.paigow_poker").joinpath("shipped")
    assert sorted(p.name for p in shipped.iterdir() if p.name.endswith(".json")) == \
        ["best-play.json", "chart-banking.json", "chart.json"]
    from sapsam.paigow_poker.output.chart_files import shipped

    assert shipped(False)["house_ways"][0]["house_way"]["id"] == "foxwoods"
    assert shipped(True)["banking"] is True

def test_the_shipped_best_play_is_the_committed_run(client):
    """The tab's best-play edges are package data: the committed best-play.json less its
    provenance (a new run into results/paigow_poker without ``ship_charts`` fails here)."""
    committed = json.loads((RESULTS / "best-play.json").read_text())
    answer = client.get("/api/paigow-poker/best-play")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {k: v for k, v in committed.items() if k != "provenance"}
    assert [w["house_way"]["id"] for w in answer.json()["house_ways"]] == ["foxwoods", "canterbury-park",
                                                                           "harrahs-reno"]


def test_the_chart_route_refuses_a_bad_side(client):
    answer = client.get("/api/paigow-poker/chart?banking=sometimes")
    assert answer.status_code == 422 and answer.json()["detail"][0]["loc"][-1] == "banking"

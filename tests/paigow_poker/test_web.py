"""Pai Gow Poker's web routes: the command's JSON, errors naming the field, its tab in the page."""

import json

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

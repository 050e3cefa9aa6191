"""The page of ``sapsam serve`` in a real headless browser (Debian's chromium, driven by
Selenium through Debian's chromedriver; nothing is downloaded): a person picks and analyses a
hand, sets one by clicks and submits it, reviews a CSV, looks at the charts, on a desktop and
at phone width, with the mouse and with the keyboard.  Every number the page shows is checked
against the API's answer to the same request.  Screenshots of each view go to
``build/screenshots/`` (``SAPSAM_SCREENSHOTS`` names another folder: ``make screenshots``
refreshes the documentation's, ``results/screenshots/``), so a test run leaves the checkout as
it found it.

Without chromium these tests skip on a person's machine (one line naming the packages) and
fail under CI (``CI`` set), where ``.ci/run`` installs them.
"""

import csv as csv_module
import io
import json
import math
import os
import re
import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

import sapsam

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / os.environ.get("SAPSAM_SCREENSHOTS", "build/screenshots")  # relative: to the checkout
HAND = ["As", "Kd", "Qh", "Jc", "Ts", "9s", "9h", "5c", "5d", "4h", "3s", "2c", "2d"]
RANKS = "AKQJT98765432"

if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
    message = (f"no {CHROMIUM} or {DRIVER}: install Debian's packages chromium and "
               "chromium-driver (make browser)")
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)

from selenium import webdriver  # noqa: E402  (only once the browser is known to be there)
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as seen  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def server():
    import uvicorn

    from sapsam.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < end and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="sapsam-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 "--window-size=1280,1000", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER),
                              options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def post(base, path, body):
    request = urllib.request.Request(base + path, json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


def wait(driver, seconds=120):
    """Wait for a condition; an element the page re-rendered while the condition read it
    (stale) is tried again, as a missing one is."""
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,))


def by_id(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f"[data-testid='{name}']")


def open_page(driver, base, width=1280, height=1000):
    driver.set_window_size(width, height)
    driver.get(base + "/")
    wait(driver).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))


def shot(driver, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def full_height(driver):
    """Resize the window to the page's height, so that a screenshot shows all of it."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(driver.get_window_size()["width"], min(height + 120, 4000))


def test_analyse_a_picked_hand(server, browser):
    open_page(browser, server)
    for card in HAND:
        by_id(browser, f"card-{card}").click()
    assert by_id(browser, "card-count").text == "13/13"
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=ranking]")))
    api = post(server, "/api/best", {"hand": " ".join(HAND), "rules": "standard", "players": 4,
                                     "samples": 4000, "seed": 0})
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=ranking-row]")
    assert len(rows) == len(api["candidates"])
    first = rows[0]
    shown = first.find_element(By.CSS_SELECTOR, "[data-testid=ranking-setting]")
    assert shown.get_attribute("data-setting") == api["candidates"][0]["setting"]
    assert first.find_element(By.CSS_SELECTOR, "[data-testid=ranking-ev]").text == \
        f"{api['candidates'][0]['ev']:+.3f}"
    full_height(browser)
    shot(browser, "analyse")


def paste(driver, cards):
    box = by_id(driver, "paste")
    box.clear()
    box.send_keys(" ".join(cards))
    by_id(driver, "paste-apply").click()


def test_criss_cross_asks_for_the_other_hand(server, browser):
    """Criss-cross deals two hands: the form asks for the other, and the ranking is the API's
    for both; standard hides the field again."""
    other = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"
    open_page(browser, server)
    assert not by_id(browser, "other-hand").is_displayed()
    Select(by_id(browser, "rules")).select_by_value("criss-cross")
    wait(browser, 30).until(lambda d: by_id(d, "other-hand").is_displayed())
    assert by_id(browser, "players").get_attribute("value") == "2"
    paste(browser, HAND)
    by_id(browser, "analyse-run").click()
    wait(browser).until(lambda d: by_id(d, "analyse-error").is_displayed())
    # the other hand is missing: the message names it, not the hand
    assert by_id(browser, "analyse-error").text == "your other hand: 13 cards, got 0"
    by_id(browser, "other-hand").send_keys(other)
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=ranking]")))
    api = post(server, "/api/best", {"hand": " ".join(HAND), "rules": "criss-cross",
                                     "players": 2, "samples": 4000, "seed": 0, "other": other})
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=ranking-row]")
    assert len(rows) == len(api["candidates"])
    assert rows[0].find_element(By.CSS_SELECTOR, "[data-testid=ranking-ev]").text == \
        f"{api['candidates'][0]['ev']:+.3f}"
    Select(by_id(browser, "rules")).select_by_value("standard")
    wait(browser, 30).until(lambda d: not by_id(d, "other-hand").is_displayed())


def test_a_match_ranked_by_the_chance_of_winning_it(server, browser):
    open_page(browser, server)
    Select(by_id(browser, "rules")).select_by_value("first-to-11")
    wait(browser, 30).until(lambda d: by_id(d, "match-score").is_displayed())
    paste(browser, HAND)
    by_id(browser, "match-score").send_keys("8,10,3,6")
    Select(by_id(browser, "samples")).select_by_visible_text("1000")
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=match-ranking]")))
    api = post(server, "/api/best", {"hand": " ".join(HAND), "rules": "first-to-11",
                                     "players": 4, "samples": 1000, "seed": 0, "scores": [8, 10, 3, 6]})
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=match-row]")
    assert len(rows) == len(api["candidates"])
    for row, want in zip(rows, api["candidates"]):
        assert row.find_element(By.CSS_SELECTOR, "[data-testid=match-setting]").get_attribute(
            "data-setting") == want["setting"]
        assert row.find_element(By.CSS_SELECTOR, "[data-testid=match-win]").text == f"{100 * want['win']:.1f}%"
    full_height(browser)
    shot(browser, "match")


def shows(text, value, places):
    """Whether the page's ``text`` is ``value`` to ``places`` decimals.  A loss over 2,000
    samples can be a half exactly (19.8125), which JavaScript's ``toFixed`` rounds up (19.813)
    and Python's format to even (19.812): the two may differ by one in the last place there."""
    return abs(float(text) - value) <= 0.5 * 10 ** -places + 1e-9


def test_train_a_hand_set_by_clicks(server, browser):
    open_page(browser, server)
    browser.execute_script("localStorage.clear()")
    browser.refresh()
    wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    by_id(browser, "tab-train").click()
    by_id(browser, "train-deal").click()
    hand = [b.get_attribute("data-testid").removeprefix("hand-card-") for b in
            browser.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]")]
    assert len(hand) == 13 and len(set(hand)) == 13
    by_rank = sorted(hand, key=lambda c: RANKS.index(c[0]))  # strongest first
    rows = {"back": by_rank[:5], "middle": by_rank[5:10], "front": by_rank[10:]}
    for row, cards in rows.items():
        by_id(browser, f"target-{row}").click()
        for card in cards:
            by_id(browser, f"hand-card-{card}").click()
    assert browser.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]") == []
    by_id(browser, "train-submit").click()
    loss = wait(browser).until(seen.presence_of_element_located(
        (By.CSS_SELECTOR, "[data-testid=train-loss]")))
    setting = " | ".join(" ".join(rows[r]) for r in ("front", "middle", "back"))
    api = post(server, "/api/review", {"hand": " ".join(hand), "setting": setting,
                                       "rules": "standard", "players": 4, "samples": 2000,
                                       "seed": 0})
    assert shows(loss.text, api["loss"], 3)
    assert by_id(browser, "stats-hands").text == "1"
    assert shows(by_id(browser, "stats-loss").text, api["loss"], 3)
    full_height(browser)
    shot(browser, "train")
    # a back filled first: the cards after it go to the middle, beside it, not to the front
    by_id(browser, "train-deal").click()
    by_id(browser, "target-back").click()
    for name in [b.get_attribute("data-testid") for b in
                 browser.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]")][:6]:
        by_id(browser, name).click()
    assert [by_id(browser, f"target-{r}").text.split()[-1] for r in ("front", "middle", "back")] == \
        ["0/3", "1/5", "5/5"]


def test_train_with_the_house_way_as_a_hint(server, browser):
    open_page(browser, server)
    by_id(browser, "tab-train").click()
    by_id(browser, "train-deal").click()
    hand = [b.get_attribute("data-testid").removeprefix("hand-card-") for b in
            browser.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]")]
    by_id(browser, "train-houseway").click()
    wait(browser).until(lambda d: by_id(d, "train-hint").text.startswith("House way:"))
    api = post(server, "/api/houseway", {"hand": " ".join(hand), "rules": "standard",
                                         "players": 4, "samples": 2000, "seed": 0})
    hint = by_id(browser, "train-hint").text
    assert api["houseway"]["decision"] in hint and f"rule {api['houseway']['rule']}" in hint
    if "|" in api["houseway"]["decision"]:  # a setting: the rows hold it, ready to submit
        assert browser.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]") == []
        assert by_id(browser, "train-submit").is_enabled()


def test_train_in_criss_cross_deals_the_other_hand_too(server, browser):
    """Criss-cross: the drill deals two hands, shows the other, and the suggestion and the
    grade are the API's for the hand beside it."""
    open_page(browser, server)
    Select(by_id(browser, "rules")).select_by_value("criss-cross")
    wait(browser, 30).until(lambda d: by_id(d, "players").get_attribute("value") == "2")
    by_id(browser, "tab-train").click()
    by_id(browser, "train-deal").click()
    hand = [b.get_attribute("data-testid").removeprefix("hand-card-") for b in
            browser.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]")]
    other = [c.get_attribute("title") for c in
             by_id(browser, "train-other").find_elements(By.CSS_SELECTOR, ".card")]
    assert len(hand) == len(other) == 13 and not set(hand) & set(other)
    by_id(browser, "train-suggest").click()
    wait(browser).until(lambda d: by_id(d, "train-hint").text.startswith("Best play:"))
    body = {"hand": " ".join(hand), "other": " ".join(other), "rules": "criss-cross", "players": 2,
            "samples": 2000, "seed": 0}
    best = post(server, "/api/best", body)["candidates"]
    assert by_id(browser, "train-hint").text.startswith(f"Best play: {best[0]['setting']}, EV {best[0]['ev']:+.3f}")
    if "|" not in best[0]["setting"]:  # a declaration: the rows are left to the player
        return
    setting = best[0]["setting"]
    for row, cards in zip(("front", "middle", "back"), setting.split("|")):
        placed = [c.get_attribute("data-testid").removeprefix("placed-card-") for c in
                  by_id(browser, f"row-{row}").find_elements(By.CSS_SELECTOR, "[data-testid^=placed-card-]")]
        assert sorted(placed) == sorted(cards.split())
    by_id(browser, "train-submit").click()
    loss = wait(browser).until(seen.presence_of_element_located(
        (By.CSS_SELECTOR, "[data-testid=train-loss]")))
    assert shows(loss.text, post(server, "/api/review", {**body, "setting": setting})["loss"], 3)


def test_review_a_csv_with_a_bad_row(server, browser, tmp_path):
    open_page(browser, server)
    by_id(browser, "tab-review").click()
    good = [(" ".join(HAND), "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"),
            (" ".join(HAND), "9s 9h 4h | 5d 5c 3s 2d 2c | As Kd Qh Jc Ts")]
    bad = ("As As Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d", "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts")
    csv = tmp_path / "night.csv"
    # a blank line before the second hand (line 4), as sapsam review --file reads it
    csv.write_text("hand,setting\n" + "\n".join(f'"{h}","{s}"\n' for h, s in [*good, bad]))
    by_id(browser, "review-file").send_keys(str(csv))
    totals = wait(browser).until(seen.presence_of_element_located(
        (By.CSS_SELECTOR, "[data-testid=review-totals]")))
    # each row sampled with its line's number as the seed (the header is line 1)
    answers = [post(server, "/api/review", {"hand": h, "setting": s, "rules": "standard", "players": 4,
                                            "samples": 2000, "seed": line, "held_out": True})
               for line, (h, s) in zip((2, 4), good)]
    cli = sapsam.review(file=csv, samples=2000).hands[:2]  # sapsam review --file's numbers, both ways
    assert [(h["loss"], h["held_out_loss"]) for h in cli] == [(a["loss"], a["held_out_loss"]) for a in answers]
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=review-row], [data-testid=review-bad-row]")
    assert sorted(row.find_element(By.TAG_NAME, "td").text for row in rows) == ["2", "4", "6"]
    # Export CSV: the rows in the file's order, as review --file's JSON names them
    browser.execute_script("window.download = (name, text) => { window.exported = [name, text]; }")
    by_id(browser, "review-export").click()
    name, text = browser.execute_script("return window.exported")
    exported = list(csv_module.DictReader(io.StringIO(text)))
    assert name == "sapsam-review.csv" and [r["line"] for r in exported] == ["2", "4", "6"]
    assert [float(r["loss"]) for r in exported[:2]] == [a["loss"] for a in answers] and exported[2]["loss"] == ""
    assert [float(r["loss_ci_high"]) for r in exported[:2]] == [a["loss_ci"][1] for a in answers]
    assert [float(r["held_out_ci_low"]) for r in exported[:2]] == [a["held_out_ci"][0] for a in answers]
    frame = sapsam.review(file=csv, samples=2000).to_frame()  # the command's CSV: the same columns
    assert list(frame.reset_index().columns) == [c for c in exported[0] if c in frame.reset_index().columns]
    assert "duplicate" in exported[2]["error"] and exported[2]["hand"] == bad[0]
    losses = [a["loss"] for a in answers]
    # independent estimates: the total's half-width is the root of the sum of the squares
    total, half = sum(losses), math.hypot(*((a["loss_ci"][1] - a["loss_ci"][0]) / 2 for a in answers))
    numbers = re.fullmatch(r"2 reviewed, 1 refused: (\S+) \[(\S+), (\S+)\] units lost in all, "
                           r"(\S+) \[(\S+), (\S+)\] per hand as ranked", totals.text)
    assert numbers, totals.text
    expected = (total, total - half, total + half, total / 2, (total - half) / 2, (total + half) / 2)
    assert all(shows(text, value, 3) for text, value in zip(numbers.groups(), expected)), (totals.text, expected)
    apart = sum(a["held_out_loss"] for a in answers)
    apart_half = math.hypot(*((a["held_out_ci"][1] - a["held_out_ci"][0]) / 2 for a in answers))
    shown = re.fullmatch(r"Measured apart: (\S+) \[(\S+), (\S+)\] units lost in all, .*",
                         by_id(browser, "review-held-out").text)
    assert shown and all(shows(t, v, 3)
                         for t, v in zip(shown.groups(), (apart, apart - apart_half, apart + apart_half)))
    shown = [float(e.text) for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=review-loss]")]
    assert shown == sorted((round(x, 3) for x in losses), reverse=True)  # ranked, largest first
    error = by_id(browser, "review-row-error").text
    assert "hand" in error and "duplicate" in error
    full_height(browser)
    shot(browser, "review")


def test_review_a_criss_cross_csv_with_the_other_hands(server, browser, tmp_path):
    other = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"
    open_page(browser, server)
    Select(by_id(browser, "rules")).select_by_value("criss-cross")
    wait(browser, 30).until(lambda d: by_id(d, "players").get_attribute("value") == "2")
    by_id(browser, "tab-review").click()
    setting = "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"
    csv = tmp_path / "criss-cross.txt"  # as a spreadsheet saves "Unicode text": UTF-16, tabs
    csv.write_text(f'hand\tsetting\tother\r\n"{" ".join(HAND)}"\t{setting}\t{other}\r\n', encoding="utf-16")
    by_id(browser, "review-file").send_keys(str(csv))
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=review-totals]")))
    api = post(server, "/api/review", {"hand": " ".join(HAND), "setting": setting, "other": other,
                                       "rules": "criss-cross", "players": 2, "samples": 2000, "seed": 2})
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=review-loss]")] == \
        [f"{api['loss']:.3f}"]


def test_charts_load(server, browser):
    open_page(browser, server)
    by_id(browser, "tab-charts").click()
    images = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=chart-image]"))
    assert "rulesets" in images[0].get_attribute("src")  # the ruleset comparison first
    for image in images:
        browser.execute_script("arguments[0].scrollIntoView()", image)
        wait(browser).until(lambda d, i=image: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", i))
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "charts")


def test_paigow_tiles_ranked_exactly(server, browser):
    open_page(browser, server)
    by_id(browser, "tab-paigow").click()
    edge = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=paigow-edge] tbody tr"))
    assert len(edge) == 8 and "40.25" in edge[0].text  # the booklet's high 3 (chong)
    Select(by_id(browser, "paigow-high-three")).select_by_value("teen")  # the 6-6 reading
    wait(browser).until(lambda d: "40.73" in d.find_element(
        By.CSS_SELECTOR, "[data-testid=paigow-edge] tbody tr").text)
    assert "topped by the teen" in by_id(browser, "paigow-table").text
    field = by_id(browser, "paigow-tiles")
    field.send_keys("6-6 6-6 6-6 1-1")
    by_id(browser, "paigow-run").click()
    error = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "[data-testid=paigow-error]")))
    assert "more times" in error.text
    field.clear()
    field.send_keys("teen day gee joon eight", Keys.ENTER)  # the form submits on Enter
    rows = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=paigow-row]"))
    assert len(rows) == 3 and "best" in rows[0].text and "gong" in rows[0].text
    assert not by_id(browser, "paigow-error").is_displayed()
    full_height(browser)
    shot(browser, "paigow")
    by_id(browser, "paigow-deal").click()
    assert len(field.get_attribute("value").split()) == 4
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid=paigow-row]")  # not these tiles' answer


def test_paigow_poker_ranked_exactly_with_the_house_way_marked(server, browser):
    """Pai Gow Poker: a short hand is refused in words; seven cards are ranked as the API ranks
    them, the house way's setting marked where it is (not the best: the Foxwoods pair exception
    breaks this flush) and what it gives up; banking ranks them again.  The first hand against
    a house way may build its table (a minute or two)."""
    open_page(browser, server)
    by_id(browser, "tab-paigow_poker").click()
    wait(browser).until(lambda d: len(Select(by_id(d, "pgp-way")).options) == 3)  # the shipped house ways
    field = by_id(browser, "pgp-cards")
    field.send_keys("Jk As Kd Th 9c 3s")
    by_id(browser, "pgp-run").click()
    error = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "[data-testid=pgp-error]")))
    assert "hand needs 7 cards, got 6" in error.text
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid=pgp-row]")
    cards = "As Qd Js Jd 9d 4d 2d"
    for banking in (False, True):
        if banking:
            by_id(browser, "pgp-banking").click()
        field.clear()
        field.send_keys(cards, Keys.ENTER)  # the form submits on Enter
        note = f"house way; {'banking' if banking else 'not banking'},"
        wait(browser, 600).until(lambda d, note=note: note in by_id(d, "pgp-out").text)
        api = post(server, "/api/paigow-poker/best", {"cards": cards, "banking": banking})
        rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=pgp-row]")
        assert len(rows) == len(api["settings"]) > 1
        assert not by_id(browser, "pgp-error").is_displayed()
        for row, s in zip(rows, api["settings"]):
            cells = row.find_elements(By.TAG_NAME, "td")
            assert cells[0].text.startswith(s["high"]["cards"]) and cells[1].text.startswith(s["low"]["cards"])
            assert cells[5].text == f"{s['value']:+.5f}"
            assert ("house way" in cells[6].text) == s["house_way"] and ("best" in cells[6].text) == s["best"]
        marked = [i for i, s in enumerate(api["settings"]) if s["house_way"]]
        assert len(marked) == 1 and marked[0] > 0  # the house way's setting is not the best here
        assert "house way" in rows[marked[0]].text and "best" in rows[0].text
        gives = api["house_way_gives_up"]
        assert gives > 0 and f"gives up {gives:.5f} a unit" in by_id(browser, "pgp-out").text
    full_height(browser)
    shot(browser, "paigow-poker")
    by_id(browser, "pgp-banking").click()  # another question: the last answer goes
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid=pgp-row]")
    by_id(browser, "pgp-deal").click()
    assert len(field.get_attribute("value").split()) == 7


def test_paigow_poker_strategy_chart_shipped(server, browser):
    """The Pai Gow Poker tab's strategy chart: the shipped best-play run's house edges and the
    chart's cost and best play per house way as the API gives them, its departures, and its
    figure drawn; banking shows the banker's side of each."""
    open_page(browser, server)
    by_id(browser, "tab-paigow_poker").click()
    for banking in (False, True):
        if banking:
            Select(by_id(browser, "pgp-chart-side")).select_by_value("true")
        with urllib.request.urlopen(f"{server}/api/paigow-poker/chart?banking={str(banking).lower()}",
                                    timeout=60) as response:
            api = json.loads(response.read())
        side = "banking (copies" if banking else "not banking"
        wait(browser).until(lambda d, side=side: side in by_id(d, "pgp-chart").text)
        rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=pgp-chart-way]")
        assert len(rows) == len(api["house_ways"]) == 3
        for row, w in zip(rows, api["house_ways"]):
            b = w["best_play"]
            assert row.text.startswith(w["house_way"]["name"])
            best = row.find_element(By.CSS_SELECTOR, "[data-testid=pgp-best-play]").text
            assert best == f"{100 * b['edge']:.3f}% ± {100 * b['half_width']:.3f}"
        with urllib.request.urlopen(f"{server}/api/paigow-poker/best-play", timeout=60) as response:
            run = json.loads(response.read())
        edges = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=pgp-best-play-edge]"))
        assert len(edges) == len(run["house_ways"]) == 3
        for row, w in zip(edges, run["house_ways"]):
            r = w["rows"][int(banking)]
            assert row.text.startswith(w["house_way"]["name"])
            assert f"{100 * r['edge']:.3f}% ± {100 * r['half_width']:.3f}" in row.text
        tables = browser.find_elements(By.CSS_SELECTOR, "[data-testid=pgp-chart-rows]")
        assert len(tables) == 3
        browser.execute_script("arguments[0].open = true", tables[0].find_element(By.XPATH, "./../.."))
        first = api["house_ways"][0]["rows"][0]
        assert first["move"] in tables[0].text and first["example"] in tables[0].text
        assert ("published, Foxwoods" in by_id(browser, "pgp-chart").text) is not banking
        image = browser.find_element(By.CSS_SELECTOR, "[data-testid=pgp-chart-figure]")
        assert image.get_attribute("src").endswith(f"banking={str(banking).lower()}")
        browser.execute_script("arguments[0].scrollIntoView()", image)
        wait(browser).until(lambda d, i=image: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", i))
    full_height(browser)
    shot(browser, "paigow-poker-chart")


def test_ofc_board_ranked_played_and_fantasyland(server, browser):
    """An Open-Face decision: the page's ranking equals the API's; playing the best placement
    puts it on the board, keeps the discard as dead and deals the next street; then the
    Fantasyland solver."""
    open_page(browser, server)
    by_id(browser, "tab-ofc").click()
    board, hand = "As Ad | Kc Qc 5d | 9h 9s", "Ah 2c 7d"
    by_id(browser, "ofc-board").send_keys(board)
    by_id(browser, "ofc-hand").send_keys(hand)
    assert len(browser.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-view] .card:not(.empty)")) == 7
    by_id(browser, "ofc-run").click()
    rows = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-row]"))
    api = post(server, "/api/ofc/place", {"board": board, "hand": hand, "samples": 500, "seed": 1})
    best = api["placements"][0]
    assert len(rows) == min(12, len(api["placements"]))
    assert rows[0].find_element(By.CSS_SELECTOR, "[data-testid=ofc-setting]").get_attribute("data-setting") == \
        best["setting"]
    assert rows[0].find_element(By.CSS_SELECTOR, "[data-testid=ofc-ev]").text == f"{best['ev']:+.2f}"
    full_height(browser)
    shot(browser, "ofc")
    rows[0].find_element(By.CSS_SELECTOR, "[data-testid=ofc-play]").click()
    wait(browser).until(lambda d: by_id(d, "ofc-board").get_attribute("value") == best["setting"])
    assert by_id(browser, "ofc-dead").get_attribute("value") == best["discard"]
    dealt = by_id(browser, "ofc-hand").get_attribute("value").split()
    assert len(dealt) == 3 and not set(dealt) & set((best["setting"] + " " + best["discard"]).split())
    wait(browser).until(lambda d: by_id(d, "ofc-run").text == "Rank"  # the next street ranked
                        and d.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-row]"))
    field = by_id(browser, "ofc-fl-cards")
    field.send_keys("As Kd")
    by_id(browser, "ofc-fl-run").click()
    error = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "[data-testid=ofc-fl-error]")))
    assert "13 to 17" in error.text
    field.clear()
    field.send_keys("As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h", Keys.ENTER)
    summary = wait(browser).until(seen.visibility_of_element_located(
        (By.CSS_SELECTOR, "[data-testid=ofc-fl-summary]")))
    assert "Royalties 35; stays in Fantasyland; discard 2d" in summary.text
    # the deal follows the ruleset: classic deals 13, which it then solves
    Select(by_id(browser, "ofc-rules")).select_by_visible_text("ofc-classic")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-fl-summary]")  # not for these rules
    assert by_id(browser, "ofc-fl-deal").text == "Deal 13"
    by_id(browser, "ofc-fl-deal").click()
    assert len(set(field.get_attribute("value").split())) == 13
    by_id(browser, "ofc-fl-run").click()
    summary = wait(browser).until(lambda d: "discard none" in by_id(d, "ofc-fl-summary").text and by_id(
        d, "ofc-fl-summary"))


def test_ofc_against_an_opponent_in_fantasyland(server, browser):
    """The opponent in Fantasyland: offered with the counts the ruleset deals there, the
    ranking the API's for it; a ruleset that does not deal the chosen count takes it back."""
    open_page(browser, server)
    by_id(browser, "tab-ofc").click()
    board, hand = "As Ad | Kc Qc 5d | 9h 9s", "Ah 2c 7d"
    by_id(browser, "ofc-board").send_keys(board)
    by_id(browser, "ofc-hand").send_keys(hand)
    opponent = Select(by_id(browser, "ofc-opponent"))
    offered = lambda: [o.get_attribute("value") for o in opponent.options if o.is_enabled()]  # noqa: E731
    assert offered() == ["", "fantasyland:14"]  # plain Pineapple deals 14 only
    Select(by_id(browser, "ofc-rules")).select_by_visible_text("ofc-pineapple-progressive")
    assert offered() == ["", "fantasyland:14", "fantasyland:15", "fantasyland:16", "fantasyland:17"]
    opponent.select_by_value("fantasyland:17")
    by_id(browser, "ofc-run").click()
    rows = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-row]"))
    api = post(server, "/api/ofc/place", {"board": board, "hand": hand, "samples": 500, "seed": 1,
                                          "rules": "ofc-pineapple-progressive", "opponents": ["fantasyland:17"]})
    assert api["fantasyland"] == [17]
    assert "in Fantasyland with 17 cards" in by_id(browser, "ofc-note").text
    assert rows[0].find_element(By.CSS_SELECTOR, "[data-testid=ofc-ev]").text == f"{api['placements'][0]['ev']:+.2f}"
    gaps = [g.text for g in browser.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-gap]")]
    second = api["placements"][1]
    assert gaps[1].startswith(f"{second['gap']:+.2f} [{second['gap_low']:+.2f}, {second['gap_high']:+.2f}]")
    Select(by_id(browser, "ofc-rules")).select_by_visible_text("ofc-classic")  # deals 13 only
    assert opponent.first_selected_option.get_attribute("value") == "" and offered() == ["", "fantasyland:13"]
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-row]")  # no other ruleset's ranking


def test_phone_width_has_no_sideways_scroll(server, browser):
    open_page(browser, server, width=390, height=844)
    by_id(browser, "paste").send_keys(" ".join(HAND))
    by_id(browser, "paste-apply").click()
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=ranking]")))
    inner = browser.execute_script("return window.innerWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner + 1
    shot(browser, "analyse-phone")
    by_id(browser, "tab-ofc").click()  # the widest tab: a board and its ranking
    by_id(browser, "ofc-board").send_keys("As Ad | Kc Qc 5d | 9h 9s")
    by_id(browser, "ofc-hand").send_keys("Ah 2c 7d", Keys.ENTER)
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=ofc-row]"))
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner + 1
    by_id(browser, "tab-paigow").click()  # its house way's select is wide
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=paigow-edge] tbody tr"))
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner + 1


def test_keyboard_only(server, browser):
    open_page(browser, server)
    tab = by_id(browser, "tab-analyse")
    tab.send_keys(Keys.ARROW_RIGHT)  # arrow keys move between the tabs
    assert by_id(browser, "tab-train").get_attribute("aria-selected") == "true"
    assert browser.switch_to.active_element == by_id(browser, "tab-train")
    by_id(browser, "tab-train").send_keys(Keys.ARROW_LEFT)
    card = by_id(browser, "card-As")
    card.send_keys(Keys.ENTER)  # a card is a real button
    assert card.get_attribute("aria-pressed") == "true"
    card.send_keys(Keys.SPACE)
    assert card.get_attribute("aria-pressed") == "false"
    focusable = browser.execute_script(
        "return [...document.querySelectorAll('#analyse button, #analyse select, #analyse input')]"
        ".every(e => e.tabIndex >= 0)")
    assert focusable


def numbers(text):
    """The signed decimals in a page's text, in order."""
    return [float(x) for x in re.findall(r"[+-]?\d+\.\d+", text)]


def close(text, values, places):
    """Whether ``text`` holds exactly ``values``, each to ``places`` decimals (see ``shows``)."""
    found = numbers(text)
    return len(found) == len(values) and all(shows(str(f), v, places) for f, v in zip(found, values))


def test_monte_carlo_figures_come_with_their_intervals(server, browser):
    """Analyse's headline EV and gaps, and a match's gaps and points, each with the API's
    95% interval beside it in the value's own format."""
    open_page(browser, server)
    paste(browser, HAND)
    Select(by_id(browser, "samples")).select_by_visible_text("1000")
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=ranking]")))
    api = post(server, "/api/best", {"hand": " ".join(HAND), "rules": "standard", "players": 4,
                                     "samples": 1000, "seed": 0})["candidates"]
    head = by_id(browser, "best-ev").text
    assert head.endswith("units per hand") and "[" in head
    assert close(head, [api[0]["ev"], *api[0]["ci"]], 3), head
    gaps = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=ranking-gap]")]
    assert gaps[0] == "best" and len(gaps) == len(api)
    for text, c in zip(gaps[1:], api[1:]):
        assert close(text, [c["gap"], *c["gap_ci"]], 3) and text.endswith("~") is not c["distinguishable"], text
    Select(by_id(browser, "rules")).select_by_value("first-to-11")
    wait(browser, 30).until(lambda d: by_id(d, "match-score").is_displayed())
    paste(browser, HAND)
    by_id(browser, "match-score").send_keys("8,10,3,6")
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=match-ranking]")))
    api = post(server, "/api/best", {"hand": " ".join(HAND), "rules": "first-to-11", "players": 4,
                                     "samples": 1000, "seed": 0, "scores": [8, 10, 3, 6]})["candidates"]
    win = by_id(browser, "match-best-win").text
    assert f"wins it {100 * api[0]['win']:.1f}% [{100 * api[0]['win_ci_low']:.1f}%, " \
        f"{100 * api[0]['win_ci_high']:.1f}%] of the time" in win, win
    gaps = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=match-gap]")]
    points = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=match-points]")]
    assert gaps[0] == "best" and len(gaps) == len(points) == len(api)
    for gap, point, c in zip(gaps, points, api):
        if gap != "best":
            assert close(gap, [100 * c["win_gap"], 100 * c["win_gap_ci_low"], 100 * c["win_gap_ci_high"]], 2), gap
            assert gap.count(".") == 3 and all(len(x.split(".")[1].rstrip("],")) == 2 for x in gap.split()), gap
        assert close(point, [c["points"], c["points_ci_low"], c["points_ci_high"]], 3), point


def set_drill(driver, hand):
    """Deal the drill a known hand (Deal deals at random): the page's own drill, then its view."""
    by_id(driver, "tab-train").click()
    by_id(driver, "train-deal").click()
    driver.execute_script("drill.hand = arguments[0].split(' '); renderDrill()", hand)
    wait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]")) == 13)


def test_train_house_way_hint_gives_its_loss_with_its_interval(server, browser):
    hand = "5c Ts 3c 9d 3s 4h 6h Ah 7h Jc 3d Ac Qd"  # the house way's setting is not the best here
    open_page(browser, server)
    set_drill(browser, hand)
    by_id(browser, "train-houseway").click()
    wait(browser).until(lambda d: by_id(d, "train-hint").text.startswith("House way:"))
    api = post(server, "/api/houseway", {"hand": hand, "rules": "standard", "players": 4, "samples": 2000,
                                         "seed": 0})
    assert api["rank"] > 1
    hint = by_id(browser, "train-hint").text
    given = hint.split("gives up ")[1]
    assert given.endswith("units against the best.")
    assert close(given, [api["loss"], *api["loss_ci"]], 3), hint
    by_id(browser, "train-deal").click()  # a new hand: the old hint goes
    assert by_id(browser, "train-hint").text == ""


@pytest.mark.parametrize("hand, kind", [("Jc 5h 6d Qs 9c 5d 7d 4s 2d Ks 3d As 3h", "surrender"),
                                        ("4h 8s 5h Tc 9c Ts Js 9h 8c Kc Qs 6c As", "natural")])
def test_train_surrender_and_declare_a_natural(server, browser, hand, kind):
    """Where the best play is a declaration, Suggest says so (no rows filled), the declaration
    is graded as the best (of the API's candidates), and the other declaration as what it loses."""
    open_page(browser, server)
    browser.execute_script("localStorage.clear()")
    set_drill(browser, hand)
    body = {"hand": hand, "rules": "standard", "players": 4, "samples": 2000, "seed": 0}
    best = post(server, "/api/best", body)["candidates"]
    assert best[0]["setting"] == "surrender" if kind == "surrender" else best[0]["setting"].startswith("natural")
    by_id(browser, "train-suggest").click()
    wait(browser).until(lambda d: by_id(d, "train-hint").text.startswith("Best play:"))
    assert by_id(browser, "train-hint").text.startswith(f"Best play: {best[0]['setting']}, EV ")
    assert len(browser.find_elements(By.CSS_SELECTOR, "[data-testid^=hand-card-]")) == 13  # no rows filled
    by_id(browser, f"train-{kind}").click()
    loss = wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=train-loss]")))
    assert loss.text == "0.000"
    assert by_id(browser, "train-rank").text == f"The best setting (of {len(best)})."
    assert by_id(browser, "train-yours").text == best[0]["setting"]
    assert by_id(browser, "stats-hands").text == "1"
    if kind == "natural":  # surrendering a natural: graded against it
        set_drill(browser, hand)
        by_id(browser, "train-surrender").click()
        wait(browser).until(lambda d: by_id(d, "train-yours").text == "surrender")
        i = next(i for i, c in enumerate(best) if c["setting"] == "surrender")
        assert shows(by_id(browser, "train-loss").text, -best[i]["gap"], 3)
        assert close(by_id(browser, "train-loss-ci").text, [-best[i]["gap_ci"][1], -best[i]["gap_ci"][0]], 3)
        assert by_id(browser, "train-rank").text.startswith(f"Rank {i + 1} of {len(best)}")
    else:  # no natural in this hand: said so, nothing graded
        set_drill(browser, hand)
        by_id(browser, "train-natural").click()
        error = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "[data-testid=train-error]")))
        assert "no natural" in error.text and not browser.find_elements(By.CSS_SELECTOR, "[data-testid=train-loss]")


def test_no_stale_results(server, browser):
    """A ranking goes when the hand, the ruleset or the table changes; a failed paste leaves no
    hand picked; the house way's hint goes with its hand."""
    open_page(browser, server)
    Select(by_id(browser, "samples")).select_by_visible_text("1000")

    def ranked():
        by_id(browser, "analyse-run").click()
        wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=ranking]")))

    def cleared():
        return not browser.find_elements(By.CSS_SELECTOR, "[data-testid=ranking]") and \
            by_id(browser, "analyse-out").text == ""

    paste(browser, HAND)
    ranked()
    by_id(browser, "analyse-deal").click()
    assert cleared() and by_id(browser, "paste").get_attribute("value") == ""
    ranked()
    by_id(browser, "analyse-clear").click()
    assert cleared() and by_id(browser, "card-count").text == "0/13"
    paste(browser, HAND)
    ranked()
    by_id(browser, "card-As").click()  # a card taken back: another hand
    assert cleared() and by_id(browser, "paste").get_attribute("value") == ""
    by_id(browser, "card-As").click()
    ranked()
    Select(by_id(browser, "players")).select_by_visible_text("3")
    assert cleared()
    ranked()
    Select(by_id(browser, "rules")).select_by_value("two-four")
    wait(browser, 30).until(lambda d: cleared())
    ranked()
    paste(browser, HAND[:12])  # refused: neither the old hand nor its ranking stays
    assert by_id(browser, "analyse-error").text == "a hand is 13 cards, got 12"
    assert cleared() and by_id(browser, "card-count").text == "0/13"
    assert not by_id(browser, "analyse-run").is_enabled()
    Select(by_id(browser, "rules")).select_by_value("first-to-11")
    wait(browser, 30).until(lambda d: by_id(d, "match-score").is_displayed())
    paste(browser, HAND)
    ranked()
    by_id(browser, "match-score").send_keys("8,10,3,6")  # another question: the points' ranking goes
    assert cleared()
    Select(by_id(browser, "rules")).select_by_value("standard")
    by_id(browser, "tab-train").click()
    by_id(browser, "train-deal").click()
    by_id(browser, "train-houseway").click()
    wait(browser).until(lambda d: by_id(d, "train-hint").text.startswith("House way:"))
    by_id(browser, "train-deal").click()
    assert by_id(browser, "train-hint").text == ""


def test_match_scores_one_per_player(server, browser):
    """The match's scores are checked against Players on the page, not used to change it."""
    open_page(browser, server)
    Select(by_id(browser, "rules")).select_by_value("first-to-11")
    wait(browser, 30).until(lambda d: by_id(d, "match-score").is_displayed())
    assert by_id(browser, "players").get_attribute("value") == "4"
    paste(browser, HAND)
    for score in ("8,10,3", "8,10,3,6,1"):
        box = by_id(browser, "match-score")
        box.clear()
        box.send_keys(score)
        by_id(browser, "analyse-run").click()
        error = wait(browser).until(seen.visibility_of_element_located(
            (By.CSS_SELECTOR, "[data-testid=analyse-error]")))
        assert error.text.startswith("give 4 scores, one per player, yours first"), error.text
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-testid=match-ranking]")
    Select(by_id(browser, "players")).select_by_visible_text("3")
    box = by_id(browser, "match-score")
    box.clear()
    box.send_keys("8,10,3")
    Select(by_id(browser, "samples")).select_by_visible_text("1000")
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=match-ranking]")))
    assert "8-10-3" in by_id(browser, "analyse-out").text


def test_review_counts_reviewed_and_refused(server, browser, tmp_path):
    open_page(browser, server)
    by_id(browser, "tab-review").click()
    setting = "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"
    rows = [(" ".join(HAND), setting), ("As As Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d", setting),
            (" ".join(HAND), "5d 5c | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts 4h")]
    csv = tmp_path / "refused.csv"
    csv.write_text("hand,setting\n" + "".join(f'"{h}","{s}"\n' for h, s in rows))
    by_id(browser, "review-file").send_keys(str(csv))
    totals = wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=review-totals]")))
    assert totals.text.startswith("1 reviewed, 2 refused: "), totals.text
    assert by_id(browser, "review-progress").text == "1 reviewed, 2 refused"
    errors = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=review-row-error]")]
    assert len(errors) == 2 and all(errors)


def test_small_things(server, browser):
    """The match chart's caption; an icon so that no favicon.ico is asked for; the ruleset and
    table size shown only on the tabs they serve."""
    open_page(browser, server)
    icon = browser.execute_script("const l = document.querySelector('link[rel=icon]'); return l && l.href")
    assert icon and icon.startswith("data:")
    assert by_id(browser, "rules").is_displayed() and by_id(browser, "players").is_displayed()
    for tab in ("rulesets", "charts", "paigow", "paigow_poker", "ofc"):
        by_id(browser, f"tab-{tab}").click()
        assert not by_id(browser, "rules").is_displayed() and not by_id(browser, "players").is_displayed(), tab
    for tab in ("analyse", "train", "review"):
        by_id(browser, f"tab-{tab}").click()
        assert by_id(browser, "rules").is_displayed() and by_id(browser, "players").is_displayed(), tab
    by_id(browser, "tab-charts").click()
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=chart-image]"))
    with urllib.request.urlopen(f"{server}/api/charts", timeout=60) as response:
        names = [c["name"] for c in json.loads(response.read())]
    captions = [e.get_attribute("textContent") for e in
                browser.find_elements(By.CSS_SELECTOR, "#charts-out figcaption")]
    assert len(captions) == len(names)
    for caption in captions:  # each a sentence, not the chart's name twice
        name = caption.rsplit(" (", 1)[1].rstrip(")")
        assert not caption.startswith(name), caption
    matches = [c for c in captions if "(match-" in c]
    assert matches and all(c.startswith("Playing for the match") for c in matches)


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=60) as response:
        return json.loads(response.read())


def test_what_rulesets_are_worth(server, browser):
    """The Rulesets tab runs a simulate job of the rulesets ticked and shows every seat's EV with
    its interval and each event's rate per 100 hands with its interval, as the job's result has
    them; Cancel stops a long one."""
    open_page(browser, server)
    by_id(browser, "tab-rulesets").click()
    boxes = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=sim-rule]"))
    for box in boxes:
        if box.is_selected() != (box.get_attribute("value") in ("standard", "house")):
            box.click()
    Select(by_id(browser, "sim-seats")).select_by_visible_text("greedy")
    Select(by_id(browser, "sim-tables")).select_by_visible_text("2000")
    by_id(browser, "sim-run").click()
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=sim-table]"))
    job = [j for j in get(server, "/api/jobs") if j["kind"] == "simulate"][-1]
    assert job["state"] == "done" and sorted(job["params"]["rules"]) == ["house", "standard"]
    assert job["params"]["seats"] == ["greedy"] and job["params"]["tables"] == 2000
    seats = job["result"]["seats"]
    assert len(seats) == 8  # two rulesets, four seats
    shown = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=sim-ev]")]
    assert shown == [f"{s['mean']:+.3f}" for s in seats]
    fouls = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-testid=sim-fouls]")]
    for text, seat in zip(fouls, seats):
        rate, low, high = (float(x) for x in re.fullmatch(r"(\S+) \[(\S+), (\S+)\]", text).groups())
        assert abs(rate - 100 * seat["fouls"] / seat["hands"]) < 0.01
        assert abs(low - 100 * seat["fouls_low"]) < 0.01 and abs(high - 100 * seat["fouls_high"]) < 0.01
    assert by_id(browser, "sim-out").find_elements(By.LINK_TEXT, "seats.csv")
    full_height(browser)
    shot(browser, "rulesets")
    # a long one, cancelled
    Select(by_id(browser, "sim-tables")).select_by_visible_text("100000")
    by_id(browser, "sim-run").click()
    wait(browser).until(lambda d: by_id(d, "sim-cancel").is_displayed())
    by_id(browser, "sim-cancel").click()
    wait(browser).until(lambda d: by_id(d, "sim-error").text == "cancelled")
    wait(browser).until(lambda d: [j for j in get(server, "/api/jobs") if j["kind"] == "simulate"][-1]["state"]
                        == "cancelled")
    # a table criss-cross does not deal: the API's refusal, shown, and no job started
    started = len(get(server, "/api/jobs"))
    next(b for b in browser.find_elements(By.CSS_SELECTOR, "[data-testid=sim-rule]")
         if b.get_attribute("value") == "criss-cross").click()
    # the cancelled run lets its button go at its next poll (at most about half a second)
    wait(browser).until(lambda d: by_id(d, "sim-run").is_enabled())
    by_id(browser, "sim-run").click()
    wait(browser).until(lambda d: by_id(d, "sim-error").text.startswith("players:"))
    assert "criss-cross" in by_id(browser, "sim-error").text and len(get(server, "/api/jobs")) == started


def test_the_page_reads_csv_as_review_file_does(server, browser):
    """The Review tab's CSV: semicolons where the header has them, quoted cells, each row's line
    in the text (blank lines counted, a quoted line break too), as read_played numbers them."""
    open_page(browser, server)
    rows = browser.execute_script("return parseCsv(arguments[0]).map((r) => [r.line, ...r])",
                                  'hand;setting\r\n\r\n"a;b";"c\nd"\ne;f\n')
    assert rows == [[1, "hand", "setting"], [4, "a;b", "c\nd"], [5, "e", "f"]]


def test_a_long_request_counts_its_seconds_on_its_button(server, browser):
    """A request that takes seconds shows them on its button (the page's busy(), given work of
    2.5 s), and the button is itself again after it; entered again while busy (work of 1 s
    started over it), the button stays busy until the last work ends."""
    open_page(browser, server)
    browser.execute_script("const b = document.getElementById('analyse-run'); "
                           "const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms)); "
                           "window.long = busy(b, () => wait(2500)); window.short = busy(b, () => wait(1000))")
    browser.execute_script("return window.short")  # waits for the promise: the 1 s work is done
    button = by_id(browser, "analyse-run")
    assert not button.is_enabled() and button.text.startswith("Analyse\u2026")
    wait(browser, 10).until(lambda d: re.fullmatch(r"Analyse\u2026 [12] s", by_id(d, "analyse-run").text))
    browser.execute_script("return window.long")
    wait(browser, 10).until(lambda d: by_id(d, "analyse-run").text == "Analyse")
    assert by_id(browser, "analyse-run").is_enabled()


def test_a_long_ranking_shows_its_best_first_and_the_paste_box_reads_the_api_s_spellings(server, browser):
    """A hand with ~1,800 candidates shows its best 20 rows and a button for the rest (the page
    was 80,000 px tall); the paste box takes '10h', 'Q♠' and lower case as the API does and names
    a card given twice."""
    open_page(browser, server)
    hand = "Jc 5h 6d Qs 9c 5d 7d 4s 2d Ks 3d As 3h"
    typed = hand.replace("Qs", "Q♠").replace("As", "as").replace("Jc", "J♣")
    paste(browser, typed.split())
    assert by_id(browser, "card-count").text == "13/13"
    assert not by_id(browser, "analyse-error").is_displayed()
    Select(by_id(browser, "samples")).select_by_visible_text("1000")
    by_id(browser, "analyse-run").click()
    wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=ranking]")))
    api = post(server, "/api/best", {"hand": hand, "rules": "standard", "players": 4, "samples": 1000, "seed": 0})
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-testid=ranking-row]")
    assert len(rows) == len(api["candidates"]) > 1000
    assert [r.is_displayed() for r in rows[:21]] == [True] * 20 + [False]
    button = by_id(browser, "ranking-all")
    assert f"Show all {len(rows):,}" in button.text
    button.click()
    assert rows[-1].is_displayed() and not browser.find_elements(By.CSS_SELECTOR, "[data-testid=ranking-all]")
    paste(browser, ["10h"] + hand.replace("Th", "").split()[:11] + ["10h"])
    assert "card Th is given twice" in by_id(browser, "analyse-error").text


def test_the_practice_stats_come_with_their_intervals(server, browser):
    """The mean EV lost over the hands practised has its t interval over the hands, and the
    share played best its Wilson interval, as sapsam.base.stats computes them."""
    from sapsam.base.stats import t95, wilson_interval

    open_page(browser, server)
    losses, ranks = [0.1, 0.2, 0.6], [1, 2, 3]
    log = [{"hand": "", "setting": "", "best": "", "loss": x, "loss_lo": x, "loss_hi": x, "rank": r}
           for x, r in zip(losses, ranks)]
    browser.execute_script("localStorage.setItem('sapsam-train', arguments[0])", json.dumps(log))
    browser.refresh()
    wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    by_id(browser, "tab-train").click()
    mean = sum(losses) / 3
    half = t95(2) * (sum((x - mean) ** 2 for x in losses) / 2) ** 0.5 / 3 ** 0.5
    assert by_id(browser, "stats-loss").text == f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]"
    low, high = wilson_interval(1, 3)
    assert by_id(browser, "stats-best").text == f"33% [{round(100 * low)}%, {round(100 * high)}%]"
    browser.execute_script("localStorage.clear()")

"""The player-facing rule book RULES.md (analysis/output/rulesdoc.py): current, complete, and every
section the code and the ruleset files cite ("RULES.md A4", "part C") is in it."""

import re
from pathlib import Path

import pytest

from sapsam.game.ruleset_files import RULESET_DIR, load_ruleset, ruleset_ids
from sapsam.output import rulesdoc

REPO = Path(__file__).resolve().parent.parent
RULES_MD = REPO / "RULES.md"


def committed():
    """The committed RULES.md with Markdown's backslash escapes undone (``004_\\*.txt``)."""
    return re.sub(r"\\(.)", r"\1", RULES_MD.read_text(encoding="utf-8"))


def section(doc, ruleset_id):
    """The part B section of one ruleset: from its heading to the next heading."""
    match = re.search(rf"^### `{re.escape(ruleset_id)}`\n(.*?)(?=^##)", doc, re.M | re.S)
    assert match, f"RULES.md has no section for ruleset {ruleset_id!r}"
    return match[1]


def test_committed_rules_md_is_rendered_from_the_rulesets():
    assert RULES_MD.read_text(encoding="utf-8") == rulesdoc.render(), (
        "RULES.md is out of date: run `python -m sapsam.output.rulesdoc` and commit RULES.md")


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_ruleset_is_documented(ruleset_id):
    rules = load_ruleset(ruleset_id)
    text = section(committed(), ruleset_id)
    for item in (rules.name, rules.describe(), rules.source, *rules.defaults, *rules.options):
        assert item in text, f"RULES.md, ruleset {ruleset_id!r}, lacks: {item}"


def cited_labels():
    """Every RULES.md section label cited in the ruleset files, the README and the code."""
    files = [*RULESET_DIR.glob("*.toml"), REPO / "README.md",
             *(REPO / "analysis").glob("*.py"), *(REPO / "kernels").glob("*.py")]
    labels = set()
    for path in files:
        for cite in re.findall(r"RULES\.md((?:,? (?:part [ABC]|A\d+(?:-A\d+)?)\b)+)",
                               path.read_text(encoding="utf-8")):
            for first, last in re.findall(r"A(\d+)(?:-A(\d+))?", cite):
                labels.update(f"A{n}" for n in range(int(first), int(last or first) + 1))
            labels.update(re.findall(r"part ([ABC])", cite))
    return labels


def test_every_cited_section_exists():
    labels = cited_labels()
    assert {"A1", "A4", "A11", "B", "C"} <= labels  # the search finds the citations
    headings = set(re.findall(r"^#{2,3} ([A-C]\d*)\. ", RULES_MD.read_text(encoding="utf-8"), re.M))
    assert labels <= headings, f"cited but missing from RULES.md: {sorted(labels - headings)}"

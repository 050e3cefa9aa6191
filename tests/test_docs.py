"""The documentation: README.md, the front page, and the site in docs/ (mkdocs.yml).

The site builds in strict mode (a broken link or anchor, a page missing from the nav, an
unknown placeholder or a docstring that does not render fails it), and its pages fill in what
the code knows at build time (docs/hooks.py).  What is typed rather than generated is held to
the code here: README's counts, its examples' output and its performance figures, the
rulesets listed on docs/rulesets.md, the make targets on docs/cli.md, and every ``sapsam ...``
command the pages name.

Without mkdocs and mkdocstrings the build tests skip on a person's machine (one line saying
what to install) and fail under CI (``CI`` set), where ``make test`` installs them.
"""

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from functools import cache
from importlib.resources import files as package_files
from pathlib import Path

import pytest

from sapsam.game.ruleset_files import ruleset_ids

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
MAX_README_LINES = 250
SAPSAM = [sys.executable, "-m", "sapsam"]
COLUMNS = "100"  # the width README's examples were captured at

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_INLINE = re.compile(r"`([^`\n]+)`")
_COMMAND = re.compile(r"^(?:\$\s+)?(?:\S*/)?sapsam\s+([a-z][\w-]*)(?:\s+([a-z][\w-]*))?")


def require_mkdocs():
    missing = [name for name in ("mkdocs", "mkdocstrings", "mkdocstrings_handlers.python")
               if importlib.util.find_spec(name.split(".")[0]) is None
               or importlib.util.find_spec(name) is None]
    if missing:
        message = (f"{', '.join(missing)} not installed: pip install -e '.[docs]' "
                   "(make test installs them)")
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def nav_pages():
    """The pages mkdocs.yml's nav lists, in order."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:"):]
    nav = nav[:re.search(r"\n\S", nav[1:]).start() + 1] if re.search(r"\n\S", nav[1:]) else nav
    return re.findall(r":\s*(\S+\.md)\s*$", nav, re.M)


def run(args, **kwargs):
    env = {**os.environ, "COLUMNS": COLUMNS, "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600,
                          **kwargs)


def lines(text):
    return [line.rstrip() for line in text.strip("\n").splitlines()]


# --- the site -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    require_mkdocs()
    out = tmp_path_factory.mktemp("site")
    built = run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "mkdocs.yml",
                 "-d", str(out)])
    log = built.stdout + built.stderr
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{log}"
    warnings = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    assert not warnings, "\n".join(warnings)
    return out


def test_the_site_builds_strictly_with_every_nav_page(site):
    for page in nav_pages():
        assert (site / page.replace(".md", ".html")).is_file(), f"{page} was not built"
    text = (site / "cli.html").read_text(encoding="utf-8")
    assert "{{" not in text, "a placeholder was left unfilled"


def test_the_nav_lists_every_page_and_every_page_exists():
    pages = nav_pages()
    assert pages[0] == "index.md"
    for page in pages:
        assert (DOCS / page).is_file(), f"mkdocs.yml's nav lists {page}, which is not in docs/"
    on_disk = sorted(p.name for p in DOCS.glob("*.md"))
    assert sorted(pages) == on_disk, "every page in docs/ is in the nav, once"
    for page in ("cli.md", "web.md", "api.md", "rules.md", "ofc.md", "paigow.md",
                 "performance.md", "validation.md", "architecture.md"):
        assert page in pages


def test_the_hook_counts_what_the_code_holds():
    require_mkdocs()
    sys.path.insert(0, str(DOCS))
    try:
        import hooks
    finally:
        sys.path.remove(str(DOCS))
    facts = hooks.facts()
    assert facts["rulesets"] == str(len(ruleset_ids()))
    assert facts["shipped_strategies"] == str(len(shipped_strategies()))
    assert facts["commands"] == str(len(commands()))
    assert facts["game_commands"] == str(sum(len(commands(group)) for group in game_groups()))


def test_the_pages_type_no_count_the_code_knows():
    """The pages write ``{{ rulesets }}`` (filled in by docs/hooks.py), not a number."""
    for page in DOCS.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        typed = re.findall(r"\b(\d+) (?:named )?rulesets\b|\b(\d+) (?:shipped |fitted )?strategies\b",
                           text)
        assert not typed, f"docs/{page.name} types a count: {typed}; use a placeholder"


# --- facts typed in README and the pages ------------------------------------------------------


def shipped_strategies():
    return sorted(p.name for p in package_files("sapsam.play.strategies").iterdir()
                  if p.name.endswith(".npz"))


@cache
def commands(group=()):
    """The commands ``sapsam GROUP --help`` lists."""
    shown = run([*SAPSAM, *group, "--help"])
    assert shown.returncode == 0, shown.stderr
    listed = shown.stdout[shown.stdout.index("Commands:"):]
    return re.findall(r"^  ([a-z][\w-]*)", listed, re.M)


def game_groups():
    from sapsam.games import GAMES

    return [(game.command,) for game in GAMES]


def test_readme_is_a_front_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_README_LINES
    for page in ("docs/cli.md", "docs/web.md", "docs/api.md", "docs/performance.md",
                 "docs/validation.md", "docs/ofc.md", "docs/paigow.md", "docs/rulesets.md"):
        assert f"]({page})" in text, f"README links {page}"
    for command in ("make demo", "make test", "make docs"):
        assert command in text


def test_readme_counts_equal_the_code():
    text = README.read_text(encoding="utf-8")
    facts = {
        r"(\d+) named rulesets": len(ruleset_ids()),
        r"(\d+) fitted strategies ship": len(shipped_strategies()),
        r"command line has (\d+) commands": len(commands()),
    }
    for pattern, count in facts.items():
        found = re.findall(pattern, text)
        assert found, f"README no longer says {pattern!r}: drop it here too"
        assert {int(n) for n in found} == {count}, f"README: {pattern!r} is {count}, not {found}"


def test_the_rulesets_page_lists_every_named_ruleset_in_order():
    text = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| \[`([\w-]+)`\]\(rules\.md#\1\) \|", text, re.M)
    assert listed == ruleset_ids()


def test_every_make_target_is_on_the_command_line_page():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = re.search(r"^\.PHONY:(.*)$", makefile, re.M).group(1).split()
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    missing = [t for t in targets if f"`make {t}`" not in page]
    assert not missing, f"docs/cli.md's make targets lack {missing}"


def named_commands(text):
    """(command, subcommand or None) for each ``sapsam ...`` in the code of a Markdown text."""
    found = []
    for _, block in _FENCE.findall(text):
        for line in block.splitlines():
            if match := _COMMAND.match(line.strip()):
                found.append(match.groups())
    prose = _FENCE.sub("", text)
    for span in _INLINE.findall(prose):
        if match := _COMMAND.match(span.strip()):
            found.append(match.groups())
    return found


def test_every_command_the_pages_name_is_a_real_command():
    top = set(commands())
    groups = {name: set(commands((name,))) for (name,) in game_groups()}
    assert set(groups) <= top
    pages = [README, *sorted(DOCS.glob("*.md"))]
    seen = 0
    for page in pages:
        for command, sub in named_commands(page.read_text(encoding="utf-8")):
            seen += 1
            where = page.relative_to(ROOT)
            assert command in top, f"{where} names `sapsam {command}`, which is no command"
            if command in groups and sub is not None:
                assert sub in groups[command], f"{where} names `sapsam {command} {sub}`"
    assert seen > 50  # the parse found the tour's commands


# --- README's examples and figures ------------------------------------------------------------


def readme_examples():
    """(command line, output) of README's ``text`` blocks that begin with ``$ sapsam``."""
    out = []
    for kind, block in _FENCE.findall(README.read_text(encoding="utf-8")):
        if kind == "text" and block.startswith("$ sapsam "):
            first, _, rest = block.partition("\n")
            out.append((first[2:], rest))
    return out


@pytest.mark.parametrize("command, output", readme_examples(),
                         ids=[command.split('"')[0].strip() for command, _ in readme_examples()])
def test_readme_examples_are_what_the_commands_print(command, output):
    args = shlex.split(command)
    assert args[0] == "sapsam"
    shown = run([*SAPSAM, *args[1:]])
    assert shown.returncode == 0, shown.stderr
    assert lines(shown.stdout) == lines(output), f"README's `{command}` prints:\n{shown.stdout}"


def test_readme_python_example_prints_what_it_shows():
    blocks = _FENCE.findall(README.read_text(encoding="utf-8"))
    kinds = [kind for kind, _ in blocks]
    at = kinds.index("python")
    code, (kind, output) = blocks[at][1], blocks[at + 1]
    assert kind == "text"
    shown = run([sys.executable, "-c", code])
    assert shown.returncode == 0, shown.stderr
    assert lines(shown.stdout) == lines(output), f"README's Python example prints:\n{shown.stdout}"


def benchmark_medians():
    """results/benchmarks.md: benchmark name -> its median column as written."""
    table = {}
    for row in (ROOT / "results" / "benchmarks.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] not in ("benchmark", "---"):
            table[cells[0]] = cells[3]
    return table


README_FIGURES = {  # README's words before a figure -> the benchmark whose median it is
    r"([\d,.]+) M five-card hands evaluated a\s+second": "rank5 serial, 1,000,000 hands",
    r"Pareto frontier in ([\d.]+) µs": "pareto_frontier, per deal, 500 deals",
    r"10,000 sampled tables in ([\d.]+) s": "best setting of one hand, 10,000 sampled tables (fitted)",
    r"house-edge\s+table in ([\d.]+) s": "paigow exact house-edge table, 8 rows",
    r"17-card Fantasyland hand solved exactly in ([\d.]+) ms":
        "ofc fantasyland solver, 17 cards, mean of 200 random hands",
    r"rollouts\) in ([\d.]+) s on two threads \(`make bench`'s median":
        "ofc place first street: 232 placements, 500 samples, heads-up",
    r"([\d.]+)x its time\s+for a hand with a 160-member frontier":
        "best, 10,000 fitted 4-player tables, Ac Ks Qd 9h 8d 7s 7h 7d 5s 5h 4c 3h 3c (160 frontier "
        "members), as a share of the yardstick's time",
}


def test_readme_performance_figures_are_the_benchmark_table():
    text = " ".join(README.read_text(encoding="utf-8").split())  # a figure's words may wrap anywhere
    medians = benchmark_medians()
    for pattern, name in README_FIGURES.items():
        match = re.search(pattern, text)
        assert match, f"README no longer says {pattern!r}: drop it here too"
        assert name in medians, f"results/benchmarks.md has no row {name!r}"
        assert match.group(1) == medians[name], (
            f"README says {match.group(1)} where results/benchmarks.md's median of {name!r} is "
            f"{medians[name]}: copy the new figure into README's Performance")

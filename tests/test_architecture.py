"""The layers and wings of ARCHITECTURE.md: imports run only downward and never in a circle,
and every game beside the 13-card core is a wing that only the registry names.

The one import package is ``sapsam``: the repository's ``analysis/`` is ``sapsam`` and its
``kernels/`` is ``sapsam.kernels`` (pyproject.toml's ``package-dir``).  Every ``import`` in them
counts, those inside functions too (the command line imports lazily, so that ``--help`` loads
no Numba; a lazy import is still a dependency).  A wing ``sapsam.<game>`` has the core's inner
layers: its module ``sapsam.<game>.<layer>`` (or a module in that folder) sits in the core's
layer of that name, and may import the core and its own wing at that layer or below.
"""

import ast
import re
from pathlib import Path

import pytest

from sapsam.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
# bottom to top: a module may import its own layer and the ones before it
LAYERS = ("kernels", "base", "games", "game", "play", "strategy", "measure", "output", "api",
          "compile", "web", "cli")
TOP = ("sapsam", "sapsam.__main__")  # the package's face and ``python -m sapsam``: above all
# the part of a game the registry names, and the highest layer it may come from
PART_LAYERS = {"commands": "cli", "routes": "web", "page": "web", "kernels": "measure", "warm": "measure"}
MAX_LINES = 400


def folders(root):
    """The import names of the repository's folders (pyproject.toml's ``package-dir``)."""
    return {"sapsam": root / "analysis", "sapsam.kernels": root / "kernels"}


def modules(root=None):
    """Every module of the package: {dotted name: path}."""
    root = root or ROOT
    found = {}
    for package, folder in folders(root).items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            found[".".join((package, *parts))] = path
    return found


def wing(name, games):
    """The game whose wing holds module ``name`` (None for the core)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in games else None


def layer(name, games):
    """Index of a module's layer in :data:`LAYERS`; ``len(LAYERS)`` above them all; None for a
    package root or a module outside every layer."""
    if name in TOP:
        return len(LAYERS)
    parts = name.split(".")[1:]
    if parts and parts[0] in games:
        parts = parts[1:]
    return LAYERS.index(parts[0]) if parts and parts[0] in LAYERS else None


def imports(name, path, known):
    """The project modules ``name`` imports, anywhere in its file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from sapsam.output import plots" imports the module sapsam.output.plots
            targets = [f"{node.module}.{alias.name}" for alias in node.names]
            targets = [t if t in known else node.module for t in targets]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


def graph(root=None):
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def game_names():
    return {game.name for game in GAMES}


def test_every_module_has_a_layer():
    games = game_names()
    loose = [name for name in modules() if layer(name, games) is None
             and name not in {f"sapsam.{g}" for g in games}]
    assert not loose, f"modules outside the layers of ARCHITECTURE.md: {loose}"


def test_imports_run_only_downward(root=None):
    games = game_names()
    names = (*LAYERS, "top")
    upward = [f"{name} ({names[layer(name, games)]}) imports {target} ({names[layer(target, games)]})"
              for name, targets in graph(root).items()
              if layer(name, games) is not None and layer(name, games) < len(LAYERS)
              for target in targets if layer(target, games) is not None
              and layer(target, games) > layer(name, games)]
    assert not upward, "imports that run upward:\n" + "\n".join(upward)


def test_no_import_cycles(root=None):
    edges = graph(root)
    cycles, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                cycles.append(" -> ".join(stack[stack.index(target):] + [target]))
            elif target not in state:
                visit(target, stack + [target])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_game_imports_another_game(root=None):
    games = game_names()
    crossing = [f"{name} imports {target}" for name, targets in graph(root).items()
                for target in targets
                if wing(name, games) and wing(target, games) and wing(target, games) != wing(name, games)]
    assert not crossing, "a game importing another game:\n" + "\n".join(crossing)


def test_only_the_registry_names_a_game(root=None):
    """The core imports no game: it asks :mod:`sapsam.games` for their parts."""
    games = game_names()
    naming = [f"{name} imports {target}" for name, targets in graph(root).items()
              if not wing(name, games) and name not in TOP
              for target in targets if wing(target, games)]
    assert not naming, "the core importing a game (ask sapsam.games instead):\n" + "\n".join(naming)


def test_base_knows_no_game():
    """``base/`` imports nothing of a game, the registry's included, and names none."""
    games = game_names()
    edges = graph()
    words = re.compile(r"\b(" + "|".join(sorted(games)) + r")\b", re.IGNORECASE)
    for name, path in modules().items():
        if layer(name, games) != LAYERS.index("base") or wing(name, games):
            continue
        outside = [t for t in edges[name] if layer(t, games) != LAYERS.index("base")]
        assert not outside, f"{name} imports {outside}: base knows no game"
        assert not words.search(path.read_text()), f"{name} names a game"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_registry_names_each_part_in_its_own_wing_and_layer(game):
    """Each part is ``module:attribute`` inside the game's own package, at or below the layer
    of the caller that loads it, and loads."""
    games = game_names()
    for part, top in PART_LAYERS.items():
        module = getattr(game, part).partition(":")[0]
        assert wing(module, games) == game.name, f"{game.name}.{part} names {module}, outside its wing"
        assert layer(module, games) <= LAYERS.index(top), f"{game.name}.{part}: {module} is above {top}"
        assert game.load(part) is not None
    assert game.rulebook_text().lstrip().startswith("## "), "a rulebook part is a Markdown section"


def test_every_package_beside_the_core_is_a_registered_game():
    """A game is a package and one registry line: no wing the registry does not list."""
    packages = {p.name for p in (ROOT / "analysis").iterdir() if (p / "__init__.py").is_file()}
    assert packages - set(LAYERS) == game_names()


def test_no_module_imports_a_folder_name():
    """Code imports ``sapsam``, never the repository's folder names ``analysis`` or ``kernels``
    (they are not installed: a user's own ``analysis/`` would shadow them)."""
    bad = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom) and not getattr(node, "level", 0):
                heads = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                bad += [f"{name}: {h}" for h in heads if h.split(".")[0] in ("analysis", "kernels")]
    assert not bad, "imports by folder name:\n" + "\n".join(bad)


def test_the_command_line_holds_no_analysis():
    """cli modules, the core's and every game's, parse and print: no kernels, numpy or Numba of
    their own."""
    games = game_names()
    for name, path in modules().items():
        if layer(name, games) != LAYERS.index("cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                bad = [n for n in names if n.split(".")[0] in ("numba", "numpy")
                       or n.startswith("sapsam.kernels") or ".kernels" in n]
                assert not bad, f"{name} imports {bad}: analysis belongs below the cli"


@pytest.mark.parametrize("path", sorted((ROOT / "analysis").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_file_is_too_long(path):
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines (at most {MAX_LINES})"


def test_the_checker_sees_each_fault(tmp_path):
    """The checks above can fail: a made-up package with an upward import, a cycle, a game
    importing another and the core importing a game is caught on each."""
    a, b = sorted(game_names())[:2]
    texts = {"analysis/base/a.py": "from sapsam.game import b\n",
             "analysis/game/b.py": "import sapsam.base.a\n",
             f"analysis/{a}/measure.py": f"from sapsam.{b} import game\n",
             f"analysis/{b}/game.py": "\n",
             "analysis/output/c.py": f"from sapsam.{a} import measure\n"}
    for sub, text in texts.items():
        (tmp_path / sub).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / sub).write_text(text)
    (tmp_path / "kernels").mkdir()
    with pytest.raises(AssertionError, match="sapsam.base.a .base. imports sapsam.game.b"):
        test_imports_run_only_downward(tmp_path)
    with pytest.raises(AssertionError, match="import cycles"):
        test_no_import_cycles(tmp_path)
    with pytest.raises(AssertionError, match=f"sapsam.{a}.measure imports sapsam.{b}.game"):
        test_no_game_imports_another_game(tmp_path)
    with pytest.raises(AssertionError, match=f"sapsam.output.c imports sapsam.{a}.measure"):
        test_only_the_registry_names_a_game(tmp_path)

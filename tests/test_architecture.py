"""The layers of ARCHITECTURE.md: imports run only downward and never in a circle.

Every ``import`` in ``kernels/`` and ``analysis/`` counts, those inside functions too (the
command line imports lazily, so that ``--help`` loads no Numba; a lazy import is still a
dependency).
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# bottom to top: a module may import its own layer and the ones before it
LAYERS = ("kernels", "analysis.base", "analysis.game", "analysis.play", "analysis.strategy",
          "analysis.measure", "analysis.output", "analysis.web", "analysis.cli")
MAX_LINES = 400


def modules():
    """Every module of the two packages: {dotted name: path}."""
    found = {}
    for package in ("kernels", "analysis"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def layer(name):
    """Index of a module's layer in :data:`LAYERS` (None for the package roots)."""
    for i, prefix in enumerate(LAYERS):
        if name == prefix or name.startswith(prefix + "."):
            return i
    return None


def imports(name, path, known):
    """The project modules ``name`` imports, anywhere in its file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from analysis.output import plots" imports the module analysis.output.plots
            targets = [f"{node.module}.{alias.name}" for alias in node.names]
            targets = [t if t in known else node.module for t in targets]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


def graph():
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_module_has_a_layer():
    loose = [name for name in modules() if layer(name) is None
             and name not in ("analysis", "kernels")]
    assert not loose, f"modules outside the layers of ARCHITECTURE.md: {loose}"


def test_imports_run_only_downward():
    upward = [f"{name} ({LAYERS[layer(name)]}) imports {target} ({LAYERS[layer(target)]})"
              for name, targets in graph().items() if layer(name) is not None
              for target in targets if layer(target) is not None and layer(target) > layer(name)]
    assert not upward, "imports that run upward:\n" + "\n".join(upward)


def test_no_import_cycles():
    edges = graph()
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


def test_the_command_line_holds_no_analysis():
    """cli modules parse and print: no kernels, numpy or Numba of their own."""
    for path in sorted((ROOT / "analysis" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                bad = [n for n in names if n.split(".")[0] in ("kernels", "numba", "numpy")]
                assert not bad, f"{path.name} imports {bad}: analysis belongs below the cli"


@pytest.mark.parametrize("path", sorted((ROOT / "analysis").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_file_is_too_long(path):
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines (at most {MAX_LINES})"


def test_the_checker_sees_a_cycle_and_an_upward_import(tmp_path, monkeypatch):
    """The checks above can fail: a made-up package with both faults is caught."""
    pkg = tmp_path / "analysis"
    for sub, text in {"base/a.py": "from analysis.game import b\n",
                      "game/b.py": "import analysis.base.a\n"}.items():
        (pkg / sub).parent.mkdir(parents=True, exist_ok=True)
        (pkg / sub).write_text(text)
    (tmp_path / "kernels").mkdir()
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    with pytest.raises(AssertionError, match="analysis.base.a .analysis.base. imports analysis.game.b"):
        test_imports_run_only_downward()
    with pytest.raises(AssertionError, match="import cycles"):
        test_no_import_cycles()

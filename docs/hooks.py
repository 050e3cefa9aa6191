"""MkDocs hooks of sapsam's documentation site (mkdocs.yml's ``hooks``).

The pages hold what a person writes; what the code or a generated file knows is filled in here
at build time, so that it cannot go stale:

- ``{{ NAME }}``: a fact counted from the code (:func:`facts`: the named rulesets, the shipped
  strategies, the commands...).  tests/test_docs.py checks README.md's typed numbers against
  the same function.
- ``{{ include "PATH" }}`` (``shift=N`` lowers its headings N levels): a repository file
  (RULES.md, ARCHITECTURE.md, kernels/README.md, results/benchmarks.md, CHANGELOG.md), read at
  build time.  Its links to files that are pages of the site point at those pages; links to
  other repository files become plain text, so that the strict build holds every link it keeps.
- ``{{ command_table }}`` and ``{{ command_reference }}``: every command of the ``sapsam`` group,
  walked from the click group (the wings' groups included), with its one-line help and its
  whole ``--help``.
- ``{{ api_module }}``, ``{{ game_apis }}`` and ``{{ api_reference }}``: mkdocstrings blocks
  (``::: module``) for ``sapsam.api``, each game's ``api`` module (the registry's games), and
  each module of the package's other public names (``sapsam._PUBLIC``).
- ``{{ web_routes }}``: the REST API's endpoints, from the web app's OpenAPI schema.
- Images and PDFs under ``results/`` that a page links (``results/charts/x.png``) are copied
  into the site from the repository.

An unknown ``{{ ... }}`` fails the build.  Nothing here reaches the network.
"""

import importlib.util
import posixpath
import re
import sys
from collections import Counter
from functools import cache
from importlib.resources import files as package_files
from pathlib import Path

import click
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]

# repository files that are pages of the site (or parts of one): a link to one goes there
PAGES = {
    "README.md": "index.md",
    "RULES.md": "rules.md",
    "ARCHITECTURE.md": "architecture.md",
    "kernels/README.md": "architecture.md#kernels",
    "results/benchmarks.md": "performance.md#the-benchmark-table",
    "CHANGELOG.md": "changelog.md",
}
COPIED = (".png", ".svg", ".pdf", ".jpg")  # repository files a page may link, copied into the site
HELP_WIDTH = 100

_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)((?:\s+[^}]*)?)\s*\}\}")
_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~)")


@cache
def facts():
    """What the documentation counts, from the code: name -> text."""
    from sapsam.cli import main
    from sapsam.game.ruleset_files import load_ruleset, ruleset_ids

    ids = ruleset_ids()
    tables = [(rid, players) for rid in ids for players in load_ruleset(rid).tables]
    shipped = sorted(p.name for p in package_files("sapsam.play.strategies").iterdir()
                     if p.name.endswith(".npz"))
    houseways = sorted(p.name for p in package_files("sapsam.strategy.houseways").iterdir()
                       if p.name.endswith(".json"))
    ofc_rules = sorted(p.name for p in package_files("sapsam.ofc.rulesets").iterdir()
                       if p.name.endswith(".toml"))
    ofc_files = sorted(p.name for p in package_files("sapsam.ofc.strategies").iterdir()
                       if p.name.endswith(".json"))
    ofc_learned = [name for name in ofc_files if name.startswith("learned-")]  # the learned policy's
    ofc_shipped = [name for name in ofc_files if name not in ofc_learned]  # the improved heuristic's
    from sapsam.web import requests as limits

    commands = all_commands(main)
    groups = [path for path, command in commands if isinstance(command, click.Group)]
    by_players = Counter(players for _, players in tables)
    return {
        "rulesets": str(len(ids)),
        "ruleset_ids": ", ".join(f"`{rid}`" for rid in ids),
        "tables": str(len(tables)),
        "shipped_strategies": str(len(shipped)),
        "tables_2p": str(by_players[2]), "tables_3p": str(by_players[3]),
        "tables_4p": str(by_players[4]),
        "houseways": str(len(houseways)),
        "houseway_rulesets": str(len({name.rsplit("-", 1)[0] for name in houseways})),
        "ofc_rulesets": str(len(ofc_rules)),
        "ofc_ruleset_ids": ", ".join(f"`{name[:-5]}`" for name in ofc_rules),
        "ofc_strategies": str(len(ofc_shipped)),
        "ofc_learned": str(len(ofc_learned)),
        "commands": str(sum(1 for path, _ in commands if len(path) == 1)),
        "game_commands": str(sum(1 for path, _ in commands if len(path) == 2)),
        "groups": ", ".join(f"`sapsam {' '.join(path)}`" for path in groups),
        # the web app's caps on one request (sapsam.web.requests)
        "web_max_samples": f"{limits.MAX_SAMPLES:,}", "web_max_tables": f"{limits.MAX_TABLES:,}",
        "web_max_deals": f"{limits.MAX_DEALS:,}", "web_max_body": f"{limits.MAX_BODY // 1024} KiB",
    }


def all_commands(group, path=()):
    """(path, command) for every command under ``group``, depth first, as ``--help`` lists them."""
    ctx = click.Context(group, info_name="sapsam")
    out = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        out.append(((*path, name), command))
        if isinstance(command, click.Group):
            out.extend(all_commands(command, (*path, name)))
    return out


def command_help(path):
    """The ``--help`` text of ``sapsam PATH...``, at a fixed width."""
    from sapsam.cli import main

    ctx = click.Context(main, info_name="sapsam", terminal_width=HELP_WIDTH,
                        max_content_width=HELP_WIDTH)
    command = main
    for name in path:
        command = command.get_command(ctx, name)
        ctx = click.Context(command, info_name=name, parent=ctx, terminal_width=HELP_WIDTH,
                            max_content_width=HELP_WIDTH)
    return command.get_help(ctx)


def anchor(path):
    return "sapsam-" + "-".join(path)


def commands_table():
    from sapsam.cli import main

    rows = ["| command | what it does |", "|---|---|"]
    for path, command in all_commands(main):
        text = command.get_short_help_str(limit=200).replace("|", "\\|")
        rows.append(f"| [`sapsam {' '.join(path)}`](#{anchor(path)}) | {text} |")
    return "\n".join(rows)


def command_reference():
    from sapsam.cli import main

    parts = []
    for path, _ in all_commands(main):
        name = "sapsam " + " ".join(path)
        parts.append(f"### `{name}` {{#{anchor(path)}}}\n\n```text\n$ {name} --help\n"
                     f"{command_help(path).rstrip()}\n```\n")
    return "\n".join(parts)


def api_reference():
    """A block per module of the package's public names other than ``sapsam.api``'s."""
    import sapsam

    modules = {}
    for name, module in sapsam._PUBLIC.items():
        if module != "sapsam.api":
            modules.setdefault(module, []).append(name)
    parts = []
    for module, names in modules.items():
        members = "".join(f"\n        - {name}" for name in names)
        parts.append(f"### `{module}`\n\n::: {module}\n    options:\n      members:{members}\n")
    return "\n".join(parts)


def api_module():
    """The ``sapsam.api`` block, where the module exists."""
    if importlib.util.find_spec("sapsam.api") is None:
        return "*(`sapsam.api` is not in this version.)*"
    return "::: sapsam.api\n"


def game_apis():
    """A section per other game (the registry's) with an ``api`` module."""
    from sapsam.games import GAMES

    parts = []
    for game in GAMES:
        module = f"{game.package}.api"
        if importlib.util.find_spec(module) is not None:
            parts.append(f"## {game.title}: `{module}`\n\n::: {module}\n")
    return "\n".join(parts)


def web_routes():
    """The REST API's endpoints, from the app's own OpenAPI schema (the games' routes included)."""
    import tempfile

    from sapsam.web.app import create_app

    with tempfile.TemporaryDirectory(prefix="sapsam-docs-") as root:
        app = create_app(job_root=root)
        try:
            paths = app.openapi()["paths"]
        finally:
            app.state.jobs.shutdown()
    rows = ["| method | path | what it answers |", "|---|---|---|"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            summary = operation.get("summary", "").replace("|", "\\|")
            rows.append(f"| {method.upper()} | `{path}` | {summary} |")
    return "\n".join(rows)


def include(argument, page):
    match = re.fullmatch(r'\s*"([^"]+)"(?:\s+shift=(\d))?\s*', argument)
    if not match:
        raise PluginError(f'{page}: write {{{{ include "PATH" }}}} or {{{{ include "PATH" shift=N }}}}')
    name, shift = match.group(1), int(match.group(2) or 0)
    path = ROOT / name
    if not path.is_file():
        raise PluginError(f"{page}: {{{{ include {name!r} }}}}: no such file in the repository")
    return rewrite(path.read_text(encoding="utf-8"), name, shift)


def rewrite(text, name, shift=0):
    """A repository file's text as part of a page: headings lowered ``shift`` levels, links to
    pages of the site pointed at them, links to other repository files made plain text."""
    here = posixpath.dirname(name)
    out, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            if shift and line.startswith("#"):
                line = "#" * shift + line
            line = _LINK.sub(lambda m: _relink(m, here), line)
        out.append(line)
    return "\n".join(out) + "\n"


def _relink(match, here):
    bang, text, target = match.groups()
    if re.match(r"[a-z]+:|#", target):  # a URL, or an anchor in the same page
        return match.group(0)
    path, _, fragment = target.partition("#")
    path = posixpath.normpath(posixpath.join(here, path))
    if path in PAGES:
        page = PAGES[path]
        return f"{bang}[{text}]({page.split('#')[0]}#{fragment})" if fragment else f"{bang}[{text}]({page})"
    if path.endswith(COPIED) and (ROOT / path).is_file():
        return f"{bang}[{text}]({path})"
    return f"`{text}`" if re.fullmatch(r"[\w./-]+", text) else text  # a bare path reads as code


class ReadableDocstrings:
    """A griffe extension (mkdocs.yml's mkdocstrings ``extensions``) that makes the docstrings,
    written for the terminal and Sphinx's roles, read well as Markdown: :func:`readable`."""

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None:
            obj.docstring.value = readable(obj.docstring.value)

    def __getattr__(self, name):  # every other event of griffe.Extension: nothing to do
        if name.startswith("on_"):
            return lambda **kwargs: None
        raise AttributeError(name)


_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj):`(~?)([^`]+)`")
_JOINT = re.compile(r"(\w+(?:, \w+)+) : (.+)")
_SECTION_RULE = re.compile(r"-{3,}")


def readable(text):
    """A docstring as Markdown: a Sphinx role (``:func:`~sapsam.api.best```) becomes code
    (`` `best` ``); numpy-style parameters given together (``samples, seed : int``) become one
    entry each, so that each shows its own default; and a run of doctest lines (``>>>``,
    ``...``, the output) outside an ``Examples`` section becomes a ``pycon`` code block instead
    of Markdown (where ``frame.iloc[0]["setting"]`` reads as a link)."""
    text = _ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`",
                     text)
    lines, out, section, block = text.splitlines(), [], None, False
    i = 0
    while i < len(lines):
        line, stripped = lines[i], lines[i].strip()
        if i + 1 < len(lines) and stripped and _SECTION_RULE.fullmatch(lines[i + 1].strip()):
            section = stripped
        joint = _JOINT.fullmatch(line) if section in ("Parameters", "Other Parameters") else None
        if joint:
            description = []
            while i + 1 < len(lines) and lines[i + 1].startswith((" ", "\t")):
                i += 1
                description.append(lines[i])
            for name in joint.group(1).split(", "):
                out.extend([f"{name} : {joint.group(2)}", *description])
            i += 1
            continue
        if not block and stripped.startswith(">>>") and section != "Examples":
            out.append("```pycon")
            block = True
        elif block and not stripped:
            out.append("```")
            block = False
        out.append(line)
        i += 1
    if block:
        out.append("```")
    return "\n".join(out)


# --- the hooks ---------------------------------------------------------------------------


@event_priority(100)  # before mkdocstrings makes its handler, which copies sys.path
def on_config(config):
    """Keep griffe (mkdocstrings) from taking the console script for the package: run as
    ``.venv/bin/mkdocs``, Python puts that folder first on ``sys.path``, and there a file named
    ``sapsam`` (the command) shadows the package ``sapsam`` that the API page documents."""
    sys.path[:] = [p for p in sys.path if not (Path(p or ".") / "sapsam").is_file()]
    return config


def on_files(files, config):
    """Copy the repository's images and PDFs that the pages link into the site."""
    wanted = set()
    for file in files.documentation_pages():
        for _, _, target in _LINK.findall(Path(file.abs_src_path).read_text(encoding="utf-8")):
            path = target.partition("#")[0]
            if path.startswith("results/") and path.endswith(COPIED):
                wanted.add(path)
    for path in sorted(wanted):
        if not (ROOT / path).is_file():
            raise PluginError(f"a page links {path}, which is not in the repository")
        if files.get_file_from_path(path) is None:
            files.append(File.generated(config, path, abs_src_path=str(ROOT / path)))
    return files


def on_page_markdown(markdown, page, config, files):
    """Fill the placeholders of a page."""
    def fill(match):
        name, argument = match.group(1), match.group(2)
        if name == "include":
            return include(argument, page.file.src_uri)
        if argument.strip():
            raise PluginError(f"{page.file.src_uri}: {{{{ {name} }}}} takes no argument")
        if name == "command_table":
            return commands_table()
        if name == "command_reference":
            return command_reference()
        if name == "api_reference":
            return api_reference()
        if name == "api_module":
            return api_module()
        if name == "game_apis":
            return game_apis()
        if name == "web_routes":
            return web_routes()
        known = facts()
        if name not in known:
            raise PluginError(f"{page.file.src_uri}: unknown placeholder {{{{ {name} }}}}; "
                              f"known: {', '.join(sorted(known))}")
        return known[name]

    return _PLACEHOLDER.sub(fill, markdown)

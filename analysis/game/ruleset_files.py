"""Ruleset files: TOML with inheritance, read with errors that name the file, the key and what
is allowed, and written back.

On disk a ruleset is one TOML file (``analysis/game/rulesets/<id>.toml`` for the named ones);
``extends = "<id or path>"`` inherits another file, tables merging key by key and arrays
replaced whole.

>>> rules = load_ruleset("pagat-typical")
>>> dict(rules.royalties.front)
{<Category.TRIPS: 'trips'>: 3}
"""

import re
import tomllib
from enum import StrEnum
from pathlib import Path

import pydantic

from sapsam.game.rules import Ruleset

RULESET_DIR = Path(__file__).with_name("rulesets")
_CATALOGUE = ("basic", "two-four", "one-six", "pagat-typical", "pagat-sweep", "pagat-middle",
              "pagat-overall", "pagat-extras", "pagat-surrender", "pagat-pool",
              "pusoy-single-winner", "house", "malayan", "vietnamese", "singapore",
              "hawaiian-gardens", "standard", "taiwanese", "low-middle", "criss-cross",
              "first-to-11")


class RulesetError(ValueError):
    """A ruleset id or file that cannot be used; the message names file, key and allowed values."""


def ruleset_ids():
    """Ids of the named rulesets, in catalogue order (RULES.md part B)."""
    return [p.stem for p in sorted(RULESET_DIR.glob("*.toml"), key=_catalogue_order)]


def load_ruleset(name):
    """A ruleset by id (``"standard"``) or by path to a TOML file; another game's (by its id,
    what it extends or the id it names) is refused as that game's."""
    data, path = read_ruleset(str(name), RULESET_DIR)
    try:
        return build_ruleset(Ruleset, data, path)
    except RulesetError:
        _another_games(data.get("id"), f"{path}: ")
        raise


def build_ruleset(kind, data, path):
    """``kind(**data)``, its validation errors naming the file and the keys."""
    try:
        return kind(**data)
    except pydantic.ValidationError as exc:
        raise RulesetError(_explain(exc, path)) from None
    except TypeError as exc:  # a field given twice or a missing required one
        raise RulesetError(f"{path}: {exc}") from None


def read_ruleset(name, folder):
    """The data of a ruleset file by id (a file in ``folder``) or by path, with its
    ``extends`` resolved, and the file's path."""
    return _resolve(name, (), folder)


def _resolve(name, chain, folder):
    path = _locate(name, chain, folder)
    if path in chain:
        cycle = " -> ".join(p.name for p in (*chain, path))
        raise RulesetError(f"{chain[-1]}: key 'extends': cycle of extends ({cycle})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: {_syntax_error(exc, path)}") from None
    except UnicodeDecodeError:
        raise RulesetError(f"{path}: not a ruleset file: TOML is UTF-8 text, and this is not") from None
    parent = data.pop("extends", None)
    if parent is None:
        return data, path
    if not isinstance(parent, str):
        raise RulesetError(f"{path}: key 'extends' must be a ruleset id or a file path")
    base, _ = _resolve(parent, (*chain, path), folder)
    for key in ("id", "name", "source", "defaults", "options"):  # never inherited
        base.pop(key, None)
    return _merge(base, data), path


def _syntax_error(exc, path):
    """TOML syntax error with the key of the offending line, when the line has one."""
    match = re.search(r"line (\d+)", str(exc))
    if match:
        lines = path.read_text(encoding="utf-8").splitlines()
        number = int(match[1])
        line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
        key = line.split("=", 1)[0].strip() if "=" in line else ""
        if key:
            return f"key '{key}' (line {number}): not valid TOML: {exc}"
    return f"not valid TOML: {exc}"


def _locate(name, chain, folder):
    named = folder / f"{name}.toml"
    if named.is_file():
        return named
    candidate = Path(name)
    if not candidate.is_absolute() and chain:
        candidate = chain[-1].parent / candidate
    if candidate.suffix == ".toml" and candidate.is_file():
        return candidate.resolve()
    where = f"{chain[-1]}: key 'extends': " if chain else ""
    if candidate.suffix == ".toml":
        raise RulesetError(f"{where}no ruleset file {candidate}: "
                           + ("it is a folder" if candidate.is_dir() else "it does not exist"))
    ids = sorted(p.stem for p in folder.glob("*.toml")) if folder != RULESET_DIR else ruleset_ids()
    if folder == RULESET_DIR:
        _another_games(name, where)
    raise RulesetError(f"{where}unknown ruleset {name!r}: use a TOML file path or one of "
                       f"{', '.join(ids)}")


def _another_games(rid, where):
    """Refuse ``rid`` if it is the id of a ruleset of another game (Open-Face's), where an
    unknown id or a list of unknown keys would leave the user guessing."""
    from sapsam.games import game_of_ruleset

    game = game_of_ruleset(rid) if isinstance(rid, str) else None
    if game is not None:
        raise RulesetError(f"{where}{rid!r} is a ruleset of {game.title}: use it with 'sapsam {game.command}', "
                           f"or one of the 13-card rulesets here ({', '.join(ruleset_ids()[:3])}, ...: "
                           "sapsam rules)")


def _merge(base, override):
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _explain(exc, path):
    lines = []
    for err in exc.errors():
        key = ".".join(str(part) for part in err["loc"]) or "(top level)"
        message = err["msg"]
        if err["type"] == "unexpected_keyword_argument" or err["type"] == "extra_forbidden":
            message = "unknown key"
        elif err["type"] == "missing_argument" or err["type"] == "missing":
            message = "required key is missing"
        elif err["type"] in ("out_of_range", "not_integer"):  # "<value> is out of range: ..."
            lines.append(f"key '{key}' = {message}")
            continue
        lines.append(f"key '{key}': {message}")
    return f"{path}: " + "; ".join(lines)


def _catalogue_order(path):
    return (_CATALOGUE.index(path.stem) if path.stem in _CATALOGUE else len(_CATALOGUE), path.stem)


def as_dict(rules):
    """A ruleset as plain data (enums as their strings), the shape of its TOML file."""
    from dataclasses import asdict

    def plain(value):
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return str(value) if isinstance(value, StrEnum) else value

    data = plain(asdict(rules))
    relevant = {"six-pairs": "six_pairs_counts", "three-straights": "front_straight_ace",
                "four-trips": "quads_as_trips", "small": "max_rank", "big": "min_rank"}
    for hand in data["naturals"]["hands"]:
        for option in set(relevant.values()) - {relevant.get(hand["kind"])}:
            del hand[option]
        if not hand["same_tier"]:
            del hand["same_tier"]
    return data


def as_toml(rules):
    """A ruleset in full as TOML text (every key, defaults included), read back unchanged."""
    import tomli_w

    return tomli_w.dumps(as_dict(rules), multiline_strings=False, indent=2)


def shipped_tables():
    """(ruleset id, players) of each named ruleset at each table size it is played at: the
    tables a strategy ships for."""
    return [(rid, players) for rid in ruleset_ids() for players in load_ruleset(rid).tables]


if __name__ == "__main__":  # `python -m sapsam.game.ruleset_files --tables`, for the Makefile
    import sys

    if sys.argv[1:] != ["--tables"]:
        sys.exit("usage: python -m sapsam.game.ruleset_files --tables")
    for rid, players in shipped_tables():
        print(rid, players)

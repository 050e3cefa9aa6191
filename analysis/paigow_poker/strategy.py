"""House ways as data: the TOML files in ``houseways/`` (one per casino, each naming its
source) read into the flat arrays of :class:`sapsam.paigow_poker.kernels.houseway.HouseWay`.

Every error names the file, the key and what is allowed::

    houseways/foxwoods.toml: two_pair.rules[1].if_front: 'Z' is not a rank; allowed: one or
    two ranks of 23456789TJQKA, highest first ('A', 'AK', 'AJ')

A file holds ``name``, ``casino``, ``source``, ``note``, ``unstated`` (the sections its source
does not state, filled as the file says) and the sections of :data:`SECTIONS`.
"""

import functools
import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import numpy as np

from sapsam.paigow_poker.kernels.houseway import HouseWay

RANKS = "23456789TJQKA"
NEVER, ALWAYS = (13, 13), (-1, -1)
TOP_KEYS = ("name", "casino", "source", "note", "unstated")
SECTIONS = {
    "two_pair": ("rules",),
    "three_of_a_kind": ("split",),
    "four_of_a_kind": ("rules",),
    "full_house": ("rules",),
    "five_aces": ("pair_in_front",),
    "straights_and_flushes": ("pair_exception", "exception_only_if_front_improves"),
}
RULE_KEYS = {"two_pair": ("big", "small", "play", "if_front"),
             "four_of_a_kind": ("quads", "play", "if_front"),
             "full_house": ("pair", "play", "if_front")}


class HouseWayError(ValueError):
    """A house-way file that cannot be read: the message names the file, the key and what
    is allowed."""


@dataclass(frozen=True)
class HouseWayFile:
    """One house way: its names, source and the kernel's arrays (:attr:`arrays`)."""

    id: str
    name: str
    casino: str
    source: str
    note: str
    unstated: tuple
    arrays: HouseWay = field(repr=False, compare=False)

    def to_dict(self):
        return {"id": self.id, "name": self.name, "casino": self.casino, "source": self.source,
                "note": self.note, "unstated": list(self.unstated)}


def folder():
    return files("sapsam.paigow_poker").joinpath("houseways")


def house_way_ids():
    """The shipped house ways' ids (file stems), Foxwoods first."""
    ids = sorted(Path(str(p)).stem for p in folder().iterdir() if str(p).endswith(".toml"))
    return sorted(ids, key=lambda i: i != "foxwoods")


class _Reader:
    def __init__(self, label):
        self.label = label

    def fail(self, key, problem, allowed):
        raise HouseWayError(f"{self.label}: {key}: {problem}; allowed: {allowed}")

    def keys(self, table, key, allowed):
        if not isinstance(table, dict):
            self.fail(key, f"is {type(table).__name__}, not a table", "a table of " + ", ".join(allowed))
        for k in table:
            if k not in allowed:
                self.fail(f"{key}.{k}" if key else k, "unknown key", ", ".join(allowed))

    def ranks(self, text, key, allow_empty=False):
        if not isinstance(text, str):
            self.fail(key, f"{text!r} is not a string", "ranks such as \"A K Q J\"")
        found = []
        for token in text.replace(",", " ").split():
            if token.upper() not in RANKS:
                self.fail(key, f"{token!r} is not a rank", f"ranks of {RANKS} (10 is T), e.g. \"A K Q J\"")
            if RANKS.index(token.upper()) in found:
                self.fail(key, f"{token!r} is given twice", "each rank once, e.g. \"A K Q J\"")
            found.append(RANKS.index(token.upper()))
        if not found and not allow_empty:
            self.fail(key, "no ranks", f"ranks of {RANKS}, e.g. \"A K Q J\"")
        return found

    def threshold(self, rule, key):
        play = rule.get("play")
        if play not in ("split", "together"):
            self.fail(f"{key}.play", f"{play!r}", "'split' or 'together'")
        if play == "split":
            if "if_front" in rule:
                self.fail(f"{key}.if_front", "a split has no condition", "if_front only with play = 'together'")
            return NEVER
        text = rule.get("if_front")
        if text is None:
            return ALWAYS
        if not isinstance(text, str) or not 1 <= len(text) <= 2 or any(c not in RANKS for c in text.upper()) \
                or (len(text) == 2 and RANKS.index(text[0].upper()) <= RANKS.index(text[1].upper())):
            self.fail(f"{key}.if_front", f"{text!r} is not a front",
                      f"one or two ranks of {RANKS}, highest first ('A', 'AK', 'AJ')")
        ranks = [RANKS.index(c) for c in text.upper()]
        return (ranks[0], ranks[1] if len(ranks) == 2 else -1)

    def rules(self, section, data, cover):
        """Each (main rank, other rank) of ``cover`` -> threshold, from the first rule matching."""
        key = f"{section}.rules"
        rules = data.get("rules")
        if not isinstance(rules, list):
            self.fail(key, "missing or not a list", "a list of tables {" + ", ".join(RULE_KEYS[section]) + "}")
        main, other = RULE_KEYS[section][:2]
        parsed = []
        for i, rule in enumerate(rules):
            here = f"{key}[{i}]"
            self.keys(rule, here, RULE_KEYS[section])
            if main not in rule:
                self.fail(f"{here}.{main}", "missing", f"ranks of {RANKS}")
            mains = self.ranks(rule[main], f"{here}.{main}")
            others = self.ranks(rule[other], f"{here}.{other}") if other in rule and section == "two_pair" else None
            parsed.append((mains, others, self.threshold(rule, here)))
        table = {}
        for case in cover:
            for mains, others, threshold in parsed:
                if case[0] in mains and (others is None or case[1] in others):
                    table[case] = threshold
                    break
            else:
                if section != "full_house":
                    what = (f"two pair, {RANKS[case[0]]}s and {RANKS[case[1]]}s" if section == "two_pair"
                            else f"four {RANKS[case[0]]}s")
                    self.fail(key, f"no rule for {what}", "rules that cover every case")
        return table


def read_house_way(path, ident=None):
    """A house way from a TOML file (a path); raises :class:`HouseWayError`."""
    path = Path(path)
    label = f"houseways/{path.name}" if ident else str(path)
    reader = _Reader(label)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise HouseWayError(f"{label}: not TOML: {exc}") from None
    except UnicodeDecodeError:
        raise HouseWayError(f"{label}: not TOML: TOML is UTF-8 text, and this is not") from None
    reader.keys(data, "", (*TOP_KEYS, *SECTIONS))
    for k in (*TOP_KEYS, *SECTIONS):
        if k not in data:
            reader.fail(k, "missing", "every one of " + ", ".join((*TOP_KEYS, *SECTIONS)))
    for section, keys in SECTIONS.items():
        reader.keys(data[section], section, keys)
    if not isinstance(data["unstated"], list) or any(u not in SECTIONS for u in data["unstated"]):
        reader.fail("unstated", f"{data['unstated']!r}", "a list of sections: " + ", ".join(SECTIONS))

    two_pair = np.full((13, 13, 2), 13, dtype=np.int8)
    for (big, small), t in reader.rules("two_pair", data["two_pair"],
                                        [(b, s) for b in range(13) for s in range(b)]).items():
        two_pair[big, small] = t
    quads = np.full((13, 2), 13, dtype=np.int8)
    for (q, _), t in reader.rules("four_of_a_kind", data["four_of_a_kind"], [(q, 0) for q in range(13)]).items():
        quads[q] = t
    full_house = np.full((13, 2), 13, dtype=np.int8)
    for (p, _), t in reader.rules("full_house", data["full_house"], [(p, 0) for p in range(13)]).items():
        full_house[p] = t
    trips_split = np.zeros(13, dtype=np.bool_)
    trips_split[reader.ranks(data["three_of_a_kind"].get("split", ""), "three_of_a_kind.split", True)] = True
    five = data["five_aces"].get("pair_in_front")
    five_min = 13 if five == "none" else reader.ranks(five, "five_aces.pair_in_front")[0]
    straights = data["straights_and_flushes"]
    exception = np.zeros(13, dtype=np.bool_)
    exception[reader.ranks(straights.get("pair_exception", ""), "straights_and_flushes.pair_exception",
                           True)] = True
    improves = straights.get("exception_only_if_front_improves", True)
    if not isinstance(improves, bool):
        reader.fail("straights_and_flushes.exception_only_if_front_improves", f"{improves!r}", "true or false")
    params = np.array([five_min, int(improves)], dtype=np.int8)
    arrays = HouseWay(two_pair, quads, trips_split, full_house, exception, params)
    for k in ("name", "casino", "source", "note"):
        if not isinstance(data[k], str) or not data[k].strip():
            reader.fail(k, "missing or empty", "a non-empty string")
    return HouseWayFile(ident or path.stem, data["name"], data["casino"], data["source"],
                        " ".join(data["note"].split()), tuple(data["unstated"]), arrays)


@functools.cache
def house_way(ident="foxwoods"):
    """A shipped house way by id (``"foxwoods"``), or a TOML file by path."""
    if ident in house_way_ids():
        return read_house_way(Path(str(folder().joinpath(f"{ident}.toml"))), ident)
    path = Path(ident)
    if path.suffix == ".toml" and path.is_file():
        return read_house_way(path)
    raise HouseWayError(f"unknown house way {ident!r}; allowed: {', '.join(house_way_ids())} "
                        "or the path of a .toml file")

"""The registry of games beside the 13-card core: the one place that names them.

Each game is a package of its own, a *wing* (``sapsam.paigow``, ``sapsam.ofc``), with the
core's inner layers (``kernels``, ``game``, ``play``, ``strategy``, ``measure``, ``output``,
``web``, ``cli``), depending on the shared core and never on another game.  The command
line, the web app, the compile warm-up, the kernel-cache check and the rule book ask this
registry for the games' parts instead of naming them.  A part is named ``"module:attribute"``
and imported when first asked for, so that the registry sits low in the layers (it imports
nothing of sapsam) and a caller loads only the layer it may: the command line a game's
commands, the web app its routes (``tests/test_architecture.py`` checks each name's layer).

Adding a game is a package under ``sapsam/`` and one entry in :data:`GAMES`.
"""

from dataclasses import dataclass
from importlib import import_module
from importlib.resources import files


@dataclass(frozen=True)
class Game:
    """One game's parts, each ``"module:attribute"`` within its package ``sapsam.<name>``."""

    name: str       #: the package; its command group and API prefix are :attr:`command`
    title: str      #: as a person writes it
    commands: str   #: the click group of its commands (layer ``cli``)
    routes: str     #: its web routes, a FastAPI ``APIRouter`` (layer ``web``)
    kernels: str    #: a function giving the Numba dispatchers its commands compile (``measure``)
    warm: str       #: a function compiling them on tiny runs, for ``sapsam compile`` (``measure``)
    page: str       #: its part of the web page, a :class:`sapsam.web.page.Page` (``web``)
    rulebook: str   #: its part of RULES.md, a Markdown file in its package
    rulesets: str = ""  #: the folder in its package of its ruleset files (``<id>.toml``), if any

    @property
    def package(self):
        return f"sapsam.{self.name}"

    @property
    def command(self):
        """The command group (``sapsam COMMAND``) and the web API's prefix (``/api/COMMAND/``):
        the name, an underscore written as a hyphen (``paigow_poker`` -> ``paigow-poker``)."""
        return self.name.replace("_", "-")

    def load(self, part):
        """The object a part names, imported now: ``game.load("commands")``."""
        module, _, attribute = getattr(self, part).partition(":")
        return getattr(import_module(module), attribute)

    def rulebook_text(self):
        """Its part of RULES.md."""
        return files(self.package).joinpath(self.rulebook).read_text(encoding="utf-8")

    def ruleset_ids(self):
        """The ids of its named rulesets (none without :attr:`rulesets`)."""
        if not self.rulesets:
            return []
        folder = files(self.package).joinpath(self.rulesets)
        return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def game_of_ruleset(rid):
    """The game beside the 13-card core whose named ruleset ``rid`` is, or None."""
    return next((game for game in GAMES if rid in game.ruleset_ids()), None)


GAMES = (
    Game("paigow", "Pai Gow tiles", commands="sapsam.paigow.cli:paigow_command",
         routes="sapsam.paigow.web:router", kernels="sapsam.paigow.measure:compiled_kernels",
         warm="sapsam.paigow.measure:warm", page="sapsam.paigow.web:page", rulebook="rules.md"),
    Game("ofc", "Open-Face Chinese Poker", commands="sapsam.ofc.cli:ofc_command",
         routes="sapsam.ofc.web:router", kernels="sapsam.ofc.measure.compile:compiled_kernels",
         warm="sapsam.ofc.measure.compile:warm", page="sapsam.ofc.web:page", rulebook="rules.md",
         rulesets="rulesets"),
    Game("paigow_poker", "Pai Gow Poker", commands="sapsam.paigow_poker.cli:paigow_poker_command",
         routes="sapsam.paigow_poker.web:router", kernels="sapsam.paigow_poker.measure.exact:compiled_kernels",
         warm="sapsam.paigow_poker.measure.exact:warm", page="sapsam.paigow_poker.web:page",
         rulebook="rules.md"),
)

"""The web page, assembled: the core's ``static/index.html`` with every game's tab, panel and
script put in at its three markers, so that a game's part of the page lives in its own package
(its ``web.html`` and ``web.js``) and the registry says which games there are."""

from dataclasses import dataclass
from pathlib import Path

INDEX = Path(__file__).with_name("static") / "index.html"
MARKERS = ("<!-- each game's script (sapsam.web.page) -->", "<!-- each game's tab -->",
           "<!-- each game's panel -->")


@dataclass(frozen=True)
class Page:
    """A game's part of the page: its tab's label, its panel (a ``<section id=NAME>`` holding
    its controls) and the URL of its script, which runs after the core's ``app.js``."""

    label: str
    panel: str
    script: str

    @classmethod
    def beside(cls, module_file, label, script):
        """The page of a game whose panel is the ``web.html`` beside its web module."""
        return cls(label, Path(module_file).with_name("web.html").read_text(encoding="utf-8"), script)


def assemble(pages, index=INDEX):
    """The page's HTML with ``pages`` ({game name: Page}) in it, in the registry's order.

    >>> html = assemble({"demo": Page("Demo", '<section id="demo"></section>', "/games/demo.js")})
    >>> 'data-testid="tab-demo">Demo</button>' in html and '<script src="/games/demo.js" defer>' in html
    True
    """
    html = index.read_text(encoding="utf-8")
    scripts = "\n".join(f'<script src="{p.script}" defer></script>' for p in pages.values())
    tabs = "\n".join(f'    <button role="tab" id="tab-{name}" aria-controls="{name}" aria-selected="false" '
                     f'tabindex="-1" data-testid="tab-{name}">{p.label}</button>' for name, p in pages.items())
    panels = "\n".join(p.panel for p in pages.values())
    for marker, part in zip(MARKERS, (scripts, tabs, panels)):
        assert marker in html, f"{index} lost its marker {marker}"
        html = html.replace(marker if marker != MARKERS[1] else "    " + marker, part)
    return html

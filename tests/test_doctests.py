"""The examples in the package's docstrings run, under the name a user imports them by
(``sapsam...``; pytest's ``--doctest-modules`` would import the repository's folders under
their folder names instead)."""

import doctest
import importlib
import pkgutil

import pytest

import sapsam


def _modules():
    for info in pkgutil.walk_packages(sapsam.__path__, "sapsam."):
        yield info.name
    for info in pkgutil.walk_packages(importlib.import_module("sapsam.kernels").__path__, "sapsam.kernels."):
        yield info.name


def _with_examples():
    """The modules with at least one example that runs (not marked ``+SKIP``)."""
    found = []
    finder = doctest.DocTestFinder()
    for name in sorted(set(_modules())):
        module = importlib.import_module(name)
        if any(not example.options.get(doctest.SKIP)
               for test in finder.find(module, name) for example in test.examples):
            found.append(name)
    return found


@pytest.mark.parametrize("name", _with_examples())
def test_the_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False, report=True)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (above)"

"""Numba's cache of compiled kernels, as a user meets it: is it warm for a command's kernels.

Kernels compile on first use (a minute or two for all of them) and Numba caches the machine
code: beside the kernels' source (``kernels/__pycache__``) where the package folder can be
written, as in a virtual environment, and in the user's cache folder where it cannot (a
system-wide install; ``NUMBA_CACHE_DIR`` chooses another place).  Later runs load it in
about a second.  :func:`analysis.measure.warmup.warm` compiles everything the commands use,
once, so that no command pays for it (``sapsam compile``; ``make demo`` and ``make test`` run
it).
"""


def cached(dispatchers, **arguments):
    """Whether every Numba dispatcher given has machine code in its cache for this source.

    With ``arguments`` (a parameter's name and a value), machine code for that value's type,
    in the dispatchers that take that parameter: a kernel is compiled once per type of such an
    argument (``search``, :func:`kernels.policies.search_mode`), and one may be cached without
    the other."""
    import inspect

    for dispatcher in dispatchers:
        try:
            index = dispatcher._cache._cache_file._load_index()
            names = list(inspect.signature(dispatcher.py_func).parameters)
            wanted = {names.index(name): dispatcher.typeof_pyval(value)
                      for name, value in arguments.items() if name in names}
            # an index key starts with the argument types it was compiled for
            if not any(all(key[0][i] == kind for i, kind in wanted.items()) for key in index):
                return False
        except (AttributeError, OSError, EOFError, ValueError, IndexError, TypeError):
            return True  # Numba's internals moved: say nothing rather than something wrong
    return True


def best_kernels():
    """What ``best`` and the commands built on its sampler (``review``, ``exploit``, a house
    way's hand, matches) compile whatever the opponents: the sampler, their decisions compiled
    into it; which of its routes, :func:`analysis.measure.best.sampler_search` says."""
    from kernels import montecarlo

    return (montecarlo.sample_block,)


def simulate_kernels():
    from kernels import simulate

    return (simulate.simulate_block,)


def policy_kernels():
    from kernels import policies, settings, value

    return policies.play_chunk, value._frontier_values, settings._frontier_batch_parallel


def hand_kernels():
    from kernels import low_settings, settings, settle

    return (settings.count_legal, settings.pareto_frontier, settle.settle_into,
            low_settings.low_pareto_frontier)


def paigow_kernels():
    from kernels import paigow

    return paigow.strength, paigow.setting_strengths, paigow.exact_counts


def match_kernels():
    """What ``sapsam match`` compiles: the seats' decisions and matches played out."""
    from kernels import match, policies

    return match.play_out, policies.play_chunk


def match_equity_kernels():
    """What ranking a hand by the chance of winning a match adds to ``best``'s sampler
    (``best --score``): the match equity of a field and after a deal."""
    from kernels import match

    return match.equity, match.equity_after


def ofc_kernels():
    from kernels import ofc, ofc_simulate

    return (ofc.best_fantasyland, ofc.stay_counts, ofc.settle_boards, ofc_simulate.simulate_blocks,
            ofc_simulate.place_rollouts)


def all_kernels():
    return (best_kernels() + simulate_kernels() + policy_kernels() + hand_kernels()
            + paigow_kernels() + match_kernels() + match_equity_kernels() + ofc_kernels())



"""Numba kernels: arrays and scalars in, arrays out. No pandas, no plotting, no I/O.

Public entry points (see each module for conventions):

- :mod:`sapsam.kernels.evaluate`: ``rank5``, ``rank3``, ``eval5``, ``eval3``, ``to_packed``,
  ``from_packed``; strengths are dense ordinals 0..7916 on one 3-/5-card scale.
- :mod:`sapsam.kernels.settings`: ``split_strengths``, ``split_strengths_batch``, ``count_legal``,
  ``pareto_frontier``, ``pareto_frontier_batch`` over the 72,072 splits of sorted hands.
"""

from sapsam.kernels.evaluate import (
                              N_STRENGTHS,
                              STRENGTH_DTYPE,
                              eval3,
                              eval5,
                              from_packed,
                              rank3,
                              rank5,
                              to_packed,
)
from sapsam.kernels.settings import (
                              N_SPLITS,
                              count_legal,
                              pareto_frontier,
                              pareto_frontier_batch,
                              split_strengths,
                              split_strengths_batch,
)

__all__ = ["N_SPLITS", "N_STRENGTHS", "STRENGTH_DTYPE", "count_legal", "eval3", "eval5",
           "from_packed", "pareto_frontier", "pareto_frontier_batch", "rank3", "rank5",
           "split_strengths", "split_strengths_batch", "to_packed"]

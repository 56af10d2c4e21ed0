"""The benchmark scripts' timer: the median wall time of repeated runs, and the last run's result."""

from __future__ import annotations

import time
from typing import Callable, TypeVar

import numpy as np

R = TypeVar("R")


def median_time(run: Callable[[], R], repeats: int) -> tuple[float, R]:
    """``run()`` ``repeats`` times (at least once): the median of its wall times in seconds, and
    what its last call returned."""
    times = []
    for _ in range(max(repeats, 1)):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result

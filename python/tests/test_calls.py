"""How a call runs: Ctrl-C (a real SIGINT, in a subprocess) ends any long call within a tenth of
a second or so with ``KeyboardInterrupt`` and leaves the process working; a call on one row costs
about the same whatever ``threads`` says (no pool built per call); ``threads=-1`` is every core."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import timeit

import numpy as np
import pytest

import raysweep as rs

#: Set-up shared by the subprocesses: a scene of 2·10^5 balls and many long lines through it.
SETUP = """
import time, numpy as np, raysweep as rs
rng = np.random.default_rng(1)
n = 200_000
scene = rs.Scene(spheres=(rng.uniform(0, 100, (n, 3)), np.full(n, 1.0)))
o = rng.uniform(0, 100, (4_000_000, 3))
d = rng.standard_normal((4_000_000, 3))
grid = rs.Grid([0.0, 0.0, 0.0], [0.5, 0.5, 0.5], [200, 200, 200])
core = rs.InstancedScene([scene], np.zeros(400, np.int64), rng.uniform(0, 2000, (400, 3)))
big = (rng.uniform(0, 1000, (3_000_000, 3)), np.full(3_000_000, 0.5))
"""

#: Calls that run for seconds, each interrupted in its own process.
CALLS = {
    "ray_spans": "scene.ray_spans(o, d)",
    "cast_rays on one thread": "scene.cast_rays(o, d, threads=1)",
    "nearest": "scene.nearest(o)",
    "backproject": "grid.backproject(np.ones(len(o)), o, d)",
    "instanced ray_spans": "core.ray_spans(o, d)",
    "building a scene": "rs.Scene(spheres=big)",
}


@pytest.mark.parametrize("call", list(CALLS), ids=list(CALLS))
def test_ctrl_c_interrupts_a_long_call(call):
    script = SETUP + textwrap.dedent(
        f"""
        print("ready", flush=True)
        start = time.time()
        try:
            result = {CALLS[call]}
        except KeyboardInterrupt:
            print("interrupted", time.time(), flush=True)
            # The process goes on working: a short call answers.
            print("after", scene.cast_rays(o[:5], d[:5]).distance.shape[0], flush=True)
        else:
            print("finished", time.time() - start, flush=True)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.8)
        sent = time.time()
        os.kill(child.pid, signal.SIGINT)
        line = child.stdout.readline().split()
        assert line[0] == "interrupted", f"{call} ran to its end: {line}"
        latency = float(line[1]) - sent
        assert latency < 0.25, f"{call}: {latency:.3f} s from SIGINT to KeyboardInterrupt"
        assert child.stdout.readline().split() == ["after", "5"]
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()


def test_a_one_row_call_costs_the_same_whatever_the_threads():
    rng = np.random.default_rng(2)
    scene = rs.Scene(spheres=(rng.uniform(0, 100, (20_000, 3)), np.full(20_000, 0.5)))
    o, d = np.array([[50.0, 50.0, 50.0]]), np.array([[1.0, 0.0, 0.0]])

    def cost(threads):
        return min(timeit.repeat(lambda: scene.cast_rays(o, d, threads=threads), number=300, repeat=7)) / 300

    default = cost(None)
    for threads in (1, 2, -1):
        assert cost(threads) <= 2 * default, (threads, cost(threads), default)


def test_minus_one_is_every_core_and_other_counts_are_refused():
    rng = np.random.default_rng(3)
    scene = rs.Scene(spheres=(rng.uniform(0, 10, (300, 2)), np.full(300, 0.3)))
    o, d = rng.uniform(0, 10, (2000, 2)), rng.standard_normal((2000, 2))
    every = scene.ray_spans(o, d, threads=None)
    for a, b in zip(scene.ray_spans(o, d, threads=-1), every):
        assert a.tobytes() == b.tobytes()
    for bad in (0, -2, 4097):
        with pytest.raises(ValueError, match="threads"):
            scene.cast_rays(o, d, threads=bad)

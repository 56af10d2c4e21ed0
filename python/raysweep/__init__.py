"""raysweep: exact ray casts, sphere casts and proximity queries against spheres, ellipsoids and
axis-aligned boxes, for whole numpy arrays of rays or points, on every core.

Every answer is the Rust crate ``raysweep``'s answer, bit for bit: distances within an ulp or
two of the exact ones, and a scene's answers exactly those of a loop over its bodies (the lowest
body id on ties). The conventions every function follows (widths, dimensions, misses, masks,
threads, errors, ragged answers) are in ``docs/python.md``.

>>> import numpy as np
>>> import raysweep as rs
>>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0, 5.0]]), np.array([1.0])))
>>> hits = scene.cast_rays(np.zeros((1, 3)), np.array([[0.0, 0.0, 1.0]]))
>>> float(hits.distance[0]), int(hits.body[0])
(4.0, 0)
"""

from __future__ import annotations

from ._grid import Grid
from ._impact import sphere_time_of_impact
from ._instances import InstancedScene
from ._periodic import PeriodicScene
from ._raysweep import __version__
from ._results import (
    Bodies,
    Crossings,
    Hits,
    Impacts,
    InstanceBodies,
    InstanceCrossings,
    InstanceHits,
    InstanceNearest,
    InstanceSpans,
    Nearest,
    PeriodicBodies,
    PeriodicCrossings,
    PeriodicHits,
    PeriodicNearest,
    PeriodicSpans,
    Spans,
    UnionSpans,
    Walk,
)
from ._scene import Boxes, Ellipsoids, Scene, Spheres, _restore_scene

__all__ = [
    "Bodies",
    "Boxes",
    "Crossings",
    "Ellipsoids",
    "Grid",
    "Hits",
    "Impacts",
    "InstanceBodies",
    "InstanceCrossings",
    "InstanceHits",
    "InstanceNearest",
    "InstanceSpans",
    "InstancedScene",
    "Nearest",
    "PeriodicBodies",
    "PeriodicCrossings",
    "PeriodicHits",
    "PeriodicNearest",
    "PeriodicScene",
    "PeriodicSpans",
    "Scene",
    "Spans",
    "Spheres",
    "UnionSpans",
    "Walk",
    "__version__",
    "sphere_time_of_impact",
]

"""Scenes the tests share, and the loop over one-body scenes every scene answer is compared with."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

import raysweep as rs

WIDTHS = [np.float32, np.float64]
DIMS = [2, 3]


@dataclass
class Bodies:
    """A scene's bodies as arrays, by kind, in the dtype and dimension of the test."""

    dtype: type
    dim: int
    spheres: list = field(default_factory=list)  # (center, radius)
    ellipsoids: list = field(default_factory=list)  # (center, semi_axes, rotation or None)
    boxes: list = field(default_factory=list)  # (min, max)

    def args(self, only=None):
        """The keyword arguments of ``rs.Scene`` for every body, or for body ``only`` alone."""
        kinds = [("spheres", self.spheres), ("ellipsoids", self.ellipsoids), ("boxes", self.boxes)]
        flat = [(kind, body) for kind, bodies in kinds for body in bodies]
        chosen = flat if only is None else [flat[only]]
        out = {}
        for kind, _ in kinds:
            items = [body for k, body in chosen if k == kind]
            if not items:
                continue
            columns = list(zip(*items))
            if kind == "ellipsoids":
                rotated = any(r is not None for r in columns[2])
                eye = np.eye(self.dim)
                rotations = [eye if r is None else r for r in columns[2]] if rotated else None
                out[kind] = (
                    np.array(columns[0], self.dtype),
                    np.array(columns[1], self.dtype),
                    None if rotations is None else np.array(rotations, self.dtype),
                )
            else:
                out[kind] = tuple(np.array(c, self.dtype) for c in columns)
        return out

    def __len__(self):
        return len(self.spheres) + len(self.ellipsoids) + len(self.boxes)

    def scene(self):
        return rs.Scene(**self.args(), dtype=self.dtype, dim=self.dim)

    def singles(self):
        """One scene per body, in id order."""
        return [rs.Scene(**self.args(only=k), dtype=self.dtype, dim=self.dim) for k in range(len(self))]


def rotation(rng, dim):
    """A random rotation (orthonormal, determinant 1)."""
    q, r = np.linalg.qr(rng.standard_normal((dim, dim)))
    q = q * np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    return q


def adversarial(rng, dtype, dim, far=0.0):
    """Boxes of a lattice sharing faces, duplicates, nested balls, flat and rotated ellipsoids,
    all moved by ``far`` on every axis."""
    b = Bodies(dtype, dim)
    shift = np.full(dim, far)
    for corner in np.ndindex(*(2,) * dim):
        lo = np.array(corner, float)
        b.boxes.append((lo + shift, lo + 1.0 + shift))
    b.boxes.append(b.boxes[0])  # a duplicate: ties go to the lower id
    c = np.full(dim, 3.0) + shift
    b.spheres += [(c, 1.0), (c, 0.5), (c, 1.0)]  # nested, and a duplicate
    b.spheres.append((np.full(dim, -2.0) + shift, 0.0))  # a point
    flat = np.ones(dim)
    flat[-1] = 1e-4
    b.ellipsoids.append((np.full(dim, -3.0) + shift, flat, None))
    b.ellipsoids.append((np.full(dim, -3.0) + shift, 2.0 * flat, rotation(rng, dim)))
    for _ in range(6):
        b.ellipsoids.append((rng.uniform(-4, 4, dim) + shift, rng.uniform(0.2, 1.5, dim), rotation(rng, dim)))
        b.spheres.append((rng.uniform(-4, 4, dim) + shift, rng.uniform(0.1, 1.2)))
    return b


def hard_rays(rng, dim, n, far=0.0):
    """Rays in the lattice's planes, through its edges and corners, grazing and at random."""
    shift = np.full(dim, far)
    origins, directions = [], []
    for k in range(n):
        o = rng.uniform(-6, 6, dim)
        d = rng.standard_normal(dim)
        kind = k % 4
        if kind == 0:  # in a shared face's plane
            axis = rng.integers(dim)
            o[axis] = rng.integers(0, 3)
            d[axis] = 0.0
        elif kind == 1:  # through a lattice point (edge or corner)
            target = rng.integers(0, 3, dim).astype(float)
            d = target - o
        elif kind == 2:  # along an axis, at lattice coordinates
            o = rng.integers(-1, 3, dim).astype(float)
            o[0] = -5.0
            d = np.zeros(dim)
            d[0] = 1.0
        if not np.any(d):
            d[0] = 1.0
        origins.append(o + shift)
        directions.append(d)
    return np.array(origins), np.array(directions)


def grazing_rays(rng, bodies, per_body=3):
    """Rays tangent to each ball, and rays in each box's face planes through the face: the
    touching cases, from a few units back."""
    origins, directions = [], []
    dim = bodies.dim
    for center, radius in bodies.spheres:
        for _ in range(per_body):
            n = rng.standard_normal(dim)
            n /= np.linalg.norm(n)
            u = rng.standard_normal(dim)
            u -= u.dot(n) * n
            u /= np.linalg.norm(u)
            origins.append(np.asarray(center) + radius * n - 5.0 * u)
            directions.append(u)
    for lo, hi in bodies.boxes:
        for _ in range(per_body):
            axis = rng.integers(dim)
            o = rng.uniform(lo, hi)
            o[axis] = (lo if rng.random() < 0.5 else hi)[axis]
            d = rng.standard_normal(dim)
            d[axis] = 0.0
            origins.append(o - 4.0 * d)
            directions.append(d)
    return np.array(origins), np.array(directions)


def loop_first(singles, one, mask=None):
    """The first hit over one-body scenes, lowest id on ties: (distance, body, point, normal)."""
    best = None
    for k, single in enumerate(singles):
        if mask is not None and not mask[k]:
            continue
        h = one(single)
        if h.body[0] < 0:
            continue
        if best is None or h.distance[0] < best[0]:
            best = (h.distance[0], k, h.point[0], h.normal[0])
    return best


@pytest.fixture(params=[(w, d) for w in WIDTHS for d in DIMS], ids=lambda p: f"{np.dtype(p[0]).name}-{p[1]}d")
def kind(request):
    """Each width and dimension."""
    return request.param

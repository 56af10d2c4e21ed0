"""A whole pebble-bed core from Python against the Rust crate, on the same pebble, offsets and
rays, in one run: the core of ``python/examples/pebble_bed.py`` (250 000 pebbles of 60 002 balls:
1.5·10^10 bodies), built (the pebble's scene and the instanced scene, on every core) and traced
(first hits of rays from outside the core along lines that cross it, on one thread). It prints
the medians of ``--repeats`` runs of each and their ratios, against the crate's
``InstancedScene`` (``benches/src/bin/instances_file.rs``, built by cargo in the release profile,
as a user's crate is), and checks that both found the same hits (a checksum of the distances).

    python python/benchmarks/instances.py                 # from the repository's root
    python python/benchmarks/instances.py --pebbles 10000 --rays 100000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import raysweep as rs
from timing import median_time

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "examples"))
import pebble_bed  # noqa: E402  (the example's pebble and core)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pebbles", type=int, default=250_000)
    parser.add_argument("--rays", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    centres, radii = pebble_bed.pebble(1)
    core = pebble_bed.Core(args.pebbles, 10)
    origins, directions, _ = core.lines(np.random.default_rng(11), args.rays)
    which = np.zeros(args.pebbles, np.int64)

    def build() -> rs.InstancedScene:
        return rs.InstancedScene([rs.Scene(spheres=(centres, radii))], which, core.centres)

    built, scene = median_time(build, args.repeats)
    assert isinstance(scene, rs.InstancedScene)
    scene.cast_rays(origins, directions, threads=1)
    cast, hits = median_time(lambda: scene.cast_rays(origins, directions, threads=1), args.repeats)
    # Summed in order, as the crate's checksum is.
    ours = sum(hits.distance[hits.instance >= 0].tolist())  # type: ignore[union-attr]

    with tempfile.TemporaryDirectory() as tmp:
        for name, values in (
            ("centres", centres),
            ("radii", radii),
            ("offsets", core.centres),
            ("origins", origins),
            ("directions", directions),
        ):
            np.ascontiguousarray(values, "<f8").tofile(os.path.join(tmp, name))
        out = subprocess.run(
            ["cargo", "run", "-q", "--release", "-p", "raysweep-benches", "--bin", "instances_file", "--", tmp, str(args.repeats)],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout.split()
    rust_built, rust_ns, rust_sum = float(out[0]), float(out[1]), float(out[2])
    ns = cast * 1e9 / args.rays
    print(f"{args.pebbles} pebbles ({args.pebbles * len(radii):.2e} bodies), {args.rays} rays, medians of {args.repeats}")
    print(f"build:      Python {built:.3f} s, crate {rust_built:.3f} s, ratio {built / rust_built:.2f}")
    print(f"first hits: Python {ns:.0f} ns per ray, crate {rust_ns:.0f} ns per ray (one thread), ratio {ns / rust_ns:.2f}")
    print(f"same hits: {ours == rust_sum} (checksums {ours:.17e} and {rust_sum:.17e})")


if __name__ == "__main__":
    main()

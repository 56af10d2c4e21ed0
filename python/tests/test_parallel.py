"""Threads, the GIL, pickling and Dask: any thread count gives the same bits; a long query leaves
other Python threads running; a scene pickled and restored (and one on a Dask cluster's workers)
answers with the same bits."""

from __future__ import annotations

import pickle
import threading
import time

import numpy as np
import pytest

import raysweep as rs


def world(dtype=np.float64, dim=3, n=3000, seed=11):
    rng = np.random.default_rng(seed)
    rot = np.linalg.qr(rng.standard_normal((n // 3, dim, dim)))[0]
    lo = rng.uniform(0, 40, (n // 3, dim))
    return rs.Scene(
        spheres=(rng.uniform(0, 40, (n, dim)).astype(dtype), rng.uniform(0.2, 1.0, n).astype(dtype)),
        ellipsoids=(
            rng.uniform(0, 40, (n // 3, dim)).astype(dtype),
            rng.uniform(0.1, 1.0, (n // 3, dim)).astype(dtype),
            rot.astype(dtype),
        ),
        boxes=(lo.astype(dtype), (lo + rng.uniform(0.1, 2.0, lo.shape)).astype(dtype)),
    )


def queries(scene, o, d, threads):
    """Every query's answers, as flat arrays."""
    out = []
    out += scene.cast_rays(o, d, threads=threads)
    out += scene.cast_spheres(o, d, 0.3, threads=threads)
    out.append(scene.hits_any(o, d, max_distance=5.0, threads=threads))
    out += scene.ray_spans(o, d, threads=threads)
    out += scene.sphere_spans(o, d, 0.2, threads=threads)
    out += scene.containing(o, threads=threads)
    out += scene.nearest(o, threads=threads)
    out += scene.within(o, 0.5, threads=threads)
    return out


def identical(a, b):
    return len(a) == len(b) and all(
        x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes() for x, y in zip(a, b)
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dim", [2, 3])
def test_any_thread_count_gives_the_same_bits(dtype, dim):
    scene = world(dtype, dim)
    rng = np.random.default_rng(12)
    o = rng.uniform(-2, 42, (5000, dim)).astype(dtype)
    d = rng.standard_normal((5000, dim)).astype(dtype)
    one = queries(scene, o, d, 1)
    for threads in (None, 2, 3, 7):
        assert identical(queries(scene, o, d, threads), one)


def test_the_gil_is_released():
    """A Python thread counting while one long query runs keeps counting."""
    scene = world(n=30000)
    rng = np.random.default_rng(13)
    o = rng.uniform(-2, 42, (600_000, 3))
    d = rng.standard_normal((600_000, 3))
    counts = []
    done = threading.Event()

    def count():
        while not done.is_set():
            counts.append(time.perf_counter())

    counter = threading.Thread(target=count)
    start = time.perf_counter()
    counter.start()
    try:
        scene.cast_rays(o, d, threads=1)
    finally:
        end = time.perf_counter()
        done.set()
        counter.join()
    assert end - start > 0.2, "the query is too short to tell"
    # Counted all through the query: in each tenth of it, not only before and after.
    during = np.array([t for t in counts if start < t < end])
    tenths = np.floor((during - start) / (end - start) * 10).astype(int)
    assert set(tenths.tolist()) == set(range(10))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dim", [2, 3])
def test_pickle_round_trip(dtype, dim):
    scene = world(dtype, dim, n=900)
    again = pickle.loads(pickle.dumps(scene))
    assert (len(again), again.dim, again.dtype) == (len(scene), scene.dim, scene.dtype)
    rng = np.random.default_rng(14)
    o = rng.uniform(-2, 42, (2000, dim)).astype(dtype)
    d = rng.standard_normal((2000, dim)).astype(dtype)
    assert identical(queries(again, o, d, None), queries(scene, o, d, None))
    with pytest.raises(ValueError, match="pickled raysweep scene"):
        rs._restore_scene(np.dtype(dtype).name, dim, b"\x07\x01")


def test_dask_cluster_gives_the_same_bits():
    import distributed

    scene = world(n=2000)
    rng = np.random.default_rng(15)
    chunks = [(rng.uniform(-2, 42, (500, 3)), rng.standard_normal((500, 3))) for _ in range(4)]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            remote = client.scatter(scene, broadcast=True)
            futures = [client.submit(lambda s, c: list(s.cast_rays(*c)) + list(s.nearest(c[0])), remote, c) for c in chunks]
            results = client.gather(futures)
    for (o, d), got in zip(chunks, results):
        assert identical(got, list(scene.cast_rays(o, d)) + list(scene.nearest(o)))

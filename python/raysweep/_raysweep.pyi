"""Type stubs of the compiled module. Its classes take arrays already of the scene's or grid's
width, native, aligned and C-contiguous (``raysweep/_arrays.py`` makes them so); use the
``raysweep`` package's classes, which check and convert."""

from typing import Optional

import numpy as np

__version__: str

class _Scene:
    def __init__(
        self,
        dtype: str,
        dim: int,
        spheres: Optional[tuple[np.ndarray, np.ndarray]] = None,
        ellipsoids: Optional[tuple[np.ndarray, np.ndarray, Optional[np.ndarray]]] = None,
        boxes: Optional[tuple[np.ndarray, np.ndarray]] = None,
    ) -> None: ...
    @staticmethod
    def restore(dtype: str, dim: int, state: bytes) -> _Scene: ...
    def state(self) -> bytes: ...
    def snapshot(self) -> _Scene: ...
    def parts(
        self,
    ) -> tuple[
        tuple[np.ndarray, np.ndarray, np.ndarray],
        tuple[np.ndarray, np.ndarray, np.ndarray, Optional[np.ndarray]],
        tuple[np.ndarray, np.ndarray, np.ndarray],
    ]: ...
    def push(
        self,
        spheres: Optional[tuple[np.ndarray, np.ndarray]] = None,
        ellipsoids: Optional[tuple[np.ndarray, np.ndarray, Optional[np.ndarray]]] = None,
        boxes: Optional[tuple[np.ndarray, np.ndarray]] = None,
    ) -> int: ...
    def __len__(self) -> int: ...
    @property
    def dim(self) -> int: ...
    @property
    def dtype(self) -> str: ...
    @property
    def hierarchy_bytes(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    def cast_rays(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def next_crossing(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        after: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> tuple[np.ndarray, ...]: ...
    def hits_any(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> np.ndarray: ...
    def spans(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
        max_distance: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def union_spans(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: Optional[np.ndarray],
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def occupancy(self, grid: _Grid, threads: Optional[int]) -> np.ndarray: ...
    def containing(
        self, points: np.ndarray, mask: Optional[np.ndarray], threads: Optional[int]
    ) -> tuple[np.ndarray, np.ndarray]: ...
    def nearest(
        self,
        points: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def within(
        self,
        points: np.ndarray,
        distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> tuple[np.ndarray, np.ndarray]: ...

class _PeriodicScene:
    def __init__(self, scene: _Scene, min: np.ndarray, size: np.ndarray, axes: list[bool]) -> None: ...
    def __len__(self) -> int: ...
    @property
    def dim(self) -> int: ...
    @property
    def dtype(self) -> str: ...
    @property
    def hierarchy_bytes(self) -> int: ...
    def push(self, scene: _Scene) -> None: ...
    def cast_rays(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, ...]: ...
    def next_crossing(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        after: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> tuple[np.ndarray, ...]: ...
    def hits_any(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> np.ndarray: ...
    def spans(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, ...]: ...
    def union_spans(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def occupancy(self, grid: _Grid, threads: Optional[int]) -> np.ndarray: ...
    def containing(
        self, points: np.ndarray, mask: Optional[np.ndarray], threads: Optional[int]
    ) -> tuple[np.ndarray, ...]: ...
    def nearest(
        self, points: np.ndarray, max_distance: np.ndarray, mask: Optional[np.ndarray], threads: Optional[int]
    ) -> tuple[np.ndarray, ...]: ...
    def within(
        self, points: np.ndarray, distance: np.ndarray, mask: Optional[np.ndarray], threads: Optional[int]
    ) -> tuple[np.ndarray, ...]: ...

class _InstancedScene:
    def __init__(self, scenes: list[_Scene], scene_of: np.ndarray, offsets: np.ndarray) -> None: ...
    def __len__(self) -> int: ...
    @property
    def dim(self) -> int: ...
    @property
    def dtype(self) -> str: ...
    @property
    def hierarchy_bytes(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def offsets(self) -> np.ndarray: ...
    def cast_rays(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def next_crossing(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        after: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> tuple[np.ndarray, ...]: ...
    def hits_any(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
    ) -> np.ndarray: ...
    def spans(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
        max_distance: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def union_spans(
        self,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: Optional[np.ndarray],
        mask: Optional[np.ndarray],
        threads: Optional[int],
        radius: Optional[np.ndarray] = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def occupancy(self, grid: _Grid, threads: Optional[int]) -> np.ndarray: ...
    def containing(
        self, points: np.ndarray, mask: Optional[np.ndarray], threads: Optional[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def nearest(
        self, points: np.ndarray, max_distance: np.ndarray, mask: Optional[np.ndarray], threads: Optional[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def within(
        self, points: np.ndarray, distance: np.ndarray, mask: Optional[np.ndarray], threads: Optional[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

class _Grid:
    def __init__(self, dtype: str, min: np.ndarray, cell_size: np.ndarray, cells: list[int]) -> None: ...
    @property
    def dim(self) -> int: ...
    @property
    def dtype(self) -> str: ...
    @property
    def min(self) -> np.ndarray: ...
    @property
    def cell_size(self) -> np.ndarray: ...
    @property
    def cells(self) -> list[int]: ...
    def walk(
        self, origins: np.ndarray, directions: np.ndarray, max_distance: np.ndarray, threads: Optional[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
    def project(
        self,
        volume: np.ndarray,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        threads: Optional[int],
    ) -> np.ndarray: ...
    def backproject(
        self,
        values: np.ndarray,
        origins: np.ndarray,
        directions: np.ndarray,
        max_distance: np.ndarray,
        threads: Optional[int],
    ) -> np.ndarray: ...
    def matrix(
        self, origins: np.ndarray, directions: np.ndarray, max_distance: np.ndarray, threads: Optional[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

def sphere_time_of_impact(
    dtype: str,
    dim: int,
    centers: np.ndarray,
    radii: np.ndarray,
    velocities: np.ndarray,
    other_centers: np.ndarray,
    other_radii: np.ndarray,
    other_velocities: np.ndarray,
    max_time: np.ndarray,
    threads: Optional[int],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

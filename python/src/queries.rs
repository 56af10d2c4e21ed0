//! The queries every kind of scene answers (first hits of rays and of moving balls, any hit,
//! spans, containing, nearest, within), written once over the crate's query surface
//! ([`Geometry`], [`Proximity`]) and [`Placed`], what the binding asks beyond it. Each query reads
//! its arguments, runs its rows in blocks ([`crate::rows`]) and hands the columns to numpy: the
//! ids first, one column each.

use core::convert::Infallible;

use numpy::IntoPyArray;
use numpy::ndarray::{ArrayD, IxDyn};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rayon::prelude::*;
use raysweep::nalgebra::Point;
use raysweep::{
    Answer, BodyNearest, Geometry, Hit, InstancedScene, PeriodicScene, Proximity, Ray, Scene, Span,
};

use crate::args::{QueryArgs, clip};
use crate::arrays::{PerRow, Width, column, table};
use crate::bodies::Solid;
use crate::grid::{PyGrid, cell_count};
use crate::kinds::Picks;
use crate::rows::{Answers, Arranged, Columns, Csr, Ids, columns, each, ragged, ragged_blocks};
use crate::threads::{Run, serial};

/// A scene of any kind as the binding asks it: the crate's queries, and what they do not give
/// (the spans of the whole line, which a periodic medium does not have: its Python class always
/// asks a segment; what a mask is over, for messages).
pub(crate) trait Placed<T: Width, const D: usize>:
    Geometry<T, D, Id: Ids + Send + Sync> + Proximity<T, D> + Sync
{
    /// What a mask is over: `"bodies"` or `"instances"`.
    const OVER: &'static str;

    /// The spans of the whole line through `ray` (a ball of `radius` moving along it) over the
    /// items `keep` keeps, into `out`.
    fn line_spans(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        out: &mut Vec<Self::Span>,
        keep: impl Fn(usize) -> bool + Copy,
    );
}

impl<T: Width, const D: usize, S: Solid<T, D>> Placed<T, D> for Scene<T, D, S> {
    const OVER: &'static str = "bodies";

    fn line_spans(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        out: &mut Vec<Self::Span>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        match radius {
            None => self.ray_spans_filtered(ray, out, keep),
            Some(r) => self.sphere_spans_filtered(ray, r, out, keep),
        }
    }
}

impl<T: Width, const D: usize, S: Solid<T, D>> Placed<T, D> for InstancedScene<T, D, S> {
    const OVER: &'static str = "instances";

    fn line_spans(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        out: &mut Vec<Self::Span>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        match radius {
            None => self.ray_spans_filtered(ray, out, keep),
            Some(r) => self.sphere_spans_filtered(ray, r, out, keep),
        }
    }
}

/// A periodic medium has no whole line: its spans are the segment's (the Python class always
/// gives one, finite).
impl<T: Width, const D: usize, S: Solid<T, D>> Placed<T, D> for PeriodicScene<T, D, S> {
    const OVER: &'static str = "bodies";

    fn line_spans(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        out: &mut Vec<Self::Span>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        self.spans_filtered(ray, radius, T::INFINITY, out, keep);
    }
}

/// A first hit (or a nearest body) as a row's answer: its ids, value, point and normal.
fn hit_row<T: Width, const D: usize, A: Answer<Found = Hit<T, D>>>(
    a: A,
) -> crate::rows::Answer<T, D, A::Id> {
    let h = a.found();
    (a.id(), h.distance, h.point, h.normal)
}

/// A nearest body as a row's answer: its ids, signed distance, point and normal.
fn near_row<T: Width, const D: usize, A: Answer<Found = BodyNearest<T, D>>>(
    a: A,
) -> crate::rows::Answer<T, D, A::Id> {
    let n = a.found();
    (a.id(), n.signed_distance, n.point, n.normal)
}

/// Ids, `I::COUNT` a row (row after row), as one column each.
fn id_columns<I: Ids>(py: Python<'_>, ids: Vec<i64>) -> Vec<Py<PyAny>> {
    let k = I::COUNT;
    (0..k)
        .map(|j| {
            column(py, ids.iter().skip(j).step_by(k).copied().collect())
                .into_any()
                .unbind()
        })
        .collect()
}

/// A tuple of `first`, then `ids`, then `rest`.
fn tuple(
    py: Python<'_>,
    first: Vec<Py<PyAny>>,
    ids: Vec<Py<PyAny>>,
    rest: Vec<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let items: Vec<Py<PyAny>> = first.into_iter().chain(ids).chain(rest).collect();
    PyTuple::new(py, items)?.into_py_any(py)
}

/// Answers of one per row as numpy: (value, ids…, `between`…, point, normal).
fn answer_tuple<T: Width, const D: usize, I: Ids>(
    py: Python<'_>,
    c: Columns<T>,
    between: Vec<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let mut rest = between;
    rest.push(table(py, c.point, D)?.into_py_any(py)?);
    rest.push(table(py, c.normal, D)?.into_py_any(py)?);
    tuple(
        py,
        vec![column(py, c.value).into_py_any(py)?],
        id_columns::<I>(py, c.id),
        rest,
    )
}

/// First hits of rays, or of balls of `radius` moving along them: (distance, ids…, point,
/// normal).
pub(crate) fn cast_rays<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let rays = read.rays::<D>()?;
    let reach = read.reach("max_distance", rays.len())?;
    let radius = read.radius(rays.len())?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    // The rows in the order the crate's batches trace them, each block's rays and limits
    // gathered before it is traced (read at scattered rows between the casts, they measured
    // slower), the answers put back in the rows' order.
    let arranged = placed.ray_order(&rays.origins()).map(Arranged::of_rows);
    let row_at = |k: usize| arranged.as_ref().map_or(k, |a| a.row(k));
    let hits = columns(&run, rays.len(), |block, answers| {
        let rows: Vec<usize> = block.map(row_at).collect();
        let gathered = rows
            .iter()
            .map(|&row| rays.get(row))
            .collect::<Result<Vec<_>, _>>()?;
        let limits: Vec<T> = rows.iter().map(|&row| reach.at(row)).collect();
        match &radius {
            // Rays traced together (a plain scene's coherent ones in packets).
            None => {
                let mut hits = vec![None; gathered.len()];
                placed.cast_rays_filtered(&gathered, &limits, &mut hits, keep);
                answers.extend(hits.into_iter().map(|hit| hit.map(hit_row)));
            }
            Some(radius) => {
                for ((ray, &max), &row) in gathered.iter().zip(&limits).zip(&rows) {
                    let hit = placed.cast_sphere_filtered(ray, radius.at(row), max, keep);
                    answers.push(hit.map(hit_row));
                }
            }
        }
        Ok(())
    })?
    .map_err(|e| rays.first_error(e))?;
    let hits = match &arranged {
        Some(a) => a.columns::<T, D>(hits, <Q::Id as Ids>::COUNT),
        None => hits,
    };
    answer_tuple::<T, D, Q::Id>(run.py(), hits, Vec::new())
}

/// The next crossing of each ray beyond its `after`, within its largest distance: (distance,
/// ids…, entering, point, normal), the point the ray's at that distance (rounded once).
pub(crate) fn next_crossing<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let rays = read.rays::<D>()?;
    let reach = read.reach("max_distance", rays.len())?;
    let after = read.after(rays.len())?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    let found = each(&run, rays.len(), |row| {
        let ray = rays.get(row)?;
        let next = placed.next_crossing_filtered(&ray, after.at(row), reach.at(row), keep);
        Ok(next.map(|c| {
            let x = *c.found();
            let at = ray.origin().coords.map(T::to_wide)
                + ray.dir().map(T::to_wide) * x.distance.to_wide();
            (c.id(), x, Point::from(at.map(T::from_wide)))
        }))
    })?
    .map_err(|e| rays.first_error(e))?;
    let (n, k) = (found.len(), <Q::Id as Ids>::COUNT);
    let mut c = Columns {
        id: vec![-1; n * k],
        value: vec![T::INFINITY; n],
        point: vec![T::NAN; n * D],
        normal: vec![T::NAN; n * D],
    };
    let mut entering = vec![false; n];
    for (i, (id, x, at)) in found
        .into_iter()
        .enumerate()
        .filter_map(|(i, f)| Some((i, f?)))
    {
        id.write(&mut c.id[i * k..(i + 1) * k]);
        c.value[i] = x.distance;
        entering[i] = x.entering;
        c.point[i * D..(i + 1) * D].copy_from_slice(at.coords.as_slice());
        c.normal[i * D..(i + 1) * D].copy_from_slice(x.normal.as_slice());
    }
    let py = run.py();
    let entering = column(py, entering).into_py_any(py)?;
    answer_tuple::<T, D, Q::Id>(py, c, vec![entering])
}

/// Whether each ray hits anything within its largest distance.
pub(crate) fn hits_any<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let rays = read.rays::<D>()?;
    let reach = read.reach("max_distance", rays.len())?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    let any = each(&run, rays.len(), |row| {
        Ok(placed.hits_any_filtered(&rays.get(row)?, reach.at(row), keep))
    })?
    .map_err(|e| rays.first_error(e))?;
    column(run.py(), any).into_py_any(run.py())
}

/// Row `row`'s spans (of a ball of `radius` where given) into `out`: of the whole line, or of
/// the segment `[0, end]`, clamped ([`clip`]).
fn row_spans<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    ray: &Ray<T, D>,
    (radius, segment): (Option<T>, Option<T>),
    keep: impl Fn(usize) -> bool + Copy,
    out: &mut Vec<(Q::Id, Span<T>)>,
) {
    let mut spans = Vec::new();
    match segment {
        Some(end) => placed.spans_filtered(ray, radius, end, &mut spans, keep),
        None => placed.line_spans(ray, radius, &mut spans, keep),
    }
    out.extend(spans.iter().map(|s| (s.id(), *s.found())));
    if let Some(end) = segment {
        clip(out, end);
    }
}

/// Every span of each line (or of a ball of `radius` moving along it), or only of the segment
/// `[0, max_distance]`, clamped: (offsets, ids…, enter, exit).
pub(crate) fn spans<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let rays = read.rays::<D>()?;
    let radius = read.radius(rays.len())?;
    let segment = read.segment(rays.len())?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    let (offsets, found) = ragged(&run, rays.len(), |row, out: &mut Vec<(Q::Id, Span<T>)>| {
        let asked = (radius.map(|r| r.at(row)), segment.map(|e| e.at(row)));
        row_spans(placed, &rays.get(row)?, asked, keep, out);
        Ok(())
    })?
    .map_err(|e| rays.first_error(e))?;
    let py = run.py();
    let k = <Q::Id as Ids>::COUNT;
    let mut ids = vec![0i64; found.len() * k];
    for (i, (id, _)) in found.iter().enumerate() {
        id.write(&mut ids[i * k..(i + 1) * k]);
    }
    let (enter, exit) = ends(found.iter().map(|(_, s)| s));
    tuple(
        py,
        vec![column(py, offsets).into_py_any(py)?],
        id_columns::<Q::Id>(py, ids),
        vec![
            column(py, enter).into_py_any(py)?,
            column(py, exit).into_py_any(py)?,
        ],
    )
}

/// The intervals of the union of each row's spans (of a ball of `radius` where given; the
/// whole line's, or the segment's, clamped): (offsets, enter, exit), each end one of the spans'
/// own.
pub(crate) fn union_spans<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let rays = read.rays::<D>()?;
    let radius = read.radius(rays.len())?;
    let segment = read.segment(rays.len())?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    let (offsets, found) = ragged(&run, rays.len(), |row, out: &mut Vec<Span<T>>| {
        let mut spans = Vec::new();
        let asked = (radius.map(|r| r.at(row)), segment.map(|e| e.at(row)));
        row_spans(placed, &rays.get(row)?, asked, keep, &mut spans);
        Span::union_of(spans.iter().map(|(_, s)| *s), out);
        Ok(())
    })?
    .map_err(|e| rays.first_error(e))?;
    let py = run.py();
    let (enter, exit) = ends(found.iter());
    (column(py, offsets), column(py, enter), column(py, exit)).into_py_any(py)
}

/// The spans' `enter` and `exit` columns.
fn ends<'a, T: Width>(spans: impl Iterator<Item = &'a Span<T>>) -> (Vec<T>, Vec<T>) {
    spans.map(|s| (s.enter, s.exit)).unzip()
}

/// What contains each point: (offsets, ids…).
pub(crate) fn containing<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let at = read.points::<D>()?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    let Ok(found) = ragged(&run, at.len(), |row, out| {
        placed.containing_filtered(&at[row], out, keep);
        Ok::<_, Infallible>(())
    })?;
    csr_ids(run.py(), found)
}

/// The body nearest to each point within its largest distance: (signed distance, ids…, point,
/// normal). With one limit for every point, the crate's batch (its points in the batches'
/// order, in blocks of neighbours for a plain scene).
pub(crate) fn nearest<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let at = read.points::<D>()?;
    let reach = read.reach("max_distance", at.len())?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    let found = match reach {
        PerRow::All(max) => {
            let (at, arranged) = arrange(&run, at)?;
            let Ok(found) = columns(
                &run,
                at.len(),
                |rows, answers: &mut Answers<T, D, Q::Id>| {
                    let mut found = vec![None; rows.len()];
                    placed.nearest_batch_filtered(&at[rows], max, &mut found, keep);
                    answers.extend(found.into_iter().map(|n| n.map(near_row)));
                    Ok::<_, Infallible>(())
                },
            )?;
            arranged.columns::<T, D>(found, <Q::Id as Ids>::COUNT)
        }
        PerRow::Each(_) => {
            let Ok(found) = columns(
                &run,
                at.len(),
                |rows, answers: &mut Answers<T, D, Q::Id>| {
                    answers.extend(rows.map(|row| {
                        placed
                            .nearest_filtered(&at[row], reach.at(row), keep)
                            .map(near_row)
                    }));
                    Ok::<_, Infallible>(())
                },
            )?;
            found
        }
    };
    answer_tuple::<T, D, Q::Id>(run.py(), found, Vec::new())
}

/// What lies within each point's distance: (offsets, ids…). With one distance for every
/// point, the crate's batch, as [`nearest`].
pub(crate) fn within<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let at = read.points::<D>()?;
    let reach = read.distance(at.len())?;
    let keep = read.keep(placed.items(), Q::OVER)?;
    let found = match reach {
        PerRow::All(distance) => {
            let (at, arranged) = arrange(&run, at)?;
            let Ok(found) = ragged_blocks(&run, at.len(), |rows, counts, ids| {
                let (mut offsets, mut found) = (Vec::new(), Vec::new());
                placed.within_batch_filtered(&at[rows], distance, &mut offsets, &mut found, keep);
                counts.extend(offsets.windows(2).map(|w| w[1] - w[0]));
                ids.append(&mut found);
                Ok::<_, Infallible>(())
            })?;
            arranged.csr(found)
        }
        PerRow::Each(_) => {
            let Ok(found) = ragged(&run, at.len(), |row, out| {
                placed.within_filtered(&at[row], reach.at(row), out, keep);
                Ok::<_, Infallible>(())
            })?;
            found
        }
    };
    csr_ids(run.py(), found)
}

/// `points` in the proximity batches' order ([`Arranged`]), found on a thread of its own (a
/// Ctrl-C meanwhile ends the call), and the order.
fn arrange<T: Width, const D: usize>(
    run: &crate::threads::Run<'_>,
    points: Vec<raysweep::nalgebra::Point<T, D>>,
) -> PyResult<(Vec<raysweep::nalgebra::Point<T, D>>, Arranged)> {
    run.apart(move || {
        let arranged = Arranged::new(&points);
        (arranged.arrange(&points), arranged)
    })
}

/// Several ids per row in CSR form: (offsets, ids…).
pub(crate) fn csr_ids<I: Ids>(py: Python<'_>, (offsets, found): Csr<I>) -> PyResult<Py<PyAny>> {
    let k = I::COUNT;
    let mut ids = vec![0i64; found.len() * k];
    for (i, &found) in found.iter().enumerate() {
        found.write(&mut ids[i * k..(i + 1) * k]);
    }
    tuple(
        py,
        vec![column(py, offsets).into_py_any(py)?],
        id_columns::<I>(py, ids),
        Vec::new(),
    )
}

/// Rows of cells a thread settles at a time.
const OCCUPANCY_ROWS: usize = 16;

/// Whether each cell's centre of `grid` lies in a body: a `bool` array of the grid's shape, the
/// crate's `Grid::occupancy`, its rows in blocks (each block's on the pool).
pub(crate) fn occupancy<T: Width + Picks<D>, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    grid: &PyGrid,
    threads: Option<i64>,
    py: Python<'_>,
) -> PyResult<Py<PyAny>> {
    let grid = grid.of::<T, D>()?;
    let cells = grid.cells();
    let total = cell_count(&cells)?;
    let n = cells[D - 1];
    let run = Run::new(py, threads)?;
    let mut image = vec![false; total];
    let settle = |first: usize, part: &mut [bool]| {
        grid.occupancy_rows(placed, first, part)
            .expect("whole rows of the grid");
    };
    let Ok(()) = run.blocks(total / n, |rows| {
        let part = &mut image[rows.start * n..rows.end * n];
        if serial(&rows) {
            settle(rows.start, part);
        } else {
            part.par_chunks_mut(n * OCCUPANCY_ROWS)
                .enumerate()
                .for_each(|(k, chunk)| settle(rows.start + k * OCCUPANCY_ROWS, chunk));
        }
        Ok::<(), Infallible>(())
    })?;
    let array = ArrayD::from_shape_vec(IxDyn(&cells), image)
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    array.into_pyarray(py).into_py_any(py)
}

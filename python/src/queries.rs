//! The ray and point queries a scene, an instanced scene and a periodic scene share (first hits
//! of rays and of moving balls, any hit, spans, containing), written once over [`Placed`]: what
//! each answers for one row, and the ids it names an answer by (a body; an instance and a body;
//! a body and its image). Each query reads its arguments, runs its rows in blocks
//! ([`crate::rows`]) and hands the columns to numpy: the ids first, one column each.

use core::convert::Infallible;

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use raysweep::nalgebra::Point;
use raysweep::{
    BodyHit, BodySpan, InstanceSpan, InstancedScene, PeriodicScene, PeriodicSpan, Ray, Scene,
};

use crate::arrays::{Width, column, table};
use crate::query::{QueryArgs, Spanned, clip};
use crate::rows::{Answer, Answers, Arranged, Csr, Ids, columns, each, ragged};
use crate::scene::Solid;

/// A scene or an instanced scene, as the shared queries ask it.
pub(crate) trait Placed<T: Width, const D: usize>: Sync {
    /// An answer's ids: a body, or an instance and a body.
    type Ids: Ids;
    /// A span in a span query's answer.
    type Span: Spanned<T, Ids = Self::Ids> + Send;
    /// What a mask is over: `"bodies"` or `"instances"`.
    const OVER: &'static str;

    /// How many there are of what a mask is over.
    fn count(&self) -> usize;
    /// The order in which the crate's batches trace rays from `origins`, or `None` for as given
    /// (`Scene::ray_order`).
    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>>;
    /// The first hit of `ray` (or of a ball of `radius` moving along it) over those `keep`
    /// keeps.
    fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max: T,
        keep: impl Fn(usize) -> bool + Copy,
    ) -> Option<Answer<T, D, Self::Ids>>;
    /// The first hits of `rays` (no radius), ray `i` within `max[i]`, over those `keep` keeps,
    /// pushed onto `out` in order: [`Placed::first`] of each, unless the crate traces them
    /// together (`Scene::cast_rays_filtered`: packets of coherent rays).
    fn firsts(
        &self,
        rays: &[Ray<T, D>],
        max: &[T],
        keep: impl Fn(usize) -> bool + Copy,
        out: &mut Answers<T, D, Self::Ids>,
    ) {
        for (ray, &max) in rays.iter().zip(max) {
            out.push(self.first(ray, None, max, keep));
        }
    }
    fn any(&self, ray: &Ray<T, D>, max: T, keep: impl Fn(usize) -> bool + Copy) -> bool;
    /// The spans of the line (or of a ball of `radius` moving along it) into `out`; `end`,
    /// where given, the segment's (those beyond it may be left out: they are clipped away).
    fn spans(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        end: Option<T>,
        out: &mut Vec<Self::Span>,
        keep: impl Fn(usize) -> bool + Copy,
    );
    /// The ids of what contains `p`, into `out`.
    fn containing(
        &self,
        p: &Point<T, D>,
        out: &mut Vec<Self::Ids>,
        keep: impl Fn(usize) -> bool + Copy,
    );
}

/// A scene's first hit as a row's answer.
fn body_answer<T: Width, const D: usize>(h: BodyHit<T, D>) -> Answer<T, D> {
    (h.body, h.hit.distance, h.hit.point, h.hit.normal)
}

impl<T: Width, const D: usize, S: Solid<T, D>> Placed<T, D> for Scene<T, D, S> {
    type Ids = usize;
    type Span = BodySpan<T>;
    const OVER: &'static str = "bodies";

    fn count(&self) -> usize {
        self.len()
    }
    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        Scene::ray_order(self, origins)
    }
    fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max: T,
        keep: impl Fn(usize) -> bool + Copy,
    ) -> Option<Answer<T, D>> {
        let hit = match radius {
            None => self.cast_ray_filtered(ray, max, keep),
            Some(r) => self.cast_sphere_filtered(ray, r, max, keep),
        };
        hit.map(body_answer)
    }
    fn firsts(
        &self,
        rays: &[Ray<T, D>],
        max: &[T],
        keep: impl Fn(usize) -> bool + Copy,
        out: &mut Answers<T, D>,
    ) {
        let mut hits = vec![None; rays.len()];
        self.cast_rays_filtered(rays, max, &mut hits, keep);
        out.extend(hits.into_iter().map(|hit| hit.map(body_answer)));
    }
    fn any(&self, ray: &Ray<T, D>, max: T, keep: impl Fn(usize) -> bool + Copy) -> bool {
        self.hits_any_filtered(ray, max, keep)
    }
    fn spans(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        _end: Option<T>,
        out: &mut Vec<BodySpan<T>>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        match radius {
            None => self.ray_spans_filtered(ray, out, keep),
            Some(r) => self.sphere_spans_filtered(ray, r, out, keep),
        }
    }
    fn containing(
        &self,
        p: &Point<T, D>,
        out: &mut Vec<usize>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        self.containing_filtered(p, out, keep);
    }
}

impl<T: Width, const D: usize, S: Solid<T, D>> Placed<T, D> for InstancedScene<T, D, S> {
    type Ids = (usize, usize);
    type Span = InstanceSpan<T>;
    const OVER: &'static str = "instances";

    fn count(&self) -> usize {
        self.instances().len()
    }
    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        InstancedScene::ray_order(self, origins)
    }
    fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max: T,
        keep: impl Fn(usize) -> bool + Copy,
    ) -> Option<Answer<T, D, (usize, usize)>> {
        let hit = match radius {
            None => self.cast_ray_filtered(ray, max, keep),
            Some(r) => self.cast_sphere_filtered(ray, r, max, keep),
        };
        hit.map(|h| {
            (
                (h.instance, h.body),
                h.hit.distance,
                h.hit.point,
                h.hit.normal,
            )
        })
    }
    fn any(&self, ray: &Ray<T, D>, max: T, keep: impl Fn(usize) -> bool + Copy) -> bool {
        self.hits_any_filtered(ray, max, keep)
    }
    fn spans(
        &self,
        ray: &Ray<T, D>,
        _radius: Option<T>,
        _end: Option<T>,
        out: &mut Vec<InstanceSpan<T>>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        self.ray_spans_filtered(ray, out, keep);
    }
    fn containing(
        &self,
        p: &Point<T, D>,
        out: &mut Vec<(usize, usize)>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        self.containing_filtered(p, out, keep);
    }
}

impl<T: Width, const D: usize, S: Solid<T, D>> Placed<T, D> for PeriodicScene<T, D, S> {
    type Ids = (usize, [i64; D]);
    type Span = PeriodicSpan<T, D>;
    const OVER: &'static str = "bodies";

    fn count(&self) -> usize {
        self.len()
    }
    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        PeriodicScene::ray_order(self, origins)
    }
    fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max: T,
        keep: impl Fn(usize) -> bool + Copy,
    ) -> Option<Answer<T, D, (usize, [i64; D])>> {
        let hit = match radius {
            None => self.cast_ray_filtered(ray, max, keep),
            Some(r) => self.cast_sphere_filtered(ray, r, max, keep),
        };
        hit.map(|h| ((h.body, h.image), h.hit.distance, h.hit.point, h.hit.normal))
    }
    fn any(&self, ray: &Ray<T, D>, max: T, keep: impl Fn(usize) -> bool + Copy) -> bool {
        self.hits_any_filtered(ray, max, keep)
    }
    /// The segment's spans (a whole line crosses infinitely many); the Python class always
    /// gives `end`.
    fn spans(
        &self,
        ray: &Ray<T, D>,
        _radius: Option<T>,
        end: Option<T>,
        out: &mut Vec<PeriodicSpan<T, D>>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        self.ray_spans_filtered(ray, end.unwrap_or(T::INFINITY), out, keep);
    }
    fn containing(
        &self,
        p: &Point<T, D>,
        out: &mut Vec<(usize, [i64; D])>,
        keep: impl Fn(usize) -> bool + Copy,
    ) {
        self.containing_filtered(p, out, keep);
    }
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
    let keep = read.keep(placed.count(), Q::OVER)?;
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
            // Rays traced together (packets where they are coherent).
            None => placed.firsts(&gathered, &limits, keep, answers),
            Some(radius) => {
                for ((ray, &max), &row) in gathered.iter().zip(&limits).zip(&rows) {
                    answers.push(placed.first(ray, Some(radius.at(row)), max, keep));
                }
            }
        }
        Ok(())
    })?
    .map_err(|e| rays.first_error(e))?;
    let hits = match &arranged {
        Some(a) => a.columns::<T, D>(hits, <Q::Ids as Ids>::COUNT),
        None => hits,
    };
    let py = run.py();
    tuple(
        py,
        vec![column(py, hits.value).into_py_any(py)?],
        id_columns::<Q::Ids>(py, hits.id),
        vec![
            table(py, hits.point, D)?.into_py_any(py)?,
            table(py, hits.normal, D)?.into_py_any(py)?,
        ],
    )
}

/// Whether each ray hits anything within its largest distance.
pub(crate) fn hits_any<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let rays = read.rays::<D>()?;
    let reach = read.reach("max_distance", rays.len())?;
    let keep = read.keep(placed.count(), Q::OVER)?;
    let any = each(&run, rays.len(), |row| {
        Ok(placed.any(&rays.get(row)?, reach.at(row), keep))
    })?
    .map_err(|e| rays.first_error(e))?;
    column(run.py(), any).into_py_any(run.py())
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
    let keep = read.keep(placed.count(), Q::OVER)?;
    let (offsets, found) = ragged(&run, rays.len(), |row, out| {
        let end = segment.as_ref().map(|end| end.at(row));
        placed.spans(&rays.get(row)?, radius.map(|r| r.at(row)), end, out, keep);
        if let Some(end) = segment {
            clip(out, end.at(row));
        }
        Ok(())
    })?
    .map_err(|e| rays.first_error(e))?;
    let py = run.py();
    let k = <Q::Ids as Ids>::COUNT;
    let mut ids = vec![0i64; found.len() * k];
    let (mut enter, mut exit) = (
        Vec::with_capacity(found.len()),
        Vec::with_capacity(found.len()),
    );
    for (i, mut s) in found.into_iter().enumerate() {
        s.ids().write(&mut ids[i * k..(i + 1) * k]);
        let span = s.span();
        enter.push(span.enter);
        exit.push(span.exit);
    }
    tuple(
        py,
        vec![column(py, offsets).into_py_any(py)?],
        id_columns::<Q::Ids>(py, ids),
        vec![
            column(py, enter).into_py_any(py)?,
            column(py, exit).into_py_any(py)?,
        ],
    )
}

/// What contains each point: (offsets, ids…).
pub(crate) fn containing<T: Width, const D: usize, Q: Placed<T, D>>(
    placed: &Q,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let (read, run) = args.read::<T>()?;
    let at = read.points::<D>()?;
    let keep = read.keep(placed.count(), Q::OVER)?;
    let Ok(found) = ragged(&run, at.len(), |row, out| {
        placed.containing(&at[row], out, keep);
        Ok::<_, Infallible>(())
    })?;
    csr_ids(run.py(), found)
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

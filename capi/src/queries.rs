//! The queries of a scene, generic over width and dimension: each reads and checks its
//! arguments (every one before any output is written), asks the crate's scene, and writes the
//! crate's answer converted field for field. Variable-length answers (spans, intervals, body
//! lists) go into the caller's buffer: the count is always written, and the answers only where
//! they fit (else `RS_BUFFER_TOO_SMALL`, so that a caller can size its buffer and ask again).

use rayon::prelude::*;
use raysweep::nalgebra::Point;
use raysweep::{BodyCrossing, BodyHit, BodyNearest, BodySpan, Ray, Real, Span};

use crate::read::{Rows, finite, length, not_nan, output, outputs, point};
use crate::scene::{Handle, Scenes, held};
use crate::status::{Failure, Outcome, rs_status};
use crate::threads::Threads;

/// The scene at `scene`, checked for NULL.
///
/// # Safety
///
/// `scene` is NULL or a live scene handle.
unsafe fn scene_at<'a, T: Real, const D: usize, H: Handle<Inner = Scenes<T, D>> + 'a>(
    scene: *const H,
) -> Result<&'a Scenes<T, D>, Failure> {
    // SAFETY: the caller's promise, passed on.
    Ok(unsafe { held(scene, "scene") }?.inner())
}

/// The ray from `D` values at `origin` and `D` at `direction` (not necessarily of unit length).
///
/// # Safety
///
/// Each is NULL or points to `D` readable values.
unsafe fn ray_at<T: Real, const D: usize>(
    origin: *const T,
    direction: *const T,
) -> Result<Ray<T, D>, Failure> {
    let origins = Rows::new(origin, 0, 1, D, "origin")?;
    let directions = Rows::new(direction, 0, 1, D, "direction")?;
    // SAFETY: one row of D values each, the caller's promise.
    let (o, d) = unsafe { (origins.point::<D>(0), directions.vector::<D>(0)) };
    Ray::new(o, d).map_err(|e| Failure::of("the ray", e))
}

/// `n` rays from packed origins and directions (`D` values each).
///
/// # Safety
///
/// Each is NULL or points to `n · D` readable values.
unsafe fn rays_at<T: Real, const D: usize>(
    origins: *const T,
    directions: *const T,
    n: usize,
) -> Result<Vec<Ray<T, D>>, Failure> {
    let origins = Rows::new(origins, 0, n, D, "origins")?;
    let directions = Rows::new(directions, 0, n, D, "directions")?;
    (0..n)
        .map(|i| {
            // SAFETY: rows below n, the caller's promise.
            let (o, d) = unsafe { (origins.point::<D>(i), directions.vector::<D>(i)) };
            Ray::new(o, d).map_err(|e| Failure::of(&format!("rays[{i}]"), e))
        })
        .collect()
}

/// Writes `answer` where there is one (`found` tells which): the first hit of a ray (`radius`
/// `None`) or of a moving ball.
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes (one answer each).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn cast<T: Real, const D: usize, H, O>(
    scene: *const H,
    origin: *const T,
    direction: *const T,
    radius: Option<T>,
    max_distance: T,
    hit: *mut O,
    found: *mut bool,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>>,
    O: From<BodyHit<T, D>>,
{
    // SAFETY: the caller's promises, passed on.
    let (scene, ray) = unsafe { (scene_at(scene)?, ray_at::<T, D>(origin, direction)?) };
    let radius = radius.map(|r| length(r, "radius", false)).transpose()?;
    let max_distance = not_nan(max_distance, "max_distance")?;
    // SAFETY: the caller's promises, passed on.
    let (hit, found) = unsafe { (output(hit, "hit")?, output(found, "found")?) };
    let answer = on_scene!(scene, s => match radius {
        None => s.cast_ray(&ray, max_distance),
        Some(r) => s.cast_sphere(&ray, r, max_distance),
    });
    *found = answer.is_some();
    if let Some(answer) = answer {
        *hit = answer.into();
    }
    Ok(())
}

/// Whether the ray hits any body within `max_distance`.
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes.
pub(crate) unsafe fn hits_any<T: Real, const D: usize, H: Handle<Inner = Scenes<T, D>>>(
    scene: *const H,
    origin: *const T,
    direction: *const T,
    max_distance: T,
    hit: *mut bool,
) -> Outcome {
    // SAFETY: the caller's promises, passed on.
    let (scene, ray) = unsafe { (scene_at(scene)?, ray_at::<T, D>(origin, direction)?) };
    let max_distance = not_nan(max_distance, "max_distance")?;
    // SAFETY: the caller's promise, passed on.
    let hit = unsafe { output(hit, "hit") }?;
    *hit = on_scene!(scene, s => s.hits_any(&ray, max_distance));
    Ok(())
}

/// The first crossing of a body's surface beyond `after` and within `max_distance`.
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn next_crossing<T: Real, const D: usize, H, O>(
    scene: *const H,
    origin: *const T,
    direction: *const T,
    after: T,
    max_distance: T,
    crossing: *mut O,
    found: *mut bool,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>>,
    O: From<BodyCrossing<T, D>>,
{
    // SAFETY: the caller's promises, passed on.
    let (scene, ray) = unsafe { (scene_at(scene)?, ray_at::<T, D>(origin, direction)?) };
    let after = not_nan(after, "after")?;
    let max_distance = not_nan(max_distance, "max_distance")?;
    // SAFETY: the caller's promises, passed on.
    let (crossing, found) = unsafe { (output(crossing, "crossing")?, output(found, "found")?) };
    let answer = on_scene!(scene, s => s.next_crossing(&ray, after, max_distance));
    *found = answer.is_some();
    if let Some(answer) = answer {
        *crossing = answer.into();
    }
    Ok(())
}

/// `answers` into the caller's buffer `out` of `capacity` (the argument `what`), their number at
/// `count`.
///
/// # Safety
///
/// `out` NULL or valid for `capacity` writes; `count` NULL or valid for one.
unsafe fn fill<A, O: From<A>>(
    answers: Vec<A>,
    out: *mut O,
    capacity: usize,
    count: *mut usize,
    what: &str,
) -> Outcome {
    // SAFETY: the caller's promise, passed on.
    let count = unsafe { output(count, "count") }?;
    if answers.len() > capacity {
        *count = answers.len();
        return Err(Failure::new(
            rs_status::RS_BUFFER_TOO_SMALL,
            format!(
                "{what} holds {capacity} answers but there are {}: call again with at least that many",
                answers.len()
            ),
        ));
    }
    // SAFETY: the caller's promise, passed on (only the first answers.len() slots are written).
    let out = unsafe { outputs(out, answers.len(), what) }?;
    for (slot, answer) in out.iter_mut().zip(answers) {
        *slot = answer.into();
    }
    *count = out.len();
    Ok(())
}

/// Every body whose span along the ray's line meets the segment `[0, max_distance]`, in the
/// crate's order (by `enter`, then by body).
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn ray_spans<T: Real, const D: usize, H, O>(
    scene: *const H,
    origin: *const T,
    direction: *const T,
    max_distance: T,
    spans: *mut O,
    capacity: usize,
    count: *mut usize,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>>,
    O: From<BodySpan<T>>,
{
    // SAFETY: the caller's promises, passed on.
    let (scene, ray) = unsafe { (scene_at(scene)?, ray_at::<T, D>(origin, direction)?) };
    let max_distance = not_nan(max_distance, "max_distance")?;
    let mut found = Vec::new();
    on_scene!(scene, s => s.ray_spans_to(&ray, max_distance, &mut found));
    // SAFETY: the caller's promises, passed on.
    unsafe { fill(found, spans, capacity, count, "spans") }
}

/// The intervals of the ray's line covered by at least one body that meet `[0, max_distance]`,
/// in order along the line.
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn union_spans<T: Real, const D: usize, H, O>(
    scene: *const H,
    origin: *const T,
    direction: *const T,
    max_distance: T,
    intervals: *mut O,
    capacity: usize,
    count: *mut usize,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>>,
    O: From<Span<T>>,
{
    // SAFETY: the caller's promises, passed on.
    let (scene, ray) = unsafe { (scene_at(scene)?, ray_at::<T, D>(origin, direction)?) };
    let max_distance = not_nan(max_distance, "max_distance")?;
    let mut found = Vec::new();
    on_scene!(scene, s => s.union_spans(&ray, max_distance, &mut found));
    // SAFETY: the caller's promises, passed on.
    unsafe { fill(found, intervals, capacity, count, "intervals") }
}

/// The bodies holding the point, in increasing order.
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes.
pub(crate) unsafe fn containing<T: Real, const D: usize, H: Handle<Inner = Scenes<T, D>>>(
    scene: *const H,
    at: *const T,
    bodies: *mut usize,
    capacity: usize,
    count: *mut usize,
) -> Outcome {
    // SAFETY: the caller's promises, passed on.
    let (scene, at) = unsafe { (scene_at(scene)?, point::<T, D>(at, "point")?) };
    let mut found = Vec::new();
    on_scene!(scene, s => s.containing(&at, &mut found));
    // SAFETY: the caller's promises, passed on.
    unsafe { fill(found, bodies, capacity, count, "bodies") }
}

/// The bodies whose surface or inside lies within `distance` of the point, in increasing order.
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes.
pub(crate) unsafe fn within<T: Real, const D: usize, H: Handle<Inner = Scenes<T, D>>>(
    scene: *const H,
    at: *const T,
    distance: T,
    bodies: *mut usize,
    capacity: usize,
    count: *mut usize,
) -> Outcome {
    // SAFETY: the caller's promises, passed on.
    let (scene, at) = unsafe { (scene_at(scene)?, point::<T, D>(at, "point")?) };
    let distance = length(distance, "distance", true)?;
    let mut found = Vec::new();
    on_scene!(scene, s => s.within(&at, distance, &mut found));
    // SAFETY: the caller's promises, passed on.
    unsafe { fill(found, bodies, capacity, count, "bodies") }
}

/// The body nearest the point within `max_distance` (the deepest where it is inside several).
///
/// # Safety
///
/// Pointers NULL or valid for their reads and writes.
pub(crate) unsafe fn nearest<T: Real, const D: usize, H, O>(
    scene: *const H,
    at: *const T,
    max_distance: T,
    nearest: *mut O,
    found: *mut bool,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>>,
    O: From<BodyNearest<T, D>>,
{
    // SAFETY: the caller's promises, passed on.
    let (scene, at) = unsafe { (scene_at(scene)?, point::<T, D>(at, "point")?) };
    let max_distance = not_nan(max_distance, "max_distance")?;
    // SAFETY: the caller's promises, passed on.
    let (nearest, found) = unsafe { (output(nearest, "nearest")?, output(found, "found")?) };
    let answer = on_scene!(scene, s => s.nearest(&at, max_distance));
    *found = answer.is_some();
    if let Some(answer) = answer {
        *nearest = answer.into();
    }
    Ok(())
}

/// Writes each of `answers` that was found into `out`, and which were into `found`: on the
/// pool the batch ran on where `parallel`, else on the calling thread.
fn scatter<A: Send, O: From<A> + Send>(
    answers: Vec<Option<A>>,
    out: &mut [O],
    found: &mut [bool],
    parallel: bool,
) {
    let write = |(answer, (slot, was)): (Option<A>, (&mut O, &mut bool))| {
        *was = answer.is_some();
        if let Some(answer) = answer {
            *slot = answer.into();
        }
    };
    if parallel {
        answers
            .into_par_iter()
            .zip(out.par_iter_mut().zip(found.par_iter_mut()))
            .with_min_len(1 << 12)
            .for_each(write);
    } else {
        answers
            .into_iter()
            .zip(out.iter_mut().zip(found.iter_mut()))
            .for_each(write);
    }
}

/// The first hit of each of `n` rays, on `threads` threads: slot `i` as one `cast` of ray `i`.
///
/// # Safety
///
/// Pointers NULL or valid for `n` rows of reads and writes.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn cast_rays<T: Real, const D: usize, H, O>(
    scene: *const H,
    origins: *const T,
    directions: *const T,
    n: usize,
    max_distance: T,
    threads: usize,
    hits: *mut O,
    found: *mut bool,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>> + Sync,
    O: From<BodyHit<T, D>> + Send,
{
    // SAFETY: the caller's promises, passed on.
    let (scene, rays) = unsafe { (scene_at(scene)?, rays_at::<T, D>(origins, directions, n)?) };
    let max_distance = not_nan(max_distance, "max_distance")?;
    let threads = Threads::of(threads)?;
    // SAFETY: the caller's promises, passed on.
    let (hits, found) = unsafe { (outputs(hits, n, "hits")?, outputs(found, n, "found")?) };
    threads.run(|parallel| {
        let mut answers = vec![None; n];
        on_scene!(scene, s => match parallel {
            false => s.cast_rays(&rays, max_distance, &mut answers),
            true => s.cast_rays_par(&rays, max_distance, &mut answers),
        });
        scatter(answers, hits, found, parallel);
    });
    Ok(())
}

/// The nearest body to each of `n` points, on `threads` threads: slot `i` as one `nearest` of
/// point `i`.
///
/// # Safety
///
/// Pointers NULL or valid for `n` rows of reads and writes.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn nearest_batch<T: Real, const D: usize, H, O>(
    scene: *const H,
    points: *const T,
    n: usize,
    max_distance: T,
    threads: usize,
    nearest: *mut O,
    found: *mut bool,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>> + Sync,
    O: From<BodyNearest<T, D>> + Send,
{
    // SAFETY: the caller's promise, passed on.
    let scene = unsafe { scene_at(scene) }?;
    let rows = Rows::new(points, 0, n, D, "points")?;
    let at = (0..n)
        .map(|i| {
            // SAFETY: rows below n, the caller's promise.
            let p: Point<T, D> = unsafe { rows.point(i) };
            finite(p.coords.as_slice(), &format!("points[{i}]")).map(|()| p)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let max_distance = not_nan(max_distance, "max_distance")?;
    let threads = Threads::of(threads)?;
    // SAFETY: the caller's promises, passed on.
    let (nearest, found) =
        unsafe { (outputs(nearest, n, "nearest")?, outputs(found, n, "found")?) };
    threads.run(|parallel| {
        let mut answers = vec![None; n];
        on_scene!(scene, s => match parallel {
            false => s.nearest_batch(&at, max_distance, &mut answers),
            true => s.nearest_batch_par(&at, max_distance, &mut answers),
        });
        scatter(answers, nearest, found, parallel);
    });
    Ok(())
}

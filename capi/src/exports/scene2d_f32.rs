//! The C functions of 2D `float` scenes: `rs_bodies2d_f32_*` gather bodies, `rs_scene2d_f32_*` build a
//! scene and ask it. Each is a thin shell over the generic code (`src/build.rs`,
//! `src/queries.rs`), run inside `guard` so that no panic crosses into C. Written out for each
//! width and dimension (`src/exports/`), as cbindgen reads functions only where they are written.

use crate::answers::{
    rs_crossing2d_f32, rs_hit2d_f32, rs_interval_f32, rs_nearest2d_f32, rs_span_f32,
};
use crate::scene::{Handle, free, rs_bodies2d_f32, rs_scene2d_f32};
use crate::status::{guard, rs_status};
use crate::{build, queries};

/// Makes an empty list of 2D `float` bodies at `*out`, to be filled by
/// `rs_bodies2d_f32_add_spheres`, `_add_ellipsoids` and `_add_boxes` and built into a scene by
/// `rs_scene2d_f32_new`; freed by `rs_bodies2d_f32_free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_bodies2d_f32_new(out: *mut *mut rs_bodies2d_f32) -> rs_status {
    // SAFETY: the caller's promise: `out` NULL or writable.
    guard(|| unsafe { build::new_bodies(out) })
}

/// Frees a list of bodies; NULL is a no-op. Scenes built from it are not affected.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_bodies2d_f32_free(bodies: *mut rs_bodies2d_f32) {
    // SAFETY: the caller's promise: NULL or a live list, not used again.
    unsafe { free(bodies) }
}

/// Adds `n` balls after the bodies listed: centre `i` the 2 `float`s at byte
/// `i * centre_stride` of `centres`, radius `i` at byte `i * radius_stride` of `radii` (a stride
/// of 0: packed). Each is checked as the crate's `Sphere::new` checks it (finite, radius not
/// negative); on a refusal none is added and the message names the ball (`spheres[i]`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_bodies2d_f32_add_spheres(
    bodies: *mut rs_bodies2d_f32,
    centres: *const f32,
    centre_stride: usize,
    radii: *const f32,
    radius_stride: usize,
    n: usize,
) -> rs_status {
    // SAFETY: the caller's promise: a live list and arrays of n rows at their strides.
    guard(|| unsafe {
        build::add(bodies, || {
            build::spheres::<f32, 2>(centres, centre_stride, radii, radius_stride, n)
        })
    })
}

/// Adds `n` ellipsoids: centre `i` and semi-axes `i` (2 `float`s each) at their strides, and
/// rotation `i` (2x2 `float`s, row after row: the matrix taking the ellipsoid's own axes
/// into the scene's frame) at byte `i * rotation_stride` of `rotations`, or NULL `rotations` for
/// axis-aligned ellipsoids. Checked as `Ellipsoid::new` and `Ellipsoid::oriented` check (semi-axes
/// positive, the rotation orthonormal within 16 `float` epsilons); on a refusal none is added.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_bodies2d_f32_add_ellipsoids(
    bodies: *mut rs_bodies2d_f32,
    centres: *const f32,
    centre_stride: usize,
    semi_axes: *const f32,
    semi_axis_stride: usize,
    rotations: *const f32,
    rotation_stride: usize,
    n: usize,
) -> rs_status {
    // SAFETY: the caller's promise: a live list and arrays of n rows at their strides.
    guard(|| unsafe {
        build::add(bodies, || {
            build::ellipsoids::<f32, 2>(
                centres,
                centre_stride,
                semi_axes,
                semi_axis_stride,
                rotations,
                rotation_stride,
                n,
            )
        })
    })
}

/// Adds `n` axis-aligned boxes: least corner `i` at byte `i * min_stride` of `mins`, greatest
/// corner `i` at byte `i * max_stride` of `maxs` (2 `float`s each). Checked as `Aabb::new`
/// checks (`min <= max` on every axis; equal bounds make a flat box); on a refusal none is added.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_bodies2d_f32_add_boxes(
    bodies: *mut rs_bodies2d_f32,
    mins: *const f32,
    min_stride: usize,
    maxs: *const f32,
    max_stride: usize,
    n: usize,
) -> rs_status {
    // SAFETY: the caller's promise: a live list and arrays of n rows at their strides.
    guard(|| unsafe {
        build::add(bodies, || {
            build::boxes::<f32, 2>(mins, min_stride, maxs, max_stride, n)
        })
    })
}

/// Builds the scene of the bodies listed at `*out` (body `i` the `i`-th added; the list is left
/// as it was). Building runs on every core.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_new(
    bodies: *const rs_bodies2d_f32,
    out: *mut *mut rs_scene2d_f32,
) -> rs_status {
    // SAFETY: the caller's promise: a live list, `out` writable.
    guard(|| unsafe { build::scene_of(bodies, out) })
}

/// Builds a scene of `n` balls at `*out`, read as `rs_bodies2d_f32_add_spheres` reads them.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_new_spheres(
    centres: *const f32,
    centre_stride: usize,
    radii: *const f32,
    radius_stride: usize,
    n: usize,
    out: *mut *mut rs_scene2d_f32,
) -> rs_status {
    // SAFETY: the caller's promise: arrays of n rows at their strides, `out` writable.
    guard(|| unsafe {
        build::scene_of_one_kind(
            || build::spheres::<f32, 2>(centres, centre_stride, radii, radius_stride, n),
            out,
        )
    })
}

/// Frees a scene; NULL is a no-op. No query may be running on it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_free(scene: *mut rs_scene2d_f32) {
    // SAFETY: the caller's promise: NULL or a live scene, not used again.
    unsafe { free(scene) }
}

/// The number of bodies in the scene (0 for NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_len(scene: *const rs_scene2d_f32) -> usize {
    // SAFETY: the caller's promise: NULL or a live scene.
    unsafe { scene.as_ref() }.map_or(0, |s| s.inner().len())
}

/// The first hit of the ray from `origin` along `direction` (2 `float`s each; any length but
/// zero) within `max_distance` (inclusive; may be infinite; NaN is refused): `*found` says
/// whether there is one, and `*hit` is written only where there is. The answer is the crate's
/// `Scene::cast_ray`, bit for bit.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_cast_ray(
    scene: *const rs_scene2d_f32,
    origin: *const f32,
    direction: *const f32,
    max_distance: f32,
    hit: *mut rs_hit2d_f32,
    found: *mut bool,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at each input, outputs writable.
    guard(|| unsafe { queries::cast(scene, origin, direction, None, max_distance, hit, found) })
}

/// The first contact of a ball of `radius` (finite, not negative; 0 is the ray cast) whose
/// centre moves from `origin` along `direction`, within `max_distance` of travel: `hit` holds
/// the travel, the contact point on the body and the body's normal there. As `Scene::cast_sphere`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_cast_sphere(
    scene: *const rs_scene2d_f32,
    origin: *const f32,
    direction: *const f32,
    radius: f32,
    max_distance: f32,
    hit: *mut rs_hit2d_f32,
    found: *mut bool,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at each input, outputs writable.
    guard(|| unsafe {
        queries::cast(
            scene,
            origin,
            direction,
            Some(radius),
            max_distance,
            hit,
            found,
        )
    })
}

/// Whether the ray hits any body within `max_distance` (`*hit`): a shadow or visibility test,
/// stopping at the first body found. As `Scene::hits_any`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_hits_any(
    scene: *const rs_scene2d_f32,
    origin: *const f32,
    direction: *const f32,
    max_distance: f32,
    hit: *mut bool,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at each input, `hit` writable.
    guard(|| unsafe { queries::hits_any(scene, origin, direction, max_distance, hit) })
}

/// The first crossing of any body's surface strictly beyond `after` (`-INFINITY` for the first
/// ahead of the origin and behind it) and within `max_distance`: a particle's next boundary in
/// surface tracking, called again with `after` the crossing's distance. As
/// `Scene::next_crossing`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_next_crossing(
    scene: *const rs_scene2d_f32,
    origin: *const f32,
    direction: *const f32,
    after: f32,
    max_distance: f32,
    crossing: *mut rs_crossing2d_f32,
    found: *mut bool,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at each input, outputs writable.
    guard(|| unsafe {
        queries::next_crossing(
            scene,
            origin,
            direction,
            after,
            max_distance,
            crossing,
            found,
        )
    })
}

/// Every body whose span along the ray's line meets the segment `[0, max_distance]`, each with
/// its whole span (`enter` negative where it begins behind the origin), sorted by `enter` then
/// body: `*count` is set to their number; they are written to `spans` where `capacity` holds
/// them, else the call returns `RS_BUFFER_TOO_SMALL` (ask with capacity 0 and NULL `spans` to
/// learn the count). As `Scene::ray_spans_to`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_ray_spans(
    scene: *const rs_scene2d_f32,
    origin: *const f32,
    direction: *const f32,
    max_distance: f32,
    spans: *mut rs_span_f32,
    capacity: usize,
    count: *mut usize,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at each input, `capacity` slots.
    guard(|| unsafe {
        queries::ray_spans(
            scene,
            origin,
            direction,
            max_distance,
            spans,
            capacity,
            count,
        )
    })
}

/// The intervals of the ray's line covered by at least one body (overlapping bodies merged)
/// that meet `[0, max_distance]`, in order along the line, into `intervals` as
/// `rs_scene2d_f32_ray_spans` fills its buffer. As `Scene::union_spans`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_union_spans(
    scene: *const rs_scene2d_f32,
    origin: *const f32,
    direction: *const f32,
    max_distance: f32,
    intervals: *mut rs_interval_f32,
    capacity: usize,
    count: *mut usize,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at each input, `capacity` slots.
    guard(|| unsafe {
        queries::union_spans(
            scene,
            origin,
            direction,
            max_distance,
            intervals,
            capacity,
            count,
        )
    })
}

/// The bodies holding `point` (2 finite `float`s; surfaces count as inside), in increasing
/// order, into `bodies` as `rs_scene2d_f32_ray_spans` fills its buffer. As `Scene::containing`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_containing(
    scene: *const rs_scene2d_f32,
    point: *const f32,
    bodies: *mut usize,
    capacity: usize,
    count: *mut usize,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at `point`, `capacity` slots.
    guard(|| unsafe { queries::containing(scene, point, bodies, capacity, count) })
}

/// The body nearest `point` within `max_distance` of its surface (the deepest, by signed
/// distance, where the point is inside several; ties to the lowest index): `*found` says whether
/// there is one. As `Scene::nearest`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_nearest(
    scene: *const rs_scene2d_f32,
    point: *const f32,
    max_distance: f32,
    nearest: *mut rs_nearest2d_f32,
    found: *mut bool,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at `point`, outputs writable.
    guard(|| unsafe { queries::nearest(scene, point, max_distance, nearest, found) })
}

/// The bodies whose signed distance from `point` is at most `distance` (finite; negative keeps
/// those the point is that deep inside), in increasing order, into `bodies` as
/// `rs_scene2d_f32_ray_spans` fills its buffer. As `Scene::within`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_within(
    scene: *const rs_scene2d_f32,
    point: *const f32,
    distance: f32,
    bodies: *mut usize,
    capacity: usize,
    count: *mut usize,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, 2 values at `point`, `capacity` slots.
    guard(|| unsafe { queries::within(scene, point, distance, bodies, capacity, count) })
}

/// The first hits of `n` rays (origin and direction `i` the 2 `float`s at `2 * i` of
/// `origins` and `directions`, packed), on `threads` threads (0: every core; 1: the calling
/// thread): `found[i]` and `hits[i]` as one `rs_scene2d_f32_cast_ray`, on any thread count. Every ray is
/// checked before any is cast: a bad one is refused with its index (`rays[i]`), nothing written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_cast_rays(
    scene: *const rs_scene2d_f32,
    origins: *const f32,
    directions: *const f32,
    n: usize,
    max_distance: f32,
    threads: usize,
    hits: *mut rs_hit2d_f32,
    found: *mut bool,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, n rows at each input, n slots at each output.
    guard(|| unsafe {
        queries::cast_rays(
            scene,
            origins,
            directions,
            n,
            max_distance,
            threads,
            hits,
            found,
        )
    })
}

/// The nearest bodies to `n` points (packed, 2 `float`s each), on `threads` threads:
/// `found[i]` and `nearest[i]` as one `rs_scene2d_f32_nearest`. A non-finite point is refused with its
/// index (`points[i]`), nothing written.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rs_scene2d_f32_nearest_batch(
    scene: *const rs_scene2d_f32,
    points: *const f32,
    n: usize,
    max_distance: f32,
    threads: usize,
    nearest: *mut rs_nearest2d_f32,
    found: *mut bool,
) -> rs_status {
    // SAFETY: the caller's promise: a live scene, n rows at `points`, n slots at each output.
    guard(|| unsafe {
        queries::nearest_batch(scene, points, n, max_distance, threads, nearest, found)
    })
}

//! Bodies from the caller's arrays, each made by the crate's constructor (so refused for the
//! same reasons, the message naming the body's index), and scenes built of them.

use raysweep::nalgebra::{Rotation, SMatrix};
use raysweep::{Aabb, Ellipsoid, Real, Sphere};

use crate::read::Rows;
use crate::scene::{Handle, Scenes, Solid, Solids, hand_out, held, held_mut};
use crate::status::{Failure, Outcome};

/// Every row's body, or the first refusal, naming `kind[row]`.
fn made<S>(
    rows: usize,
    kind: &str,
    make: impl Fn(usize) -> Result<S, raysweep::Error>,
) -> Result<Vec<S>, Failure> {
    (0..rows)
        .map(|row| make(row).map_err(|e| Failure::of(&format!("{kind}[{row}]"), e)))
        .collect()
}

/// `n` balls from strided arrays of centres (`D` values each) and radii.
///
/// # Safety
///
/// The arrays hold `n` rows at their strides (NULL only where `n` is 0).
pub(crate) unsafe fn spheres<T: Real, const D: usize>(
    centres: *const T,
    centre_stride: usize,
    radii: *const T,
    radius_stride: usize,
    n: usize,
) -> Result<Vec<Sphere<T, D>>, Failure> {
    let centres = Rows::new(centres, centre_stride, n, D, "centres")?;
    let radii = Rows::new(radii, radius_stride, n, 1, "radii")?;
    // SAFETY: rows below n, the caller's promise.
    made(n, "spheres", |i| unsafe {
        Sphere::new(centres.point(i), radii.at(i, 0))
    })
}

/// `n` ellipsoids from strided arrays of centres and semi-axes (`D` values each) and, unless
/// `rotations` is NULL (axis-aligned ellipsoids), rotation matrices (`D · D` values each, row
/// after row: the matrix taking the ellipsoid's own axes to the scene's).
///
/// # Safety
///
/// The arrays hold `n` rows at their strides (NULL only where `n` is 0; `rotations` may be).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn ellipsoids<T: Real, const D: usize>(
    centres: *const T,
    centre_stride: usize,
    semi_axes: *const T,
    semi_axis_stride: usize,
    rotations: *const T,
    rotation_stride: usize,
    n: usize,
) -> Result<Vec<Ellipsoid<T, D>>, Failure> {
    let centres = Rows::new(centres, centre_stride, n, D, "centres")?;
    let semi_axes = Rows::new(semi_axes, semi_axis_stride, n, D, "semi_axes")?;
    let rotations = match rotations.is_null() {
        true => None,
        false => Some(Rows::new(
            rotations,
            rotation_stride,
            n,
            D * D,
            "rotations",
        )?),
    };
    // SAFETY: rows below n and columns below their widths, the caller's promise.
    made(n, "ellipsoids", |i| unsafe {
        let (centre, semi) = (centres.point(i), semi_axes.vector(i));
        match &rotations {
            None => Ellipsoid::new(centre, semi),
            Some(r) => {
                let matrix = SMatrix::<T, D, D>::from_fn(|row, col| r.at(i, row * D + col));
                Ellipsoid::oriented(centre, semi, Rotation::from_matrix_unchecked(matrix))
            }
        }
    })
}

/// `n` boxes from strided arrays of their least and greatest corners (`D` values each).
///
/// # Safety
///
/// The arrays hold `n` rows at their strides (NULL only where `n` is 0).
pub(crate) unsafe fn boxes<T: Real, const D: usize>(
    mins: *const T,
    min_stride: usize,
    maxs: *const T,
    max_stride: usize,
    n: usize,
) -> Result<Vec<Aabb<T, D>>, Failure> {
    let mins = Rows::new(mins, min_stride, n, D, "mins")?;
    let maxs = Rows::new(maxs, max_stride, n, D, "maxs")?;
    // SAFETY: rows below n, the caller's promise.
    made(n, "boxes", |i| unsafe {
        Aabb::new(mins.point(i), maxs.point(i))
    })
}

/// A new empty list of bodies at `out`.
///
/// # Safety
///
/// `out` is NULL or writable.
pub(crate) unsafe fn new_bodies<T: Real, const D: usize, H: Handle<Inner = Solids<T, D>>>(
    out: *mut *mut H,
) -> Outcome {
    // SAFETY: the caller's promise, passed on.
    unsafe { hand_out(Solids::default(), out, "out") }
}

/// Adds `made`'s bodies to the list at `bodies`, or none if it fails.
///
/// # Safety
///
/// `bodies` is NULL or a live list used by this call alone.
pub(crate) unsafe fn add<T: Real, const D: usize, H, S>(
    bodies: *mut H,
    made: impl FnOnce() -> Result<Vec<S>, Failure>,
) -> Outcome
where
    H: Handle<Inner = Solids<T, D>>,
    S: Solid<T, D>,
{
    // SAFETY: the caller's promise, passed on.
    let bodies = unsafe { held_mut(bodies, "bodies") }?;
    let new = made()?;
    bodies.inner_mut().add(new);
    Ok(())
}

/// The scene of the listed bodies at `out` (the list is left as it was).
///
/// # Safety
///
/// `bodies` is NULL or a live list; `out` is NULL or writable.
pub(crate) unsafe fn scene_of<T: Real, const D: usize, B, H>(
    bodies: *const B,
    out: *mut *mut H,
) -> Outcome
where
    B: Handle<Inner = Solids<T, D>>,
    H: Handle<Inner = Scenes<T, D>>,
{
    // SAFETY: the caller's promise, passed on.
    let bodies = unsafe { held(bodies, "bodies") }?;
    crate::read::non_null(out, "out")?;
    // SAFETY: the caller's promise, passed on.
    unsafe { hand_out(bodies.inner().clone().into_scene(), out, "out") }
}

/// The scene of `made`'s bodies at `out`.
///
/// # Safety
///
/// `out` is NULL or writable.
pub(crate) unsafe fn scene_of_one_kind<T: Real, const D: usize, H, S>(
    made: impl FnOnce() -> Result<Vec<S>, Failure>,
    out: *mut *mut H,
) -> Outcome
where
    H: Handle<Inner = Scenes<T, D>>,
    S: Solid<T, D>,
{
    crate::read::non_null(out, "out")?;
    let mut solids = Solids::default();
    solids.add(made()?);
    // SAFETY: the caller's promise, passed on.
    unsafe { hand_out(solids.into_scene(), out, "out") }
}

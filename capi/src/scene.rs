//! The opaque handles C holds: a list of bodies being gathered ([`Solids`], behind
//! `rs_bodies3d_f64` and its kin) and a built scene ([`Scenes`], behind `rs_scene3d_f64` and its
//! kin), one handle type for each width and dimension so that C's compiler checks which is
//! which. A scene is of one kind of solid where its bodies all are (the crate's homogeneous
//! scenes: a `Sphere` is 32 bytes in `f64` against 240 for a `Body`), else of `Body`; body
//! indices are the order of adding either way, as in the Python binding (`python/src/bodies.rs`).

use raysweep::{Aabb, Body, Ellipsoid, Real, Scene, Sphere};

use crate::read::non_null;
use crate::status::{Failure, Outcome};

/// Bodies gathered for a scene, in the order added: in a vector of one kind while they are all
/// of it, else of `Body`.
#[derive(Clone)]
pub(crate) enum Solids<T: Real, const D: usize> {
    Spheres(Vec<Sphere<T, D>>),
    Ellipsoids(Vec<Ellipsoid<T, D>>),
    Boxes(Vec<Aabb<T, D>>),
    Mixed(Vec<Body<T, D>>),
}

/// A built scene, of the kind its bodies were gathered in.
pub(crate) enum Scenes<T: Real, const D: usize> {
    Spheres(Scene<T, D, Sphere<T, D>>),
    Ellipsoids(Scene<T, D, Ellipsoid<T, D>>),
    Boxes(Scene<T, D, Aabb<T, D>>),
    Mixed(Scene<T, D, Body<T, D>>),
}

/// `$body` with `$s` bound to the value inside `$value` (a `Solids` or a `Scenes`),
/// whichever its kind.
macro_rules! on_kind {
    ($kind:ident, $value:expr, $s:ident => $body:expr) => {
        match $value {
            $kind::Spheres($s) => $body,
            $kind::Ellipsoids($s) => $body,
            $kind::Boxes($s) => $body,
            $kind::Mixed($s) => $body,
        }
    };
}

/// `$body` with `$s` bound to the scene inside `$scenes`, whichever its kind.
macro_rules! on_scene {
    ($scenes:expr, $s:ident => $body:expr) => {
        on_kind!(Scenes, $scenes, $s => $body)
    };
}

/// A kind of solid a `Solids` may hold in a vector of its own.
pub(crate) trait Solid<T: Real, const D: usize>: Into<Body<T, D>> + Sized {
    /// The vector of this kind inside `solids`, where it holds one.
    fn of(solids: &mut Solids<T, D>) -> Option<&mut Vec<Self>>;
    /// Solids of this kind alone.
    fn alone(solids: Vec<Self>) -> Solids<T, D>;
}

macro_rules! solid {
    ($s:ident, $variant:ident) => {
        impl<T: Real, const D: usize> Solid<T, D> for $s<T, D> {
            fn of(solids: &mut Solids<T, D>) -> Option<&mut Vec<Self>> {
                match solids {
                    Solids::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn alone(solids: Vec<Self>) -> Solids<T, D> {
                Solids::$variant(solids)
            }
        }
    };
}
solid!(Sphere, Spheres);
solid!(Ellipsoid, Ellipsoids);
solid!(Aabb, Boxes);

impl<T: Real, const D: usize> Default for Solids<T, D> {
    fn default() -> Self {
        Solids::Spheres(Vec::new())
    }
}

impl<T: Real, const D: usize> Solids<T, D> {
    pub(crate) fn len(&self) -> usize {
        on_kind!(Solids, self, v => v.len())
    }

    /// Adds `new` after the bodies there: in the vector of their kind where every body so far
    /// is of it (or there is none), else all in a vector of `Body`.
    pub(crate) fn add<S: Solid<T, D>>(&mut self, new: Vec<S>) {
        if new.is_empty() {
            return;
        }
        if self.len() == 0 {
            *self = S::alone(new);
        } else if let Some(same) = S::of(self) {
            same.extend(new);
        } else {
            let mut bodies: Vec<Body<T, D>> = match core::mem::take(self) {
                Solids::Spheres(v) => v.into_iter().map(Body::from).collect(),
                Solids::Ellipsoids(v) => v.into_iter().map(Body::from).collect(),
                Solids::Boxes(v) => v.into_iter().map(Body::from).collect(),
                Solids::Mixed(v) => v,
            };
            bodies.extend(new.into_iter().map(Into::into));
            *self = Solids::Mixed(bodies);
        }
    }

    /// The scene of these bodies.
    pub(crate) fn into_scene(self) -> Scenes<T, D> {
        match self {
            Solids::Spheres(v) => Scenes::Spheres(Scene::new(v)),
            Solids::Ellipsoids(v) => Scenes::Ellipsoids(Scene::new(v)),
            Solids::Boxes(v) => Scenes::Boxes(Scene::new(v)),
            Solids::Mixed(v) => Scenes::Mixed(Scene::new(v)),
        }
    }
}

impl<T: Real, const D: usize> Scenes<T, D> {
    pub(crate) fn len(&self) -> usize {
        on_scene!(self, s => s.len())
    }
}

/// An opaque handle C holds: a boxed value of one width and dimension.
pub(crate) trait Handle: Sized {
    /// What it holds.
    type Inner;
    fn wrap(inner: Self::Inner) -> Self;
    fn inner(&self) -> &Self::Inner;
    fn inner_mut(&mut self) -> &mut Self::Inner;
}

/// The handle at `handle` (the argument `what`), checked for NULL.
///
/// # Safety
///
/// `handle` is NULL or was returned by this library and not yet freed.
pub(crate) unsafe fn held<'a, H: Handle>(handle: *const H, what: &str) -> Result<&'a H, Failure> {
    non_null(handle, what)?;
    // SAFETY: a live handle, the caller's promise.
    Ok(unsafe { &*handle })
}

/// The same, to change.
///
/// # Safety
///
/// As for `held`, and no other call uses the handle meanwhile.
pub(crate) unsafe fn held_mut<'a, H: Handle>(
    handle: *mut H,
    what: &str,
) -> Result<&'a mut H, Failure> {
    non_null(handle, what)?;
    // SAFETY: a live handle used by this call alone, the caller's promise.
    Ok(unsafe { &mut *handle })
}

/// `inner` handed to C at `out` as a new handle (the argument `what`).
///
/// # Safety
///
/// `out` is NULL or valid for one write of a pointer.
pub(crate) unsafe fn hand_out<H: Handle>(inner: H::Inner, out: *mut *mut H, what: &str) -> Outcome {
    non_null(out, what)?;
    // SAFETY: not NULL, writable: the caller's promise.
    unsafe { out.write(Box::into_raw(Box::new(H::wrap(inner)))) };
    Ok(())
}

/// Frees a handle `hand_out` gave; NULL is a no-op.
///
/// # Safety
///
/// `handle` is NULL or a live handle of this library, not used again.
pub(crate) unsafe fn free<H: Handle>(handle: *mut H) {
    if !handle.is_null() {
        // SAFETY: made by Box::into_raw in hand_out, freed once: the caller's promise.
        drop(unsafe { Box::from_raw(handle) });
    }
}

/// Bodies gathered for a scene of 3D `double` bodies: made by `rs_bodies3d_f64_new`, bodies
/// added by `rs_bodies3d_f64_add_*`, freed by `rs_bodies3d_f64_free`. Not for two threads at
/// once while bodies are added.
pub struct rs_bodies3d_f64(Solids<f64, 3>);
/// Bodies gathered for a scene of 3D `float` bodies: as `rs_bodies3d_f64`.
pub struct rs_bodies3d_f32(Solids<f32, 3>);
/// Bodies gathered for a scene of 2D `double` bodies: as `rs_bodies3d_f64`.
pub struct rs_bodies2d_f64(Solids<f64, 2>);
/// Bodies gathered for a scene of 2D `float` bodies: as `rs_bodies3d_f64`.
pub struct rs_bodies2d_f32(Solids<f32, 2>);

/// A scene of 3D `double` bodies: immutable once built, shareable across threads (every query
/// takes it `const`); freed by `rs_scene3d_f64_free`.
pub struct rs_scene3d_f64(Scenes<f64, 3>);
/// A scene of 3D `float` bodies: as `rs_scene3d_f64`.
pub struct rs_scene3d_f32(Scenes<f32, 3>);
/// A scene of 2D `double` bodies: as `rs_scene3d_f64`.
pub struct rs_scene2d_f64(Scenes<f64, 2>);
/// A scene of 2D `float` bodies: as `rs_scene3d_f64`.
pub struct rs_scene2d_f32(Scenes<f32, 2>);

macro_rules! handle {
    ($handle:ident, $inner:ty) => {
        impl Handle for $handle {
            type Inner = $inner;
            fn wrap(inner: $inner) -> Self {
                $handle(inner)
            }
            fn inner(&self) -> &$inner {
                &self.0
            }
            fn inner_mut(&mut self) -> &mut $inner {
                &mut self.0
            }
        }
    };
}
handle!(rs_bodies3d_f64, Solids<f64, 3>);
handle!(rs_bodies3d_f32, Solids<f32, 3>);
handle!(rs_bodies2d_f64, Solids<f64, 2>);
handle!(rs_bodies2d_f32, Solids<f32, 2>);
handle!(rs_scene3d_f64, Scenes<f64, 3>);
handle!(rs_scene3d_f32, Scenes<f32, 3>);
handle!(rs_scene2d_f64, Scenes<f64, 2>);
handle!(rs_scene2d_f32, Scenes<f32, 2>);

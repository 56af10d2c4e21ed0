//! A Python scene's bodies: a scene of one kind of solid where they are all of one kind (the
//! crate's homogeneous scenes: a `Sphere` is 32 bytes in `f64` against 240 for a `Body`, so
//! more of the scene stays in cache), else a scene of `Body`. Body ids are the same either way.
//!
//! The scene is shared (`Arc`): a query runs on the scene as it was when it started, an instanced
//! scene places the scenes as they were when it was built, and a push changes a scene in place
//! only where nothing else holds it (else it changes a copy: `Arc::make_mut`).

use std::sync::Arc;

use raysweep::{Aabb, Body, Cast, Ellipsoid, Real, Scene, Sphere};

/// The scene, by the kind of its bodies.
pub(crate) enum Bodies<T: Real, const D: usize> {
    Spheres(Arc<Scene<T, D, Sphere<T, D>>>),
    Ellipsoids(Arc<Scene<T, D, Ellipsoid<T, D>>>),
    Boxes(Arc<Scene<T, D, Aabb<T, D>>>),
    Mixed(Arc<Scene<T, D, Body<T, D>>>),
}

impl<T: Real, const D: usize> Clone for Bodies<T, D> {
    fn clone(&self) -> Self {
        match self {
            Bodies::Spheres(s) => Bodies::Spheres(s.clone()),
            Bodies::Ellipsoids(s) => Bodies::Ellipsoids(s.clone()),
            Bodies::Boxes(s) => Bodies::Boxes(s.clone()),
            Bodies::Mixed(s) => Bodies::Mixed(s.clone()),
        }
    }
}

/// `$body` with `$s` bound to the scene inside `$bodies` (a [`Bodies`]), whichever its kind, as
/// a `&Scene`.
macro_rules! on_bodies {
    ($bodies:expr, $s:ident => $body:expr) => {
        match $bodies {
            $crate::bodies::Bodies::Spheres(shared) => {
                let $s = &**shared;
                $body
            }
            $crate::bodies::Bodies::Ellipsoids(shared) => {
                let $s = &**shared;
                $body
            }
            $crate::bodies::Bodies::Boxes(shared) => {
                let $s = &**shared;
                $body
            }
            $crate::bodies::Bodies::Mixed(shared) => {
                let $s = &**shared;
                $body
            }
        }
    };
}

/// The solids of one kind in `bodies`, or `None` where one is of another kind.
fn all_of<T: Real, const D: usize, S>(
    bodies: &[Body<T, D>],
    kind: fn(&Body<T, D>) -> Option<S>,
) -> Option<Vec<S>> {
    bodies.iter().map(kind).collect()
}

impl<T: Real, const D: usize> Bodies<T, D> {
    /// The scene of `bodies` (built on rayon's threads): of one kind where they are all of it.
    pub(crate) fn new(bodies: Vec<Body<T, D>>) -> Self {
        if bodies.is_empty() {
            return Bodies::Mixed(Arc::new(Scene::new(bodies)));
        }
        if let Some(s) = all_of(&bodies, sphere) {
            Bodies::Spheres(Arc::new(Scene::new(s)))
        } else if let Some(e) = all_of(&bodies, ellipsoid) {
            Bodies::Ellipsoids(Arc::new(Scene::new(e)))
        } else if let Some(b) = all_of(&bodies, aabb) {
            Bodies::Boxes(Arc::new(Scene::new(b)))
        } else {
            Bodies::Mixed(Arc::new(Scene::new(bodies)))
        }
    }

    /// Whether the two hold the same scene (not equal ones: the same in memory).
    pub(crate) fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Bodies::Spheres(a), Bodies::Spheres(b)) => Arc::ptr_eq(a, b),
            (Bodies::Ellipsoids(a), Bodies::Ellipsoids(b)) => Arc::ptr_eq(a, b),
            (Bodies::Boxes(a), Bodies::Boxes(b)) => Arc::ptr_eq(a, b),
            (Bodies::Mixed(a), Bodies::Mixed(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// How many bodies.
    pub(crate) fn len(&self) -> usize {
        on_bodies!(self, s => s.len())
    }

    /// Every body, in id order, as a [`Body`].
    pub(crate) fn bodies(&self) -> Vec<Body<T, D>> {
        match self {
            Bodies::Spheres(s) => s.bodies().iter().map(|&b| b.into()).collect(),
            Bodies::Ellipsoids(s) => s.bodies().iter().map(|&b| b.into()).collect(),
            Bodies::Boxes(s) => s.bodies().iter().map(|&b| b.into()).collect(),
            Bodies::Mixed(s) => s.bodies().to_vec(),
        }
    }

    /// Adds `new` in place (each with `Scene::push`), where they are of this scene's kind (a
    /// scene of `Body` takes any); `false`, nothing added, where one is of another kind.
    pub(crate) fn push(&mut self, new: &[Body<T, D>]) -> bool {
        fn each<T: Real, const D: usize, S: Cast<T, D> + Clone>(
            scene: &mut Arc<Scene<T, D, S>>,
            new: Option<Vec<S>>,
        ) -> bool {
            let Some(new) = new else {
                return false;
            };
            let scene = Arc::make_mut(scene);
            for body in new {
                scene.push(body);
            }
            true
        }
        match self {
            Bodies::Spheres(s) => each(s, all_of(new, sphere)),
            Bodies::Ellipsoids(s) => each(s, all_of(new, ellipsoid)),
            Bodies::Boxes(s) => each(s, all_of(new, aabb)),
            Bodies::Mixed(s) => each(s, Some(new.to_vec())),
        }
    }
}

fn sphere<T: Real, const D: usize>(b: &Body<T, D>) -> Option<Sphere<T, D>> {
    match b {
        Body::Sphere(s) => Some(*s),
        _ => None,
    }
}

fn ellipsoid<T: Real, const D: usize>(b: &Body<T, D>) -> Option<Ellipsoid<T, D>> {
    match b {
        Body::Ellipsoid(e) => Some(*e),
        _ => None,
    }
}

fn aabb<T: Real, const D: usize>(b: &Body<T, D>) -> Option<Aabb<T, D>> {
    match b {
        Body::Aabb(a) => Some(*a),
        _ => None,
    }
}

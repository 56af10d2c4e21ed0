//! A Python scene's bodies: a scene of one kind of solid where they are all of one kind (the
//! crate's homogeneous scenes: a `Sphere` is 32 bytes in `f64` against 240 for a `Body`, so
//! more of the scene stays in cache), else a scene of `Body`. Body ids are the same either way.

use raysweep::{Aabb, Body, Ellipsoid, Real, Scene, Sphere};

/// The scene, by the kind of its bodies.
pub(crate) enum Bodies<T: Real, const D: usize> {
    Spheres(Scene<T, D, Sphere<T, D>>),
    Ellipsoids(Scene<T, D, Ellipsoid<T, D>>),
    Boxes(Scene<T, D, Aabb<T, D>>),
    Mixed(Scene<T, D, Body<T, D>>),
}

/// `$body` with `$s` bound to the scene inside `$bodies` (a [`Bodies`]), whichever its kind.
macro_rules! on_bodies {
    ($bodies:expr, $s:ident => $body:expr) => {
        match $bodies {
            $crate::bodies::Bodies::Spheres($s) => $body,
            $crate::bodies::Bodies::Ellipsoids($s) => $body,
            $crate::bodies::Bodies::Boxes($s) => $body,
            $crate::bodies::Bodies::Mixed($s) => $body,
        }
    };
}

impl<T: Real, const D: usize> Bodies<T, D> {
    /// The scene of `bodies` (built on rayon's threads): of one kind where they are all of it.
    pub(crate) fn new(bodies: Vec<Body<T, D>>) -> Self {
        let all = |kind: fn(&Body<T, D>) -> bool| !bodies.is_empty() && bodies.iter().all(kind);
        if all(|b| matches!(b, Body::Sphere(_))) {
            Bodies::Spheres(Scene::new(
                bodies
                    .iter()
                    .filter_map(|b| match b {
                        Body::Sphere(s) => Some(*s),
                        _ => None,
                    })
                    .collect(),
            ))
        } else if all(|b| matches!(b, Body::Ellipsoid(_))) {
            Bodies::Ellipsoids(Scene::new(
                bodies
                    .iter()
                    .filter_map(|b| match b {
                        Body::Ellipsoid(e) => Some(*e),
                        _ => None,
                    })
                    .collect(),
            ))
        } else if all(|b| matches!(b, Body::Aabb(_))) {
            Bodies::Boxes(Scene::new(
                bodies
                    .iter()
                    .filter_map(|b| match b {
                        Body::Aabb(a) => Some(*a),
                        _ => None,
                    })
                    .collect(),
            ))
        } else {
            Bodies::Mixed(Scene::new(bodies))
        }
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
}

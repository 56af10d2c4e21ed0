//! A Python scene's bodies: a scene of one kind of solid where they are all of one kind (the
//! crate's homogeneous scenes: a `Sphere` is 32 bytes in `f64` against 240 for a `Body`, so
//! more of the scene stays in cache), else a scene of `Body`. Body ids are the same either way.
//!
//! The scene is shared (`Arc`): a query runs on the scene as it was when it started, an instanced
//! scene places the scenes as they were when it was built, and a push changes a scene in place
//! only where nothing else holds it (else it changes a copy: `Arc::make_mut`).

use std::sync::Arc;

use raysweep::{Aabb, Body, Cast, Ellipsoid, PointQuery, Real, Scene, Sphere};

use crate::kinds::{BySolid, OfSolid};

/// What a scene's bodies answer: casts and point queries, shared across threads.
pub(crate) trait Solid<T: Real, const D: usize>:
    Cast<T, D> + PointQuery<T, D> + Sync + Send
{
}

impl<T: Real, const D: usize, S: Cast<T, D> + PointQuery<T, D> + Sync + Send> Solid<T, D> for S {}

/// Scenes shared, one for each kind of solid.
pub(crate) struct Shared;

impl<T: Real, const D: usize> OfSolid<T, D> for Shared {
    type Of<S> = Arc<Scene<T, D, S>>;
}

/// The scene, by the kind of its bodies.
pub(crate) type Bodies<T, const D: usize> = BySolid<T, D, Shared>;

/// `$body` with `$s` bound to the scene inside `$bodies` (a [`Bodies`]), whichever its kind, as
/// a `&Scene`.
macro_rules! on_bodies {
    ($bodies:expr, $s:ident => $body:expr) => {
        on_solid!($bodies, shared => {
            let $s = &**shared;
            $body
        })
    };
}

/// Vectors of bodies, one for each kind of solid.
pub(crate) struct Listed;

impl<T: Real, const D: usize> OfSolid<T, D> for Listed {
    type Of<S> = Vec<S>;
}

/// Bodies not yet in a scene, held as a [`Bodies`] holds them: in a vector of one kind where
/// they are all of it, else of `Body`. Read from arrays into these, a scene of one kind never
/// passes through `Body` (240 bytes a body in `f64`, against 32 for a sphere), whose vector of a
/// few million bodies took most of a second to fill while the caller held the GIL.
pub(crate) type Solids<T, const D: usize> = BySolid<T, D, Listed>;

impl<T: Real, const D: usize> Solids<T, D> {
    /// The spheres, then the ellipsoids, then the boxes (their ids in that order): of one kind
    /// where the other two are empty.
    pub(crate) fn of(
        spheres: Vec<Sphere<T, D>>,
        ellipsoids: Vec<Ellipsoid<T, D>>,
        boxes: Vec<Aabb<T, D>>,
    ) -> Self {
        match (spheres.is_empty(), ellipsoids.is_empty(), boxes.is_empty()) {
            (false, true, true) => Solids::Spheres(spheres),
            (true, false, true) => Solids::Ellipsoids(ellipsoids),
            (true, true, false) => Solids::Boxes(boxes),
            _ => {
                let mut bodies = Vec::with_capacity(spheres.len() + ellipsoids.len() + boxes.len());
                bodies.extend(spheres.into_iter().map(Body::from));
                bodies.extend(ellipsoids.into_iter().map(Body::from));
                bodies.extend(boxes.into_iter().map(Body::from));
                Solids::Mixed(bodies)
            }
        }
    }

    /// `bodies`, in a vector of one kind where they are all of it (none: of `Body`).
    pub(crate) fn sorted(bodies: Vec<Body<T, D>>) -> Self {
        fn all_of<T: Real, const D: usize, S>(
            bodies: &[Body<T, D>],
            kind: fn(&Body<T, D>) -> Option<S>,
        ) -> Option<Vec<S>> {
            bodies.iter().map(kind).collect()
        }
        if bodies.is_empty() {
            Solids::Mixed(bodies)
        } else if let Some(s) = all_of(&bodies, sphere) {
            Solids::Spheres(s)
        } else if let Some(e) = all_of(&bodies, ellipsoid) {
            Solids::Ellipsoids(e)
        } else if let Some(b) = all_of(&bodies, aabb) {
            Solids::Boxes(b)
        } else {
            Solids::Mixed(bodies)
        }
    }

    /// How many bodies.
    pub(crate) fn len(&self) -> usize {
        on_solid!(self, v => v.len())
    }

    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every body, in id order, as a [`Body`].
    pub(crate) fn bodies(&self) -> Vec<Body<T, D>> {
        match self {
            Solids::Spheres(v) => v.iter().map(|&b| b.into()).collect(),
            Solids::Ellipsoids(v) => v.iter().map(|&b| b.into()).collect(),
            Solids::Boxes(v) => v.iter().map(|&b| b.into()).collect(),
            Solids::Mixed(v) => v.clone(),
        }
    }
}

impl<T: Real, const D: usize> Bodies<T, D> {
    /// The scene of `solids` (built on rayon's threads), of their kind.
    pub(crate) fn new(solids: Solids<T, D>) -> Self {
        match solids {
            Solids::Spheres(v) => Bodies::Spheres(Arc::new(Scene::new(v))),
            Solids::Ellipsoids(v) => Bodies::Ellipsoids(Arc::new(Scene::new(v))),
            Solids::Boxes(v) => Bodies::Boxes(Arc::new(Scene::new(v))),
            Solids::Mixed(v) => Bodies::Mixed(Arc::new(Scene::new(v))),
        }
    }

    /// A new scene of these bodies and then `new`'s (built on rayon's threads): of their kind
    /// where both are of one, else as [`Solids::sorted`] finds them.
    pub(crate) fn with(&self, new: Solids<T, D>) -> Self {
        fn joined<S: Clone>(old: &[S], new: Vec<S>) -> Vec<S> {
            let mut all = Vec::with_capacity(old.len() + new.len());
            all.extend_from_slice(old);
            all.extend(new);
            all
        }
        Bodies::new(match (self, new) {
            (Bodies::Spheres(s), Solids::Spheres(v)) => Solids::Spheres(joined(s.bodies(), v)),
            (Bodies::Ellipsoids(s), Solids::Ellipsoids(v)) => {
                Solids::Ellipsoids(joined(s.bodies(), v))
            }
            (Bodies::Boxes(s), Solids::Boxes(v)) => Solids::Boxes(joined(s.bodies(), v)),
            (_, new) => Solids::sorted(joined(&self.bodies(), new.bodies())),
        })
    }

    /// The bodies from id `first` on, of the scene's kind.
    pub(crate) fn since(&self, first: usize) -> Solids<T, D> {
        fn after<S: Clone>(bodies: &[S], first: usize) -> Vec<S> {
            bodies.get(first..).unwrap_or_default().to_vec()
        }
        match self {
            Bodies::Spheres(s) => Solids::Spheres(after(s.bodies(), first)),
            Bodies::Ellipsoids(s) => Solids::Ellipsoids(after(s.bodies(), first)),
            Bodies::Boxes(s) => Solids::Boxes(after(s.bodies(), first)),
            Bodies::Mixed(s) => Solids::Mixed(after(s.bodies(), first)),
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
    /// scene of `Body` takes any); `false`, nothing added, where they are not.
    pub(crate) fn push(&mut self, new: &Solids<T, D>) -> bool {
        fn each<T: Real, const D: usize, S: Cast<T, D> + Clone>(
            scene: &mut Arc<Scene<T, D, S>>,
            new: impl IntoIterator<Item = S>,
        ) -> bool {
            let scene = Arc::make_mut(scene);
            for body in new {
                scene.push(body);
            }
            true
        }
        match (self, new) {
            (Bodies::Spheres(s), Solids::Spheres(v)) => each(s, v.iter().copied()),
            (Bodies::Ellipsoids(s), Solids::Ellipsoids(v)) => each(s, v.iter().copied()),
            (Bodies::Boxes(s), Solids::Boxes(v)) => each(s, v.iter().copied()),
            (Bodies::Mixed(s), new) => each(s, new.bodies()),
            _ => false,
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

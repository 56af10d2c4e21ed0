//! What a scene's queries return: a hit, a span or a nearest point with the id of the body it
//! came from, and [`Answer`], how generic code reads the answers of any kind of scene.

use nalgebra::{Point, SVector, Unit};

use core::cmp::Ordering;

use crate::hit::{Crossing, Hit, Span};
use crate::real::Real;

/// Sorts a scene's spans as its span queries list them: by `enter` (by value: `-0.0` and `0.0`
/// are the same), then by what names the body (`key` gives both).
pub(crate) fn sort_by_entry<A, T: Real, I: Ord>(spans: &mut [A], key: impl Fn(&A) -> (T, I)) {
    spans.sort_unstable_by(|a, b| {
        let ((ea, ia), (eb, ib)) = (key(a), key(b));
        ea.to_wide()
            .partial_cmp(&eb.to_wide())
            .unwrap_or(Ordering::Equal)
            .then(ia.cmp(&ib))
    });
}

/// What an answer of a [`Geometry`](crate::Geometry) names and holds: the body it is about (as
/// the geometry names its bodies, [`Geometry::Id`](crate::Geometry::Id)) and what was found there. Generic code reads answers through
/// it.
///
/// # Example
///
/// ```
/// use raysweep::nalgebra::{Point3, Vector3};
/// use raysweep::{Answer, Geometry, Ray, Scene, Sphere};
///
/// /// The distance to the first body `ray` hits, and which, in any kind of scene.
/// fn first<G: Geometry<f64>>(geometry: &G, ray: &Ray<f64>) -> Option<(G::Id, f64)> {
///     let hit = geometry.cast_ray(ray, f64::INFINITY)?;
///     Some((hit.id(), hit.found().distance))
/// }
///
/// let scene: Scene<f64, 3, Sphere<f64>> =
///     Scene::new(vec![Sphere::new(Point3::new(0.0, 0.0, 5.0), 1.0)?]);
/// let ray = Ray::new(Point3::origin(), Vector3::z())?;
/// assert_eq!(first(&scene, &ray), Some((0, 4.0)));
/// # Ok::<(), raysweep::Error>(())
/// ```
pub trait Answer {
    /// The body the answer is about.
    type Id;
    /// What was found there: a [`Hit`], a [`Span`], a [`BodyNearest`].
    type Found;

    /// The body the answer is about.
    fn id(&self) -> Self::Id;

    /// What was found there.
    fn found(&self) -> &Self::Found;
}

/// A hit in a scene: the body's id (its index in the scene's bodies) and its hit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyHit<T: Real, const D: usize = 3> {
    /// The id of the body hit.
    pub body: usize,
    /// The body's hit, the bits its own cast returns.
    pub hit: Hit<T, D>,
}

/// Where a line crosses one body of a scene: the body's id and its span.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodySpan<T: Real> {
    /// The id of the body crossed.
    pub body: usize,
    /// The body's span, the bits its own `ray_span` (or `sphere_span`) returns.
    pub span: Span<T>,
}

/// The next crossing along a ray in a scene ([`Scene::next_crossing`](crate::Scene::next_crossing)):
/// the body's id and where the ray crosses its surface.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyCrossing<T: Real, const D: usize = 3> {
    /// The id of the body crossed.
    pub body: usize,
    /// The crossing: an end of the body's own `ray_span`, its bits.
    pub crossing: Crossing<T, D>,
}

/// The body of a scene nearest to a point ([`Scene::nearest`](crate::Scene::nearest)): its id,
/// the point's signed distance to it, and the nearest point of its surface with the outward normal
/// there, the bits its own [`PointQuery`](crate::PointQuery) gives.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyNearest<T: Real, const D: usize = 3> {
    /// The id of the nearest body.
    pub body: usize,
    /// The point's signed distance to its surface: negative inside.
    pub signed_distance: T,
    /// The nearest point of its surface.
    pub point: Point<T, D>,
    /// Its outward unit normal at `point`.
    pub normal: Unit<SVector<T, D>>,
}

impl<T: Real, const D: usize> Answer for BodyHit<T, D> {
    type Id = usize;
    type Found = Hit<T, D>;

    #[inline]
    fn id(&self) -> usize {
        self.body
    }

    #[inline]
    fn found(&self) -> &Hit<T, D> {
        &self.hit
    }
}

impl<T: Real> Answer for BodySpan<T> {
    type Id = usize;
    type Found = Span<T>;

    #[inline]
    fn id(&self) -> usize {
        self.body
    }

    #[inline]
    fn found(&self) -> &Span<T> {
        &self.span
    }
}

/// A scene's nearest answer is the body's own.
impl<T: Real, const D: usize> Answer for BodyNearest<T, D> {
    type Id = usize;
    type Found = BodyNearest<T, D>;

    #[inline]
    fn id(&self) -> usize {
        self.body
    }

    #[inline]
    fn found(&self) -> &BodyNearest<T, D> {
        self
    }
}

impl<T: Real, const D: usize> Answer for BodyCrossing<T, D> {
    type Id = usize;
    type Found = Crossing<T, D>;

    #[inline]
    fn id(&self) -> usize {
        self.body
    }

    #[inline]
    fn found(&self) -> &Crossing<T, D> {
        &self.crossing
    }
}

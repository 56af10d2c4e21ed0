//! Periodic scenes: bodies in a box that stand for the same bodies repeated on a lattice without
//! end, as in a periodic representative volume of a porous sample, a particle simulation's
//! periodic box or a reactor lattice. Every answer is the one a loop over every `(body, image)`
//! pair gives against the bodies translated exactly; no body is copied.
//!
//! - [`lattice`]: exact lattice vectors, the images that can reach a region.
//! - [`walk`]: the images a ray reaches, in the order it reaches their boxes.
//! - [`rays`]: the casts and spans, each image asked through `super::moved`.
//! - here: [`Periodicity`], [`PeriodicScene`] and its point queries ([`PeriodicScene::containing`],
//!   [`PeriodicScene::within`], [`PeriodicScene::nearest`]).
//!
//! # How the point queries are answered
//!
//! The bodies are held once, in a plain [`Scene`]. Image `k` holds each body translated by
//! `v = k ∘ size`, and a point `p` is as far from a translated body as `p − v` is from the body:
//! a query of image `k` is the plain scene's query at `p − v` (`super::moved`: where `p − v`
//! is not a value of the width, the bodies are measured from it held exactly as a pair, as the
//! casts are). Which images to ask: those whose box (the box of all the bodies, moved
//! by `v`) lies within the distance asked of `p` ([`lattice::ranges`], [`lattice::gap`]); for
//! `nearest`, first the image that puts `p` at the centre of the bodies' box, whose answer
//! bounds the distance, then every other image whose box lies within that answer's distance.
//! Ties between images go to the lowest `(body, image)`, images compared lexicographically, as
//! the loop over the pairs in that order gives.

mod lattice;
mod rays;
mod walk;

use alloc::vec::Vec;

use nalgebra::{Point, SVector};

use super::answer::{Answer, BodyNearest};
use super::moved;
use super::plain::{Scene, box_of};
use super::surface::Proximity;
use crate::core::exact::Products;
use crate::error::{Error, check_finite};
use crate::fused::detected_products;
use crate::hit::{Crossing, Hit, Span};
use crate::point::PointQuery;
use crate::real::Real;
use crate::shape::Body;
use crate::traits::Cast;
use lattice::Vector;

pub use lattice::REACH_BOXES;

/// An image of the bodies: the lattice vector `k`, the bodies translated by `k[a] · size[a]` on
/// each axis `a` (zero on the axes that do not repeat).
pub type Image<const D: usize = 3> = [i64; D];

/// The lattice of a periodic medium: its box (`min`, `size`) and which axes repeat.
///
/// The medium is the union, over every lattice vector `k`, of every body translated by
/// `k[a] · size[a]` on each repeating axis `a`; `min` places the box the lattice is drawn from
/// (the cells a ray walks through) and does not move the bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Periodicity<T: Real, const D: usize = 3> {
    min: Point<T, D>,
    size: SVector<T, D>,
    axes: [bool; D],
}

impl<T: Real, const D: usize> Periodicity<T, D> {
    /// A medium that repeats along every axis, the box `min..min + size`.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a non-finite component of `min` or `size`,
    /// [`Error::NonPositivePeriod`] for a size that is zero or negative.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Error, Periodicity};
    ///
    /// let period = Periodicity::new(Point3::origin(), Vector3::new(10.0, 10.0, 5.0))?;
    /// assert_eq!(period.axes(), [true; 3]);
    /// let bad = Periodicity::new(Point3::origin(), Vector3::new(10.0, 0.0, 5.0));
    /// assert_eq!(bad, Err(Error::NonPositivePeriod { axis: 1, value: 0.0 }));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(min: Point<T, D>, size: SVector<T, D>) -> Result<Self, Error> {
        Self::along(min, size, [true; D])
    }

    /// A medium that repeats along the axes `axes` marks; on the others the bodies are placed
    /// once, and `size` there is not used (it must still be finite).
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a non-finite component of `min` or `size`,
    /// [`Error::NonPositivePeriod`] for a size that is zero or negative on a repeating axis.
    pub fn along(min: Point<T, D>, size: SVector<T, D>, axes: [bool; D]) -> Result<Self, Error> {
        check_finite("min", min.iter().map(|v| v.to_wide()))?;
        check_finite("size", size.iter().map(|v| v.to_wide()))?;
        for (axis, (&value, &repeats)) in size.iter().zip(&axes).enumerate() {
            if repeats && !(value.to_wide() > 0.0) {
                return Err(Error::NonPositivePeriod {
                    axis,
                    value: value.to_wide(),
                });
            }
        }
        Ok(Periodicity { min, size, axes })
    }

    /// The box's lower corner.
    pub fn min(&self) -> &Point<T, D> {
        &self.min
    }

    /// The box's size: the period on each repeating axis.
    pub fn size(&self) -> &SVector<T, D> {
        &self.size
    }

    /// Which axes repeat.
    pub fn axes(&self) -> [bool; D] {
        self.axes
    }
}

/// A hit in a periodic scene: the body, the image it was hit in, and the hit on the body
/// translated into that image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeriodicHit<T: Real, const D: usize = 3> {
    /// The body's id.
    pub body: usize,
    /// The image the body was hit in.
    pub image: Image<D>,
    /// The hit: distance and normal those of the translated body, the point in the medium.
    pub hit: Hit<T, D>,
}

/// The next crossing along a ray in a periodic scene: the body, the image it was crossed in,
/// and where the ray crosses the body translated into that image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeriodicCrossing<T: Real, const D: usize = 3> {
    /// The body's id.
    pub body: usize,
    /// The image the body was crossed in.
    pub image: Image<D>,
    /// The crossing: an end of the translated body's span.
    pub crossing: Crossing<T, D>,
}

/// Where a line crosses one body of a periodic scene in one image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeriodicSpan<T: Real, const D: usize = 3> {
    /// The body's id.
    pub body: usize,
    /// The image the body is crossed in.
    pub image: Image<D>,
    /// The translated body's span along the line.
    pub span: Span<T>,
}

/// The body of a periodic scene nearest to a point: the body, its image, and the answer for the
/// body translated into that image (distance and normal its own, the point in the medium).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeriodicNearest<T: Real, const D: usize = 3> {
    /// The body's id.
    pub body: usize,
    /// The image the body is nearest in.
    pub image: Image<D>,
    /// The body's answer: `nearest.point` is the surface point of the translated body.
    pub nearest: BodyNearest<T, D>,
}

/// Bodies repeated on a lattice without end ([`Periodicity`]): every query is answered against
/// the whole infinite medium, as the loop over every `(body, image)` pair answers it.
///
/// A body may lie anywhere, straddle the box's faces or be larger than the box; it is held once,
/// whatever the distances asked. Images are asked at most [`REACH_BOXES`] boxes away from the
/// point on each axis, and within `2^52` boxes of the origin.
#[derive(Clone, Debug)]
pub struct PeriodicScene<T: Real, const D: usize = 3, S = Body<T, D>> {
    scene: Scene<T, D, S>,
    period: Periodicity<T, D>,
    /// The bodies' box in `f64`, grown a little for the roundings of their own boxes; `None`
    /// for no bodies.
    bounds: Option<([f64; D], [f64; D])>,
    /// The period on each axis in `f64` (exact).
    size: [f64; D],
    products: Products,
}

impl<T: Real, const D: usize, S> PeriodicScene<T, D, S> {
    /// The bodies, by id.
    pub fn bodies(&self) -> &[S] {
        self.scene.bodies()
    }

    /// How many bodies (each standing for its images).
    pub fn len(&self) -> usize {
        self.scene.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.scene.is_empty()
    }

    /// The lattice.
    pub fn period(&self) -> &Periodicity<T, D> {
        &self.period
    }

    /// The plain scene of the bodies, as given (image zero).
    pub fn scene(&self) -> &Scene<T, D, S> {
        &self.scene
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> PeriodicScene<T, D, S> {
    /// The medium of `bodies` repeated by `period`. Bodies may lie anywhere and be of any size.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, PeriodicScene, Periodicity};
    ///
    /// // A disc at the corner of a 4 x 4 box: its images sit at every corner.
    /// let period = Periodicity::new(Point2::origin(), Vector2::new(4.0, 4.0))?;
    /// let scene: PeriodicScene<f64, 2, Circle<f64>> =
    ///     PeriodicScene::new(vec![Circle::new(Point2::new(0.0, 0.0), 1.0)?], period);
    /// let near = scene.nearest(&Point2::new(3.5, 3.5), f64::INFINITY).unwrap();
    /// assert_eq!((near.body, near.image), (0, [1, 1]));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If there are `2^31 − 1` bodies or more, as [`Scene::new`].
    pub fn new(bodies: Vec<S>, period: Periodicity<T, D>) -> Self {
        let mut bounds: Option<([f64; D], [f64; D])> = None;
        for body in &bodies {
            // A NaN bound counts as infinite, as the hierarchy takes it.
            let (lo, hi) = box_of(body);
            let (low, high) = bounds.get_or_insert(([f64::INFINITY; D], [f64::NEG_INFINITY; D]));
            for a in 0..D {
                low[a] = low[a].min(lo[a].to_wide());
                high[a] = high[a].max(hi[a].to_wide());
            }
        }
        // Moved outward ([`pad`]).
        let bounds = bounds.map(|(low, high)| {
            (
                core::array::from_fn(|a| low[a] - pad::<T>(low[a])),
                core::array::from_fn(|a| high[a] + pad::<T>(high[a])),
            )
        });
        PeriodicScene {
            scene: Scene::new(bodies),
            size: core::array::from_fn(|a| period.size[a].to_wide()),
            period,
            bounds,
            products: detected_products(),
        }
    }

    /// Adds `body` (standing for all its images) and returns its id, the next after the bodies
    /// so far: as [`Scene::push`], every later answer is the loop's over the bodies so far (its
    /// hierarchy grown where the body costs least, and the bodies' box grown to hold it).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, PeriodicScene, Periodicity, Ray};
    ///
    /// let period = Periodicity::new(Point2::origin(), Vector2::new(4.0, 4.0))?;
    /// let mut packing: PeriodicScene<f64, 2, Circle<f64>> = PeriodicScene::new(vec![], period);
    /// assert_eq!(packing.push(Circle::new(Point2::new(1.0, 1.0), 0.5)?), 0);
    /// assert_eq!(packing.push(Circle::new(Point2::new(3.9, 1.0), 0.5)?), 1);
    /// // The second disc's image at x = -0.1 is met first from x = -2.
    /// let hit = packing.cast_ray(&Ray::new(Point2::new(-2.0, 1.0), Vector2::x())?, 10.0).unwrap();
    /// assert_eq!((hit.body, hit.image), (1, [-1, 0]));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If the scene holds `2^31 − 2` bodies already, as [`Scene::push`].
    pub fn push(&mut self, body: S) -> usize {
        let (lo, hi) = box_of(&body);
        let (low, high) = self
            .bounds
            .get_or_insert(([f64::INFINITY; D], [f64::NEG_INFINITY; D]));
        for a in 0..D {
            let (l, h) = (lo[a].to_wide(), hi[a].to_wide());
            low[a] = low[a].min(l - pad::<T>(l));
            high[a] = high[a].max(h + pad::<T>(h));
        }
        self.scene.push(body)
    }

    /// `visit(k, k ∘ size)` for every image `k` whose box may lie within `reach` of `p`, in
    /// increasing `k`.
    pub(super) fn each_image(
        &self,
        p: &Point<T, D>,
        reach: f64,
        mut visit: impl FnMut(&Image<D>, &Vector<D>),
    ) {
        let Some((low, high)) = &self.bounds else {
            return;
        };
        let at: [f64; D] = core::array::from_fn(|a| p[a].to_wide());
        if at.iter().any(|v| !v.is_finite()) {
            return;
        }
        let ranges = lattice::ranges(&at, reach, (low, high), &self.size, &self.period.axes);
        lattice::each_image(&ranges, |k| {
            if lattice::gap(&at, k, (low, high), &self.size) > reach.max(0.0) {
                return;
            }
            visit(k, &Vector::of(k, &self.size, self.products));
        });
    }
}

impl<T: Real, const D: usize, S: Cast<T, D> + PointQuery<T, D>> Proximity<T, D>
    for PeriodicScene<T, D, S>
{
    type Nearest = PeriodicNearest<T, D>;

    /// The image that puts the point at the centre of the bodies' box is asked first, then every
    /// other image whose box lies within its answer's distance; a NaN point gives `None`.
    fn nearest_filtered(
        &self,
        point: &Point<T, D>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<PeriodicNearest<T, D>> {
        let (low, high) = self.bounds.as_ref()?;
        let at: [f64; D] = core::array::from_fn(|a| point[a].to_wide());
        if max_distance.to_wide().is_nan() || at.iter().any(|v| !v.is_finite()) {
            return None;
        }
        // The image that puts the point at the centre of the bodies' box answers first.
        let bounds = (low, high);
        let (centre, centred) = lattice::centre(&at, bounds, &self.size, &self.period.axes);
        let mut best: Option<(BodyNearest<T, D>, Image<D>)> = None;
        let mut ask = |k: &Image<D>, v: &Vector<D>, limit: T, best: &mut Option<_>| {
            let Some(found) = moved::nearest(&self.scene, v, point, limit, &mut filter) else {
                return;
            };
            let key =
                |n: &BodyNearest<T, D>, k: &Image<D>| (n.signed_distance.to_wide(), n.body, *k);
            if best
                .as_ref()
                .is_none_or(|(n, image)| key(&found, k) < key(n, image))
            {
                *best = Some((found, *k));
            }
        };
        let v = Vector::of(&centre, &self.size, self.products);
        ask(&centre, &v, max_distance, &mut best);
        // Every image holds the same bodies: with no limit, none answering in one means none
        // answers in any.
        let reach = match &best {
            Some((n, _)) => n.signed_distance.to_wide(),
            None if max_distance.to_wide() == f64::INFINITY => return None,
            None => max_distance.to_wide(),
        };
        // Where the centre's neighbours lie beyond the answer, every other image does.
        let axes = &self.period.axes;
        if !(centred && lattice::alone(&at, &centre, bounds, &self.size, axes, reach)) {
            self.each_image(point, reach, |k, v| {
                if *k != centre {
                    let limit = best.map_or(max_distance, |(n, _)| n.signed_distance);
                    ask(k, v, limit, &mut best);
                }
            });
        }
        let (nearest, image) = best?;
        Some(PeriodicNearest {
            body: nearest.body,
            image,
            nearest,
        })
    }

    /// At any distance (beyond half the box too), images at most [`REACH_BOXES`] boxes away on
    /// each axis. Each image within reach is one query of the plain scene, so the time grows as
    /// `(2·distance / size)^D`: an infinite distance reaches `2^21` boxes on each axis and does
    /// not end in any useful time. A NaN point gives none.
    fn within_filtered(
        &self,
        point: &Point<T, D>,
        distance: T,
        found: &mut Vec<(usize, Image<D>)>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        found.clear();
        if distance.to_wide().is_nan() {
            return;
        }
        self.each_image(point, distance.to_wide(), |k, v| {
            moved::within(&self.scene, v, point, distance, &mut filter, |id| {
                found.push((id, *k))
            });
        });
        found.sort_unstable();
    }
}

impl<T: Real, const D: usize> Answer for PeriodicNearest<T, D> {
    type Id = (usize, Image<D>);
    type Found = BodyNearest<T, D>;

    #[inline]
    fn id(&self) -> (usize, Image<D>) {
        (self.body, self.image)
    }

    #[inline]
    fn found(&self) -> &BodyNearest<T, D> {
        &self.nearest
    }
}

/// How far a bound `v` of the bodies' boxes is moved outward: a few ulps of the width, since a
/// body's own box is rounded to the width.
#[inline]
fn pad<T: Real>(v: f64) -> f64 {
    4.0 * T::EPSILON_WIDE * v.abs()
}

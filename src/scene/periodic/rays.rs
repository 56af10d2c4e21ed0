//! A periodic scene's casts and spans: the images a ray reaches ([`walk`](super::walk)), each
//! asked as the plain scene moved exactly by its lattice vector (`crate::scene::moved`).
//!
//! For the first hit, the images come in the order the ray reaches their boxes, each asked up to
//! the best distance so far, and the walk stops at the first image whose box the ray reaches
//! beyond it: every image left holds no body the ray meets sooner. An image is asked up to the
//! next value of the width beyond the best, so that an equal distance found later (a lower
//! `(body, image)` on a tie) is kept, as the loop over the pairs keeps it.

use alloc::vec::Vec;
use core::cmp::Ordering;

use nalgebra::Point;

use super::lattice::Vector;
use super::walk::Walk;
use super::{Image, PeriodicCrossing, PeriodicHit, PeriodicScene, PeriodicSpan};
use crate::hit::{Crossing, Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::scene::answer::Answer;
use crate::scene::answer::sort_by_entry;
use crate::scene::instance::up_to;
use crate::scene::moved;
use crate::scene::node::slack;
use crate::scene::ray_batch;
use crate::scene::surface::{Geometry, Kind, ball};
use crate::traits::Cast;
use crate::traits::Sealed;

impl<T: Real, const D: usize, S: Cast<T, D>> PeriodicScene<T, D, S> {
    /// Clears `spans`, then fills it with every `(body, image)` whose span along the line
    /// through `ray` (the translated body's [`Cast::ray_span`], unclipped) meets the segment
    /// `[0, max_distance]`, sorted by `enter` (by value), then `(body, image)`:
    /// [`Geometry::ray_spans_to`]. A line through an infinite medium crosses infinitely many:
    /// with an infinite `max_distance`, nothing is listed beyond
    /// [`REACH_BOXES`](crate::REACH_BOXES) boxes on each axis from the origin's, which can be
    /// millions of spans (the time and memory grow with the boxes crossed). A NaN or negative
    /// `max_distance` lists none.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, PeriodicScene, Periodicity, Ray};
    ///
    /// // Discs of radius 1 every 4 along x: the chords a segment of 10 crosses.
    /// let period = Periodicity::new(Point2::origin(), Vector2::new(4.0, 4.0))?;
    /// let scene: PeriodicScene<f64, 2, Circle<f64>> =
    ///     PeriodicScene::new(vec![Circle::new(Point2::new(2.0, 2.0), 1.0)?], period);
    /// let mut spans = Vec::new();
    /// scene.ray_spans(&Ray::new(Point2::new(0.0, 2.0), Vector2::x())?, 10.0, &mut spans);
    /// let chords: Vec<_> = spans.iter().map(|s| (s.image, s.span.enter, s.span.exit)).collect();
    /// assert_eq!(chords, [([0, 0], 1.0, 3.0), ([1, 0], 5.0, 7.0), ([2, 0], 9.0, 11.0)]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn ray_spans(&self, ray: &Ray<T, D>, max_distance: T, spans: &mut Vec<PeriodicSpan<T, D>>) {
        self.spans_filtered(ray, None, max_distance, spans, |_| true);
    }

    /// [`PeriodicScene::ray_spans`] over the bodies for which `filter(id)` is true (each with all
    /// its images).
    pub fn ray_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        spans: &mut Vec<PeriodicSpan<T, D>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        self.spans_filtered(ray, None, max_distance, spans, filter);
    }

    /// [`PeriodicScene::ray_spans`] for a ball of `radius` moving along the ray, as far as the
    /// medium allows ([`REACH_BOXES`](crate::REACH_BOXES) boxes on each axis): every
    /// `(body, image)` the ball touches ahead of the origin, and over which travel of its
    /// centre. [`Geometry::sphere_spans_to`] gives those within a segment. A NaN, negative or
    /// infinite `radius` lists none.
    pub fn sphere_spans(&self, ray: &Ray<T, D>, radius: T, spans: &mut Vec<PeriodicSpan<T, D>>) {
        self.sphere_spans_filtered(ray, radius, spans, |_| true);
    }

    /// [`PeriodicScene::sphere_spans`] over the bodies for which `filter(id)` is true.
    pub fn sphere_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        spans: &mut Vec<PeriodicSpan<T, D>>,
        filter: impl FnMut(usize) -> bool,
    ) {
        let unbounded = T::from_wide(f64::INFINITY);
        self.spans_filtered(ray, Some(radius), unbounded, spans, filter);
    }

    /// The walk of `ray` (a ball of `radius` moving along it) through the images; `None` for no
    /// bodies.
    fn walk(&self, ray: &Ray<T, D>, radius: f64) -> Option<Walk<'_, D>> {
        let (low, high) = self.bounds.as_ref()?;
        let dir: [f64; D] = core::array::from_fn(|a| ray.dir()[a].to_wide());
        Some(Walk {
            origin: core::array::from_fn(|a| ray.origin()[a].to_wide()),
            dir,
            inverse: dir.map(|d| 1.0 / d),
            low: core::array::from_fn(|a| low[a] - radius),
            high: core::array::from_fn(|a| high[a] + radius),
            size: &self.size,
            repeats: &self.period.axes,
            slack: slack::<T>(),
        })
    }

    /// The first hit (`radius` `None`, or `Some` of a finite radius of at least 0) or ball
    /// contact over the bodies `filter` keeps in every image the ray reaches before the best so
    /// far.
    fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<PeriodicHit<T, D>> {
        let r = radius.map_or(0.0, Real::to_wide);
        let ask =
            |v: &Vector<D>, limit| moved::first(&self.scene, v, ray, radius, limit, &mut filter);
        let best = self.best_image(ray, r, max_distance, ask, |hit: &Hit<T, D>| hit.distance)?;
        let (body, image, hit) = best;
        Some(PeriodicHit { body, image, hit })
    }

    /// The best answer over the images that `ray` (a ball of `radius` moving along it)
    /// reaches before the best so far, each image asked by `ask(v, limit)` (its lattice vector,
    /// and a limit a little beyond the best, so that an equal distance there is still found and
    /// kept by the key); the smallest `distance`, on equal ones the lowest `(body, image)`.
    fn best_image<A>(
        &self,
        ray: &Ray<T, D>,
        radius: f64,
        max_distance: T,
        mut ask: impl FnMut(&Vector<D>, T) -> Option<(usize, A)>,
        distance: impl Fn(&A) -> T,
    ) -> Option<(usize, Image<D>, A)> {
        let max = max_distance.to_wide();
        if !(max >= 0.0) {
            return None;
        }
        let walk = self.walk(ray, radius)?;
        let mut best: Option<(usize, Image<D>, A)> = None;
        let so_far = |best: &Option<(usize, Image<D>, A)>| {
            best.as_ref().map_or(max, |(_, _, a)| distance(a).to_wide())
        };
        walk.images(max, |k| {
            let limit = up_to::<T>(so_far(&best), max);
            let v = Vector::of(k, &self.size, self.products);
            if let Some((body, answer)) = ask(&v, T::from_wide(limit)) {
                let key = (distance(&answer).to_wide(), body, *k);
                let better = best.as_ref().is_none_or(|(b, image, a)| {
                    key.partial_cmp(&(distance(a).to_wide(), *b, *image)) == Some(Ordering::Less)
                });
                if better {
                    best = Some((body, *k, answer));
                }
            }
            Some(so_far(&best))
        });
        best
    }
}

impl<T: Real, const D: usize, S> Kind for PeriodicScene<T, D, S> {
    const NAME: &'static str = "PeriodicScene";

    fn footprint(&self) -> usize {
        self.scene.footprint()
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Geometry<T, D> for PeriodicScene<T, D, S> {
    type Id = (usize, Image<D>);
    type Hit = PeriodicHit<T, D>;
    type Span = PeriodicSpan<T, D>;
    type Crossing = PeriodicCrossing<T, D>;

    /// The bodies: a filter keeps or drops a body with all its images.
    #[inline]
    fn items(&self) -> usize {
        self.scene.len()
    }

    /// The images in the order the ray reaches their boxes, each asked for its next crossing up
    /// to the best so far. A long flight continued by `after` asks every image from the origin.
    fn next_crossing_filtered(
        &self,
        ray: &Ray<T, D>,
        after: T,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<PeriodicCrossing<T, D>> {
        if after.to_wide().is_nan() {
            return None;
        }
        let ask = |v: &Vector<D>, limit| {
            moved::next_crossing(&self.scene, v, ray, after, limit, &mut filter)
        };
        let distance = |c: &Crossing<T, D>| c.distance;
        let (body, image, crossing) = self.best_image(ray, 0.0, max_distance, ask, distance)?;
        Some(PeriodicCrossing {
            body,
            image,
            crossing,
        })
    }

    /// The images in the order the ray reaches their boxes, each asked up to the best distance so
    /// far, the ray followed at most [`REACH_BOXES`](crate::REACH_BOXES) boxes on each axis from
    /// its origin's: a ray that runs along a channel and never meets a body ends there with
    /// `None`.
    fn first_contact(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<PeriodicHit<T, D>> {
        ball(radius)?;
        self.first(ray, radius, max_distance, filter)
    }

    fn hits_any_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> bool {
        let max = max_distance.to_wide();
        if !(max >= 0.0) {
            return false;
        }
        let Some(walk) = self.walk(ray, 0.0) else {
            return false;
        };
        let mut found = false;
        walk.images(max, |k| {
            let v = Vector::of(k, &self.size, self.products);
            found = moved::hits_any(&self.scene, &v, ray, max_distance, &mut filter);
            (!found).then_some(max)
        });
        found
    }

    /// The images the segment reaches (the walk over its cells), each asked for its spans.
    fn spans_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        spans: &mut Vec<PeriodicSpan<T, D>>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        spans.clear();
        let max = max_distance.to_wide();
        let Some(r) = ball(radius).filter(|_| max >= 0.0) else {
            return;
        };
        let Some(walk) = self.walk(ray, r) else {
            return;
        };
        walk.images(max, |k| {
            let v = Vector::of(k, &self.size, self.products);
            let found = |body, span: Span<T>| {
                if span.exit.to_wide() >= 0.0 && span.enter.to_wide() <= max {
                    spans.push(PeriodicSpan {
                        body,
                        image: *k,
                        span,
                    });
                }
            };
            moved::spans(&self.scene, &v, ray, radius, &mut filter, found);
            Some(max)
        });
        sort_by_entry(spans, |s| (s.span.enter, (s.body, s.image)));
    }

    fn containing_filtered(
        &self,
        point: &Point<T, D>,
        found: &mut Vec<(usize, Image<D>)>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        found.clear();
        self.each_image(point, 0.0, |k, v| {
            moved::containing(&self.scene, v, point, &mut filter, |id| {
                found.push((id, *k))
            });
        });
        found.sort_unstable();
    }

    fn item_contains(
        &self,
        _: Sealed,
        (body, image): (usize, Image<D>),
        point: &Point<T, D>,
    ) -> bool {
        let v = Vector::of(&image, &self.size, self.products);
        moved::contains(&self.scene.bodies()[body], &v, point)
    }

    fn item_span(
        &self,
        _: Sealed,
        (body, image): (usize, Image<D>),
        ray: &Ray<T, D>,
    ) -> Option<Span<T>> {
        let v = Vector::of(&image, &self.size, self.products);
        moved::span(&self.scene.bodies()[body], &v, ray)
    }

    fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        ray_batch::ray_order(origins, self.scene.footprint())
    }
}

impl<T: Real, const D: usize> Answer for PeriodicHit<T, D> {
    type Id = (usize, Image<D>);
    type Found = Hit<T, D>;

    #[inline]
    fn id(&self) -> (usize, Image<D>) {
        (self.body, self.image)
    }

    #[inline]
    fn found(&self) -> &Hit<T, D> {
        &self.hit
    }
}

impl<T: Real, const D: usize> Answer for PeriodicSpan<T, D> {
    type Id = (usize, Image<D>);
    type Found = Span<T>;

    #[inline]
    fn id(&self) -> (usize, Image<D>) {
        (self.body, self.image)
    }

    #[inline]
    fn found(&self) -> &Span<T> {
        &self.span
    }
}

impl<T: Real, const D: usize> Answer for PeriodicCrossing<T, D> {
    type Id = (usize, Image<D>);
    type Found = Crossing<T, D>;

    #[inline]
    fn id(&self) -> (usize, Image<D>) {
        (self.body, self.image)
    }

    #[inline]
    fn found(&self) -> &Crossing<T, D> {
        &self.crossing
    }
}

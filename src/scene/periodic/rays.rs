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
use super::{Image, PeriodicHit, PeriodicScene, PeriodicSpan};
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::Real;
use crate::scene::answer::sort_by_entry;
use crate::scene::moved;
use crate::scene::node::slack;
use crate::scene::ray_batch::{self, cast_in_order};
use crate::traits::Cast;

impl<T: Real, const D: usize, S: Cast<T, D>> PeriodicScene<T, D, S> {
    /// The first hit of `ray` at a distance in `[0, max_distance]` over every body in every
    /// image, as [`Scene::cast_ray`](crate::Scene::cast_ray) over the whole medium: the smallest
    /// distance, then the lowest body, then the lowest image; `None` where there is none, or for
    /// a NaN or negative `max_distance`. The ray is followed at most [`REACH_BOXES`] boxes on
    /// each axis from its origin's: a ray that runs along a channel and never meets a body ends
    /// there with `None`.
    ///
    /// [`REACH_BOXES`]: crate::REACH_BOXES
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, PeriodicScene, Periodicity, Ray};
    ///
    /// // One disc in a 4 x 4 box: a ray leaving the box meets the next image of it.
    /// let period = Periodicity::new(Point2::origin(), Vector2::new(4.0, 4.0))?;
    /// let scene: PeriodicScene<f64, 2, Circle<f64>> =
    ///     PeriodicScene::new(vec![Circle::new(Point2::new(2.0, 2.0), 1.0)?], period);
    /// let ray = Ray::new(Point2::new(3.5, 2.0), Vector2::x())?;
    /// let hit = scene.cast_ray(&ray, f64::INFINITY).unwrap();
    /// assert_eq!((hit.body, hit.image, hit.hit.distance), (0, [1, 0], 1.5));
    /// assert_eq!(hit.hit.point, Point2::new(5.0, 2.0));
    /// // Along a channel between the images: no hit, and the walk ends.
    /// let channel = Ray::new(Point2::new(0.0, 0.5), Vector2::x())?;
    /// assert_eq!(scene.cast_ray(&channel, f64::INFINITY), None);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<PeriodicHit<T, D>> {
        self.first(ray, None, max_distance, |_| true)
    }

    /// [`PeriodicScene::cast_ray`] over the bodies for which `filter(id)` is true.
    pub fn cast_ray_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<PeriodicHit<T, D>> {
        self.first(ray, None, max_distance, filter)
    }

    /// The first contact of a ball of `radius` moving along `ray` within `[0, max_distance]`,
    /// over every body in every image, as [`PeriodicScene::cast_ray`] with each body's
    /// [`Cast::cast_sphere`]. `None` for a NaN, negative or infinite `radius`.
    pub fn cast_sphere(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
    ) -> Option<PeriodicHit<T, D>> {
        self.cast_sphere_filtered(ray, radius, max_distance, |_| true)
    }

    /// [`PeriodicScene::cast_sphere`] over the bodies for which `filter(id)` is true.
    pub fn cast_sphere_filtered(
        &self,
        ray: &Ray<T, D>,
        radius: T,
        max_distance: T,
        filter: impl FnMut(usize) -> bool,
    ) -> Option<PeriodicHit<T, D>> {
        let r = radius.to_wide();
        if !(r >= 0.0 && r.is_finite()) {
            return None;
        }
        self.first(ray, Some(radius), max_distance, filter)
    }

    /// Whether [`PeriodicScene::cast_ray`] would return a hit: it stops at the first found.
    pub fn hits_any(&self, ray: &Ray<T, D>, max_distance: T) -> bool {
        self.hits_any_filtered(ray, max_distance, |_| true)
    }

    /// [`PeriodicScene::hits_any`] over the bodies for which `filter(id)` is true.
    pub fn hits_any_filtered(
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

    /// Clears `spans`, then fills it with every `(body, image)` whose span along the line
    /// through `ray` (the translated body's [`Cast::ray_span`], unclipped) meets the segment
    /// `[0, max_distance]`, sorted by `enter` (by value), then `(body, image)`. A line through
    /// an infinite medium crosses infinitely many: with an infinite `max_distance`, nothing is
    /// listed beyond [`REACH_BOXES`](crate::REACH_BOXES) boxes on each axis from the origin's.
    /// A NaN or negative `max_distance` lists none.
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
        self.ray_spans_filtered(ray, max_distance, spans, |_| true);
    }

    /// [`PeriodicScene::ray_spans`] over the bodies for which `filter(id)` is true.
    pub fn ray_spans_filtered(
        &self,
        ray: &Ray<T, D>,
        max_distance: T,
        spans: &mut Vec<PeriodicSpan<T, D>>,
        mut filter: impl FnMut(usize) -> bool,
    ) {
        spans.clear();
        let max = max_distance.to_wide();
        if !(max >= 0.0) {
            return;
        }
        let Some(walk) = self.walk(ray, 0.0) else {
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
            moved::spans(&self.scene, &v, ray, &mut filter, found);
            Some(max)
        });
        sort_by_entry(spans, |s| (s.span.enter, (s.body, s.image)));
    }

    /// `hits[i]` is exactly [`PeriodicScene::cast_ray`]`(&rays[i], max_distance)`.
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    pub fn cast_rays(
        &self,
        rays: &[Ray<T, D>],
        max_distance: T,
        hits: &mut [Option<PeriodicHit<T, D>>],
    ) {
        let footprint = self.scene.footprint();
        cast_in_order("PeriodicScene::cast_rays", rays, hits, footprint, |ray| {
            self.cast_ray(ray, max_distance)
        });
    }

    /// The order in which [`PeriodicScene::cast_rays`] traces rays from `origins` (one per
    /// ray): their indices along a space-filling curve through the origins where the scene's
    /// hierarchy and bodies take more than 8 MiB and the origins do not come in order already,
    /// else `None` (rays traced as given). A caller that casts rays one at a time, with limits or
    /// filters of its own per ray, gets the batch's use of the cache by casting them in this
    /// order; the answers are the same in any order.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::Point3;
    /// use raysweep::nalgebra::Vector3;
    /// use raysweep::{PeriodicScene, Periodicity, Sphere};
    ///
    /// let period = Periodicity::new(Point3::origin(), Vector3::repeat(4.0))?;
    /// let scene = PeriodicScene::new(vec![Sphere::new(Point3::new(2.0, 2.0, 2.0), 1.0)?], period);
    /// // A small scene fits in the cache: its rays are traced as given.
    /// assert_eq!(scene.ray_order(&[Point3::origin(); 1000]), None);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[must_use]
    pub fn ray_order(&self, origins: &[Point<T, D>]) -> Option<Vec<usize>> {
        ray_batch::ray_order(origins, self.scene.footprint())
    }

    /// [`PeriodicScene::cast_rays`] spread over rayon's thread pool: the same bits. Available
    /// with the crate feature `rayon`.
    ///
    /// # Panics
    ///
    /// If `rays` and `hits` differ in length.
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn cast_rays_par(
        &self,
        rays: &[Ray<T, D>],
        max_distance: T,
        hits: &mut [Option<PeriodicHit<T, D>>],
    ) where
        S: Sync,
    {
        let footprint = self.scene.footprint();
        crate::scene::ray_batch::cast_in_order_par(
            "PeriodicScene::cast_rays_par",
            rays,
            hits,
            footprint,
            |ray| self.cast_ray(ray, max_distance),
        );
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

    /// The first hit (`radius` `None`) or ball contact over the bodies `filter` keeps in every
    /// image the ray reaches before the best so far.
    fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        max_distance: T,
        mut filter: impl FnMut(usize) -> bool,
    ) -> Option<PeriodicHit<T, D>> {
        let max = max_distance.to_wide();
        if !(max >= 0.0) {
            return None;
        }
        let walk = self.walk(ray, radius.map_or(0.0, Real::to_wide))?;
        let mut best: Option<(usize, Image<D>, Hit<T, D>)> = None;
        walk.images(max, |k| {
            let so_far = best
                .as_ref()
                .map_or(max, |(_, _, hit)| hit.distance.to_wide());
            // An equal distance found in this image may belong to a lower body, or to this
            // image where it is lower: asked a little beyond the best, kept by the key.
            let limit = if so_far < max {
                T::from_wide_up(so_far.next_up()).to_wide().min(max)
            } else {
                max
            };
            let v = Vector::of(k, &self.size, self.products);
            let found = moved::first(
                &self.scene,
                &v,
                ray,
                radius,
                T::from_wide(limit),
                &mut filter,
            );
            if let Some((body, hit)) = found {
                let key =
                    |body: usize, k: &Image<D>, hit: &Hit<T, D>| (hit.distance.to_wide(), body, *k);
                let better = best.as_ref().is_none_or(|(b, image, found)| {
                    key(body, k, &hit).partial_cmp(&key(*b, image, found)) == Some(Ordering::Less)
                });
                if better {
                    best = Some((body, *k, hit));
                }
            }
            Some(
                best.as_ref()
                    .map_or(max, |(_, _, hit)| hit.distance.to_wide()),
            )
        });
        best.map(|(body, image, hit)| PeriodicHit { body, image, hit })
    }
}

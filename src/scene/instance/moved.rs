//! A query's origin moved by an instance's offset, and the instance's scene asked from there
//! (the argument is in the parent module's documentation).

use alloc::vec::Vec;

use nalgebra::{Point, SVector, Unit};

use super::{Instance, InstanceSpan};
use crate::core::exact::two_sum;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::{Real, narrow, widen};
use crate::scene::probe::{self, F64Probe, on_line};
use crate::traits::{Cast, Sealed};

/// A query's origin `o` moved to `o − v` for an instance at offset `v`.
enum Moved<T: Real, const D: usize> {
    /// `o − v` is a value of the width: the ray (or point) moved there.
    Exact(Point<T, D>),
    /// It is not: `origin`, the moved origin rounded to the width; `o − v` exactly as
    /// `wide + lo` in `f64`; and `apart`, at least the distance on any axis from `origin` to it.
    Rounded {
        origin: Point<T, D>,
        wide: Point<f64, D>,
        lo: SVector<f64, D>,
        apart: f64,
    },
}

impl<T: Real, const D: usize> Moved<T, D> {
    /// `o − v` by two-sum on each axis, in `f64`; `None` where it lies beyond the width's range
    /// (no body of the instance is then within it of `o`).
    fn of(o: &Point<T, D>, v: &SVector<T, D>) -> Option<Self> {
        let mut exact = true;
        let mut apart = 0.0f64;
        let mut origin = *o;
        let mut wide = Point::<f64, D>::origin();
        let mut lo = SVector::<f64, D>::zeros();
        for i in 0..D {
            let (hi, err) = two_sum(o[i].to_wide(), -v[i].to_wide());
            let rounded = T::from_wide(hi);
            if !rounded.to_wide().is_finite() {
                return None;
            }
            exact &= err == 0.0 && rounded.to_wide() == hi;
            apart = apart.max((rounded.to_wide() - hi).abs() + err.abs());
            origin[i] = rounded;
            wide[i] = hi;
            lo[i] = err;
        }
        Some(if exact {
            Moved::Exact(origin)
        } else {
            Moved::Rounded {
                origin,
                wide,
                lo,
                // Rounded up, with room for the roundings of the sum.
                apart: apart * (1.0 + f64::EPSILON * 4.0),
            }
        })
    }

    /// The moved origin rounded to the width, how far apart from the exact one it may be, and,
    /// where it is not exact, the exact one as `wide + lo`.
    #[allow(clippy::type_complexity)]
    fn parts(self) -> (Point<T, D>, f64, Option<(Point<f64, D>, SVector<f64, D>)>) {
        match self {
            Moved::Exact(origin) => (origin, 0.0, None),
            Moved::Rounded {
                origin,
                wide,
                lo,
                apart,
            } => (origin, apart, Some((wide, lo))),
        }
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Instance<T, D, S> {
    /// `hit`, from a body of the scene, in the instanced scene: its point moved by the offset,
    /// rounded once.
    fn placed(&self, hit: Hit<T, D>) -> Hit<T, D> {
        Hit {
            point: hit.point + self.offset,
            ..hit
        }
    }

    /// The wide answer `hit` (in the scene's coordinates, `f64`) in the instanced scene, rounded
    /// once to the width: at distance 0 at `ray`'s origin, exactly; `None` where its distance
    /// rounds beyond the width's range.
    fn placed_wide(&self, ray: &Ray<T, D>, hit: Hit<f64, D>) -> Option<Hit<T, D>> {
        let distance = T::from_wide(hit.distance);
        if hit.distance == 0.0 {
            return Some(Hit {
                distance,
                point: *ray.origin(),
                normal: -*ray.dir(),
            });
        }
        distance.to_wide().is_finite().then(|| Hit {
            distance,
            point: Point::from(narrow(&(hit.point.coords + widen(&self.offset)))),
            normal: Unit::new_unchecked(narrow(hit.normal.as_ref())),
        })
    }

    /// The first hit (`radius` `None`) or ball contact of `ray` over the instance's bodies, up
    /// to `limit` (in the working precision, as a body's own cast takes its `max_distance`),
    /// the lowest body on equal distances, and that body's id.
    pub(super) fn first(
        &self,
        ray: &Ray<T, D>,
        radius: Option<T>,
        limit: T,
    ) -> Option<(usize, Hit<T, D>)> {
        let scene = &*self.scene;
        match Moved::of(ray.origin(), &self.offset)? {
            Moved::Exact(origin) => {
                let moved = ray.moved_to(origin);
                let found = match radius {
                    None => scene.cast_ray(&moved, limit),
                    Some(r) => scene.cast_sphere(&moved, r, limit),
                }?;
                Some((found.body, self.placed(found.hit)))
            }
            Moved::Rounded {
                origin,
                wide,
                lo,
                apart,
            } => {
                let moved = ray.moved_to(origin);
                let wide_ray = ray.in_f64_from(wide);
                let cast = |_, body: &S, _| {
                    let r = radius.map(Real::to_wide);
                    let hit = match body.moved_cast(Sealed(()), &wide_ray, lo, r, limit.to_wide()) {
                        Some(hit) => self.placed_wide(ray, hit?)?,
                        None => self.placed(match radius {
                            None => body.cast_ray(&moved, limit),
                            Some(r) => body.cast_sphere(&moved, r, limit),
                        }?),
                    };
                    Some((hit.distance.to_wide(), hit))
                };
                let grow = radius.map_or(0.0, Real::to_wide) + apart;
                on_line!(&moved, grow, |line| scene.first(
                    &line,
                    limit.to_wide(),
                    cast
                ))
            }
        }
    }

    /// Whether `ray` hits a body of the instance at a distance in `[0, max_distance]`.
    pub(super) fn hits_any(&self, ray: &Ray<T, D>, max_distance: T) -> bool {
        match Moved::of(ray.origin(), &self.offset) {
            None => false,
            Some(Moved::Exact(origin)) => self.scene.hits_any(&ray.moved_to(origin), max_distance),
            Some(Moved::Rounded { .. }) => self.first(ray, None, max_distance).is_some(),
        }
    }

    /// Each body of the instance the line through `ray` crosses, with its span, appended to
    /// `spans` as instance `instance`'s.
    pub(super) fn spans(&self, ray: &Ray<T, D>, instance: usize, spans: &mut Vec<InstanceSpan<T>>) {
        let Some(moved) = Moved::of(ray.origin(), &self.offset) else {
            return;
        };
        let (origin, apart, beyond) = moved.parts();
        let beyond = beyond.map(|(wide, lo)| (ray.in_f64_from(wide), lo));
        let moved = ray.moved_to(origin);
        let line = F64Probe::of(&moved, apart);
        let bodies = self.scene.bodies();
        self.scene.walk(
            |node| line.crosses(node),
            |body| {
                let shape = &bodies[body];
                let wide = beyond
                    .as_ref()
                    .and_then(|(line, lo)| shape.moved_span(Sealed(()), line, *lo));
                let span = match wide {
                    Some(span) => span.map(|s| Span {
                        enter: T::from_wide(s.enter),
                        exit: T::from_wide(s.exit),
                    }),
                    None => shape.ray_span(&moved),
                };
                if let Some(span) = span {
                    spans.push(InstanceSpan {
                        instance,
                        body,
                        span,
                    });
                }
                true
            },
        );
    }

    /// Each body of the instance that contains `point`, appended to `found` as
    /// `(instance, body)`.
    pub(super) fn containing(
        &self,
        point: &Point<T, D>,
        instance: usize,
        found: &mut Vec<(usize, usize)>,
    ) {
        let Some(moved) = Moved::of(point, &self.offset) else {
            return;
        };
        let (rounded, _, beyond) = moved.parts();
        let at: [f64; D] = match &beyond {
            Some((w, _)) => w.coords.into(),
            None => core::array::from_fn(|i| rounded[i].to_wide()),
        };
        let bodies = self.scene.bodies();
        self.scene.walk(
            |node| probe::containing::<D, T>(node, &at),
            |body| {
                let shape = &bodies[body];
                let holds = beyond
                    .as_ref()
                    .and_then(|(w, lo)| shape.moved_contains(Sealed(()), w, *lo))
                    .unwrap_or_else(|| shape.contains(&rounded));
                if holds {
                    found.push((instance, body));
                }
                true
            },
        );
    }
}

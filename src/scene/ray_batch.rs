//! The ray batches of the scenes ([`Scene::cast_rays`](crate::Scene::cast_rays),
//! [`InstancedScene::cast_rays`](super::InstancedScene::cast_rays),
//! [`PeriodicScene::cast_rays`](super::PeriodicScene::cast_rays) and their `_par` forms): each
//! answer exactly what the single cast gives for its ray, the rays traced in an order that keeps
//! what they read in cache.
//!
//! A ray reads the nodes and bodies along its path from the root. In a scene whose hierarchy and
//! bodies do not fit in the cache, rays in the order a user gives them (rays from points spread
//! through a medium, a Monte Carlo transport step, a sensor's rays shuffled by the threads that
//! made them) start far apart, and each reads its path from memory. Traced along a space-filling
//! curve through their origins (Morton's Z order over the origins' box, `src/scene/order.rs`),
//! consecutive rays start close together and read mostly the nodes and bodies the rays before
//! them brought into cache. This is the ray reordering of Pharr, Kolb, Gershbein and Hanrahan,
//! "Rendering complex scenes with memory-coherent ray tracing" (SIGGRAPH 1997) and of Moon et
//! al., "Cache-oblivious ray reordering" (ACM TOG 29(3), 2010), with the simplest key: a ray's
//! origin on a grid of `2^(KEY_BITS / D)` steps per axis.
//!
//! - The order decides only when each ray is traced, never its answer: each is its single cast,
//!   the same function on the same ray.
//! - The rays are gathered into that order in one pass, traced in turn into a list in that order,
//!   and the answers put back in the input's order in one pass: reading the rays and writing the
//!   answers at scattered places between the casts measured slower than both passes.
//! - Ordering costs a sort of the batch, which only a scene larger than the cache repays: the
//!   scene gives the bytes its queries read from (its hierarchy and bodies, an instanced scene's
//!   with those of each of its scenes once); scenes of at most [`LARGE`] bytes and batches of
//!   fewer than [`FEW`] rays are traced in the input's order.
//! - Nor does it repay rays that come in order already: a camera's rays, row after row from one
//!   point, or a beam's from a grid of points, read what the ray before read as they come, and
//!   sorting them measured slower than tracing them as given. A batch whose consecutive origins
//!   lie on average within [`COHERENT`] times the spacing the curve would give them (the
//!   extent of their box over the `D`-th root of their number) is traced as given
//!   ([`in_order_already`]); the test is one pass over the origins. A plain scene's batch
//!   traced as given goes to its packets (`src/scene/packet/`), which trace runs of
//!   neighbouring rays together.
//! - Batches are ordered in parts of [`PART`] rays, so that the order, the gathered rays and
//!   their answers take a bounded amount of memory beside the user's.
//! - The scenes' `ray_order` gives the order itself ([`ray_order`]), for callers that cast rays
//!   one at a time with their own limits (the Python package's `cast_rays`, a transport loop).
//!
//! Figures in `docs/performance.md`, "Ray batches".

use alloc::vec::Vec;

use nalgebra::Point;

use super::order::Order;
use crate::ray::Ray;
use crate::real::Real;

/// The bits of a ray's key in all: a grid of `2^10` steps per axis in three dimensions, finer
/// than the bodies of any scene large enough to be ordered, and sorted in fewer passes than the
/// proximity batches' finest grid.
const KEY_BITS: u32 = 30;

/// The bytes of a scene's hierarchy and bodies above which its ray batches are ordered: a
/// quarter of the 32 MiB last-level cache of the machines the speed targets are judged on (AMD
/// Zen 4 and 5): below it, ordering measured slower than it saved, or about as fast in the
/// crate and slower in the Python package, whose own per-row work it adds to.
const LARGE: usize = 8 << 20;

/// The fewest rays a batch orders.
const FEW: usize = 256;

/// How much farther apart than the curve would place them consecutive origins may lie, on
/// average, for a batch to be traced as given.
const COHERENT: f64 = 4.0;

/// The most rays ordered at once.
const PART: usize = 1 << 20;

/// `hits[i] = cast(&rays[i])` for every ray (as many slots as rays: the caller has checked), in
/// curve order where [`worth_ordering`], else in the input's order.
pub(crate) fn cast_in_order<T: Real, const D: usize, H>(
    rays: &[Ray<T, D>],
    hits: &mut [H],
    footprint: usize,
    cast: impl Fn(&Ray<T, D>) -> H,
) {
    if worth_ordering(rays, Ray::origin, footprint) {
        cast_ordered(rays, hits, cast);
    } else {
        for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
            *hit = cast(ray);
        }
    }
}

/// [`cast_in_order`] on rayon's threads, in runs of at least 64 rays: the same answers.
#[cfg(feature = "rayon")]
pub(crate) fn cast_in_order_par<T: Real, const D: usize, H: Send>(
    rays: &[Ray<T, D>],
    hits: &mut [H],
    footprint: usize,
    cast: impl Fn(&Ray<T, D>) -> H + Sync,
) {
    use rayon::prelude::*;
    if worth_ordering(rays, Ray::origin, footprint) {
        cast_ordered_par(rays, hits, cast);
    } else {
        rays.par_iter()
            .zip(hits.par_iter_mut())
            .with_min_len(64)
            .for_each(|(ray, hit)| *hit = cast(ray));
    }
}

/// How a plain scene traces a batch: in curve order, as given in packets where neighbouring
/// rays are coherent, or as given one ray at a time.
pub(crate) enum Trace {
    /// In curve order, one ray at a time ([`cast_ordered`]).
    Ordered,
    /// As given, runs of coherent rays in packets (`src/scene/packet/`).
    Packets,
    /// As given, one ray at a time.
    Singly,
}

impl Trace {
    /// How a plain scene of `footprint` bytes traces `rays`: in curve order where
    /// [`worth_ordering`]; else in packets where the origins come [`in_order_already`] (a
    /// camera's, a beam's: rays from scattered points never form a packet, and are not offered
    /// to); else one ray at a time.
    pub(crate) fn of<T: Real, const D: usize>(rays: &[Ray<T, D>], footprint: usize) -> Self {
        let in_order = in_order_already(rays, Ray::origin);
        if large(rays.len(), footprint) && !in_order {
            Trace::Ordered
        } else if in_order {
            Trace::Packets
        } else {
            Trace::Singly
        }
    }
}

/// `hits[i] = cast(&rays[i])` for every ray (as many slots as rays), in curve order.
pub(crate) fn cast_ordered<T: Real, const D: usize, H>(
    rays: &[Ray<T, D>],
    hits: &mut [H],
    cast: impl Fn(&Ray<T, D>) -> H,
) {
    ordered(rays, hits, PART, false, |gathered| {
        gathered.iter().map(&cast).collect()
    });
}

/// [`cast_ordered`] on rayon's threads: the same answers.
#[cfg(feature = "rayon")]
pub(crate) fn cast_ordered_par<T: Real, const D: usize, H: Send>(
    rays: &[Ray<T, D>],
    hits: &mut [H],
    cast: impl Fn(&Ray<T, D>) -> H + Sync,
) {
    use rayon::prelude::*;
    ordered(rays, hits, PART, true, |gathered| {
        gathered.par_iter().with_min_len(64).map(&cast).collect()
    });
}

/// The order in which the batches trace rays from `origins` in a scene of `footprint` bytes:
/// their indices along the curve, part by part, where [`worth_ordering`]; else `None`.
pub(crate) fn ray_order<T: Real, const D: usize>(
    origins: &[Point<T, D>],
    footprint: usize,
) -> Option<Vec<usize>> {
    if !worth_ordering(origins, |p| p, footprint) {
        return None;
    }
    let mut order = Vec::with_capacity(origins.len());
    for (k, part) in origins.chunks(PART).enumerate() {
        let first = k * PART;
        let part = Order::of(part, |p| p, KEY_BITS, false);
        order.extend(part.index.iter().map(|&i| first + i as usize));
    }
    Some(order)
}

/// Whether a batch of items (rays, or origins) whose origins `origin` gives is traced in curve
/// order in a scene of `footprint` bytes: the scene above [`LARGE`], at least [`FEW`] of them,
/// and not [`in_order_already`].
fn worth_ordering<P, T: Real, const D: usize>(
    items: &[P],
    origin: impl Fn(&P) -> &Point<T, D>,
    footprint: usize,
) -> bool {
    large(items.len(), footprint) && !in_order_already(items, origin)
}

/// Whether a batch of `count` rays in a scene of `footprint` bytes is large enough to order:
/// the scene above [`LARGE`], at least [`FEW`] rays.
fn large(count: usize, footprint: usize) -> bool {
    footprint > LARGE && count >= FEW
}

/// Whether consecutive items' origins lie on average within [`COHERENT`] times the spacing of
/// the origins along the curve, `extent / n^(1/D)` for `n` origins whose box is `extent` across
/// on its widest axis (distances as the largest difference of coordinates, in `f64`). So a
/// batch from one point, or one whose origins step across a grid, is; origins drawn
/// independently through a region, about a third of the extent apart, are not. (Origins whose
/// differences overflow `f64` count as in order: the choice changes no answer.)
pub(crate) fn in_order_already<P, T: Real, const D: usize>(
    items: &[P],
    origin: impl Fn(&P) -> &Point<T, D>,
) -> bool {
    let mut low = [f64::INFINITY; D];
    let mut high = [f64::NEG_INFINITY; D];
    let mut steps = 0.0;
    let mut last: Option<[f64; D]> = None;
    for item in items {
        let o: [f64; D] = core::array::from_fn(|i| origin(item)[i].to_wide());
        for i in 0..D {
            low[i] = low[i].min(o[i]);
            high[i] = high[i].max(o[i]);
        }
        if let Some(p) = last {
            steps += (0..D).fold(0.0, |m: f64, i| m.max((o[i] - p[i]).abs()));
        }
        last = Some(o);
    }
    let extent = (0..D).fold(0.0, |m: f64, i| m.max(high[i] - low[i]));
    let n = items.len() as f64;
    let spacing = extent / num_traits::Float::powf(n, 1.0 / D as f64);
    steps / (n - 1.0) <= COHERENT * spacing
}

/// The rays, `part` at a time, gathered in curve order (the order worked out on rayon's threads
/// where `parallel`), traced by `trace` (their answers in the order given) and the answers put
/// back in the input's order.
fn ordered<T: Real, const D: usize, H>(
    rays: &[Ray<T, D>],
    hits: &mut [H],
    part: usize,
    parallel: bool,
    mut trace: impl FnMut(&[Ray<T, D>]) -> Vec<H>,
) {
    for (rays, hits) in rays.chunks(part).zip(hits.chunks_mut(part)) {
        let order = Order::of(rays, |ray| ray.origin(), KEY_BITS, parallel);
        let answers = trace(&order.arrange(rays));
        for (&i, answer) in order.index.iter().zip(answers) {
            hits[i as usize] = answer;
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use nalgebra::{Point3, Vector3};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::{in_order_already, ordered};
    use crate::ray::Ray;

    /// Each answer lands in its ray's slot, whatever the order and the parts: the answer here is
    /// the ray's own origin, so a slot that receives another ray's answer fails. The rays
    /// include origins repeated, origins beyond `f32`'s range (left out of the curve) and a
    /// batch not a multiple of the part.
    #[test]
    fn every_answer_lands_in_its_rays_slot() {
        let mut rng = StdRng::seed_from_u64(57);
        let mut rays: Vec<Ray<f64>> = (0..1000)
            .map(|_| {
                let o = Point3::new(
                    rng.random_range(-50.0..50.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-5.0..5.0),
                );
                Ray::new(o, Vector3::new(1.0, 0.5, -0.25)).unwrap()
            })
            .collect();
        for k in (0..rays.len()).step_by(97) {
            rays[k] = Ray::new(Point3::new(1e300, -3e39, 0.0), Vector3::z()).unwrap();
            rays[k + 1] = rays[k / 2];
        }
        for (part, parallel) in [(1000, false), (128, false), (1000, true), (300, true)] {
            let mut hits = alloc::vec![Point3::origin(); rays.len()];
            let mut traced = 0;
            ordered(&rays, &mut hits, part, parallel, |gathered| {
                traced += gathered.len();
                gathered.iter().map(|r| *r.origin()).collect()
            });
            assert_eq!(traced, rays.len());
            for (ray, hit) in rays.iter().zip(&hits) {
                assert_eq!(ray.origin(), hit, "part {part}");
            }
        }
    }

    /// A camera's rays (one origin) and a beam's (a grid of origins, row after row) are in
    /// order already; the same beam shuffled, or rays from independent random points, are not.
    #[test]
    fn cameras_and_beams_are_in_order_random_origins_are_not() {
        let mut rng = StdRng::seed_from_u64(5);
        let ray = |x: f64, y: f64, z: f64| Ray::new(Point3::new(x, y, z), Vector3::z()).unwrap();
        let camera: Vec<Ray<f32>> = (0..4096)
            .map(|_| Ray::new(Point3::new(1.0, 2.0, 3.0), Vector3::new(0.1, 0.2, 1.0)).unwrap())
            .collect();
        assert!(in_order_already(&camera, Ray::origin));
        let mut beam: Vec<Ray<f64>> = (0..64 * 64)
            .map(|k| ray((k % 64) as f64, (k / 64) as f64, -10.0))
            .collect();
        assert!(in_order_already(&beam, Ray::origin));
        for k in (1..beam.len()).rev() {
            beam.swap(k, rng.random_range(0..=k));
        }
        assert!(!in_order_already(&beam, Ray::origin));
        let random: Vec<Ray<f64>> = (0..4096)
            .map(|_| ray(rng.random(), rng.random(), rng.random()))
            .collect();
        assert!(!in_order_already(&random, Ray::origin));
    }
}

//! Every kind of scene answers every query of [`Geometry`] and [`Proximity`], through the traits,
//! exactly as the loop over its pairs answers it, bit for bit: a plain scene's bodies, an
//! instanced scene's `(instance, body)` pairs, a periodic scene's `(body, image)` pairs (every
//! image within reach), each body translated exactly by its pair's offset. First hits and sphere
//! casts, any hit, the spans and sphere spans meeting a segment, their union, the next
//! crossings one after another, `containing`,
//! `nearest` and `within`, filtered and not, and every batch (and `_par` form) against its single
//! queries; a grid's occupancy against `containing` at every cell's centre; in both widths and both dimensions, on mixed bodies (duplicates, nesting, flat boxes,
//! thin rotated ellipsoids) and a lattice of boxes sharing faces.
//!
//! Origins, points and offsets are multiples of `1/64` and periods powers of two, so that every
//! origin moved by an offset is exact in `f32` and the loop forms it with plain arithmetic.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, SVector};
use raysweep::{
    Answer, Body, BodyNearest, Cast, Error, Geometry, Grid, Hit, Image, Instance, InstancedScene,
    PeriodicScene, Periodicity, PointQuery, Proximity, Ray, Real, Scene, Shape, Span,
};

use crate::common::random::unit;
use crate::scene::{Rotated, Rotation, hit_bits, lattice, mixed_bodies, of};

/// A pair the loop visits: its id, the item a filter is asked about, the body and its index in
/// its own scene, and the offset it is translated by.
struct Pair<I, T: Real, const D: usize> {
    id: I,
    item: usize,
    body: Body<T, D>,
    index: usize,
    offset: SVector<f64, D>,
}

/// A coordinate on the `1/64` grid in `range`.
fn dyadic(rng: &mut StdRng, range: core::ops::Range<f64>) -> f64 {
    (rng.random_range(range) * 64.0).round() / 64.0
}

/// `v` (a point of the pair's body) placed among the translated bodies: `v + offset`, rounded
/// once.
fn placed<T: Real, const D: usize>(v: &Point<T, D>, offset: &SVector<f64, D>) -> Point<T, D> {
    of(SVector::from_fn(|a, _| v[a].to_wide() + offset[a]))
}

/// The ray from `o` along `d`, moved by `−offset`.
fn ray_at<T: Real, const D: usize>(
    o: &SVector<f64, D>,
    d: &SVector<f64, D>,
    offset: &SVector<f64, D>,
) -> Ray<T, D> {
    Ray::new(of(o - offset), d.map(T::from_wide)).expect("a ray")
}

/// The bits of an answer's hit, and its id.
fn hit_of<A: Answer<Found = Hit<T, D>>, T: Real, const D: usize>(
    a: &Option<A>,
) -> Option<(A::Id, Vec<u64>)> {
    a.as_ref().map(|a| (a.id(), hit_bits(a.found())))
}

/// The bits of a span list, with ids.
fn spans_of<A: Answer<Found = Span<T>>, T: Real>(spans: &[A]) -> Vec<(A::Id, u64, u64)> {
    let bits = |v: T| v.to_wide().to_bits();
    spans
        .iter()
        .map(|s| (s.id(), bits(s.found().enter), bits(s.found().exit)))
        .collect()
}

/// The bits of a nearest answer, with its id.
fn near_of<A: Answer<Found = BodyNearest<T, D>>, T: Real, const D: usize>(
    a: &Option<A>,
) -> Option<(A::Id, usize, Vec<u64>)> {
    a.as_ref().map(|a| {
        let n = a.found();
        let bits = core::iter::once(n.signed_distance)
            .chain(n.point.iter().copied())
            .chain(n.normal.iter().copied())
            .map(|v| v.to_wide().to_bits())
            .collect();
        (a.id(), n.body, bits)
    })
}

/// Whether the pair's translated body may meet the segment from `o` along `d` of length `max` (a
/// ball of `radius` moving along it): its box meets the segment's box grown by the radius and a
/// unit of room. Always where the segment is infinite. The loops skip only pairs that fail it,
/// which no cast could meet.
fn near_segment<I, T: Real, const D: usize>(
    pair: &Pair<I, T, D>,
    (o, d): (&SVector<f64, D>, &SVector<f64, D>),
    radius: f64,
    max: f64,
) -> bool {
    if !max.is_finite() {
        return true;
    }
    let b = pair.body.aabb();
    let unit = d / d.norm();
    (0..D).all(|a| {
        let (p, q) = (o[a], o[a] + max * unit[a]);
        let (lo, hi) = (p.min(q) - radius - 1.0, p.max(q) + radius + 1.0);
        b.min()[a].to_wide() + pair.offset[a] <= hi && b.max()[a].to_wide() + pair.offset[a] >= lo
    })
}

/// The loop's first contact of the ray `(o, d)` (or of a ball of `radius`) within `max` over the
/// pairs whose item `keep` keeps: the smallest distance, the lowest id on equal ones.
fn loop_first<I: Copy + Ord, T: Real, const D: usize>(
    pairs: &[Pair<I, T, D>],
    (o, d): (&SVector<f64, D>, &SVector<f64, D>),
    radius: Option<T>,
    max: T,
    keep: &dyn Fn(usize) -> bool,
) -> Option<(I, Vec<u64>)> {
    let mut best: Option<(I, Hit<T, D>)> = None;
    let r = radius.map_or(0.0, Real::to_wide);
    for pair in pairs.iter().filter(|p| keep(p.item)) {
        if !near_segment(pair, (o, d), r, max.to_wide()) {
            continue;
        }
        let ray = ray_at::<T, D>(o, d, &pair.offset);
        let hit = match radius {
            None => pair.body.cast_ray(&ray, max),
            Some(r) => pair.body.cast_sphere(&ray, r, max),
        };
        let Some(hit) = hit else { continue };
        let hit = Hit {
            point: placed(&hit.point, &pair.offset),
            ..hit
        };
        let (dist, id) = (hit.distance.to_wide(), pair.id);
        if best.as_ref().is_none_or(|(bi, bh)| {
            dist < bh.distance.to_wide() || (dist == bh.distance.to_wide() && id < *bi)
        }) {
            best = Some((id, hit));
        }
    }
    best.map(|(id, hit)| (id, hit_bits(&hit)))
}

/// The loop's spans (or a ball's) that meet `[0, max]`, sorted by entry, then id.
fn loop_spans<I: Copy + Ord, T: Real, const D: usize>(
    pairs: &[Pair<I, T, D>],
    (o, d): (&SVector<f64, D>, &SVector<f64, D>),
    radius: Option<T>,
    max: T,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<(I, Span<T>)> {
    let r = radius.map_or(0.0, Real::to_wide);
    let mut spans: Vec<(I, Span<T>)> = pairs
        .iter()
        .filter(|p| keep(p.item) && near_segment(p, (o, d), r, max.to_wide()))
        .filter_map(|pair| {
            let ray = ray_at::<T, D>(o, d, &pair.offset);
            let span = match radius {
                None => pair.body.ray_span(&ray),
                Some(r) => pair.body.sphere_span(&ray, r),
            }?;
            let meets = span.exit.to_wide() >= 0.0 && span.enter.to_wide() <= max.to_wide();
            meets.then_some((pair.id, span))
        })
        .collect();
    spans.sort_by(|a, b| {
        (a.1.enter.to_wide())
            .partial_cmp(&b.1.enter.to_wide())
            .unwrap()
            .then(a.0.cmp(&b.0))
    });
    spans
}

/// The loop's next crossing beyond `after` within `max` over the pairs whose item `keep` keeps:
/// of the ends of every span with `enter < exit`, the smallest distance `d` with
/// `after < d <= max` and `d >= 0`, the lowest id on equal ones; its id, distance and way.
fn loop_next<I: Copy + Ord, T: Real, const D: usize>(
    pairs: &[Pair<I, T, D>],
    (o, d): (&SVector<f64, D>, &SVector<f64, D>),
    after: T,
    max: T,
    keep: &dyn Fn(usize) -> bool,
) -> Option<(I, u64, bool)> {
    let (after, limit) = (after.to_wide(), max.to_wide());
    let mut best: Option<(f64, I, T, bool)> = None;
    for pair in pairs.iter().filter(|p| keep(p.item)) {
        let Some(span) = pair.body.ray_span(&ray_at::<T, D>(o, d, &pair.offset)) else {
            continue;
        };
        if span.enter.to_wide() >= span.exit.to_wide() {
            continue;
        }
        for (end, entering) in [(span.enter, true), (span.exit, false)] {
            let e = end.to_wide();
            if !(e > after && e >= 0.0 && e <= limit) {
                continue;
            }
            if best
                .as_ref()
                .is_none_or(|(bd, bi, _, _)| e < *bd || (e == *bd && pair.id < *bi))
            {
                best = Some((e, pair.id, end, entering));
            }
            break;
        }
    }
    best.map(|(_, id, end, entering)| (id, end.to_wide().to_bits(), entering))
}

/// The crossings of `g` along the ray `(o, d)`, one after another from `first_after`, each
/// against the loop over `pairs`, and its normal a unit vector facing the right way.
fn check_crossings<G: Geometry<T, D>, T: Real, const D: usize>(
    g: &G,
    pairs: &[Pair<G::Id, T, D>],
    (o, d): (&SVector<f64, D>, &SVector<f64, D>),
    (first_after, max): (T, T),
    keep: &dyn Fn(usize) -> bool,
    what: &dyn Fn() -> String,
) {
    let ray: Ray<T, D> = ray_at(o, d, &SVector::zeros());
    let mut after = first_after;
    for step in 0..24 {
        let want = loop_next(pairs, (o, d), after, max, keep);
        let got = g.next_crossing_filtered(&ray, after, max, keep);
        let got_bits = got.as_ref().map(|c| {
            let x = c.found();
            (c.id(), x.distance.to_wide().to_bits(), x.entering)
        });
        assert_eq!(
            got_bits,
            want,
            "next_crossing step {step} after {after:?}: {}",
            what()
        );
        let Some(c) = got else { break };
        let x = c.found();
        let n: SVector<f64, D> = x.normal.map(Real::to_wide);
        let facing = n.dot(&ray.dir().map(Real::to_wide));
        assert!(
            (n.norm() - 1.0).abs() < 1e-6,
            "a unit normal: {x:?}, {}",
            what()
        );
        assert!(
            if x.entering {
                facing <= 1e-6
            } else {
                facing >= -1e-6
            },
            "the normal faces the way crossed: {x:?}, {}",
            what()
        );
        after = x.distance;
    }
}

/// The union of sorted spans, merged by hand.
fn merged<T: Real>(spans: &[Span<T>]) -> Vec<(u64, u64)> {
    let mut out: Vec<(f64, f64, T, T)> = Vec::new();
    for s in spans {
        let (e, x) = (s.enter.to_wide(), s.exit.to_wide());
        match out.last_mut() {
            Some(last) if e <= last.1 => {
                if x > last.1 {
                    last.1 = x;
                    last.3 = s.exit;
                }
            }
            _ => out.push((e, x, s.enter, s.exit)),
        }
    }
    out.iter()
        .map(|(_, _, e, x)| (e.to_wide().to_bits(), x.to_wide().to_bits()))
        .collect()
}

/// The loop's nearest pair to `p` within `max` (the smallest signed distance, the lowest id).
fn loop_nearest<I: Copy + Ord, T: Real, const D: usize>(
    pairs: &[Pair<I, T, D>],
    p: &SVector<f64, D>,
    max: T,
    keep: &dyn Fn(usize) -> bool,
) -> Option<(I, usize, Vec<u64>)> {
    let mut best: Option<(I, T, &Pair<I, T, D>)> = None;
    for pair in pairs.iter().filter(|q| keep(q.item)) {
        let at: Point<T, D> = of(p - pair.offset);
        let d = pair.body.signed_distance(&at);
        // Within the limit (a NaN limit keeps none).
        if d.to_wide() > max.to_wide() || max.to_wide().is_nan() {
            continue;
        }
        if best.as_ref().is_none_or(|(bi, bd, _)| {
            d.to_wide() < bd.to_wide() || (d.to_wide() == bd.to_wide() && pair.id < *bi)
        }) {
            best = Some((pair.id, d, pair));
        }
    }
    best.map(|(id, d, pair)| {
        let (point, normal) = pair.body.closest_point(&of(p - pair.offset));
        let point = placed(&point, &pair.offset);
        let bits = core::iter::once(d)
            .chain(point.iter().copied())
            .chain(normal.iter().copied())
            .map(|v| v.to_wide().to_bits())
            .collect();
        (id, pair.index, bits)
    })
}

/// Every query of `g` on the rays `rays` (origin, direction) and the points `points`, through the
/// traits, against the loop over `pairs`, with and without a filter over the first `items`
/// items; and every batch against its single queries.
#[allow(clippy::too_many_arguments)]
fn check<G, T: Real, const D: usize>(
    g: &G,
    pairs: &[Pair<G::Id, T, D>],
    rays: &[(SVector<f64, D>, SVector<f64, D>)],
    points: &[SVector<f64, D>],
    (reach, region): (f64, (f64, f64)),
    label: &str,
) where
    G: Geometry<T, D> + Proximity<T, D> + Sync,
    G::Hit: Send,
    G::Nearest: Send,
    G::Id: Send + Sync,
{
    let all = |_: usize| true;
    let odd = |i: usize| i % 2 == 1;
    let rng = &mut StdRng::seed_from_u64(label.len() as u64);
    for (name, keep) in [("all", &all as &dyn Fn(usize) -> bool), ("odd", &odd)] {
        for (o, d) in rays {
            let ray: Ray<T, D> = ray_at(o, d, &SVector::zeros());
            let max = T::from_wide([reach, dyadic(rng, 0.0..reach), 0.0][rng.random_range(0..3)]);
            let ball = T::from_wide(dyadic(rng, 0.0..1.0));
            let what = || format!("{label}, {name}: {ray:?} within {max:?}, ball {ball:?}");
            let first = loop_first(pairs, (o, d), None, max, keep);
            let got = g.cast_ray_filtered(&ray, max, keep);
            assert_eq!(hit_of(&got), first, "cast_ray {}", what());
            assert_eq!(
                g.hits_any_filtered(&ray, max, keep),
                first.is_some(),
                "hits_any {}",
                what()
            );
            let contact = loop_first(pairs, (o, d), Some(ball), max, keep);
            let got = g.cast_sphere_filtered(&ray, ball, max, keep);
            assert_eq!(hit_of(&got), contact, "cast_sphere {}", what());
            let want = loop_spans(pairs, (o, d), None, max, keep);
            let mut spans = Vec::new();
            g.ray_spans_to_filtered(&ray, max, &mut spans, keep);
            let bits = |s: &Span<T>| (s.enter.to_wide().to_bits(), s.exit.to_wide().to_bits());
            let wanted: Vec<_> = want
                .iter()
                .map(|(i, s)| (*i, bits(s).0, bits(s).1))
                .collect();
            assert_eq!(spans_of(&spans), wanted, "ray_spans_to {}", what());
            let mut union = Vec::new();
            g.union_spans_filtered(&ray, max, &mut union, keep);
            let spans: Vec<Span<T>> = want.iter().map(|(_, s)| *s).collect();
            let union: Vec<_> = union.iter().map(bits).collect();
            assert_eq!(union, merged(&spans), "union_spans {}", what());
            let want = loop_spans(pairs, (o, d), Some(ball), max, keep);
            let mut spans = Vec::new();
            g.sphere_spans_to_filtered(&ray, ball, max, &mut spans, keep);
            let wanted: Vec<_> = want
                .iter()
                .map(|(i, s)| (*i, bits(s).0, bits(s).1))
                .collect();
            assert_eq!(spans_of(&spans), wanted, "sphere_spans_to {}", what());
            let mut union = Vec::new();
            g.union_sphere_spans_filtered(&ray, ball, max, &mut union, keep);
            let spans: Vec<Span<T>> = want.iter().map(|(_, s)| *s).collect();
            let union: Vec<_> = union.iter().map(bits).collect();
            assert_eq!(union, merged(&spans), "union_sphere_spans {}", what());
            let after = T::from_wide([-1.0, 0.0, dyadic(rng, 0.0..reach)][rng.random_range(0..3)]);
            check_crossings(g, pairs, (o, d), (after, max), keep, &what);
        }
        for p in points {
            let point: Point<T, D> = of(*p);
            let max = T::from_wide([f64::INFINITY, dyadic(rng, -0.5..2.0)][rng.random_range(0..2)]);
            let distance = T::from_wide(dyadic(rng, -0.5..2.5));
            let what = || format!("{label}, {name}: {point:?}, {max:?}, {distance:?}");
            let got = g.nearest_filtered(&point, max, keep);
            assert_eq!(
                near_of(&got),
                loop_nearest(pairs, p, max, keep),
                "nearest {}",
                what()
            );
            let mut want: Vec<G::Id> = pairs
                .iter()
                .filter(|q| keep(q.item))
                .filter(|q| {
                    q.body.signed_distance(&of(p - q.offset)).to_wide() <= distance.to_wide()
                })
                .map(|q| q.id)
                .collect();
            want.sort();
            let mut found = Vec::new();
            g.within_filtered(&point, distance, &mut found, keep);
            assert_eq!(found, want, "within {}", what());
            let mut want: Vec<G::Id> = pairs
                .iter()
                .filter(|q| keep(q.item) && q.body.contains(&of(p - q.offset)))
                .map(|q| q.id)
                .collect();
            want.sort();
            g.containing_filtered(&point, &mut found, keep);
            assert_eq!(found, want, "containing {}", what());
        }
    }
    check_occupancy(g, region, label);
    // The batches against the single queries, their `_par` forms against the batches.
    // (A periodic medium's rays are bounded: one along a channel would walk `2^20` boxes.)
    let rays: Vec<Ray<T, D>> = rays
        .iter()
        .map(|(o, d)| ray_at(o, d, &SVector::zeros()))
        .collect();
    let (inf, max) = (T::from_wide(f64::INFINITY), T::from_wide(reach));
    let mut hits = vec![None; rays.len()];
    g.cast_rays(&rays, max, &mut hits);
    let singles: Vec<_> = rays.iter().map(|r| g.cast_ray(r, max)).collect();
    assert_eq!(hits, singles, "{label}: cast_rays");
    g.cast_rays_par(&rays, max, &mut hits);
    assert_eq!(hits, singles, "{label}: cast_rays_par");
    let limits: Vec<T> = (0..rays.len())
        .map(|k| T::from_wide([reach, 0.0, -1.0, f64::NAN, reach / 3.0][k % 5]))
        .collect();
    let singles: Vec<_> = rays
        .iter()
        .zip(&limits)
        .map(|(r, &m)| g.cast_ray_filtered(r, m, odd))
        .collect();
    g.cast_rays_filtered(&rays, &limits, &mut hits, odd);
    assert_eq!(hits, singles, "{label}: cast_rays_filtered");
    g.cast_rays_filtered_par(&rays, &limits, &mut hits, odd);
    assert_eq!(hits, singles, "{label}: cast_rays_filtered_par");
    let points: Vec<Point<T, D>> = points.iter().map(|p| of(*p)).collect();
    let mut near = vec![None; points.len()];
    g.nearest_batch(&points, inf, &mut near);
    let singles: Vec<_> = points.iter().map(|p| g.nearest(p, inf)).collect();
    assert_eq!(near, singles, "{label}: nearest_batch");
    g.nearest_batch_par(&points, inf, &mut near);
    assert_eq!(near, singles, "{label}: nearest_batch_par");
    let singles: Vec<_> = points
        .iter()
        .map(|p| g.nearest_filtered(p, inf, odd))
        .collect();
    g.nearest_batch_filtered(&points, inf, &mut near, odd);
    assert_eq!(near, singles, "{label}: nearest_batch_filtered");
    g.nearest_batch_filtered_par(&points, inf, &mut near, odd);
    assert_eq!(near, singles, "{label}: nearest_batch_filtered_par");
    let distance = T::from_wide(1.25);
    let (mut offsets, mut found, mut one) = (Vec::new(), Vec::new(), Vec::new());
    let mut lists = Vec::new();
    for p in &points {
        g.within(p, distance, &mut one);
        lists.push(one.clone());
    }
    let listed = |offsets: &[usize], found: &[G::Id]| -> Vec<Vec<G::Id>> {
        offsets
            .windows(2)
            .map(|w| found[w[0]..w[1]].to_vec())
            .collect()
    };
    g.within_batch(&points, distance, &mut offsets, &mut found);
    assert_eq!(listed(&offsets, &found), lists, "{label}: within_batch");
    g.within_batch_par(&points, distance, &mut offsets, &mut found);
    assert_eq!(listed(&offsets, &found), lists, "{label}: within_batch_par");
    let lists: Vec<Vec<G::Id>> = points
        .iter()
        .map(|p| {
            g.within_filtered(p, distance, &mut one, odd);
            one.clone()
        })
        .collect();
    g.within_batch_filtered(&points, distance, &mut offsets, &mut found, odd);
    assert_eq!(
        listed(&offsets, &found),
        lists,
        "{label}: within_batch_filtered"
    );
    g.within_batch_filtered_par(&points, distance, &mut offsets, &mut found, odd);
    assert_eq!(
        listed(&offsets, &found),
        lists,
        "{label}: within_batch_filtered_par"
    );
}

/// [`Grid::occupancy`] (and its `_par` form) of `g` on grids over `[lo, hi]^D` against
/// `containing` at every cell's centre: one whose centres lie on the `1/8` lattice (`1/2` in
/// 3D; on the faces of boxes at integers, on bodies' dyadic surfaces), one of an awkward cell
/// size; and a slice of the wrong length refused.
fn check_occupancy<G: Geometry<T, D> + Sync, T: Real, const D: usize>(
    g: &G,
    (lo, hi): (f64, f64),
    label: &str,
) {
    let fine = if D == 2 { 1.0 / 8.0 } else { 0.5 };
    for (size, shift) in [(fine, fine / 2.0), (0.37, 0.011)] {
        let n = (((hi - lo) / size).ceil() as usize).min(if D == 2 { 160 } else { 40 });
        // Centred on the region where it covers only part of it.
        let from = ((lo + hi) / 2.0 - n as f64 * size / 2.0).max(lo);
        let from = (from / fine).floor() * fine - shift;
        let grid = Grid::new(
            Point::from(SVector::repeat(T::from_wide(from))),
            SVector::repeat(T::from_wide(size)),
            [n; D],
        )
        .expect("a grid");
        let mut cells = vec![true; n.pow(D as u32)];
        grid.occupancy(g, &mut cells).expect("one entry per cell");
        let mut found = Vec::new();
        let mut inside = 0;
        for (flat, &cell) in cells.iter().enumerate() {
            let mut rest = flat;
            let mut index = [0; D];
            for a in (0..D).rev() {
                index[a] = rest % n;
                rest /= n;
            }
            let centre = grid.center(index);
            g.containing(&centre, &mut found);
            assert_eq!(
                cell,
                !found.is_empty(),
                "{label}: occupancy of cell {index:?} (centre {centre:?}, in {found:?}), cells of {size}"
            );
            inside += usize::from(cell);
        }
        assert!(inside > 0, "{label}: some centre is inside a body");
        let mut par = vec![false; cells.len()];
        grid.occupancy_par(g, &mut par).expect("one entry per cell");
        assert!(par == cells, "{label}: occupancy_par");
        // Slab by slab (rows of axis 0's cells), the same; a part row or rows beyond refused.
        let slab = cells.len() / n;
        let mut part = vec![false; slab];
        for k in 0..n {
            grid.occupancy_rows(g, k * slab / n, &mut part)
                .expect("whole rows");
            assert!(part == cells[k * slab..(k + 1) * slab], "{label}: slab {k}");
        }
        let beyond = grid.occupancy_rows(g, slab / n * (n - 1) + 1, &mut part);
        assert_eq!(
            beyond.unwrap_err(),
            Error::Length {
                what: "cells",
                len: slab,
                expected: slab - n
            }
        );
        assert!(grid.occupancy_rows(g, 0, &mut part[1..]).is_err());
        let err = grid.occupancy(g, &mut cells[1..]).unwrap_err();
        assert_eq!(
            err,
            Error::Length {
                what: "cells",
                len: cells.len() - 1,
                expected: cells.len()
            }
        );
    }
}

/// Rays from dyadic points in `[lo, hi]^D`: on the lattice of integers (along faces, edges and
/// corners of unit boxes), along lattice directions, or aimed anywhere; and dyadic points there.
#[allow(clippy::type_complexity)]
fn probes<const D: usize>(
    rng: &mut StdRng,
    (lo, hi): (f64, f64),
    count: usize,
) -> (
    Vec<(SVector<f64, D>, SVector<f64, D>)>,
    Vec<SVector<f64, D>>,
) {
    let rays = (0..count)
        .map(|k| {
            let o = SVector::<f64, D>::from_fn(|_, _| {
                if k % 3 == 0 {
                    rng.random_range(lo as i64..=hi as i64) as f64
                } else {
                    dyadic(rng, lo..hi)
                }
            });
            let d = if k % 2 == 0 {
                SVector::<f64, D>::from_fn(|_, _| rng.random_range(-1..=1) as f64)
            } else {
                unit::<D>(rng)
            };
            let d = if d.norm() == 0.0 {
                SVector::from_fn(|a, _| f64::from(u8::from(a == 0)))
            } else {
                d
            };
            (o, d)
        })
        .collect();
    let points = (0..count / 2)
        .map(|k| {
            SVector::<f64, D>::from_fn(|_, _| {
                if k % 3 == 0 {
                    rng.random_range(lo as i64..=hi as i64) as f64
                } else {
                    dyadic(rng, lo..hi)
                }
            })
        })
        .collect();
    (rays, points)
}

/// The three kinds of scene over `bodies` (in `[0, extent]^D`), each checked against its loop.
fn kinds<T: Real + Send + Sync, const D: usize>(
    seed: u64,
    bodies: Vec<Body<T, D>>,
    extent: f64,
    label: &str,
) {
    let rng = &mut StdRng::seed_from_u64(seed);
    // A plain scene.
    let scene = Scene::new(bodies.clone());
    let pairs: Vec<Pair<usize, T, D>> = bodies
        .iter()
        .enumerate()
        .map(|(k, b)| Pair {
            id: k,
            item: k,
            body: *b,
            index: k,
            offset: SVector::zeros(),
        })
        .collect();
    let region = (-1.0, extent + 1.0);
    let (rays, points) = probes::<D>(rng, region, 120);
    check(
        &scene,
        &pairs,
        &rays,
        &points,
        (extent, region),
        &format!("{label}, scene"),
    );

    // Two scenes (the bodies, and every third of them) placed at dyadic offsets, some twice at
    // one offset (exact ties between instances), two sharing one grid point.
    let scenes = [
        Arc::new(scene),
        Arc::new(Scene::new(bodies.iter().step_by(3).copied().collect())),
    ];
    let mut instances = Vec::new();
    let mut pairs: Vec<Pair<(usize, usize), T, D>> = Vec::new();
    for k in 0..7 {
        let offset = if k == 6 {
            *instances
                .iter()
                .map(|i: &Instance<T, D>| i.offset())
                .nth(2)
                .expect("an offset")
        } else {
            SVector::<T, D>::from_fn(|_, _| T::from_wide(dyadic(rng, -extent..extent)))
        };
        let scene = &scenes[k % 2];
        let wide = offset.map(Real::to_wide);
        for (b, body) in scene.bodies().iter().enumerate() {
            pairs.push(Pair {
                id: (k, b),
                item: k,
                body: *body,
                index: b,
                offset: wide,
            });
        }
        instances.push(Instance::new(scene.clone(), offset).expect("an instance"));
    }
    let instanced = InstancedScene::new(instances);
    let region = (-extent - 1.0, 2.0 * extent + 1.0);
    let (rays, points) = probes::<D>(rng, region, 100);
    check(
        &instanced,
        &pairs,
        &rays,
        &points,
        (extent, region),
        &format!("{label}, instanced"),
    );

    // The bodies repeated with a period of `extent` rounded up to a power of two, on every axis
    // or all but the last; the loop over every image within reach of the rays and points.
    let size = 2f64.powi(extent.log2().ceil() as i32);
    for axes in [[true; D], core::array::from_fn(|a| a + 1 < D)] {
        let period = Periodicity::along(Point::origin(), SVector::repeat(T::from_wide(size)), axes)
            .expect("a period");
        let periodic = PeriodicScene::new(bodies.clone(), period);
        // Rays and points in the box, segments of up to a box: every image within two boxes.
        let reach = size;
        let (rays, points) = probes::<D>(rng, (0.0, size), if D == 2 { 40 } else { 24 });
        let boxes = 2;
        let pairs: Vec<Pair<(usize, Image<D>), T, D>> =
            crate::periodic::images(&[0; D], [boxes; D], axes)
                .into_iter()
                .flat_map(|k| {
                    bodies.iter().enumerate().map(move |(b, body)| Pair {
                        id: (b, k),
                        item: b,
                        body: *body,
                        index: b,
                        offset: SVector::from_fn(|a, _| k[a] as f64 * size),
                    })
                })
                .collect();
        check(
            &periodic,
            &pairs,
            &rays,
            &points,
            (reach, (-size / 2.0, 1.5 * size)),
            &format!("{label}, periodic {axes:?}"),
        );
    }
}

fn mixed<T: Real + Send + Sync, const D: usize>(seed: u64)
where
    Rotation<D>: Rotated<T, D>,
{
    let rng = &mut StdRng::seed_from_u64(seed);
    let mut bodies = mixed_bodies::<T, D>(rng, 0.0);
    bodies.truncate(40);
    kinds(seed, bodies, 10.0, "mixed");
}

fn lattices<T: Real + Send + Sync, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n = if D == 2 { 6 } else { 3 };
    let bodies: Vec<Body<T, D>> = lattice::<T, D>(rng, n, 0.0)
        .into_iter()
        .map(Body::from)
        .collect();
    kinds(seed, bodies, n as f64, "lattice");
}

#[test]
fn every_kind_answers_every_query_as_its_loop() {
    mixed::<f32, 2>(1);
    mixed::<f64, 2>(2);
    mixed::<f32, 3>(3);
    mixed::<f64, 3>(4);
    lattices::<f32, 3>(5);
    lattices::<f64, 2>(6);
}

/// Occupancy where spans' rounding would decide wrongly: centres exactly on surfaces (circles
/// through lattice points of a 3-4-5 triangle, two circles touching at a centre, a sphere
/// through `(1, 2, 2)`), nested and duplicated bodies, thin bodies between two centres, in both
/// widths; each cell against `containing` at its centre and against the arithmetic of integers.
fn surfaces_through_centres<T: Real + Send + Sync>() {
    let c2 = |x: f64, y: f64, r: f64| -> Body<T, 2> {
        raysweep::Sphere::new(of(SVector::from([x, y])), T::from_wide(r))
            .expect("a circle")
            .into()
    };
    let circles = vec![
        c2(0.0, 0.0, 5.0),
        c2(0.0, 0.0, 5.0),
        c2(0.0, 0.0, 2.0),
        c2(12.0, 0.0, 1.0),
        c2(14.0, 0.0, 1.0),
        c2(8.0, 8.0, 0.25),
    ];
    let scene = Scene::new(circles);
    // Unit cells from -7.5: centres on the integers.
    let grid = Grid::new(
        of(SVector::from([-7.5, -7.5])),
        SVector::repeat(T::from_wide(1.0)),
        [24, 24],
    )
    .expect("a grid");
    let mut cells = vec![false; 24 * 24];
    grid.occupancy(&scene, &mut cells).expect("one per cell");
    for (flat, &cell) in cells.iter().enumerate() {
        let (x, y) = ((flat / 24) as i64 - 7, (flat % 24) as i64 - 7);
        let within = |cx: i64, cy: i64, r: i64| (x - cx).pow(2) + (y - cy).pow(2) <= r * r;
        let want = within(0, 0, 5) || within(12, 0, 1) || within(14, 0, 1) || (x, y) == (8, 8);
        assert_eq!(cell, want, "circles: centre ({x}, {y})");
    }
    assert!(cells[(3 + 7) * 24 + (4 + 7)] && cells[(13 + 7) * 24 + 7]);

    // A centre at each value beside where the unit circle's chord at y = k/16 ends (an
    // irrational distance, rounded up or down by the span): `contains` decides exactly.
    let unit = Scene::new(vec![c2(0.0, 0.0, 1.0)]);
    let step = T::EPSILON.to_wide();
    let mut found = Vec::new();
    for k in 1..16 {
        let y = f64::from(k) / 16.0;
        let end = (1.0 - y * y).sqrt();
        for c in [end * (1.0 - step), end, end * (1.0 + step)].map(T::from_wide) {
            let grid = Grid::new(
                of(SVector::from([y - 0.5, 0.0])),
                SVector::from([T::from_wide(1.0), c + c]),
                [1, 1],
            )
            .expect("a grid");
            let mut cell = [false];
            grid.occupancy(&unit, &mut cell).expect("one cell");
            unit.containing(&grid.center([0, 0]), &mut found);
            assert_eq!(grid.center([0, 0]).coords.as_slice(), [T::from_wide(y), c]);
            assert_eq!(cell[0], !found.is_empty(), "a centre at ({y}, {c:?})");
        }
    }

    let sphere: Body<T, 3> =
        raysweep::Sphere::new(of(SVector::from([0.0, 0.0, 0.0])), T::from_wide(3.0))
            .expect("a sphere")
            .into();
    let scene = Scene::new(vec![sphere]);
    let grid = Grid::new(
        of(SVector::from([-4.5, -4.5, -4.5])),
        SVector::repeat(T::from_wide(1.0)),
        [9, 9, 9],
    )
    .expect("a grid");
    let mut cells = vec![false; 729];
    grid.occupancy(&scene, &mut cells).expect("one per cell");
    let mut found = Vec::new();
    for (flat, &cell) in cells.iter().enumerate() {
        let i = [flat / 81, flat / 9 % 9, flat % 9].map(|k| k as i64 - 4);
        assert_eq!(
            cell,
            i.iter().map(|v| v * v).sum::<i64>() <= 9,
            "sphere: {i:?}"
        );
        scene.containing(
            &grid.center([flat / 81, flat / 9 % 9, flat % 9]),
            &mut found,
        );
        assert_eq!(cell, !found.is_empty());
    }
}

#[test]
fn occupancy_settles_centres_on_surfaces() {
    surfaces_through_centres::<f32>();
    surfaces_through_centres::<f64>();
}

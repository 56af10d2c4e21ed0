//! Precision of ray casts and spans against an exact reference, over families of hard cases, in
//! both widths and in 2D and 3D.
//!
//! The reference ([`common::reference`]) solves each query with 256-bit floats from the very same
//! float inputs. Targets asserted (see `../shared/API.md` and `docs/precision.md`):
//!
//! - f32: hit distance, span ends and contact point within 1 ulp of the exact value;
//! - f64: within `4 · (1/2 + s)` ulps everywhere, where `s` (in ulps) is the change of the exact
//!   value when every input is nudged by half an ulp in turn (the sum of the absolute changes),
//!   and within 8 ulps where the problem is well conditioned (`s ≤ 4`);
//! - hit or miss exactly as the reference, except where growing or shrinking the target by
//!   `2^-12` of its size changes the reference's answer (the tangency band), or where the maximum
//!   distance lies within the allowed distance error of the hit.
//!
//! Contact points are measured normwise: the largest coordinate error in ulps of the largest
//! coordinate. The test prints a table of the worst errors per family, next to the errors of the
//! textbook formulas evaluated in the width itself on the same cases, and writes it to
//! `target/precision-ray.md`.

use crate::common;

use std::fmt::Write as _;

use common::reference::{self, Big, Change, Crossing, big, gap, to_f64};
use common::scenes::{
    Scenes, add, aimed, box_target, ellipsoid_target, fit_all, near_box, near_ellipsoid,
    ordinary_box, ordinary_sphere, rotated_ellipsoid, scale, sphere, squashed_ellipsoid, with_dir,
};
use common::{Case, Target, Width, ours};
use rand::Rng as _;
use raysweep::Hit;
use raysweep::nalgebra::SVector;

/// Half-ulp sensitivity (in ulps) up to which an f64 problem counts as well conditioned.
const WELL_CONDITIONED: f64 = 4.0;
/// Relative size change that defines the tangency band.
const BAND: f64 = 1.0 / 4096.0;
/// Cases per family for ray casts, and for sphere casts (whose reference is an iteration).
const CASES: usize = 1000;
const SWEEP_CASES: usize = 400;

/// Worst errors over a family.
#[derive(Default)]
struct Row {
    family: String,
    width: &'static str,
    cases: usize,
    hits: usize,
    distance: f64,
    point: f64,
    span: f64,
    /// Largest `error / allowed` over the family.
    budget: f64,
    /// Worst error where the f64 problem is well conditioned (f32: same as overall).
    well: f64,
    band: usize,
    wrong: usize,
    /// Cases where the reference could only decide hit or miss (a swept contact at tangency).
    unresolved: usize,
    textbook_span: f64,
    textbook_wrong: usize,
}

/// Errors in ulps of the width.
fn ulps<T: Width>(ours: f64, exact: &Big) -> f64 {
    gap(ours, exact) / T::ulp(to_f64(exact))
}

fn point_ulps<T: Width>(ours: &[f64], exact: &[Big]) -> f64 {
    let scale = exact.iter().map(|x| to_f64(x).abs()).fold(0.0, f64::max);
    let worst = ours
        .iter()
        .zip(exact)
        .map(|(a, b)| gap(*a, b))
        .fold(0.0, f64::max);
    worst / T::ulp(scale)
}

/// Sum over the inputs of the largest change of enter, exit and point (normwise) when the input
/// is nudged by half an ulp either way; infinite where a nudge changes hit or miss or inside.
struct Sensitivity {
    enter: f64,
    exit: f64,
    point: f64,
}

fn sensitivity<T: Width>(case: &Case, exact: &Crossing) -> Sensitivity {
    let mut s = Sensitivity {
        enter: 0.0,
        exit: 0.0,
        point: 0.0,
    };
    for (index, x) in reference::inputs(case).iter().enumerate() {
        let half = T::ulp(*x) / 2.0;
        let (mut de, mut dx, mut dp) = (0.0f64, 0.0f64, 0.0f64);
        for delta in [half, -half] {
            match reference::crossing_near(case, Change::Nudge { index, delta }, exact.hint) {
                Some(c) if c.inside == exact.inside => {
                    de = de.max(to_f64(&(&c.enter - &exact.enter)).abs());
                    dx = dx.max(to_f64(&(&c.exit - &exact.exit)).abs());
                    let moved = c.point.iter().zip(&exact.point);
                    dp = dp.max(
                        moved
                            .map(|(a, b)| to_f64(&(a - b)).abs())
                            .fold(0.0, f64::max),
                    );
                }
                _ => {
                    return Sensitivity {
                        enter: f64::INFINITY,
                        exit: f64::INFINITY,
                        point: f64::INFINITY,
                    };
                }
            }
        }
        s.enter += de;
        s.exit += dx;
        s.point += dp;
    }
    let point_scale = exact
        .point
        .iter()
        .map(|x| to_f64(x).abs())
        .fold(0.0, f64::max);
    Sensitivity {
        enter: s.enter / T::ulp(to_f64(&exact.enter)),
        exit: s.exit / T::ulp(to_f64(&exact.exit)),
        point: s.point / T::ulp(point_scale),
    }
}

/// The error allowed for a value with half-ulp sensitivity `s` (ulps).
fn allowed<T: Width>(s: f64) -> f64 {
    if T::BITS == 24 {
        1.0
    } else if s <= WELL_CONDITIONED {
        8.0f64.min(4.0 * (0.5 + s))
    } else {
        4.0 * (0.5 + s)
    }
}

/// Whether growing or shrinking the target by the band changes the reference's hit or miss.
fn in_band(case: &Case) -> bool {
    let grown = reference::crossing(case, Change::Grow { factor: BAND }).is_some();
    let shrunk = reference::crossing(case, Change::Grow { factor: -BAND }).is_some();
    grown != shrunk
}

/// Checks one case: returns a description of each target missed.
fn check<T: Width, const D: usize>(case: &Case, row: &mut Row) -> Vec<String> {
    let mut failures = Vec::new();
    let exact = reference::crossing(case, Change::None);
    let ours = ours::<T, D>(case);
    let mut sens: Option<Sensitivity> = None;
    let mut sensitivity_of = |exact: &Crossing| -> Sensitivity {
        let s = sens.get_or_insert_with(|| sensitivity::<T>(case, exact));
        Sensitivity { ..*s }
    };
    let mut measure =
        |err: f64, which: fn(&Sensitivity) -> f64, exact: &Crossing, row: &mut Row| {
            // Below 2 ulps every target holds whatever the sensitivity; above, compute it.
            let s = if err <= 2.0 || T::BITS == 24 {
                0.0
            } else {
                which(&sensitivity_of(exact))
            };
            let limit = allowed::<T>(s);
            row.budget = row.budget.max(err / limit);
            if s <= WELL_CONDITIONED {
                row.well = row.well.max(err);
            }
            (err <= limit, limit)
        };
    row.cases += 1;

    if exact.as_ref().is_some_and(|e| !e.exact) {
        row.unresolved += 1;
    }
    let exact_values = exact.as_ref().filter(|e| e.exact);

    // Spans.
    match (&exact, &ours.span) {
        (Some(e), Some(_)) if !e.exact => {}
        (Some(e), Some(s)) => {
            for (value, exact_value, which) in [
                (
                    s.enter.to_wide(),
                    &e.enter,
                    (|s: &Sensitivity| s.enter) as fn(&Sensitivity) -> f64,
                ),
                (s.exit.to_wide(), &e.exit, |s: &Sensitivity| s.exit),
            ] {
                let err = ulps::<T>(value, exact_value);
                row.span = row.span.max(err);
                let (ok, limit) = measure(err, which, e, row);
                if !ok {
                    failures.push(format!(
                        "span end {value:e} vs exact {:e}: {err:.2} ulps > {limit:.2}",
                        to_f64(exact_value)
                    ));
                }
            }
        }
        (None, None) => {}
        _ => {
            if in_band(case) {
                row.band += 1;
            } else {
                row.wrong += 1;
                failures.push(format!(
                    "span: ours {:?}, exact {:?}",
                    ours.span,
                    exact.as_ref().map(|e| (to_f64(&e.enter), to_f64(&e.exit)))
                ));
            }
        }
    }

    // Casts.
    let max = big(case.max_distance);
    let exact_hit = exact
        .as_ref()
        .filter(|e| e.inside || (e.enter >= big(0.0) && e.enter <= max));
    match (exact_hit, &ours.hit) {
        (Some(e), Some(_)) if !e.exact => row.hits += 1,
        (Some(e), Some(h)) => {
            row.hits += 1;
            if e.inside {
                let at_origin = h
                    .point
                    .iter()
                    .zip(&case.origin)
                    .all(|(a, b)| a.to_wide() == *b);
                if h.distance != T::zero() || !at_origin {
                    failures.push(format!("origin inside, but hit {h:?}"));
                }
            } else {
                let err = ulps::<T>(h.distance.to_wide(), &e.enter);
                row.distance = row.distance.max(err);
                let (ok, limit) = measure(err, |s| s.enter, e, row);
                if !ok {
                    failures.push(format!(
                        "distance {:e} vs exact {:e}: {err:.2} ulps > {limit:.2}",
                        h.distance.to_wide(),
                        to_f64(&e.enter)
                    ));
                }
                let p: Vec<f64> = h.point.iter().map(|x| x.to_wide()).collect();
                let err = point_ulps::<T>(&p, &e.point);
                row.point = row.point.max(err);
                let (ok, limit) = measure(err, |s| s.point, e, row);
                if !ok {
                    failures.push(format!("point {p:?}: {err:.2} ulps > {limit:.2}"));
                }
                if let Some(bad) = sphere_normal_error::<T, D>(case, h, e) {
                    failures.push(bad);
                }
            }
        }
        (None, None) => {}
        (exact_hit, ours_hit) => {
            // Acceptable in the tangency band, or where max_distance is within the allowed error
            // of the exact entry (a hit reported there must still respect max_distance).
            let near_max = case.max_distance.is_finite()
                && exact.as_ref().is_some_and(|e| {
                    let err = ulps::<T>(case.max_distance, &e.enter);
                    let within = err <= measure(err, |s| s.enter, e, row).1;
                    within && ours_hit.is_none_or(|h| h.distance.to_wide() <= case.max_distance)
                });
            if in_band(case) {
                row.band += 1;
            } else if !near_max {
                row.wrong += 1;
                failures.push(format!(
                    "cast: ours {ours_hit:?}, exact {:?}",
                    exact_hit.map(|e| to_f64(&e.enter))
                ));
            }
        }
    }

    // The textbook formulas, for the table only.
    let textbook = textbook::<T, D>(case);
    match (&exact_values, textbook) {
        (Some(e), Some((enter, exit))) => {
            let err = ulps::<T>(enter, &e.enter).max(ulps::<T>(exit, &e.exit));
            row.textbook_span = row.textbook_span.max(err);
        }
        // Hit or miss is known where the reference missed or resolved its values.
        (Some(_), None) | (None, Some(_))
            if (exact.is_none() || exact_values.is_some()) && !in_band(case) =>
        {
            row.textbook_wrong += 1;
        }
        _ => {}
    }
    failures
}

/// For `f32` results on a sphere, whether the normal of a hit that is not at the origin differs
/// from the exact outward normal at the exact contact, `(p − c)/r`, by more than half an ulp in
/// any component (its rounding) and `2^-28` (the working precision's errors, below `2^-30` in any
/// direction: `radial_normal` in `src/shape/sphere.rs`). (An `f64` normal follows its contact
/// point, whose allowance grows with the case's sensitivity: about a hundred ulps for the
/// grazing rays here.)
fn sphere_normal_error<T: Width, const D: usize>(
    case: &Case,
    hit: &Hit<T, D>,
    exact: &Crossing,
) -> Option<String> {
    let Target::Sphere { center, radius } = &case.target else {
        return None;
    };
    if T::BITS != 24 {
        return None;
    }
    (0..D).find_map(|i| {
        let n = (&exact.point[i] - big(center[i])) / big(*radius);
        let limit = T::ulp(to_f64(&n).abs()) / 2.0 + 2f64.powi(-28);
        let err = gap(hit.normal[i].to_wide(), &n);
        (err > limit).then(|| {
            format!(
                "normal {:?} vs exact {:e} in component {i}: off by {err:e} > {limit:e}",
                hit.normal,
                to_f64(&n)
            )
        })
    })
}

/// The span by the textbook formulas, evaluated in the width itself: `−b ± √(b² − c)` for the
/// quadratics (after scaling into the unit-ball frame for ellipsoids), and the slab test with
/// `1/d` for boxes. A sphere cast uses the usual shortcuts: the radii summed, the box or the
/// ellipsoid's semi-axes grown by the ball's radius.
fn textbook<T: Width, const D: usize>(case: &Case) -> Option<(f64, f64)> {
    let v = |x: &[f64]| common::vector::<T, D>(x);
    let (o, d) = (v(&case.origin), v(&case.dir));
    let two = T::one() + T::one();
    let ball = T::from_wide(case.ball);
    let (enter, exit) = match &case.target {
        Target::Sphere { center, radius } => {
            let f = o - v(center);
            let r = T::from_wide(*radius) + ball;
            let b = f.dot(&d);
            let disc = b * b - (f.dot(&f) - r * r);
            if disc < T::zero() {
                return None;
            }
            (-b - disc.sqrt(), -b + disc.sqrt())
        }
        Target::Ellipsoid {
            center,
            semi_axes,
            rotation,
        } => {
            let a = v(semi_axes).add_scalar(ball);
            let local = |x: SVector<T, D>| -> SVector<T, D> {
                let x = match rotation {
                    None => x,
                    Some(m) => common::rotation_from_rows::<T, D>(m).matrix().tr_mul(&x),
                };
                x.component_div(&a)
            };
            let (f, n) = (local(o - v(center)), local(d));
            let (qa, qb, qc) = (n.dot(&n), f.dot(&n), f.dot(&f) - T::one());
            let disc = qb * qb - qa * qc;
            if disc < T::zero() {
                return None;
            }
            ((-qb - disc.sqrt()) / qa, (-qb + disc.sqrt()) / qa)
        }
        Target::Box { min, max } => {
            let (lo, hi) = (v(min).add_scalar(-ball), v(max).add_scalar(ball));
            let mut enter = T::min_value().unwrap() * two;
            let mut exit = T::max_value().unwrap() * two;
            for i in 0..D {
                let inv = T::one() / d[i];
                let (t1, t2) = ((lo[i] - o[i]) * inv, (hi[i] - o[i]) * inv);
                enter = enter.max(t1.min(t2));
                exit = exit.min(t1.max(t2));
            }
            if enter.partial_cmp(&exit).is_none_or(|o| o.is_gt()) {
                return None;
            }
            (enter, exit)
        }
    };
    Some((enter.to_wide(), exit.to_wide()))
}

/// Width-dependent ranges of the families (decimal exponents).
struct Ranges {
    far: f64,
    shift: (f64, f64),
    size: f64,
    flat: f64,
    /// Flatness of the very flat ellipsoids of the sphere casts: `1:10^2` to `1:10^4` for `f32`,
    /// `1:10^4` to `1:10^6` for `f64`.
    very_flat: (f64, f64),
    large: (f64, f64),
}

fn ranges<T: Width>() -> Ranges {
    if T::BITS == 24 {
        Ranges {
            far: 4.0,
            shift: (3.0, 5.0),
            size: 12.0,
            flat: 3.0,
            very_flat: (2.0, 4.0),
            large: (3.0, 5.0),
        }
    } else {
        Ranges {
            far: 12.0,
            shift: (8.0, 12.0),
            size: 100.0,
            flat: 6.0,
            very_flat: (4.0, 6.0),
            large: (6.0, 12.0),
        }
    }
}

type Generator<const D: usize> = fn(&mut Scenes) -> Case;

fn far_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let r = T::fit(s.uniform(0.5, 2.0));
    let far = s.log_uniform(2.0, ranges::<T>().far);
    let c = fit_all::<T>(&scale(&s.on_sphere(D), far));
    let aim = add(&c, &scale(&s.in_ball(D), 1.3 * r));
    aimed::<T, D>(sphere(c, r), &s.in_ball(D), &aim, f64::INFINITY)
}

fn translated_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let (lo, hi) = ranges::<T>().shift;
    let shift = scale(&s.on_sphere(D), s.log_uniform(lo, hi));
    let c = fit_all::<T>(&add(&shift, &scale(&s.in_ball(D), 10.0)));
    let r = T::fit(s.uniform(0.5, 2.0));
    let o = add(&shift, &scale(&s.in_ball(D), 20.0));
    let aim = add(&c, &scale(&s.in_ball(D), 1.3 * r));
    aimed::<T, D>(sphere(c, r), &o, &aim, f64::INFINITY)
}

fn sized_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let size = ranges::<T>().size;
    let k = s.log_uniform(-size, size);
    let c = fit_all::<T>(&scale(&s.in_ball(D), 10.0 * k));
    let r = T::fit(s.uniform(0.5, 2.0) * k);
    let o = scale(&s.in_ball(D), 20.0 * k);
    let aim = add(&c, &scale(&s.in_ball(D), 1.3 * r));
    aimed::<T, D>(sphere(c, r), &o, &aim, f64::INFINITY)
}

/// An origin a few ulps outside (or, after rounding, on or inside) a huge ball.
fn just_outside_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let (lo, hi) = ranges::<T>().large;
    let r = T::fit(s.log_uniform(lo, hi));
    let c = fit_all::<T>(&scale(&s.in_ball(D), 10.0));
    let u = s.on_sphere(D);
    let nudge = 1.0 + s.uniform(0.0, 4.0) * 2f64.powi(-T::BITS);
    let o = fit_all::<T>(&add(&c, &scale(&u, r * nudge)));
    let towards = add(&scale(&u, -s.uniform(0.0, 1.0)), &scale(&s.in_ball(D), 0.9));
    let aim = add(&o, &scale(&towards, r));
    aimed::<T, D>(sphere(c, r), &o, &aim, f64::INFINITY)
}

fn inside_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let c = fit_all::<T>(&scale(&s.in_ball(D), 10.0));
    let r = T::fit(s.uniform(0.5, 2.0));
    let o = add(&c, &scale(&s.in_ball(D), 0.99 * r));
    let aim = scale(&s.in_ball(D), 30.0);
    aimed::<T, D>(sphere(c, r), &o, &aim, f64::INFINITY)
}

/// Rays that pass the ball within a few parts in 10^5 of tangency, on either side.
fn grazing_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let c = fit_all::<T>(&scale(&s.in_ball(D), 10.0));
    let r = T::fit(s.uniform(0.5, 2.0));
    let o = scale(&s.in_ball(D), 40.0);
    let to_c: Vec<f64> = c.iter().zip(&o).map(|(a, b)| a - b).collect();
    // A unit vector perpendicular to the line of sight, by Gram-Schmidt on a random one.
    let u = s.on_sphere(D);
    let len2: f64 = to_c.iter().map(|x| x * x).sum();
    let along: f64 = u.iter().zip(&to_c).map(|(a, b)| a * b).sum::<f64>() / len2;
    let perp: Vec<f64> = u.iter().zip(&to_c).map(|(a, b)| a - along * b).collect();
    let n = perp.iter().map(|x| x * x).sum::<f64>().sqrt();
    let offset = r * (1.0 + s.uniform(-1e-4, 1e-4));
    let aim = add(&c, &scale(&perp, offset / n));
    aimed::<T, D>(sphere(c, r), &o, &aim, f64::INFINITY)
}

fn flat_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let target = ellipsoid_target::<T>(s, D, ranges::<T>().flat, false);
    let aim = near_ellipsoid(s, &target, 1.3);
    aimed::<T, D>(target, &scale(&s.in_ball(D), 20.0), &aim, f64::INFINITY)
}

/// Rotated and flat, seen from far away or in a scene far from the origin.
fn far_flat_rotated_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let r = ranges::<T>();
    let mut target = ellipsoid_target::<T>(s, D, r.flat, true);
    let shift = scale(&s.on_sphere(D), s.log_uniform(1.0, r.shift.0));
    let Target::Ellipsoid { center, .. } = &mut target else {
        unreachable!()
    };
    *center = fit_all::<T>(&add(center, &shift));
    let aim = near_ellipsoid(s, &target, 1.3);
    let o = if s.chance(0.5) {
        add(&shift, &scale(&s.in_ball(D), 20.0))
    } else {
        s.in_ball(D)
    };
    aimed::<T, D>(target, &o, &aim, f64::INFINITY)
}

fn inside_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let target = ellipsoid_target::<T>(s, D, ranges::<T>().flat, true);
    let o = near_ellipsoid(s, &target, 0.99);
    aimed::<T, D>(target, &o, &scale(&s.in_ball(D), 30.0), f64::INFINITY)
}

/// A flat box (zero extent on one axis).
fn flat_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let c = scale(&s.in_ball(D), 10.0);
    let mut h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    h[s.rng.random_range(0..D)] = 0.0;
    let aim = near_box(s, &c, &h, 1.3);
    aimed::<T, D>(
        box_target::<T>(&c, &h),
        &scale(&s.in_ball(D), 20.0),
        &aim,
        f64::INFINITY,
    )
}

fn far_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let r = ranges::<T>();
    let shift = scale(&s.on_sphere(D), s.log_uniform(r.shift.0, r.shift.1));
    let c = add(&shift, &scale(&s.in_ball(D), 10.0));
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let aim = near_box(s, &c, &h, 1.3);
    let o = if s.chance(0.5) {
        add(&shift, &scale(&s.in_ball(D), 20.0))
    } else {
        s.in_ball(D)
    };
    aimed::<T, D>(box_target::<T>(&c, &h), &o, &aim, f64::INFINITY)
}

/// Rays parallel to an axis, with the other coordinates on a face plane, one ulp beside it, or
/// in between; the origin in front of, inside or behind the box.
fn axis_parallel_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let c = scale(&s.in_ball(D), 10.0);
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let target = box_target::<T>(&c, &h);
    let Target::Box { min, max } = &target else {
        unreachable!()
    };
    let axis = s.rng.random_range(0..D);
    let mut o = vec![0.0; D];
    for j in 0..D {
        o[j] = match s.rng.random_range(0..7) {
            0 => min[j],
            1 => max[j],
            2 => T::next_down(min[j]),
            3 => T::next_up(max[j]),
            4 => T::next_up(min[j]),
            5 => T::next_down(max[j]),
            _ => T::fit(s.uniform(min[j], max[j])),
        };
    }
    o[axis] = T::fit(c[axis] + s.uniform(-10.0, 10.0));
    let mut raw = vec![0.0; D];
    raw[axis] = if s.chance(0.5) { 1.0 } else { -1.0 };
    with_dir::<T, D>(target, o, &raw, f64::INFINITY)
}

fn inside_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let c = scale(&s.in_ball(D), 10.0);
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let o = near_box(s, &c, &h, 0.99);
    aimed::<T, D>(
        box_target::<T>(&c, &h),
        &o,
        &scale(&s.in_ball(D), 30.0),
        f64::INFINITY,
    )
}

/// The same query with the direction reversed: the target is behind (or around) the origin.
fn behind<T: Width, const D: usize>(case: Case) -> Case {
    let raw: Vec<f64> = case.raw_dir.iter().map(|x| -x).collect();
    with_dir::<T, D>(case.target, case.origin, &raw, case.max_distance)
}

/// The maximum distance set to the value of the width just below the exact entry (a miss), or
/// half the time just above it (a hit).
fn short<T: Width>(case: Case) -> Case {
    let Some(e) =
        reference::crossing(&case, Change::None).filter(|e| !e.inside && e.enter > big(0.0))
    else {
        return case;
    };
    let rounded = T::fit(to_f64(&e.enter));
    let below = if big(rounded) >= e.enter {
        T::next_down(rounded)
    } else {
        rounded
    };
    let above = if big(rounded) <= e.enter {
        T::next_up(rounded)
    } else {
        rounded
    };
    let max_distance = if case.origin.iter().sum::<f64>() > 0.0 {
        above
    } else {
        below
    };
    Case {
        max_distance,
        ..case
    }
}

struct Family<const D: usize> {
    name: &'static str,
    make: Generator<D>,
    then: fn(Case) -> Case,
}

fn families<T: Width, const D: usize>() -> Vec<Family<D>> {
    let keep: fn(Case) -> Case = |c| c;
    vec![
        Family {
            name: "sphere ordinary",
            make: ordinary_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere far",
            make: far_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere translated",
            make: translated_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere tiny/huge",
            make: sized_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere origin just outside huge",
            make: just_outside_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere origin inside",
            make: inside_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere grazing",
            make: grazing_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere behind",
            make: ordinary_sphere::<T, D>,
            then: behind::<T, D>,
        },
        Family {
            name: "sphere max just short",
            make: ordinary_sphere::<T, D>,
            then: short::<T>,
        },
        Family {
            name: "ellipsoid flat",
            make: flat_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "ellipsoid rotated",
            make: rotated_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "ellipsoid far/translated flat rotated",
            make: far_flat_rotated_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "ellipsoid origin inside",
            make: inside_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "ellipsoid behind",
            make: rotated_ellipsoid::<T, D>,
            then: behind::<T, D>,
        },
        Family {
            name: "ellipsoid max just short",
            make: rotated_ellipsoid::<T, D>,
            then: short::<T>,
        },
        Family {
            name: "box ordinary",
            make: ordinary_box::<T, D>,
            then: keep,
        },
        Family {
            name: "box axis-parallel on/beside planes",
            make: axis_parallel_box::<T, D>,
            then: keep,
        },
        Family {
            name: "box far/translated",
            make: far_box::<T, D>,
            then: keep,
        },
        Family {
            name: "box flat",
            make: flat_box::<T, D>,
            then: keep,
        },
        Family {
            name: "box origin inside",
            make: inside_box::<T, D>,
            then: keep,
        },
        Family {
            name: "box behind",
            make: ordinary_box::<T, D>,
            then: behind::<T, D>,
        },
        Family {
            name: "box max just short",
            make: ordinary_box::<T, D>,
            then: short::<T>,
        },
    ]
}

/// The case with a moving ball of radius `ball` instead of a ray.
fn with_ball<T: Width>(case: Case, ball: f64) -> Case {
    Case {
        ball: T::fit(ball),
        ..case
    }
}

/// A ball radius between `lo` and `hi` times `size`.
fn ball_radius(s: &mut Scenes, size: f64, lo: f64, hi: f64) -> f64 {
    size * s.uniform(lo, hi)
}

fn sweep_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 2.0);
    with_ball::<T>(ordinary_sphere::<T, D>(s), ball)
}

fn sweep_far_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 2.0);
    with_ball::<T>(far_sphere::<T, D>(s), ball)
}

fn sweep_translated_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 2.0);
    with_ball::<T>(translated_sphere::<T, D>(s), ball)
}

/// Balls from 10⁻⁴ to 10² times the target's size.
fn sweep_sized_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = s.log_uniform(-4.0, 2.0);
    let case = ordinary_sphere::<T, D>(s);
    let Target::Sphere { center, .. } = &case.target else {
        unreachable!()
    };
    let aim = add(center, &scale(&s.in_ball(D), 1.3 * (1.0 + ball)));
    let origin = scale(&s.in_ball(D), 20.0 * (1.0 + ball));
    with_ball::<T>(
        aimed::<T, D>(case.target, &origin, &aim, f64::INFINITY),
        ball,
    )
}

/// The ball's centre within the target grown by the ball: touching or overlapping at the start.
fn sweep_touching_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 2.0);
    let c = fit_all::<T>(&scale(&s.in_ball(D), 10.0));
    let r = T::fit(s.uniform(0.5, 2.0));
    let o = add(
        &c,
        &scale(&s.on_sphere(D), (r + ball) * s.uniform(0.0, 0.999)),
    );
    let aim = scale(&s.in_ball(D), 30.0);
    with_ball::<T>(aimed::<T, D>(sphere(c, r), &o, &aim, f64::INFINITY), ball)
}

fn sweep_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.05, 1.0);
    with_ball::<T>(ordinary_box::<T, D>(s), ball)
}

/// Rays aimed within a ball radius of a corner: edge and corner contacts, and near misses.
fn sweep_box_corner<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 1.0);
    let c = scale(&s.in_ball(D), 10.0);
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let corner: Vec<f64> = (0..D)
        .map(|i| {
            if s.chance(0.5) {
                c[i] - h[i]
            } else {
                c[i] + h[i]
            }
        })
        .collect();
    let aim = add(&corner, &scale(&s.in_ball(D), 1.5 * ball));
    let o = add(&corner, &scale(&s.on_sphere(D), 20.0));
    with_ball::<T>(
        aimed::<T, D>(box_target::<T>(&c, &h), &o, &aim, f64::INFINITY),
        ball,
    )
}

/// Lines through the corner gap of the grown box: inside the box grown by the ball, but more
/// than the ball's radius from the corner.
fn sweep_box_gap<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 1.0);
    let c = scale(&s.in_ball(D), 10.0);
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let signs: Vec<f64> = (0..D)
        .map(|_| if s.chance(0.5) { -1.0 } else { 1.0 })
        .collect();
    let corner: Vec<f64> = (0..D).map(|i| c[i] + signs[i] * h[i]).collect();
    // A point beyond the corner on every axis, at 0.8 to 0.99 of the ball's radius per axis: at
    // least 0.8·√D > 1 radii from the corner.
    let gap: Vec<f64> = (0..D)
        .map(|i| corner[i] + signs[i] * ball * s.uniform(0.8, 0.99))
        .collect();
    let dir = s.on_sphere(D);
    let o = add(&gap, &scale(&dir, -20.0));
    with_ball::<T>(
        aimed::<T, D>(box_target::<T>(&c, &h), &o, &gap, f64::INFINITY),
        ball,
    )
}

fn sweep_far_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.05, 1.0);
    with_ball::<T>(far_box::<T, D>(s), ball)
}

fn sweep_sized_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = s.log_uniform(-4.0, 2.0);
    let c = scale(&s.in_ball(D), 10.0);
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let aim: Vec<f64> = (0..D)
        .map(|i| c[i] + (1.3 * h[i] + ball) * s.uniform(-1.0, 1.0))
        .collect();
    let o = add(&c, &scale(&s.on_sphere(D), 20.0 * (1.0 + ball)));
    with_ball::<T>(
        aimed::<T, D>(box_target::<T>(&c, &h), &o, &aim, f64::INFINITY),
        ball,
    )
}

fn sweep_touching_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 1.0);
    let c = scale(&s.in_ball(D), 10.0);
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let near: Vec<f64> = (0..D).map(|i| c[i] + s.uniform(-1.0, 1.0) * h[i]).collect();
    let o = add(&near, &scale(&s.in_ball(D), ball));
    with_ball::<T>(
        aimed::<T, D>(
            box_target::<T>(&c, &h),
            &o,
            &scale(&s.in_ball(D), 30.0),
            f64::INFINITY,
        ),
        ball,
    )
}

fn sweep_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 2.0);
    with_ball::<T>(rotated_ellipsoid::<T, D>(s), ball)
}

fn sweep_flat_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.05, 1.0);
    with_ball::<T>(flat_ellipsoid::<T, D>(s), ball)
}

/// Very flat, often rotated, and as often far or translated, with balls from `10^-4` of the
/// ellipsoid's size (about its thinness) to its size: where the sweep's iteration meets a surface
/// whose curvature changes by the flatness ratio.
fn sweep_very_flat_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let r = ranges::<T>();
    let rotated = s.chance(0.5);
    let mut target = squashed_ellipsoid::<T>(s, D, r.very_flat, rotated);
    let ball = s.log_uniform(-4.0, 0.0);
    let far = s.chance(0.5);
    let shift = scale(&s.on_sphere(D), s.log_uniform(1.0, r.shift.0));
    if far {
        let Target::Ellipsoid { center, .. } = &mut target else {
            unreachable!()
        };
        *center = fit_all::<T>(&add(center, &shift));
    }
    let aim = add(
        &near_ellipsoid(s, &target, 1.1),
        &scale(&s.in_ball(D), ball),
    );
    let o = scale(&s.on_sphere(D), 20.0);
    let o = if far { add(&shift, &o) } else { o };
    with_ball::<T>(aimed::<T, D>(target, &o, &aim, f64::INFINITY), ball)
}

/// A ball whose path grazes an ellipsoid (flat up to the width's very flat ratio, rotated or not):
/// the centre runs along a tangent at `(1 − η)·r` from a surface point, for `η` from `10^-9` to
/// `10^-2`, so that the ball overlaps the ellipsoid by a sliver and its first touch is where the
/// distance to it barely changes along the path.
fn sweep_grazing_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let r = ranges::<T>();
    let rotated = s.chance(0.5);
    let target = squashed_ellipsoid::<T>(s, D, (0.0, r.very_flat.1), rotated);
    let Target::Ellipsoid {
        center,
        semi_axes: a,
        rotation,
    } = &target
    else {
        unreachable!()
    };
    let unit = |v: Vec<f64>| {
        let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        v.into_iter().map(|x| x / n).collect::<Vec<f64>>()
    };
    // A surface point, the outward normal there, and a tangent.
    let q: Vec<f64> = s.on_sphere(D).iter().zip(a).map(|(u, a)| u * a).collect();
    let normal = unit(q.iter().zip(a).map(|(q, a)| q / (a * a)).collect());
    let w = s.on_sphere(D);
    let along: f64 = w.iter().zip(&normal).map(|(w, n)| w * n).sum();
    let tangent = unit(w.iter().zip(&normal).map(|(w, n)| w - along * n).collect());
    let ball = s.log_uniform(-3.0, 0.0);
    let lift = ball * (1.0 - s.log_uniform(-9.0, -2.0));
    let local: Vec<f64> = (0..D)
        .map(|i| q[i] + lift * normal[i] - 20.0 * tangent[i])
        .collect();
    let to_world = |v: &[f64]| -> Vec<f64> {
        match rotation {
            None => v.to_vec(),
            Some(m) => (0..D)
                .map(|i| (0..D).map(|j| m[i * D + j] * v[j]).sum())
                .collect(),
        }
    };
    let origin = add(center, &to_world(&local));
    let dir = to_world(&tangent);
    let case = with_dir::<T, D>(target.clone(), fit_all::<T>(&origin), &dir, f64::INFINITY);
    with_ball::<T>(case, ball)
}

/// Flat (`1:10^2` to `1:10^3`) and rotated, swept by balls as large as the ellipsoid's middle
/// semi-axis from 20 to 30 away: where the sweep's contact lies on the rim, and the ball's size
/// against the thin axis stretches the iteration's steps.
fn sweep_flat_rotated_large_ball<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let target = squashed_ellipsoid::<T>(s, D, (2.0, 3.0), true);
    let ball = s.uniform(0.5, 1.5);
    let aim = add(
        &near_ellipsoid(s, &target, 1.3),
        &scale(&s.in_ball(D), ball),
    );
    let o = scale(&s.on_sphere(D), s.uniform(20.0, 30.0));
    with_ball::<T>(aimed::<T, D>(target, &o, &aim, f64::INFINITY), ball)
}

fn sweep_far_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.05, 1.0);
    with_ball::<T>(far_flat_rotated_ellipsoid::<T, D>(s), ball)
}

fn sweep_sized_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = s.log_uniform(-4.0, 2.0);
    let target = ellipsoid_target::<T>(s, D, 1.0, true);
    let aim = add(
        &near_ellipsoid(s, &target, 1.3),
        &scale(&s.in_ball(D), ball),
    );
    let o = scale(&s.on_sphere(D), 20.0 * (1.0 + ball));
    with_ball::<T>(aimed::<T, D>(target, &o, &aim, f64::INFINITY), ball)
}

fn sweep_touching_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let ball = ball_radius(s, 1.0, 0.1, 1.0);
    let target = ellipsoid_target::<T>(s, D, 1.0, true);
    let o = add(
        &near_ellipsoid(s, &target, 1.0),
        &scale(&s.in_ball(D), ball),
    );
    with_ball::<T>(
        aimed::<T, D>(target, &o, &scale(&s.in_ball(D), 30.0), f64::INFINITY),
        ball,
    )
}

fn sweep_families<T: Width, const D: usize>() -> Vec<Family<D>> {
    let keep: fn(Case) -> Case = |c| c;
    vec![
        Family {
            name: "sphere cast: sphere ordinary",
            make: sweep_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: sphere far",
            make: sweep_far_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: sphere translated",
            make: sweep_translated_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: sphere tiny/large balls",
            make: sweep_sized_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: sphere starts in contact",
            make: sweep_touching_sphere::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: sphere behind",
            make: sweep_sphere::<T, D>,
            then: behind::<T, D>,
        },
        Family {
            name: "sphere cast: sphere max just short",
            make: sweep_sphere::<T, D>,
            then: short::<T>,
        },
        Family {
            name: "sphere cast: box faces",
            make: sweep_box::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: box edges and corners",
            make: sweep_box_corner::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: box corner gaps",
            make: sweep_box_gap::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: box far/translated",
            make: sweep_far_box::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: box tiny/large balls",
            make: sweep_sized_box::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: box starts in contact",
            make: sweep_touching_box::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: box behind",
            make: sweep_box::<T, D>,
            then: behind::<T, D>,
        },
        Family {
            name: "sphere cast: box max just short",
            make: sweep_box::<T, D>,
            then: short::<T>,
        },
        Family {
            name: "sphere cast: ellipsoid rotated",
            make: sweep_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: ellipsoid flat",
            make: sweep_flat_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: ellipsoid far/translated flat rotated",
            make: sweep_far_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: ellipsoid tiny/large balls",
            make: sweep_sized_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: ellipsoid starts in contact",
            make: sweep_touching_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: ellipsoid behind",
            make: sweep_ellipsoid::<T, D>,
            then: behind::<T, D>,
        },
        Family {
            name: "sphere cast: ellipsoid max just short",
            make: sweep_ellipsoid::<T, D>,
            then: short::<T>,
        },
        Family {
            name: "sphere cast: ellipsoid very flat",
            make: sweep_very_flat_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: ellipsoid grazing (flat too)",
            make: sweep_grazing_ellipsoid::<T, D>,
            then: keep,
        },
        Family {
            name: "sphere cast: ellipsoid flat rotated, large balls",
            make: sweep_flat_rotated_large_ball::<T, D>,
            then: keep,
        },
    ]
}

fn run<T: Width, const D: usize>(
    families: Vec<Family<D>>,
    cases: usize,
    seed: u64,
    rows: &mut Vec<Row>,
    failures: &mut Vec<String>,
) {
    for (k, family) in families.into_iter().enumerate() {
        let mut scenes = Scenes::new(seed * 1000 + k as u64);
        let mut row = Row {
            family: family.name.to_string(),
            width: T::NAME,
            ..Row::default()
        };
        for _ in 0..cases {
            let case = (family.then)((family.make)(&mut scenes));
            for f in check::<T, D>(&case, &mut row) {
                failures.push(format!(
                    "{} {}D {}: {f}\n    case: {case:?}",
                    T::NAME,
                    D,
                    family.name
                ));
            }
        }
        rows.push(row);
    }
}

/// The rows of both dimensions of each family and width as one: counts summed, worst errors the
/// larger of the two.
fn merged(rows: &[Row]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    for r in rows {
        match out
            .iter_mut()
            .find(|m| m.family == r.family && m.width == r.width)
        {
            None => out.push(Row {
                family: r.family.clone(),
                ..*r
            }),
            Some(m) => {
                m.cases += r.cases;
                m.hits += r.hits;
                m.distance = m.distance.max(r.distance);
                m.point = m.point.max(r.point);
                m.span = m.span.max(r.span);
                m.budget = m.budget.max(r.budget);
                m.well = m.well.max(r.well);
                m.band += r.band;
                m.wrong += r.wrong;
                m.unresolved += r.unresolved;
                m.textbook_span = m.textbook_span.max(r.textbook_span);
                m.textbook_wrong += r.textbook_wrong;
            }
        }
    }
    out
}

/// The table of [`merged`] rows: 2D and 3D together.
fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(
        "| family | width | cases | hits | distance | point | span ends | worst/allowed | well-cond. worst | band | unresolved | wrong hit/miss | textbook span ends | textbook wrong hit/miss |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in merged(rows) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} | {} | {:.3e} | {} |",
            r.family,
            r.width,
            r.cases,
            r.hits,
            r.distance,
            r.point,
            r.span,
            r.budget,
            r.well,
            r.band,
            r.unresolved,
            r.wrong,
            r.textbook_span,
            r.textbook_wrong
        );
    }
    out
}

/// Prints the table, writes it to `target/` and fails with the first failures.
fn report(file: &str, rows: &[Row], failures: &[String]) {
    let table = table(rows);
    println!("{table}");
    let _ = std::fs::write(
        format!("{}/target/{file}", env!("CARGO_MANIFEST_DIR")),
        &table,
    );
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} precision failures, first ones:\n{shown:#?}",
        failures.len()
    );
}

#[test]
fn ray_casts_meet_the_precision_targets() {
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    run::<f32, 2>(families::<f32, 2>(), CASES, 1, &mut rows, &mut failures);
    run::<f32, 3>(families::<f32, 3>(), CASES, 2, &mut rows, &mut failures);
    run::<f64, 2>(families::<f64, 2>(), CASES, 3, &mut rows, &mut failures);
    run::<f64, 3>(families::<f64, 3>(), CASES, 4, &mut rows, &mut failures);
    report("precision-ray.md", &rows, &failures);
}

#[test]
fn sphere_casts_meet_the_precision_targets() {
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    run::<f32, 2>(
        sweep_families::<f32, 2>(),
        SWEEP_CASES,
        11,
        &mut rows,
        &mut failures,
    );
    run::<f32, 3>(
        sweep_families::<f32, 3>(),
        SWEEP_CASES,
        12,
        &mut rows,
        &mut failures,
    );
    run::<f64, 2>(
        sweep_families::<f64, 2>(),
        SWEEP_CASES,
        13,
        &mut rows,
        &mut failures,
    );
    run::<f64, 3>(
        sweep_families::<f64, 3>(),
        SWEEP_CASES,
        14,
        &mut rows,
        &mut failures,
    );
    report("precision-sweep.md", &rows, &failures);
}

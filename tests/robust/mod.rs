//! Robustness checks shared by `tests/suite/robustness.rs` (seeded special values) and the fuzz target
//! (`fuzz/fuzz_targets/casts.rs`, raw bytes): build every constructor's input from a stream of
//! numbers, check that the constructor answers `Ok` exactly for valid input, and run every cast on
//! what was built, checking that each answer is well formed. A violated check panics, naming it.

use raysweep::nalgebra::{Point, Rotation, SMatrix, SVector};
use raysweep::{Aabb, Cast, Ellipsoid, Hit, Ray, Real, Span, Sphere};

/// A float width with raw-bit access.
pub trait Raw: Real + core::fmt::Debug {
    /// The value with these bits (the low 32 for f32).
    fn from_raw(bits: u64) -> Self;
    /// Bytes per value.
    const BYTES: usize;
}

impl Raw for f32 {
    fn from_raw(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }
    const BYTES: usize = 4;
}

impl Raw for f64 {
    fn from_raw(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    const BYTES: usize = 8;
}

/// The numbers of one case, in the width `T`.
pub struct Numbers<'a, T> {
    next: &'a mut dyn FnMut() -> T,
}

impl<'a, T: Raw> Numbers<'a, T> {
    pub fn new(next: &'a mut dyn FnMut() -> T) -> Self {
        Numbers { next }
    }

    fn one(&mut self) -> T {
        (self.next)()
    }

    fn point<const D: usize>(&mut self) -> Point<T, D> {
        Point::from(self.vector())
    }

    fn vector<const D: usize>(&mut self) -> SVector<T, D> {
        SVector::from_fn(|_, _| self.one())
    }
}

/// The numbers of a case from raw bytes (each value's bits, little-endian; zeros once the bytes
/// run out): the fuzzer's input.
pub fn from_bytes<T: Raw>(bytes: &[u8]) -> impl FnMut() -> T + '_ {
    let mut at = 0;
    move || {
        let mut bits = 0u64;
        for k in 0..T::BYTES {
            bits |= (*bytes.get(at + k).unwrap_or(&0) as u64) << (8 * k);
        }
        at += T::BYTES;
        T::from_raw(bits)
    }
}

fn wide<T: Real>(v: T) -> f64 {
    v.to_wide()
}

fn all_finite<T: Real, const D: usize>(v: &SVector<T, D>) -> bool {
    v.iter().all(|x| wide(*x).is_finite())
}

/// `|RᵀR − I|` within the tolerance the API promises.
fn orthonormal<T: Real, const D: usize>(m: &SMatrix<T, D, D>) -> bool {
    let m = m.map(wide);
    let dev = (m.transpose() * m - SMatrix::<f64, D, D>::identity()).amax();
    dev <= raysweep::ORTHONORMAL_TOLERANCE * f64::from(f32::EPSILON)
}

/// A rotation from the stream: a product of plane rotations by the stream's angles (NaN and
/// infinite angles make NaN matrices), with one entry replaced by the next number one time in
/// four (to reach skewed and non-finite matrices).
fn rotation<T: Raw, const D: usize>(n: &mut Numbers<T>) -> SMatrix<T, D, D> {
    let mut m = SMatrix::<f64, D, D>::identity();
    for i in 0..D {
        for j in i + 1..D {
            let (s, c) = wide(n.one()).sin_cos();
            let mut g = SMatrix::<f64, D, D>::identity();
            g[(i, i)] = c;
            g[(j, j)] = c;
            g[(i, j)] = -s;
            g[(j, i)] = s;
            m *= g;
        }
    }
    let mut m = m.map(T::from_wide);
    let choice = wide(n.one());
    if choice.is_finite() && choice.to_bits().is_multiple_of(4) {
        let k = (choice.to_bits() as usize / 4) % (D * D);
        m[(k / D, k % D)] = n.one();
    }
    m
}

/// Checks one case, and returns how many casts hit. `label` names the case in panic messages.
pub fn check<T: Raw, const D: usize>(n: &mut Numbers<T>, label: &str) -> usize {
    // Rays: Ok exactly for a finite origin and a finite non-zero direction.
    let origin: Point<T, D> = n.point();
    let dir: SVector<T, D> = n.vector();
    let ray = Ray::new(origin, dir);
    let valid =
        all_finite(&origin.coords) && all_finite(&dir) && dir.iter().any(|x| wide(*x) != 0.0);
    assert_eq!(
        ray.is_ok(),
        valid,
        "{label}: Ray::new({origin:?}, {dir:?}) = {ray:?}"
    );
    if let Ok(ray) = &ray {
        check_ray_direction(ray, &dir.map(wide), label);
    }
    let far: Point<T, D> = n.point();
    let between = Ray::between(origin, far);
    let valid = all_finite(&origin.coords)
        && all_finite(&far.coords)
        && origin
            .iter()
            .zip(far.iter())
            .any(|(a, b)| wide(*a) != wide(*b));
    assert_eq!(
        between.is_ok(),
        valid,
        "{label}: Ray::between({origin:?}, {far:?}) = {between:?}"
    );
    if let Ok((ray, length)) = &between {
        assert!(
            !wide(*length).is_nan() && wide(*length) > 0.0,
            "{label}: between length {length:?}"
        );
        // The exact difference (f64 subtraction of subnormals is exact), or halves where the
        // difference overflows.
        let given = far.coords.map(wide) - origin.coords.map(wide);
        let given = if given.iter().all(|x| x.is_finite()) {
            given
        } else {
            far.coords.map(wide) * 0.5 - origin.coords.map(wide) * 0.5
        };
        check_ray_direction(ray, &given, label);
    }

    // Shapes: Ok exactly for valid input.
    let centre: Point<T, D> = n.point();
    let radius = n.one();
    let sphere = Sphere::new(centre, radius);
    let valid = all_finite(&centre.coords) && wide(radius).is_finite() && wide(radius) >= 0.0;
    assert_eq!(
        sphere.is_ok(),
        valid,
        "{label}: Sphere::new({centre:?}, {radius:?}) = {sphere:?}"
    );

    let axes: SVector<T, D> = n.vector();
    let m = rotation::<T, D>(n);
    let axes_valid =
        all_finite(&centre.coords) && all_finite(&axes) && axes.iter().all(|a| wide(*a) > 0.0);
    let aligned = Ellipsoid::new(centre, axes);
    assert_eq!(
        aligned.is_ok(),
        axes_valid,
        "{label}: Ellipsoid::new({centre:?}, {axes:?}) = {aligned:?}"
    );
    let oriented = Ellipsoid::oriented(centre, axes, Rotation::from_matrix_unchecked(m));
    let valid = axes_valid && m.iter().all(|x| wide(*x).is_finite()) && orthonormal(&m);
    assert_eq!(
        oriented.is_ok(),
        valid,
        "{label}: Ellipsoid::oriented({centre:?}, {axes:?}, {m:?}) = {oriented:?}"
    );

    let (lo, hi): (Point<T, D>, Point<T, D>) = (n.point(), n.point());
    let boxed = Aabb::new(lo, hi);
    let valid = all_finite(&lo.coords)
        && all_finite(&hi.coords)
        && lo.iter().zip(hi.iter()).all(|(a, b)| wide(*a) <= wide(*b));
    assert_eq!(
        boxed.is_ok(),
        valid,
        "{label}: Aabb::new({lo:?}, {hi:?}) = {boxed:?}"
    );
    let half: SVector<T, D> = n.vector();
    let from_centre = Aabb::from_center(centre, half);
    // Valid: finite, no negative half extent; Ok also needs the exact bounds |c| + h to fit in
    // the width (TwoSum gives the sum's rounding error).
    let fits = (0..D).all(|i| {
        let (c, h) = (wide(centre[i]).abs(), wide(half[i]));
        let s = c + h;
        let error = (c - (s - (s - c))) + (h - (s - c));
        s < T::MAX_WIDE || (s == T::MAX_WIDE && error <= 0.0)
    });
    let valid =
        all_finite(&centre.coords) && all_finite(&half) && half.iter().all(|h| wide(*h) >= 0.0);
    match &from_centre {
        Ok(b) => {
            assert!(
                valid,
                "{label}: Aabb::from_center({centre:?}, {half:?}) = {b:?}"
            );
            for i in 0..D {
                let (c, h) = (wide(centre[i]), wide(half[i]));
                assert!(
                    wide(b.min()[i]) <= c - h && wide(b.max()[i]) >= c + h,
                    "{label}: from_center bounds {b:?}"
                );
            }
        }
        Err(e) => assert!(
            !valid || !fits,
            "{label}: Aabb::from_center({centre:?}, {half:?}) = {e:?}"
        ),
    }

    // Casts on everything valid.
    let max_distance = n.one();
    let ball = n.one();
    let mut shapes: Vec<(&str, Box<dyn Cast<T, D>>)> = Vec::new();
    if let Ok(s) = sphere {
        shapes.push(("sphere", Box::new(s)));
    }
    if let Ok(e) = aligned {
        shapes.push(("ellipsoid", Box::new(e)));
    }
    if let Ok(e) = oriented {
        shapes.push(("oriented ellipsoid", Box::new(e)));
    }
    if let Ok(b) = boxed {
        shapes.push(("box", Box::new(b)));
    }
    let rays: Vec<Ray<T, D>> = ray.into_iter().chain(between.map(|(r, _)| r)).collect();
    let mut hits = 0;
    for (name, shape) in &shapes {
        let bounds = shape.aabb();
        for r in (0..D).flat_map(|i| [bounds.min()[i], bounds.max()[i]]) {
            assert!(wide(r).is_finite(), "{label}: {name} aabb {bounds:?}");
        }
        let _ = shape.contains(&origin);
        for ray in &rays {
            let what = format!("{label}: {name} {ray:?} max {max_distance:?} ball {ball:?}");
            let hit = shape.cast_ray(ray, max_distance);
            hits += hit.is_some() as usize;
            check_hit(hit, max_distance, &what);
            check_span(shape.ray_span(ray), &what);
            let swept = shape.cast_sphere(ray, ball, max_distance);
            if wide(ball).is_nan() || wide(ball) < 0.0 {
                assert!(swept.is_none(), "{what}: cast_sphere with a bad radius hit");
                assert!(
                    shape.sphere_span(ray, ball).is_none(),
                    "{what}: sphere_span with a bad radius"
                );
            }
            check_hit(swept, max_distance, &what);
            check_span(shape.sphere_span(ray, ball), &what);
            // The ray in each lane of a batch of four, next to the case's other rays.
            let mut batch: Vec<Ray<T, D>> = core::iter::once(*ray)
                .chain(rays.iter().copied().cycle().take(3))
                .collect();
            for lane in 0..4 {
                batch.rotate_right(1);
                let mut hits = [None; 4];
                shape.cast_rays(&batch, max_distance, &mut hits);
                for (r, h) in batch.iter().zip(&hits) {
                    assert_eq!(
                        format!("{h:?}"),
                        format!("{:?}", shape.cast_ray(r, max_distance)),
                        "{what}: cast_rays differs in lane {lane}"
                    );
                }
            }
        }
    }
    hits
}

/// What a fuzz target does with one input, in width `T`: the first byte picks the dimension, the
/// rest are the numbers.
pub fn replay<T: Raw>(bytes: &[u8], label: &str) -> usize {
    let (head, rest) = bytes.split_first().unwrap_or((&0, &[]));
    let mut next = from_bytes::<T>(rest);
    if head % 2 == 0 {
        check::<T, 2>(&mut Numbers::new(&mut next), label)
    } else {
        check::<T, 3>(&mut Numbers::new(&mut next), label)
    }
}

/// A stored direction is unit and points along the one given.
fn check_ray_direction<T: Raw, const D: usize>(
    ray: &Ray<T, D>,
    given: &SVector<f64, D>,
    label: &str,
) {
    let d = ray.dir().map(wide);
    let tolerance = 4.0 * D as f64 * T::EPSILON_WIDE;
    assert!(
        (d.norm_squared() - 1.0).abs() <= tolerance,
        "{label}: |dir| of {ray:?}"
    );
    // Scale the given direction by a power of two (exact) before comparing, so that huge and
    // subnormal components keep their ratios.
    let m = given.amax();
    let exponent = m.log2().floor();
    // In two steps: 2^1074 alone would overflow.
    let half = (-exponent / 2.0).floor();
    let g = given * 2f64.powf(half) * 2f64.powf(-exponent - half);
    let along = g.dot(&d) / g.norm();
    assert!(
        along >= 1.0 - tolerance,
        "{label}: {ray:?} does not point along {given:?}"
    );
}

fn check_hit<T: Raw, const D: usize>(hit: Option<Hit<T, D>>, max_distance: T, what: &str) {
    let max = wide(max_distance);
    if max.is_nan() || max < 0.0 {
        assert!(
            hit.is_none(),
            "{what}: hit with a bad max_distance: {hit:?}"
        );
    }
    let Some(h) = hit else { return };
    let d = wide(h.distance);
    assert!(
        d.is_finite() && d >= 0.0 && d <= max,
        "{what}: distance {h:?}"
    );
    assert!(
        h.point.iter().all(|x| wide(*x).is_finite()),
        "{what}: point {h:?}"
    );
    let n = h.normal.map(wide);
    let tolerance = 4.0 * D as f64 * T::EPSILON_WIDE;
    assert!(
        (n.norm_squared() - 1.0).abs() <= tolerance,
        "{what}: normal {h:?}"
    );
}

fn check_span<T: Raw>(span: Option<Span<T>>, what: &str) {
    if let Some(s) = span {
        let (a, b) = (wide(s.enter), wide(s.exit));
        assert!(
            a.is_finite() && b.is_finite() && a <= b,
            "{what}: span {s:?}"
        );
    }
}

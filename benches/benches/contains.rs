//! `Shape::contains` against the plain test a user would write in the same width (issue "The
//! first hour"): `|p − c|² ≤ r²`, `|Rᵀ(p − c)/a|² ≤ 1`, `min ≤ p ≤ max`, on 4096 points uniform
//! in the body's box (a ball of radius 2 at (1, 2, 3); an ellipsoid of semi-axes (3, 2, 0.5),
//! axis-aligned and rotated; a box), ns per point.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench contains
//! cargo bench -p raysweep-benches --bench contains --profile bench-lto
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Rotation3, Vector3};
use raysweep::{Aabb, Ellipsoid, Shape, Sphere};
use raysweep_benches::{Width, p3, v3};

const POINTS: usize = 4096;

/// `POINTS` points uniform in the box from `lo` to `hi`.
fn points<T: Width>(lo: Point3<T>, hi: Point3<T>) -> Vec<Point3<T>> {
    let mut rng = StdRng::seed_from_u64(0xc0_47a1);
    (0..POINTS)
        .map(|_| {
            Point3::from(Vector3::from_fn(|i, _| {
                T::of(rng.random_range(lo[i].to_wide()..hi[i].to_wide()))
            }))
        })
        .collect()
}

/// Times `body.contains` and `plain` over points uniform in `around` (the body's own box but
/// for the box, which takes one twice its size).
fn pair<T: Width, B: Shape<T>>(
    c: &mut Criterion,
    name: &str,
    body: &B,
    around: Aabb<T>,
    plain: impl Fn(&Point3<T>) -> bool,
) {
    let at = points(*around.min(), *around.max());
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(POINTS as u64));
    g.bench_function("raysweep", |bench| {
        bench.iter(|| at.iter().filter(|p| body.contains(black_box(p))).count())
    });
    g.bench_function("plain", |bench| {
        bench.iter(|| at.iter().filter(|p| plain(black_box(p))).count())
    });
    g.finish();
}

fn bench<T: Width>(c: &mut Criterion, width: &str) {
    let centre = p3::<T>([1.0, 2.0, 3.0]);
    let ball = Sphere::new(centre, T::of(2.0)).unwrap();
    let r2 = T::of(4.0);
    pair(
        c,
        &format!("{width}/contains, sphere"),
        &ball,
        ball.aabb(),
        |p| (p - centre).norm_squared() <= r2,
    );
    let a = v3::<T>([3.0, 2.0, 0.5]);
    let aligned = Ellipsoid::new(centre, a).unwrap();
    pair(
        c,
        &format!("{width}/contains, ellipsoid"),
        &aligned,
        aligned.aabb(),
        |p| (p - centre).component_div(&a).norm_squared() <= T::of(1.0),
    );
    let rotation: Rotation3<T> = Rotation3::from_matrix_unchecked(
        Rotation3::new(Vector3::new(0.3, -0.7, 0.4))
            .matrix()
            .map(T::of),
    );
    let rotated = Ellipsoid::oriented(centre, a, rotation).unwrap();
    let m = *rotation.matrix();
    pair(
        c,
        &format!("{width}/contains, rotated ellipsoid"),
        &rotated,
        rotated.aabb(),
        |p| (m.tr_mul(&(p - centre))).component_div(&a).norm_squared() <= T::of(1.0),
    );
    let (lo, hi) = (p3::<T>([-1.0, 0.0, 2.0]), p3::<T>([2.0, 4.0, 3.5]));
    let boxed = Aabb::new(lo, hi).unwrap();
    let around = Aabb::new(p3::<T>([-2.5, -2.0, 1.25]), p3::<T>([3.5, 6.0, 4.25])).unwrap();
    pair(c, &format!("{width}/contains, box"), &boxed, around, |p| {
        (0..3).all(|i| lo[i] <= p[i] && p[i] <= hi[i])
    });
}

fn all(c: &mut Criterion) {
    bench::<f32>(c, "f32");
    bench::<f64>(c, "f64");
}

criterion_group!(benches, all);
criterion_main!(benches);

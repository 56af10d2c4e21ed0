//! Instanced scenes against the loop over every (instance, body) pair: bit for bit where the
//! moved origin `origin − offset` is exact (offsets and origins on a grid), and, for general
//! offsets in `f32`, against the `f64` answer for each body translated exactly in `f64`.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, SVector};
use raysweep::{
    Aabb, Body, Cast, Ellipsoid, Instance, InstanceHit, InstanceSpan, InstancedScene, Ray, Real,
    Scene, Sphere,
};

use crate::scene::{Rotated, Rotation, lattice, mixed_bodies, of, rays};

/// The bits of an answer, for comparison without `0.0 == -0.0`.
fn hit_bits<T: Real, const D: usize>(
    h: &Option<InstanceHit<T, D>>,
) -> Option<(usize, usize, Vec<u64>)> {
    h.as_ref().map(|h| {
        let bits = core::iter::once(h.hit.distance)
            .chain(h.hit.point.iter().copied())
            .chain(h.hit.normal.iter().copied())
            .map(|v| v.to_wide().to_bits())
            .collect();
        (h.instance, h.body, bits)
    })
}

fn span_bits<T: Real>(spans: &[InstanceSpan<T>]) -> Vec<(usize, usize, u64, u64)> {
    spans
        .iter()
        .map(|s| {
            let bits = |v: T| v.to_wide().to_bits();
            (s.instance, s.body, bits(s.span.enter), bits(s.span.exit))
        })
        .collect()
}

/// `ray` moved by `-offset`, with the same stored direction; `None` where `origin − offset` is
/// not exact in the width.
fn moved<T: Real, const D: usize>(
    origin: &SVector<f64, D>,
    dir: &SVector<f64, D>,
    offset: &SVector<T, D>,
) -> Option<Ray<T, D>> {
    let o = origin.map(T::from_wide);
    let m = SVector::<T, D>::from_fn(|i, _| o[i] - offset[i]);
    let exact = (0..D).all(|i| m[i].to_wide() == o[i].to_wide() - offset[i].to_wide());
    exact.then(|| Ray::new(Point::from(m), dir.map(T::from_wide)).unwrap())
}

/// Every query of `scene` on the ray `origin + t·dir` against the loop over every (instance,
/// body) pair, bit for bit: the origin minus every offset must be exact. With a `mask`, the
/// filtered forms against the loop over the instances it keeps; without, both forms against the
/// loop over all.
fn check_exact<T: Real, const D: usize, S: Cast<T, D> + Sync + Send>(
    scene: &InstancedScene<T, D, S>,
    (origin, dir): (&SVector<f64, D>, &SVector<f64, D>),
    max: T,
    ball: T,
    mask: Option<&[bool]>,
    label: &str,
) {
    let ray = Ray::new(of::<T, D>(*origin), dir.map(T::from_wide)).unwrap();
    let what = || format!("{label}: {ray:?} max {max:?} mask {mask:?}");
    let keep = |i: usize| mask.is_none_or(|m| m[i]);
    let mut first: Option<InstanceHit<T, D>> = None;
    let mut first_ball: Option<InstanceHit<T, D>> = None;
    let mut spans = Vec::new();
    for (i, placed) in scene.instances().iter().enumerate() {
        if !keep(i) {
            continue;
        }
        let m = moved(origin, dir, placed.offset()).expect("an exact moved origin");
        for (b, body) in placed.scene().bodies().iter().enumerate() {
            let keep = |best: &Option<InstanceHit<T, D>>, d: T| {
                best.as_ref().is_none_or(|h| d < h.hit.distance)
            };
            let place = |mut hit: raysweep::Hit<T, D>| {
                hit.point = Point::from(SVector::<T, D>::from_fn(|k, _| {
                    hit.point[k] + placed.offset()[k]
                }));
                InstanceHit {
                    instance: i,
                    body: b,
                    hit,
                }
            };
            if let Some(hit) = body.cast_ray(&m, max)
                && keep(&first, hit.distance)
            {
                first = Some(place(hit));
            }
            if let Some(hit) = body.cast_sphere(&m, ball, max)
                && keep(&first_ball, hit.distance)
            {
                first_ball = Some(place(hit));
            }
            if let Some(span) = body.ray_span(&m) {
                spans.push(InstanceSpan {
                    instance: i,
                    body: b,
                    span,
                });
            }
        }
    }
    spans.sort_by(|a, b| {
        let (ea, eb) = (a.span.enter.to_wide(), b.span.enter.to_wide());
        ea.partial_cmp(&eb)
            .unwrap()
            .then((a.instance, a.body).cmp(&(b.instance, b.body)))
    });
    assert_eq!(
        hit_bits(&scene.cast_ray_filtered(&ray, max, keep)),
        hit_bits(&first),
        "cast_ray {}",
        what()
    );
    assert_eq!(
        hit_bits(&scene.cast_sphere_filtered(&ray, ball, max, keep)),
        hit_bits(&first_ball),
        "cast_sphere {}",
        what()
    );
    assert_eq!(
        scene.hits_any_filtered(&ray, max, keep),
        first.is_some(),
        "hits_any {}",
        what()
    );
    let stale = InstanceSpan {
        instance: 9,
        body: 9,
        span: raysweep::Span {
            enter: max,
            exit: max,
        },
    };
    let mut got = vec![stale];
    scene.ray_spans_filtered(&ray, &mut got, keep);
    assert_eq!(span_bits(&got), span_bits(&spans), "ray_spans {}", what());
    if mask.is_none() {
        assert_eq!(hit_bits(&scene.cast_ray(&ray, max)), hit_bits(&first));
        assert_eq!(
            hit_bits(&scene.cast_sphere(&ray, ball, max)),
            hit_bits(&first_ball)
        );
        assert_eq!(scene.hits_any(&ray, max), first.is_some());
        let mut got = vec![stale];
        scene.ray_spans(&ray, &mut got);
        assert_eq!(span_bits(&got), span_bits(&spans), "ray_spans {}", what());
    }
}

/// `containing` at `p` against the loop, bit for bit (every `p − offset` exact).
fn check_point<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &InstancedScene<T, D, S>,
    p: &SVector<f64, D>,
    mask: Option<&[bool]>,
    label: &str,
) {
    let point = of::<T, D>(*p);
    let keep = |i: usize| mask.is_none_or(|m| m[i]);
    let mut expected = Vec::new();
    for (i, placed) in scene.instances().iter().enumerate() {
        if !keep(i) {
            continue;
        }
        let local = Point::from(SVector::<T, D>::from_fn(|k, _| {
            point[k] - placed.offset()[k]
        }));
        for (b, body) in placed.scene().bodies().iter().enumerate() {
            if body.contains(&local) {
                expected.push((i, b));
            }
        }
    }
    let mut found = vec![(7, 7)];
    scene.containing_filtered(&point, &mut found, keep);
    assert_eq!(found, expected, "{label}: containing {p:?} mask {mask:?}");
    if mask.is_none() {
        scene.containing(&point, &mut found);
        assert_eq!(found, expected, "{label}: containing {p:?}");
    }
}

/// Rays and points on the grid of `step` (a power of two) over `[lo, hi]^D`, against the loop;
/// the offsets are on that grid too, so every moved origin is exact.
fn check_on_grid<T: Real, const D: usize, S: Cast<T, D> + Sync + Send>(
    scene: &InstancedScene<T, D, S>,
    rng: &mut StdRng,
    (lo, hi): (f64, f64),
    count: usize,
    label: &str,
) {
    let ball = T::from_wide(0.375);
    let mask: Vec<bool> = (0..scene.instances().len())
        .map(|_| rng.random_bool(0.6))
        .collect();
    for (k, ray) in rays::<f64, D>(rng, lo, hi, 0.0, count).iter().enumerate() {
        let origin = ray.origin().coords.map(|v| (v * 8.0).round() / 8.0);
        let dir = ray.dir().into_inner();
        let max = [f64::INFINITY, rng.random_range(0.0..hi - lo), 0.0][rng.random_range(0..3)];
        let masked = (k % 4 == 3).then_some(mask.as_slice());
        check_exact(
            scene,
            (&origin, &dir),
            T::from_wide(max),
            ball,
            masked,
            label,
        );
    }
    for k in 0..count / 2 {
        let p = SVector::<f64, D>::from_fn(|_, _| (rng.random_range(lo..hi) * 4.0).round() / 4.0);
        check_point(scene, &p, (k % 4 == 3).then_some(mask.as_slice()), label);
    }
}

/// A lattice of unit boxes placed side by side, so that instances share faces (rays in the
/// shared planes, through shared edges and corners), with a duplicate instance (ties across
/// instances) and an overlapping one.
fn touching_lattices<T: Real, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n = 3;
    let block: Arc<Scene<T, D, Aabb<T, D>>> = Arc::new(Scene::new(lattice(rng, n, 0.0)));
    let mut instances = Vec::new();
    for k in 0..(2usize.pow(D as u32)) {
        let at = SVector::<f64, D>::from_fn(|i, _| ((k >> i) & 1) as f64 * n as f64);
        instances.push(Instance::new(block.clone(), at.map(T::from_wide)).unwrap());
    }
    instances.push(instances[1].clone());
    let overlap = SVector::<f64, D>::repeat(1.5).map(T::from_wide);
    instances.push(Instance::new(block.clone(), overlap).unwrap());
    let scene = InstancedScene::new(instances);
    check_on_grid(
        &scene,
        rng,
        (-1.0, 2.0 * n as f64 + 1.0),
        300,
        "touching lattices",
    );
}

/// Two different scenes of mixed bodies (spheres, boxes, rotated ellipsoids, duplicates, nested
/// bodies) placed at grid offsets, overlapping.
fn mixed_scenes<T: Real, const D: usize>(seed: u64, far: f64)
where
    Rotation<D>: Rotated<T, D>,
{
    let rng = &mut StdRng::seed_from_u64(seed);
    let a: Arc<Scene<T, D>> = Arc::new(Scene::new(mixed_bodies(rng, 0.0)));
    let b: Arc<Scene<T, D>> = Arc::new(Scene::new(mixed_bodies(rng, -5.0)));
    let instances: Vec<Instance<T, D>> = (0..12)
        .map(|k| {
            let at = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-3..=3) as f64 * 2.0 + far);
            let scene = if k % 3 == 0 { &b } else { &a };
            Instance::new(scene.clone(), at.map(T::from_wide)).unwrap()
        })
        .collect();
    let scene = InstancedScene::new(instances);
    check_on_grid(&scene, rng, (far - 8.0, far + 18.0), 120, "mixed scenes");
}

/// Small bodies (a micrometre) in instances a million units from the origin, where the world
/// coordinates of `f32` could not even hold them: exact translation keeps them.
fn far_small_bodies<T: Real, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let tiny: Vec<Sphere<T, D>> = (0..40)
        .map(|_| {
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-1e-5..1e-5));
            Sphere::new(of(c), T::from_wide(1e-6)).unwrap()
        })
        .collect();
    let tiny = Arc::new(Scene::new(tiny));
    let far = 1_048_576.0;
    let instances: Vec<_> = (0..6)
        .map(|k| {
            let at = SVector::<f64, D>::from_fn(|i, _| far + (k + i) as f64);
            Instance::new(tiny.clone(), at.map(T::from_wide)).unwrap()
        })
        .collect();
    let scene = InstancedScene::new(instances);
    let mut hits = 0;
    for _ in 0..300 {
        let k = rng.random_range(0..6);
        let centre = SVector::<f64, D>::from_fn(|i, _| far + (k + i) as f64);
        let body = &tiny.bodies()[rng.random_range(0..40)];
        let aim = body.center().coords.map(|v| v.to_wide())
            + SVector::from_fn(|_, _| rng.random_range(-1e-6..1e-6));
        let origin = centre + SVector::from_fn(|_, _| rng.random_range(-4..=4) as f64);
        let dir = aim + centre - origin;
        if dir.norm() == 0.0 {
            continue;
        }
        check_exact(
            &scene,
            (&origin, &dir),
            T::from_wide(f64::INFINITY),
            T::from_wide(1e-6),
            None,
            "far",
        );
        let ray = Ray::new(of::<T, D>(origin), dir.map(T::from_wide)).unwrap();
        hits += usize::from(scene.cast_ray(&ray, T::from_wide(f64::INFINITY)).is_some());
    }
    assert!(
        hits > 50,
        "only {hits} of 300 rays aimed at micrometre balls hit one"
    );
}

#[test]
fn touching_lattices_in_both_widths_and_dimensions() {
    touching_lattices::<f32, 2>(1);
    touching_lattices::<f64, 2>(2);
    touching_lattices::<f32, 3>(3);
    touching_lattices::<f64, 3>(4);
}

#[test]
fn mixed_scenes_overlapping_duplicated_and_far() {
    mixed_scenes::<f32, 2>(5, 0.0);
    mixed_scenes::<f64, 3>(6, 0.0);
    mixed_scenes::<f32, 3>(7, 4096.0);
    mixed_scenes::<f64, 2>(8, 1e9);
}

#[test]
fn micrometre_bodies_a_million_units_out() {
    far_small_bodies::<f32, 3>(9);
    far_small_bodies::<f64, 3>(10);
    far_small_bodies::<f32, 2>(11);
}

/// The `f64` first hit of the loop over every (instance, body) pair, each body translated
/// exactly in `f64`, for the ray `origin + t·dir` (origin and direction as the `f32` ray holds
/// them).
fn wide_first<const D: usize>(
    scene: &InstancedScene<f32, D, Body<f32, D>>,
    ray: &Ray<f32, D>,
) -> Vec<(f64, usize, usize)> {
    let o = ray.origin().coords.map(f64::from);
    let wide = Ray::new(Point::from(o), ray.dir().map(f64::from)).unwrap();
    let mut all = Vec::new();
    for (i, placed) in scene.instances().iter().enumerate() {
        let v = placed.offset().map(f64::from);
        for (b, body) in placed.scene().bodies().iter().enumerate() {
            let translated: Body<f64, D> = match body {
                Body::Sphere(s) => Sphere::new(
                    Point::from(s.center().coords.map(f64::from) + v),
                    f64::from(s.radius()),
                )
                .unwrap()
                .into(),
                Body::Aabb(a) => Aabb::new(
                    Point::from(a.min().coords.map(f64::from) + v),
                    Point::from(a.max().coords.map(f64::from) + v),
                )
                .unwrap()
                .into(),
                Body::Ellipsoid(e) => Ellipsoid::new(
                    Point::from(e.center().coords.map(f64::from) + v),
                    e.semi_axes().map(f64::from),
                )
                .unwrap()
                .into(),
            };
            if let Some(hit) = translated.cast_ray(&wide, f64::INFINITY) {
                all.push((hit.distance, i, b));
            }
        }
    }
    all.sort_by(|a, b| a.partial_cmp(b).unwrap());
    all
}

/// `f32` scenes at general offsets (not on any grid) and general origins: each first hit is within
/// an ulp of the `f64` answer for its body translated exactly, and no pair hit in `f64` is nearer
/// by more than an ulp.
#[test]
fn general_offsets_in_f32_against_the_exact_translation_in_f64() {
    let rng = &mut StdRng::seed_from_u64(12);
    let bodies: Vec<Body<f32, 3>> = (0..50)
        .map(|_| {
            let c = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(0.0..6.0));
            match rng.random_range(0..3) {
                0 => Sphere::new(of(c), rng.random_range(0.2..0.8))
                    .unwrap()
                    .into(),
                1 => Aabb::new(
                    of(c),
                    of(c + SVector::from_fn(|_, _| rng.random_range(0.1..1.0))),
                )
                .unwrap()
                .into(),
                _ => Ellipsoid::new(of(c), SVector::from_fn(|_, _| rng.random_range(0.2..0.9)))
                    .unwrap()
                    .into(),
            }
        })
        .collect();
    let block = Arc::new(Scene::new(bodies));
    let instances: Vec<Instance<f32, 3>> = (0..30)
        .map(|_| {
            let at = SVector::<f32, 3>::from_fn(|_, _| rng.random_range(-20.0..20.0f32) + 0.1);
            Instance::new(block.clone(), at).unwrap()
        })
        .collect();
    let scene = InstancedScene::new(instances);
    let ulp = |d: f64| f64::from((d as f32).next_up()) - d.abs().min(f64::from(f32::MAX));
    let mut hits = 0;
    for _ in 0..400 {
        let origin = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(-40.0..40.0));
        let aim = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(-20.0..26.0));
        let ray = Ray::new(of::<f32, 3>(origin), (aim - origin).map(|v| v as f32)).unwrap();
        let reference = wide_first(&scene, &ray);
        let got = scene.cast_ray(&ray, f32::INFINITY);
        match (got, reference.first()) {
            (None, None) => {}
            (Some(h), Some(&(best, _, _))) => {
                hits += 1;
                let own = reference
                    .iter()
                    .find(|r| (r.1, r.2) == (h.instance, h.body))
                    .expect("the pair hit is hit in f64");
                let d = f64::from(h.hit.distance);
                assert!(
                    (d - own.0).abs() <= ulp(own.0),
                    "{ray:?}: {d} against {}",
                    own.0
                );
                assert!(
                    own.0 - best <= 2.0 * ulp(best),
                    "{ray:?}: {} nearer at {best}",
                    own.0
                );
            }
            (got, reference) => panic!("{ray:?}: {got:?} against {reference:?}"),
        }
        let mut spans = Vec::new();
        scene.ray_spans(&ray, &mut spans);
        assert!(spans.windows(2).all(|w| w[0].span.enter <= w[1].span.enter));
    }
    assert!(hits > 100, "only {hits} of 400 rays hit");
}

/// `f32` balls at general offsets (origins moved by them round): each next crossing, one after
/// another along the ray, is the next end of the spans the scene lists (each the loop's span of
/// its translated body), and its normal the ball's radial one at the crossing.
#[test]
fn next_crossings_at_general_offsets_follow_the_spans() {
    let rng = &mut StdRng::seed_from_u64(13);
    let balls: Vec<Sphere<f32, 3>> = (0..40)
        .map(|_| {
            let c = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(0.0..6.0));
            Sphere::new(of(c), rng.random_range(0.3..1.2)).unwrap()
        })
        .collect();
    let block = Arc::new(Scene::new(balls));
    let instances: Vec<Instance<f32, 3, Sphere<f32, 3>>> = (0..20)
        .map(|_| {
            let at = SVector::<f32, 3>::from_fn(|_, _| rng.random_range(-12.0..12.0f32) + 0.1);
            Instance::new(block.clone(), at).unwrap()
        })
        .collect();
    let scene = InstancedScene::new(instances);
    let mut crossed = 0;
    for _ in 0..200 {
        let origin = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(-25.0..25.0));
        let aim = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(-10.0..16.0));
        let ray = Ray::new(of::<f32, 3>(origin), (aim - origin).map(|v| v as f32)).unwrap();
        let mut spans = Vec::new();
        scene.ray_spans(&ray, &mut spans);
        let mut after = f32::NEG_INFINITY;
        loop {
            let mut want: Option<(f64, (usize, usize), bool)> = None;
            for s in spans.iter().filter(|s| s.span.enter < s.span.exit) {
                let ends = [(s.span.enter, true), (s.span.exit, false)];
                if let Some((e, entering)) = ends.into_iter().find(|(e, _)| *e > after && *e >= 0.0)
                {
                    let key = (f64::from(e), (s.instance, s.body), entering);
                    if want.is_none_or(|w| (key.0, key.1) < (w.0, w.1)) {
                        want = Some(key);
                    }
                }
            }
            let got = scene.next_crossing(&ray, after, f32::INFINITY);
            let got_key = got.map(|c| {
                (
                    f64::from(c.crossing.distance),
                    (c.instance, c.body),
                    c.crossing.entering,
                )
            });
            assert_eq!(got_key, want, "{ray:?} after {after}");
            let Some(c) = got else { break };
            crossed += 1;
            let placed = &scene.instances()[c.instance];
            let ball = &placed.scene().bodies()[c.body];
            let centre = ball.center().coords.map(f64::from) + placed.offset().map(f64::from);
            let at = ray.origin().coords.map(f64::from)
                + ray.dir().map(f64::from) * f64::from(c.crossing.distance);
            let radial = (at - centre) / f64::from(ball.radius());
            let normal = c.crossing.normal.map(f64::from);
            assert!(
                (normal - radial).norm() < 1e-5,
                "{ray:?}: normal {normal:?} against {radial:?}"
            );
            after = c.crossing.distance;
        }
    }
    assert!(crossed > 200, "only {crossed} crossings");
}

#[test]
fn bad_offsets_empty_scenes_and_bad_queries() {
    let ball: Arc<Scene<f64, 3, Sphere<f64>>> =
        Arc::new(Scene::new(vec![Sphere::new(Point::origin(), 1.0).unwrap()]));
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let err = Instance::new(ball.clone(), SVector::from([0.0, bad, 0.0])).unwrap_err();
        assert!(err.to_string().contains("offset"), "{err}");
    }
    let empty: Arc<Scene<f64, 3, Sphere<f64>>> = Arc::new(Scene::new(Vec::new()));
    let ray = Ray::new(Point::from([-5.0, 0.0, 0.0]), SVector::x()).unwrap();
    let scene = InstancedScene::new(vec![
        Instance::new(empty, SVector::zeros()).unwrap(),
        Instance::new(ball.clone(), SVector::zeros()).unwrap(),
    ]);
    assert_eq!(scene.cast_ray(&ray, f64::INFINITY).unwrap().instance, 1);
    assert_eq!(scene.cast_ray(&ray, f64::NAN), None);
    assert_eq!(scene.cast_ray(&ray, -1.0), None);
    assert_eq!(scene.cast_sphere(&ray, f64::NAN, 10.0), None);
    assert_eq!(scene.cast_sphere(&ray, -1.0, 10.0), None);
    assert_eq!(scene.cast_sphere(&ray, f64::INFINITY, 10.0), None);
    assert!(!scene.hits_any(&ray, f64::NAN));
    let none: InstancedScene<f64, 3, Sphere<f64>> = InstancedScene::new(Vec::new());
    assert_eq!(none.cast_ray(&ray, f64::INFINITY), None);
    let mut spans = Vec::new();
    none.ray_spans(&ray, &mut spans);
    assert!(spans.is_empty());
    let mut found = vec![(1, 1)];
    none.containing(&Point::origin(), &mut found);
    assert!(found.is_empty());
}

/// An origin beyond `f32`'s range from an instance: no body of it is within the width's reach.
#[test]
fn instances_beyond_the_range_of_f32_from_the_origin() {
    let ball: Arc<Scene<f32, 3, Sphere<f32>>> =
        Arc::new(Scene::new(vec![Sphere::new(Point::origin(), 1.0).unwrap()]));
    let scene = InstancedScene::new(vec![
        Instance::new(ball.clone(), SVector::from([-3e38, 0.0, 0.0])).unwrap(),
        Instance::new(ball, SVector::from([3e38, 0.0, 0.0])).unwrap(),
    ]);
    let ray = Ray::new(Point::from([2.9e38, 0.0, 0.0]), SVector::x()).unwrap();
    let hit = scene.cast_ray(&ray, f32::INFINITY).unwrap();
    assert_eq!((hit.instance, hit.body), (1, 0));
    // Instance 0's ball is 5.9e38 behind: beyond f32's range, no hit.
    let back = Ray::new(Point::from([2.9e38, 0.0, 0.0]), -SVector::x()).unwrap();
    assert_eq!(scene.cast_ray(&back, f32::INFINITY), None);
}

#[cfg(feature = "rayon")]
#[test]
fn cast_rays_and_cast_rays_par_are_the_single_casts() {
    let rng = &mut StdRng::seed_from_u64(13);
    let block: Arc<Scene<f32, 3>> = Arc::new(Scene::new(mixed_bodies(rng, 0.0)));
    let instances: Vec<_> = (0..40)
        .map(|_| {
            let at = SVector::<f32, 3>::from_fn(|_, _| rng.random_range(-30.0..30.0f32));
            Instance::new(block.clone(), at).unwrap()
        })
        .collect();
    let scene = InstancedScene::new(instances);
    let batch = rays::<f32, 3>(rng, -30.0, 40.0, 0.0, 3000);
    let (mut serial, mut par) = (vec![None; batch.len()], vec![None; batch.len()]);
    scene.cast_rays(&batch, f32::INFINITY, &mut serial);
    scene.cast_rays_par(&batch, f32::INFINITY, &mut par);
    for ((ray, a), b) in batch.iter().zip(&serial).zip(&par) {
        let single = scene.cast_ray(ray, f32::INFINITY);
        assert_eq!(hit_bits(a), hit_bits(&single));
        assert_eq!(hit_bits(b), hit_bits(&single));
    }
}

/// The exact distance, in 256-bit floats, at which the line from `m_hi + m_lo` (the exact moved
/// origin) along `n` (the ray's stored direction, taken as exact) enters the ball of centre `c`
/// and radius `r`: the textbook quadratic, whose cancellations cost nothing at this precision.
fn exact_ball_entry(
    m: (&SVector<f64, 3>, &SVector<f64, 3>),
    n: &SVector<f64, 3>,
    c: &SVector<f64, 3>,
    r: f64,
) -> Option<f64> {
    use crate::common::reference::{Big, big, to_f64};
    let f: Vec<Big> = (0..3)
        .map(|i| big(m.0[i]) + big(m.1[i]) - big(c[i]))
        .collect();
    let n: Vec<Big> = (0..3).map(|i| big(n[i])).collect();
    let dot =
        |a: &[Big], b: &[Big]| (0..3).fold(big(0.0), |acc, i| acc + a[i].clone() * b[i].clone());
    let (a, b) = (dot(&n, &n), dot(&f, &n));
    let cc = dot(&f, &f) - big(r) * big(r);
    let disc = b.clone() * b.clone() - a.clone() * cc;
    if to_f64(&disc) < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / a.clone();
    Some(to_f64(&(t * a.sqrt())))
}

/// The rounding error of `a + b` (Knuth's two-sum): `a + b` is exactly `(a + b rounded) + this`.
fn two_sum_error(a: f64, b: f64) -> f64 {
    let sum = a + b;
    let back = sum - a;
    (a - (sum - back)) + (b - back)
}

/// The exact entry of [`exact_ball_entry`] for world inputs: origin `o`, offset `v`, stored
/// direction `n`, and the ball `(c, r)` of the scene; `o − v` exactly.
fn exact_placed_entry(inputs: &[f64; 13]) -> Option<f64> {
    let o = SVector::<f64, 3>::from_row_slice(&inputs[0..3]);
    let v = SVector::<f64, 3>::from_row_slice(&inputs[3..6]);
    let n = SVector::<f64, 3>::from_row_slice(&inputs[6..9]);
    let c = SVector::<f64, 3>::from_row_slice(&inputs[9..12]);
    let hi = o - v;
    let lo = SVector::<f64, 3>::from_fn(|i, _| two_sum_error(o[i], -v[i]));
    exact_ball_entry((&hi, &lo), &n, &c, inputs[12])
}

/// `f64` instances whose offsets are not on the rays' grid (the origin far from the instance:
/// `origin − offset` is then not an `f64` and is carried as an exact pair), rays from 10^3 to 10^5
/// away grazing a ball: each distance within the `f64` target of `docs/precision.md` of the exact
/// one (256-bit reference): `4 × (ulp/2 + s)`, `s` the sensitivity of the exact answer to
/// half-ulp nudges of each input (origin, offset, direction, centre, radius), and within 8 ulps
/// where `s` is at most 4 ulps.
#[test]
fn f64_offsets_that_round_keep_the_single_casts_precision() {
    let rng = &mut StdRng::seed_from_u64(14);
    let balls: Vec<Sphere<f64>> = (0..6)
        .map(|k| {
            let c = SVector::<f64, 3>::from_fn(|i, _| if i == 0 { 3.0 * k as f64 } else { 0.0 });
            Sphere::new(Point::from(c), rng.random_range(0.1..1.0)).unwrap()
        })
        .collect();
    let pebble = Arc::new(Scene::new(balls));
    let offsets: Vec<SVector<f64, 3>> = (0..4)
        .map(|k| {
            SVector::from([0.1, 40.0 * k as f64 + 0.3, 0.7])
                + SVector::from_fn(|_, _| rng.random_range(0.0..0.01))
        })
        .collect();
    let scene = InstancedScene::new(
        offsets
            .iter()
            .map(|v| Instance::new(pebble.clone(), *v).unwrap())
            .collect(),
    );
    let ulp = |x: f64| f64::EPSILON * x.abs().max(f64::MIN_POSITIVE);
    let (mut checked, mut well) = (0, 0);
    for _ in 0..300 {
        let k = rng.random_range(0..offsets.len());
        let b = rng.random_range(0..pebble.len());
        let ball = &pebble.bodies()[b];
        let centre = offsets[k] + ball.center().coords;
        // A line passing the centre at (1 − ε) of the radius, from 10^3 to 10^5 away.
        let u = crate::common::random::unit::<3>(rng);
        let w = crate::common::random::unit::<3>(rng).cross(&u).normalize();
        let eps = 10f64.powi(-rng.random_range(1..13));
        let far = 10f64.powi(rng.random_range(3..6));
        let origin = centre + w * (ball.radius() * (1.0 - eps)) - u * far;
        let ray = Ray::new(Point::from(origin), u).unwrap();
        let n = ray.dir().into_inner();
        let mut inputs = [0.0; 13];
        inputs[0..3].copy_from_slice(origin.as_slice());
        inputs[3..6].copy_from_slice(offsets[k].as_slice());
        inputs[6..9].copy_from_slice(n.as_slice());
        inputs[9..12].copy_from_slice(ball.center().coords.as_slice());
        inputs[12] = ball.radius();
        let Some(exact) = exact_placed_entry(&inputs) else {
            continue;
        };
        let Some(hit) = scene.cast_ray(&ray, f64::INFINITY) else {
            panic!("{ray:?} misses the ball its line meets at {exact}");
        };
        let moved_exact = (0..3).all(|i| two_sum_error(origin[i], -offsets[k][i]) == 0.0);
        if (hit.instance, hit.body) != (k, b) || moved_exact {
            continue; // another ball lies in front, or `o − v` may be exact
        }
        // The sensitivity: each input nudged by half an ulp either way.
        let mut s = 0.0f64;
        for i in 0..13 {
            let mut worst = 0.0f64;
            for sign in [-0.5, 0.5] {
                let mut nudged = inputs;
                nudged[i] += sign * ulp(inputs[i]);
                worst = match exact_placed_entry(&nudged) {
                    Some(d) => worst.max((d - exact).abs()),
                    None => f64::INFINITY,
                };
            }
            s += worst;
        }
        checked += 1;
        let error = (hit.hit.distance - exact).abs();
        let bound = if s <= 4.0 * ulp(exact) {
            well += 1;
            8.0 * ulp(exact)
        } else {
            4.0 * (ulp(exact) / 2.0 + s)
        };
        assert!(
            error <= bound,
            "{ray:?}: {} against {exact}, s = {s:e}",
            hit.hit.distance
        );
        let mut spans = Vec::new();
        scene.ray_spans(&ray, &mut spans);
        let span = spans
            .iter()
            .find(|x| (x.instance, x.body) == (k, b))
            .expect("the ball's span");
        assert!(
            (span.span.enter - exact).abs() <= bound,
            "{ray:?}: span from {} against {exact}",
            span.span.enter
        );
    }
    assert!(
        checked > 60 && well > 10,
        "only {checked} rays checked, {well} well conditioned"
    );
}

/// `containing` at points within `10^-12` of balls' and boxes' surfaces in instances whose
/// offsets are not on the points' grid (`point − offset` is not an `f64`), against the exact
/// test in 256-bit floats: every pair whose exactly translated body holds the point, and no
/// other.
#[test]
fn containing_at_general_offsets_is_exact() {
    use crate::common::reference::{Big, big, to_f64};
    let rng = &mut StdRng::seed_from_u64(15);
    let bodies: Vec<Body<f64, 3>> = (0..12)
        .map(|k| {
            let c = SVector::<f64, 3>::from_fn(|_, _| 1000.0 + rng.random_range(0.0..10.0));
            if k % 2 == 0 {
                Sphere::new(Point::from(c), rng.random_range(0.5..2.0))
                    .unwrap()
                    .into()
            } else {
                let half = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(0.5..2.0));
                Aabb::new(Point::from(c - half), Point::from(c + half))
                    .unwrap()
                    .into()
            }
        })
        .collect();
    let block = Arc::new(Scene::new(bodies));
    let offsets: Vec<SVector<f64, 3>> = (0..5)
        .map(|_| SVector::from_fn(|_, _| rng.random_range(0.1..0.4)))
        .collect();
    let scene = InstancedScene::new(
        offsets
            .iter()
            .map(|v| Instance::new(block.clone(), *v).unwrap())
            .collect(),
    );
    let holds = |body: &Body<f64, 3>, v: &SVector<f64, 3>, p: &SVector<f64, 3>| -> bool {
        let q: Vec<Big> = (0..3).map(|i| big(p[i]) - big(v[i])).collect();
        match body {
            Body::Sphere(s) => {
                let d = (0..3).fold(big(0.0), |acc, i| {
                    let x = q[i].clone() - big(s.center()[i]);
                    acc + x.clone() * x
                });
                to_f64(&(d - big(s.radius()) * big(s.radius()))) <= 0.0
            }
            Body::Aabb(b) => (0..3).all(|i| {
                to_f64(&(q[i].clone() - big(b.min()[i]))) >= 0.0
                    && to_f64(&(big(b.max()[i]) - q[i].clone())) >= 0.0
            }),
            Body::Ellipsoid(_) => unreachable!("no ellipsoids here"),
        }
    };
    let (mut near, mut inside) = (0, 0);
    for _ in 0..2000 {
        let k = rng.random_range(0..offsets.len());
        let b = rng.random_range(0..block.len());
        let (centre, reach) = match &block.bodies()[b] {
            Body::Sphere(s) => (s.center().coords, SVector::repeat(s.radius())),
            Body::Aabb(a) => (
                (a.min().coords + a.max().coords) / 2.0,
                (a.max() - a.min()) / 2.0,
            ),
            Body::Ellipsoid(_) => unreachable!(),
        };
        // A point on the body's surface (the sphere's, or a box face's), moved by up to 10^-12.
        let u = crate::common::random::unit::<3>(rng);
        let on = match &block.bodies()[b] {
            Body::Sphere(_) => u * reach[0],
            _ => {
                let axis = rng.random_range(0..3);
                SVector::from_fn(|i, _| {
                    if i == axis {
                        reach[i].copysign(u[i])
                    } else {
                        u[i] * reach[i] * 0.9
                    }
                })
            }
        };
        let nudge = rng.random_range(-1e-12..1e-12);
        let p = offsets[k] + centre + on * (1.0 + nudge);
        let expected: Vec<(usize, usize)> = (0..offsets.len())
            .flat_map(|i| (0..block.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| holds(&block.bodies()[j], &offsets[i], &p))
            .collect();
        let mut found = Vec::new();
        scene.containing(&Point::from(p), &mut found);
        assert_eq!(found, expected, "containing {p:?}");
        near += 1;
        inside += usize::from(expected.contains(&(k, b)));
    }
    assert!(
        inside > near / 4 && inside < near * 3 / 4,
        "{inside} of {near} inside"
    );
}

//! The eight-wide spike against today's traversal (issue "Single rays at Embree's speed", step 1;
//! `src/scene/wide/`): first hits of single rays at 10^3, 10^5 and 10^6 unit balls filling 10 % of
//! a cube, the workload of `obvhs.rs`, in `f32` and `f64`, with leaves of 1, 4 and 8 bodies; and,
//! with the feature `embree`, Embree 3 on the same balls and rays. Before timing, it checks that
//! every spike answer is `Scene::cast_ray`'s, bit for bit, and prints the nodes and leaves each
//! traversal reads and the bodies it casts per ray, and the bytes of each hierarchy per body.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench wide
//! cargo bench -p raysweep-benches --bench wide --features embree
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::{BodyHit, Planes8, Ray, Real, Scene, Sphere, Steps8, Visits, Wide};
use raysweep_benches::{Width, rays, rays_in_cube, sphere_cloud, unit_balls};

#[cfg(feature = "embree")]
#[path = "common/embree.rs"]
mod embree;

const RAYS: usize = 4096;

/// The leaves' sizes the spike is measured with.
const LEAVES: [usize; 3] = [1, 4, 8];

/// The visits per ray of `count` over `rays`, printed as `name`'s.
fn per_ray<T: Real>(name: &str, rays: &[Ray<T>], count: impl Fn(&Ray<T>) -> Visits) {
    let total = rays.iter().fold(Visits::default(), |sum, ray| {
        let v = count(ray);
        Visits {
            nodes: sum.nodes + v.nodes,
            leaves: sum.leaves + v.leaves,
            bodies: sum.bodies + v.bodies,
        }
    });
    let n = rays.len() as f64;
    println!(
        "  {name}: {:.2} nodes, {:.2} leaves, {:.2} bodies per ray",
        total.nodes as f64 / n,
        total.leaves as f64 / n,
        total.bodies as f64 / n
    );
}

/// What the benchmark asks of a way of the spike's, whichever store it has.
trait Way<T: Real> {
    fn cast(&self, ray: &Ray<T>, max: T) -> Option<BodyHit<T>>;
    fn count(&self, ray: &Ray<T>, max: T) -> Visits;
    fn size(&self) -> (usize, usize);
}

/// [`Way`] for the spike's stores (their methods are the spike's own, not a trait's).
macro_rules! way {
    ($store:ident) => {
        impl<T: Real> Way<T> for Wide<'_, T, 3, Sphere<T>, $store<3>> {
            fn cast(&self, ray: &Ray<T>, max: T) -> Option<BodyHit<T>> {
                self.cast_ray(ray, max)
            }
            fn count(&self, ray: &Ray<T>, max: T) -> Visits {
                self.visits(ray, max)
            }
            fn size(&self) -> (usize, usize) {
                (self.nodes(), self.bytes())
            }
        }
    };
}

way!(Planes8);
way!(Steps8);

/// The benchmark's group.
type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

/// Checks `wide` against `scene` on `rays` (bit for bit), prints its size and visits, and times
/// it in `g` as `label`.
fn measure<T: Width, W: Way<T>>(
    g: &mut Group<'_>,
    label: &str,
    wide: &W,
    scene: &Scene<T, 3, Sphere<T>>,
    rays: &[Ray<T>],
) {
    let inf = T::of(f64::INFINITY);
    for ray in rays {
        assert_eq!(wide.cast(ray, inf), scene.cast_ray(ray, inf), "{ray:?}");
    }
    let (nodes, bytes) = wide.size();
    println!(
        "  {label}: {nodes} nodes, {:.1} bytes per body",
        bytes as f64 / scene.len() as f64
    );
    per_ray(label, rays, |ray| wide.count(ray, inf));
    let mut hits: Vec<Option<BodyHit<T>>> = vec![None; rays.len()];
    g.bench_function(label, |b| {
        b.iter(|| first_hits(|ray| wide.cast(ray, inf), rays, &mut hits))
    });
}

/// Every way of the spike's against today's traversal on `centres`' balls and `pairs`' rays, in
/// width `T` (`name`).
fn width<T: Width>(
    g: &mut Group<'_>,
    name: &str,
    centres: &[[f64; 3]],
    pairs: &[([f64; 3], [f64; 3])],
) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let scene: Scene<T, 3, Sphere<T>> = one.install(|| Scene::new(unit_balls(centres)));
    let rays: Vec<Ray<T>> = rays(pairs);
    let inf = T::of(f64::INFINITY);
    println!(
        "{name}, {} balls: today {:.1} bytes per body",
        centres.len(),
        scene.hierarchy_bytes() as f64 / centres.len() as f64
    );
    per_ray("today", &rays, |ray| scene.visits(ray, inf));
    let mut hits: Vec<Option<BodyHit<T>>> = vec![None; RAYS];
    g.bench_function(format!("{name} today"), |b| {
        b.iter(|| first_hits(|ray| scene.cast_ray(ray, inf), &rays, &mut hits))
    });
    for built in [false, true] {
        for leaf in LEAVES {
            let made = if built { "built" } else { "collapsed" };
            let wide = scene
                .wide_spike(leaf, built)
                .expect("fewer than 2^28 bodies");
            let label = format!("{name} {made}, leaves of {leaf}");
            measure(g, &label, &wide, &scene, &rays);
        }
    }
    for (inline, found) in [(false, "links apart"), (true, "children inline")] {
        let wide = scene.wide_spike_steps(inline).expect("boxes in steps");
        measure(
            g,
            &format!("{name} built in steps, {found}"),
            &wide,
            &scene,
            &rays,
        );
    }
}

/// Each ray's first hit by `cast`, stored.
fn first_hits<T: Real, A>(
    cast: impl Fn(&Ray<T>) -> Option<A>,
    rays: &[Ray<T>],
    hits: &mut [Option<A>],
) {
    for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
        *hit = cast(black_box(ray));
    }
    black_box(hits);
}

fn bench(c: &mut Criterion) {
    for n in [1_000, 100_000, 1_000_000] {
        let (centres, side) = sphere_cloud(n);
        let pairs = rays_in_cube(RAYS, side);
        let mut g = c.benchmark_group(format!("wide spike, {n} spheres"));
        g.throughput(Throughput::Elements(RAYS as u64));
        width::<f32>(&mut g, "f32", &centres, &pairs);
        width::<f64>(&mut g, "f64", &centres, &pairs);
        #[cfg(feature = "embree")]
        {
            let embree = embree::Embree::new(&centres, 1.0);
            let ours: Vec<Ray<f32>> = rays(&pairs);
            let mut hits: Vec<Option<(u32, f32)>> = vec![None; RAYS];
            g.bench_function("embree", |b| {
                b.iter(|| embree::first_hits(&embree, &ours, &mut hits))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Instances: a whole pebble-bed core (250 000 pebbles of 60 002 spheres, 1.5·10^10 bodies, the
//! `pebble_bed` example's geometry) against the flat scene of 10^5 balls of the scene benchmark,
//! one instance at offset zero against its plain scene, and the core's build on one thread.
//!
//! First hits: 4096 rays per group (criterion's throughput, so its figures are per ray), maximum
//! distance infinite. The core's rays come from outside it along isotropic uniform random lines
//! that cross it; the flat scene's and the single instance's are the scene benchmark's (origins in
//! the cube, isotropic directions). The memory per instance is printed before the groups.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench instances
//! cargo bench -p raysweep-benches --bench instances --profile bench-lto
//! ```

// The example's geometry; its kernel count and body ids serve the example's checks only.
#[allow(dead_code)]
#[path = "../../examples/pebble_bed/packing.rs"]
mod packing;

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use packing::Core;
use rand::SeedableRng;
use rand::rngs::StdRng;
use raysweep::nalgebra::Point3;
use raysweep::{Instance, InstancedScene, Ray, Scene, Sphere};
use raysweep_benches::{Width, rays, rays_in_cube, sphere_cloud, unit_balls};

const RAYS: usize = 4096;
const PEBBLES: usize = 250_000;

/// An instance of one pebble, in the width `T`, at each of `core`'s pebbles.
fn instances<T: Width>(core: &Core) -> Vec<Instance<T, 3, Sphere<T>>> {
    let pebble: Arc<Scene<T, 3, Sphere<T>>> =
        Arc::new(Scene::new(packing::pebble::<T>(1).expect("a pebble")));
    core.centres
        .iter()
        .map(|c| Instance::new(pebble.clone(), c.coords.map(T::of)).expect("a finite offset"))
        .collect()
}

/// Every ray's first hit by `cast`, each result kept from the optimiser.
fn first_hits<T: Width, H>(rays: &[Ray<T>], cast: impl Fn(&Ray<T>) -> H) {
    for r in rays {
        black_box(cast(black_box(r)));
    }
}

/// Rays from outside `core` along random lines that cross it.
fn core_rays<T: Width>(core: &Core) -> Vec<Ray<T>> {
    let rng = &mut StdRng::seed_from_u64(7);
    let mut out = Vec::with_capacity(RAYS);
    while out.len() < RAYS {
        let (o, u) = core.random_line(rng);
        if core.chord(&o, &u).is_some() {
            let origin = Point3::from(o.coords.map(T::of));
            out.push(Ray::new(origin, u.map(T::of)).expect("a unit direction"));
        }
    }
    out
}

fn width<T: Width>(c: &mut Criterion, name: &str, core: &Core) {
    let instances = instances::<T>(core);
    let scene = InstancedScene::new(instances.clone());
    println!(
        "{name} core of {PEBBLES} pebbles: {:.1} bytes per instance ({} of it the instance, the rest the hierarchy)",
        (scene.hierarchy_bytes() + PEBBLES * size_of::<Instance<T, 3, Sphere<T>>>()) as f64
            / PEBBLES as f64,
        size_of::<Instance<T, 3, Sphere<T>>>()
    );
    let inf = T::of(f64::INFINITY);
    let (centres, side) = sphere_cloud(100_000);
    let flat: Scene<T, 3, Sphere<T>> = Scene::new(unit_balls::<T>(&centres));
    let cube_rays: Vec<Ray<T>> = rays(&rays_in_cube(RAYS, side));
    let through_core = core_rays::<T>(core);

    let mut g = c.benchmark_group(format!("{name}/instanced first hit"));
    g.throughput(Throughput::Elements(RAYS as u64));
    g.bench_function("pebble bed, 250000 pebbles (1.5e10 bodies)", |b| {
        b.iter(|| first_hits(&through_core, |r| scene.cast_ray(r, inf)))
    });
    g.bench_function("flat scene, 100000 spheres", |b| {
        b.iter(|| first_hits(&cube_rays, |r| flat.cast_ray(r, inf)))
    });
    g.finish();

    let flat = Arc::new(flat);
    let single = InstancedScene::new(vec![
        Instance::new(flat.clone(), raysweep::nalgebra::Vector3::zeros()).expect("zero"),
    ]);
    let mut g = c.benchmark_group(format!(
        "{name}/one instance at offset zero, 100000 spheres"
    ));
    g.throughput(Throughput::Elements(RAYS as u64));
    g.bench_function("scene", |b| {
        b.iter(|| first_hits(&cube_rays, |r| flat.cast_ray(r, inf)))
    });
    g.bench_function("instanced scene", |b| {
        b.iter(|| first_hits(&cube_rays, |r| single.cast_ray(r, inf)))
    });
    g.finish();

    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let mut g = c.benchmark_group(format!("{name}/core build, one thread"));
    g.sample_size(10);
    g.bench_function("instanced scene of 250000 pebbles", |b| {
        b.iter(|| one.install(|| InstancedScene::new(black_box(instances.clone()))))
    });
    let bodies = packing::pebble::<T>(1).expect("a pebble");
    g.bench_function("pebble scene of 60002 spheres", |b| {
        b.iter(|| one.install(|| Scene::new(black_box(bodies.clone()))))
    });
    g.finish();
}

fn all(c: &mut Criterion) {
    let core = Core::packed(PEBBLES, 12).expect("a core");
    width::<f32>(c, "f32", &core);
    width::<f64>(c, "f64", &core);
}

criterion_group!(benches, all);
criterion_main!(benches);

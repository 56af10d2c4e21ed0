//! One query of one kind of scene over a fixed workload (20 000 unit balls at 10 % of a cube,
//! 2000 rays from uniform points in isotropic directions, the same points), for counting
//! instructions: the measure of a restructuring, old and new built side by side. `KIND` is
//! `scene`, `instanced` (100 instances of 200 of the balls) or `periodic` (the balls' cube
//! repeated); `QUERY` one of `cast_ray`, `cast_sphere`, `hits_any`, `ray_spans`, `containing`,
//! `nearest`, `within`, and for a scene `cast_rays`, `nearest_batch`, `within_batch`; `none`
//! builds the scene and stops, the count to take away.
//!
//! ```sh
//! cargo build --release -p raysweep-benches --bin queries_count
//! valgrind --tool=callgrind target/release/queries_count scene cast_ray
//! ```
use std::hint::black_box;
use std::sync::Arc;

use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Instance, InstancedScene, PeriodicScene, Periodicity, Ray, Scene, Sphere};
use raysweep_benches::{rays, rays_in_cube, sphere_cloud, unit_balls};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (kind, query) = (args[1].as_str(), args[2].as_str());
    let (centres, side) = sphere_cloud(20_000);
    let balls: Vec<Sphere<f64>> = unit_balls(&centres);
    let pairs = rays_in_cube(2000, side);
    let rs: Vec<Ray<f64>> = rays(&pairs);
    let points: Vec<Point3<f64>> = pairs
        .iter()
        .map(|(o, _)| Point3::new(o[0], o[1], o[2]))
        .collect();
    let inf = f64::INFINITY;
    let mut sink = 0usize;
    match kind {
        "scene" => {
            let scene = Scene::new(balls);
            if query == "none" {
                black_box(&scene);
                return;
            }
            let mut spans = Vec::new();
            let mut ids = Vec::new();
            for (r, p) in rs.iter().zip(&points) {
                match query {
                    "cast_ray" => sink += scene.cast_ray(black_box(r), inf).map_or(0, |h| h.body),
                    "cast_sphere" => {
                        sink += scene
                            .cast_sphere(black_box(r), 0.25, inf)
                            .map_or(0, |h| h.body)
                    }
                    "hits_any" => sink += usize::from(scene.hits_any(black_box(r), 20.0)),
                    "ray_spans" => {
                        scene.ray_spans(black_box(r), &mut spans);
                        sink += spans.len();
                    }
                    "containing" => {
                        scene.containing(black_box(p), &mut ids);
                        sink += ids.len();
                    }
                    "nearest" => sink += scene.nearest(black_box(p), inf).map_or(0, |n| n.body),
                    "within" => {
                        scene.within(black_box(p), 2.0, &mut ids);
                        sink += ids.len();
                    }
                    _ => {}
                }
            }
            match query {
                "cast_rays" => {
                    let mut hits = vec![None; rs.len()];
                    scene.cast_rays(&rs, inf, &mut hits);
                    sink += hits.iter().flatten().count();
                }
                "nearest_batch" => {
                    let mut f = vec![None; points.len()];
                    scene.nearest_batch(&points, inf, &mut f);
                    sink += f.iter().flatten().count();
                }
                "within_batch" => {
                    let (mut o, mut b) = (Vec::new(), Vec::new());
                    scene.within_batch(&points, 2.0, &mut o, &mut b);
                    sink += b.len();
                }
                _ => {}
            }
        }
        "instanced" => {
            let pebble = Arc::new(Scene::new(balls[..200].to_vec()));
            let instances = (0..100)
                .map(|k| {
                    Instance::new(
                        pebble.clone(),
                        Vector3::new((k % 10) as f64 * 40.0, (k / 10) as f64 * 40.0, 0.0),
                    )
                    .unwrap()
                })
                .collect();
            let core = InstancedScene::new(instances);
            if query == "none" {
                black_box(&core);
                return;
            }
            let mut spans = Vec::new();
            let mut ids = Vec::new();
            for (r, p) in rs.iter().zip(&points) {
                match query {
                    "cast_ray" => sink += core.cast_ray(black_box(r), inf).map_or(0, |h| h.body),
                    "cast_sphere" => {
                        sink += core
                            .cast_sphere(black_box(r), 0.25, inf)
                            .map_or(0, |h| h.body)
                    }
                    "hits_any" => sink += usize::from(core.hits_any(black_box(r), 20.0)),
                    "ray_spans" => {
                        core.ray_spans(black_box(r), &mut spans);
                        sink += spans.len();
                    }
                    "containing" => {
                        core.containing(black_box(p), &mut ids);
                        sink += ids.len();
                    }
                    _ => {}
                }
            }
        }
        "periodic" => {
            let period = Periodicity::new(
                Point3::new(-side / 2.0, -side / 2.0, -side / 2.0),
                Vector3::repeat(side),
            )
            .unwrap();
            let scene = PeriodicScene::new(balls, period);
            if query == "none" {
                black_box(&scene);
                return;
            }
            let mut spans = Vec::new();
            let mut ids = Vec::new();
            for (r, p) in rs.iter().zip(&points) {
                match query {
                    "cast_ray" => sink += scene.cast_ray(black_box(r), inf).map_or(0, |h| h.body),
                    "cast_sphere" => {
                        sink += scene
                            .cast_sphere(black_box(r), 0.25, inf)
                            .map_or(0, |h| h.body)
                    }
                    "hits_any" => sink += usize::from(scene.hits_any(black_box(r), 20.0)),
                    "ray_spans" => {
                        scene.ray_spans(black_box(r), 20.0, &mut spans);
                        sink += spans.len();
                    }
                    "containing" => {
                        scene.containing(black_box(p), &mut ids);
                        sink += ids.len();
                    }
                    "nearest" => sink += scene.nearest(black_box(p), inf).map_or(0, |n| n.body),
                    "within" => {
                        scene.within(black_box(p), 2.0, &mut ids);
                        sink += ids.len();
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    println!("{sink}");
}

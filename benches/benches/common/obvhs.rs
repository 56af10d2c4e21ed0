//! obvhs 0.4 as the scene benchmarks run it: its compressed wide BVH over balls of radius 1, and
//! a first hit through `ray_traverse` with a textbook `f32` sphere test (`obvhs.rs`, `large.rs`).

use std::hint::black_box;
use std::time::Duration;

use obvhs::BvhBuildParams;
use obvhs::aabb::Aabb;
use obvhs::cwbvh::CwBvh;
use obvhs::cwbvh::builder::build_cwbvh;
use obvhs::ray::{Ray as ObRay, RayHit};
use raysweep::{BodyHit, Cast, Ray, Real, Scene};

pub type Vec3A = glam::Vec3A;

pub fn vec3a(v: [f64; 3]) -> Vec3A {
    Vec3A::new(v[0] as f32, v[1] as f32, v[2] as f32)
}

/// The textbook ray-sphere test in `f32`: the nearer root of `|o + t·d − c|² = r²` for a unit
/// `d`, 0 from inside, `+∞` on a miss or behind.
fn textbook_sphere(o: Vec3A, d: Vec3A, c: Vec3A, r: f32) -> f32 {
    let oc = o - c;
    let b = oc.dot(d);
    let k = oc.dot(oc) - r * r;
    if k <= 0.0 {
        return 0.0;
    }
    let disc = b * b - k;
    if disc < 0.0 || b > 0.0 {
        return f32::INFINITY;
    }
    -b - disc.sqrt()
}

/// obvhs's `medium_build` CWBVH over the unit balls around `centres` (one thread: its `parallel`
/// feature is off).
pub fn obvhs_build(centres: &[Vec3A]) -> CwBvh {
    let boxes: Vec<Aabb> = centres
        .iter()
        .map(|c| Aabb::new(*c - Vec3A::ONE, *c + Vec3A::ONE))
        .collect();
    build_cwbvh(
        &boxes,
        BvhBuildParams::medium_build(),
        &mut Duration::default(),
    )
}

/// The first ball `ray` hits, and its distance.
pub fn obvhs_first_hit(bvh: &CwBvh, centres: &[Vec3A], ray: &ObRay) -> Option<(u32, f32)> {
    let mut hit = RayHit::none();
    bvh.ray_traverse(*ray, &mut hit, |r, id| {
        let c = centres[bvh.primitive_indices[id] as usize];
        textbook_sphere(r.origin, r.direction, c, 1.0)
    })
    .then(|| (bvh.primitive_indices[hit.primitive_id as usize], hit.t))
}

/// raysweep's stored unit directions as obvhs rays, so that both trace the same rays.
pub fn obvhs_rays(rays: &[Ray<f32>]) -> Vec<ObRay> {
    rays.iter()
        .map(|r| {
            let (o, d) = (r.origin(), r.dir());
            ObRay::new_inf(Vec3A::new(o.x, o.y, o.z), Vec3A::new(d.x, d.y, d.z))
        })
        .collect()
}

/// The loop both benchmarks time for raysweep: each ray's first hit in `scene`, stored.
pub fn first_hits<T: Real, S: Cast<T, 3>>(
    scene: &Scene<T, 3, S>,
    rays: &[Ray<T>],
    limit: T,
    hits: &mut [Option<BodyHit<T>>],
) {
    for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
        *hit = scene.cast_ray(black_box(ray), limit);
    }
    black_box(hits);
}

/// The same loop for obvhs.
pub fn obvhs_first_hits(
    bvh: &CwBvh,
    centres: &[Vec3A],
    rays: &[ObRay],
    hits: &mut [Option<(u32, f32)>],
) {
    for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
        *hit = obvhs_first_hit(bvh, centres, black_box(ray));
    }
    black_box(hits);
}

/// How many rays both name the same first ball for (or both miss).
pub fn agreeing(ours: &[Option<BodyHit<f32>>], theirs: &[Option<(u32, f32)>]) -> usize {
    ours.iter()
        .zip(theirs)
        .filter(|(a, b)| a.map(|h| h.body as u32) == b.map(|h| h.0))
        .count()
}

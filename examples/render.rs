//! Renders a scene of spheres, oriented ellipsoids and boxes by ray casting: shading from the
//! normals, shadows from shadow rays, a mirror ball, three thousand pebbles strewn over the floor,
//! and the trajectories of three balls thrown into the scene with sphere casts, each drawn where
//! it stops on contact. Every ray goes through one `raysweep::Scene` of all the bodies.
//!
//! `cargo run --release --example render [OUT.png]` (default `render.png`).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Rotation3, Unit, Vector3};
use raysweep::{Aabb, Body, Ellipsoid, Error, Hit, Ray, Scene, Sphere};

const WIDTH: usize = 1200;
const HEIGHT: usize = 800;
/// Samples per pixel along each axis (antialiasing).
const SAMPLES: usize = 2;

type Colour = Vector3<f64>;

/// What a surface looks like.
#[derive(Clone, Copy)]
enum Finish {
    Matte(Colour),
    Glossy(Colour),
    Mirror,
    Checker,
}

/// How many pebbles lie on the floor.
const PEBBLES: usize = 3000;

/// The bodies, each with its finish (by the body's id), and the sun.
struct World {
    bodies: Scene<f64>,
    finishes: Vec<Finish>,
    sun: Unit<Vector3<f64>>,
}

fn rgb(r: f64, g: f64, b: f64) -> Colour {
    Colour::new(r, g, b)
}

impl World {
    /// The nearest hit of a ray among all bodies, and the finish there.
    fn trace(&self, ray: &Ray<f64>, max: f64) -> Option<(Hit<f64>, Finish)> {
        self.bodies
            .cast_ray(ray, max)
            .map(|h| (h.hit, self.finishes[h.body]))
    }

    fn sky(&self, dir: &Vector3<f64>) -> Colour {
        let up = 0.5 * (dir.y + 1.0);
        let horizon = rgb(0.85, 0.9, 0.98);
        let zenith = rgb(0.25, 0.45, 0.85);
        let glow = dir.dot(&self.sun).max(0.0).powi(64) * 0.6;
        horizon * (1.0 - up) + zenith * up + rgb(1.0, 0.9, 0.7) * glow
    }

    /// The colour seen along `ray`, following mirrors `depth` times.
    fn shade(&self, ray: &Ray<f64>, depth: u32) -> Colour {
        let Some((hit, finish)) = self.trace(ray, f64::INFINITY) else {
            return self.sky(ray.dir());
        };
        let n = hit.normal.into_inner();
        let d = ray.dir().into_inner();
        // Start secondary rays just off the surface, on the side the normal points to.
        let lift = 1e-9 * (1.0 + hit.point.coords.amax());
        let from = hit.point + n * lift;
        let lit = Ray::new(from, self.sun.into_inner())
            .map(|shadow| !self.bodies.hits_any(&shadow, f64::INFINITY))
            .unwrap_or(true);
        let diffuse = n.dot(&self.sun).max(0.0) * if lit { 1.0 } else { 0.0 };
        let ambient = 0.25 + 0.1 * n.y;
        let (albedo, shine) = match finish {
            Finish::Matte(c) => (c, 0.0),
            Finish::Glossy(c) => (c, 0.5),
            Finish::Checker => {
                let p = hit.point;
                let odd = ((p.x * 0.5).floor() + (p.z * 0.5).floor()) as i64 % 2 == 0;
                (
                    if odd {
                        rgb(0.82, 0.82, 0.8)
                    } else {
                        rgb(0.35, 0.37, 0.4)
                    },
                    0.0,
                )
            }
            Finish::Mirror => {
                let reflected = d - n * (2.0 * d.dot(&n));
                let tint = rgb(0.9, 0.92, 0.95);
                return match (depth, Ray::new(from, reflected)) {
                    (0, _) | (_, Err(_)) => self.sky(&reflected).component_mul(&tint),
                    (_, Ok(bounce)) => self.shade(&bounce, depth - 1).component_mul(&tint),
                };
            }
        };
        let half = (self.sun.into_inner() - d).normalize();
        let specular = if lit {
            n.dot(&half).max(0.0).powi(60) * shine
        } else {
            0.0
        };
        albedo * (ambient + 0.85 * diffuse) + Colour::repeat(specular)
    }
}

fn object(body: impl Into<Body<f64>>, finish: Finish) -> (Body<f64>, Finish) {
    (body.into(), finish)
}

/// Pebbles strewn over the floor around the scene: small balls, boxes and flat ellipsoids.
fn pebbles() -> Result<Vec<(Body<f64>, Finish)>, Error> {
    let rng = &mut StdRng::seed_from_u64(7);
    let mut out = Vec::with_capacity(PEBBLES);
    while out.len() < PEBBLES {
        let (x, z) = (rng.random_range(-30.0..30.0), rng.random_range(-40.0..9.0));
        if f64::hypot(x, z) < 6.0 {
            continue;
        }
        let size = rng.random_range(0.06..0.22);
        let shade = rng.random_range(0.45..0.8);
        let colour = rgb(shade, shade * rng.random_range(0.85..1.0), shade * 0.8);
        let pebble: Body<f64> = match rng.random_range(0..3) {
            0 => Sphere::new(Point3::new(x, size, z), size)?.into(),
            1 => Aabb::from_center(
                Point3::new(x, size * 0.6, z),
                Vector3::new(size, size * 0.6, size),
            )?
            .into(),
            _ => Ellipsoid::oriented(
                Point3::new(x, size * 0.4, z),
                Vector3::new(size * 1.6, size * 0.4, size),
                Rotation3::from_axis_angle(
                    &Vector3::y_axis(),
                    rng.random_range(0.0..std::f64::consts::PI),
                ),
            )?
            .into(),
        };
        out.push((pebble, Finish::Matte(colour)));
    }
    Ok(out)
}

/// The world of `objects`, with one scene over all their bodies.
fn world(objects: Vec<(Body<f64>, Finish)>) -> World {
    let (bodies, finishes): (Vec<_>, Vec<_>) = objects.into_iter().unzip();
    World {
        bodies: Scene::new(bodies),
        finishes,
        sun: sun(),
    }
}

fn scene() -> Result<World, Error> {
    let turn = |axis: [f64; 3], angle: f64| {
        Rotation3::from_axis_angle(&Unit::new_normalize(Vector3::from(axis)), angle)
    };
    let mut objects = vec![
        // The floor: a flat box.
        object(
            Aabb::new(
                Point3::new(-40.0, -0.05, -40.0),
                Point3::new(40.0, 0.0, 40.0),
            )?,
            Finish::Checker,
        ),
        object(
            Sphere::new(Point3::new(0.0, 1.2, 0.0), 1.2)?,
            Finish::Mirror,
        ),
        object(
            Sphere::new(Point3::new(-2.7, 0.7, 1.2), 0.7)?,
            Finish::Glossy(rgb(0.85, 0.2, 0.15)),
        ),
        object(
            Sphere::new(Point3::new(2.4, 0.45, 2.3), 0.45)?,
            Finish::Glossy(rgb(0.95, 0.75, 0.15)),
        ),
        object(
            Ellipsoid::oriented(
                Point3::new(2.9, 1.0, -0.6),
                Vector3::new(1.3, 0.45, 0.75),
                turn([0.3, 1.0, 0.5], 0.9),
            )?,
            Finish::Glossy(rgb(0.2, 0.6, 0.3)),
        ),
        object(
            Ellipsoid::oriented(
                Point3::new(-1.4, 0.25, 3.1),
                Vector3::new(0.9, 0.25, 0.5),
                turn([0.0, 1.0, 0.0], 0.6),
            )?,
            Finish::Glossy(rgb(0.55, 0.3, 0.75)),
        ),
        object(
            Ellipsoid::oriented(
                Point3::new(-4.3, 1.6, -2.2),
                Vector3::new(0.5, 1.6, 0.5),
                turn([0.0, 0.0, 1.0], 0.15),
            )?,
            Finish::Glossy(rgb(0.15, 0.5, 0.8)),
        ),
        object(
            Aabb::new(Point3::new(-3.6, 0.0, -4.8), Point3::new(-1.4, 2.2, -2.6))?,
            Finish::Matte(rgb(0.8, 0.55, 0.35)),
        ),
        object(
            Aabb::new(Point3::new(0.9, 0.0, 3.3), Point3::new(1.7, 0.8, 4.1))?,
            Finish::Matte(rgb(0.75, 0.7, 0.6)),
        ),
        object(
            Aabb::new(Point3::new(4.2, 0.0, -4.0), Point3::new(5.2, 3.5, -3.0))?,
            Finish::Matte(rgb(0.6, 0.62, 0.7)),
        ),
    ];
    // Three balls thrown into the scene: each flies until its first contact, found by a sphere
    // cast against everything, and is drawn there, with a dotted trail behind it.
    let throws = [
        (
            Point3::new(-7.0, 4.5, 6.0),
            Vector3::new(1.0, -0.55, -0.7),
            0.35,
            rgb(0.95, 0.45, 0.1),
        ),
        (
            Point3::new(7.5, 3.0, 5.0),
            Vector3::new(-1.0, -0.38, -0.62),
            0.3,
            rgb(0.9, 0.2, 0.55),
        ),
        (
            Point3::new(0.5, 6.0, 7.0),
            Vector3::new(-0.05, -0.7, -0.75),
            0.25,
            rgb(0.2, 0.8, 0.85),
        ),
    ];
    objects.extend(pebbles()?);
    let landed = world(objects.clone());
    let mut balls = Vec::new();
    for (start, heading, radius, colour) in throws {
        let flight = Ray::new(start, heading)?;
        let stop = landed
            .bodies
            .cast_sphere(&flight, radius, f64::INFINITY)
            .map_or(12.0, |hit| hit.hit.distance);
        balls.push(object(
            Sphere::new(flight.at(stop), radius)?,
            Finish::Glossy(colour),
        ));
        for k in 1..10 {
            let centre = flight.at(stop * (k as f64 - 0.5) / 10.0);
            balls.push(object(
                Sphere::new(centre, radius * 0.18)?,
                Finish::Matte(colour * 0.9),
            ));
        }
    }
    objects.extend(balls);
    Ok(world(objects))
}

fn sun() -> Unit<Vector3<f64>> {
    Unit::new_normalize(Vector3::new(-0.55, 0.8, 0.45))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "render.png".to_string());
    let started = Instant::now();
    let scene = scene()?;
    let eye = Point3::new(1.5, 4.2, 11.0);
    let target = Point3::new(0.0, 0.8, 0.0);
    let forward = (target - eye).normalize();
    let right = forward.cross(&Vector3::y()).normalize();
    let up = right.cross(&forward);
    let half_height = (40f64.to_radians() / 2.0).tan();
    let half_width = half_height * WIDTH as f64 / HEIGHT as f64;

    let done = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut image = vec![0u8; WIDTH * HEIGHT * 3];
    std::thread::scope(|s| {
        for (band, rows) in image
            .chunks_mut(WIDTH * 3 * HEIGHT.div_ceil(threads))
            .enumerate()
        {
            let (scene, done) = (&scene, &done);
            let first = band * HEIGHT.div_ceil(threads);
            s.spawn(move || {
                for (k, row) in rows.chunks_mut(WIDTH * 3).enumerate() {
                    let y = first + k;
                    for x in 0..WIDTH {
                        let mut sum = Colour::zeros();
                        for sy in 0..SAMPLES {
                            for sx in 0..SAMPLES {
                                let u = ((x as f64 + (sx as f64 + 0.5) / SAMPLES as f64)
                                    / WIDTH as f64)
                                    * 2.0
                                    - 1.0;
                                let v = 1.0
                                    - ((y as f64 + (sy as f64 + 0.5) / SAMPLES as f64)
                                        / HEIGHT as f64)
                                        * 2.0;
                                let dir =
                                    forward + right * (u * half_width) + up * (v * half_height);
                                let ray = Ray::new(eye, dir).expect("camera rays are non-zero");
                                sum += scene.shade(&ray, 2);
                            }
                        }
                        let c = sum / (SAMPLES * SAMPLES) as f64;
                        for (i, channel) in c.iter().enumerate() {
                            // Gamma 2.2.
                            row[3 * x + i] =
                                (channel.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0).round() as u8;
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // Progress: in place on a terminal, every quarter in a log.
        let (step, end) = if std::io::stderr().is_terminal() {
            (1, "\r")
        } else {
            (25, "\n")
        };
        let mut last = usize::MAX;
        loop {
            let rows = done.load(Ordering::Relaxed);
            let percent = rows * 100 / HEIGHT / step * step;
            if percent != last {
                eprint!(
                    "rendering {WIDTH}×{HEIGHT}, {} rays per pixel: {percent:3} %{end}",
                    SAMPLES * SAMPLES
                );
                let _ = std::io::stderr().flush();
                last = percent;
            }
            if rows == HEIGHT {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    });
    let file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    let mut encoder = png::Encoder::new(file, WIDTH as u32, HEIGHT as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&image)?;
    eprintln!(
        "rendered {WIDTH}×{HEIGHT} with {} bodies in {:.2} s on {threads} threads: {out}",
        scene.bodies.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

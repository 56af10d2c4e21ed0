//! A pebble-bed reactor core's geometry, in centimetres: one kind of fuel pebble (a graphite ball
//! of radius 3 holding a fuel zone of radius 2.5 filled with TRISO particles, each five concentric
//! spheres), and a cylindrical core of such pebbles, both packed by random sequential addition
//! (each candidate tested with `Scene::nearest` against those kept so far, each kept one added
//! with `Scene::push`). Shared by the `pebble_bed` example and the `instances` benchmark.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Error, Real, Scene, Sphere};

/// The pebble's radius.
pub const PEBBLE: f64 = 3.0;
/// The fuel zone's radius.
pub const FUEL_ZONE: f64 = 2.5;
/// The TRISO particles in a pebble (HTR-PM: about 12 000).
pub const PARTICLES: usize = 12_000;
/// A particle's five spheres, innermost first: the kernel (0.25 mm radius), then the outer radii
/// of the porous carbon buffer (95 um), the inner pyrolytic carbon (40 um), the silicon carbide
/// (35 um) and the outer pyrolytic carbon (40 um).
pub const SHELLS: [f64; 5] = [0.025, 0.0345, 0.0385, 0.042, 0.046];
/// The bodies of one pebble: the pebble, its fuel zone, and five per particle.
pub const BODIES_PER_PEBBLE: usize = 2 + SHELLS.len() * PARTICLES;
/// The packing fraction of the pebbles in the core (random sequential addition jams near 0.38;
/// a poured bed packs near 0.61).
pub const PACKING: f64 = 0.30;

/// Whether body `id` of the pebble is a fuel kernel.
pub fn is_kernel(id: usize) -> bool {
    id >= 2 && (id - 2).is_multiple_of(SHELLS.len())
}

/// The volume of a ball of radius `r`.
pub fn ball_volume(r: f64) -> f64 {
    4.0 / 3.0 * std::f64::consts::PI * r.powi(3)
}

/// `count` centres of balls of `radius`, none overlapping, uniform in the region `inside` picks
/// from (a candidate from `draw`), by random sequential addition.
fn pack(
    rng: &mut StdRng,
    count: usize,
    radius: f64,
    mut draw: impl FnMut(&mut StdRng) -> Point3<f64>,
) -> Result<Vec<Point3<f64>>, Error> {
    let mut kept: Scene<f64, 3, Sphere<f64>> = Scene::new(Vec::with_capacity(count));
    while kept.len() < count {
        let centre = draw(rng);
        let overlaps = kept
            .nearest(&centre, radius)
            .is_some_and(|near| near.signed_distance < radius);
        if !overlaps {
            kept.push(Sphere::new(centre, radius)?);
        }
    }
    Ok(kept.bodies().iter().map(|s| *s.center()).collect())
}

/// A point uniform in the ball of `radius` about the origin.
fn in_ball(rng: &mut StdRng, radius: f64) -> Point3<f64> {
    loop {
        let p = Vector3::from_fn(|_, _| rng.random_range(-radius..radius));
        if p.norm() <= radius {
            return Point3::from(p);
        }
    }
}

/// One fuel pebble centred at the origin, in the width `T`: the pebble (body 0), the fuel zone
/// (body 1), then each particle's five spheres, kernel first.
pub fn pebble<T: Real>(seed: u64) -> Result<Vec<Sphere<T>>, Error> {
    let rng = &mut StdRng::seed_from_u64(seed);
    let outer = SHELLS[SHELLS.len() - 1];
    let centres = pack(rng, PARTICLES, outer, |rng| in_ball(rng, FUEL_ZONE - outer))?;
    let at = |p: &Point3<f64>| Point3::from(p.coords.map(T::from_wide));
    let mut bodies = vec![
        Sphere::new(Point3::origin(), T::from_wide(PEBBLE))?,
        Sphere::new(Point3::origin(), T::from_wide(FUEL_ZONE))?,
    ];
    for c in &centres {
        for r in SHELLS {
            bodies.push(Sphere::new(at(c), T::from_wide(r))?);
        }
    }
    Ok(bodies)
}

/// A cylindrical core: its radius and height (the axis is `z`, from 0 to `height`) and its
/// pebbles' centres.
pub struct Core {
    pub radius: f64,
    pub height: f64,
    pub centres: Vec<Point3<f64>>,
}

impl Core {
    /// `count` pebbles packed to [`PACKING`] in a cylinder as tall as HTR-PM's is for its
    /// diameter (11 m by 3 m).
    pub fn packed(count: usize, seed: u64) -> Result<Self, Error> {
        let volume = count as f64 * ball_volume(PEBBLE) / PACKING;
        let aspect = 11.0 / 3.0;
        let radius = (volume / (2.0 * std::f64::consts::PI * aspect)).cbrt();
        let height = 2.0 * radius * aspect;
        let rng = &mut StdRng::seed_from_u64(seed);
        let reach = radius - PEBBLE;
        let centres = pack(rng, count, PEBBLE, |rng| {
            loop {
                let (x, y) = (
                    rng.random_range(-reach..reach),
                    rng.random_range(-reach..reach),
                );
                if x * x + y * y <= reach * reach {
                    return Point3::new(x, y, rng.random_range(PEBBLE..height - PEBBLE));
                }
            }
        })?;
        Ok(Core {
            radius,
            height,
            centres,
        })
    }

    /// The distances along the line `o + t·u` (`u` unit) between which it lies in the cylinder.
    pub fn chord(&self, o: &Point3<f64>, u: &Vector3<f64>) -> Option<(f64, f64)> {
        let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
        if u.z != 0.0 {
            let (a, b) = (-o.z / u.z, (self.height - o.z) / u.z);
            (enter, exit) = (a.min(b), a.max(b));
        } else if !(0.0..=self.height).contains(&o.z) {
            return None;
        }
        let a = u.x * u.x + u.y * u.y;
        let b = o.x * u.x + o.y * u.y;
        let c = o.x * o.x + o.y * o.y - self.radius * self.radius;
        if a > 0.0 {
            let disc = b * b - a * c;
            if disc < 0.0 {
                return None;
            }
            let root = disc.sqrt();
            enter = enter.max((-b - root) / a);
            exit = exit.min((-b + root) / a);
        } else if c > 0.0 {
            return None;
        }
        (enter < exit).then_some((enter, exit))
    }

    /// The centre of the cylinder and the radius of a ball around it that holds it.
    pub fn bounding_ball(&self) -> (Point3<f64>, f64) {
        (
            Point3::new(0.0, 0.0, self.height / 2.0),
            (self.radius * self.radius + self.height * self.height / 4.0).sqrt(),
        )
    }

    /// An isotropic uniform random line through the bounding ball: a uniform direction, through a
    /// uniform point of the disc across the ball normal to it; returned as an origin outside the
    /// ball and the direction.
    pub fn random_line(&self, rng: &mut StdRng) -> (Point3<f64>, Vector3<f64>) {
        let (centre, reach) = self.bounding_ball();
        let u: Vector3<f64> = loop {
            let v = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
            let n = v.norm();
            if n > 1e-3 && n <= 1.0 {
                break v / n;
            }
        };
        // Two unit vectors normal to `u` and to each other.
        let helper = if u.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        };
        let e1 = u.cross(&helper).normalize();
        let e2 = u.cross(&e1);
        let across = loop {
            let (a, b) = (
                rng.random_range(-reach..reach),
                rng.random_range(-reach..reach),
            );
            if a * a + b * b <= reach * reach {
                break e1 * a + e2 * b;
            }
        };
        (centre + across - u * (1.01 * reach), u)
    }
}

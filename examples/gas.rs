//! An event-driven hard-sphere gas: balls in a box bounce off each other and off the box's walls
//! (thin `Aabb` slabs), every collision predicted by `Sphere::time_of_impact` and answered with an
//! elastic response. No time step: the simulation jumps from one collision to the next.
//!
//! Each ball keeps its position at the time it was last touched, its velocity and a count of its
//! collisions; predicted events wait in a priority queue and are dropped when a ball they involve
//! has collided since (the classic scheme of Alder and Wainwright, "Studies in Molecular
//! Dynamics. I", J. Chem. Phys. 31, 1959). After a collision the pair touches and parts: the
//! time-0 rule of `time_of_impact` keeps it from being reported again.
//!
//! The example prints events per second, the largest overlap ever seen between two balls or a
//! ball and a wall (checked at every event, and over every pair at intervals, with
//! `PointQuery::signed_distance`), and the drift of the kinetic energy, which elastic collisions
//! of equal masses keep. It fails if the overlap exceeds rounding (10^-9 of the box) or the
//! energy drifts by more than 10^-9.
//!
//! `cargo run --release --example gas [BALLS] [EVENTS]` (defaults 1000 and 100000).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::process::ExitCode;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Aabb, Error, PointQuery, Sphere};

/// The box is `[0, 1]^3`; its walls are slabs this thick outside it.
const WALL: f64 = 0.1;
/// The fraction of the box the balls fill.
const PACKING: f64 = 0.1;
/// The largest overlap accepted, and the largest relative drift of the kinetic energy.
const TOLERANCE: f64 = 1e-9;

/// What a ball meets: another ball or a wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Partner {
    Ball(usize),
    Wall(usize),
}

/// A predicted collision, valid while both balls' collision counts are as they were.
#[derive(Clone, Copy, Debug)]
struct Event {
    time: f64,
    ball: usize,
    partner: Partner,
    counts: (u64, u64),
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    /// Earliest first in a max-heap.
    fn cmp(&self, other: &Self) -> Ordering {
        other.time.total_cmp(&self.time)
    }
}

/// The gas: positions at each ball's own time, velocities, collision counts.
struct Gas {
    radius: f64,
    position: Vec<Point3<f64>>,
    since: Vec<f64>,
    velocity: Vec<Vector3<f64>>,
    count: Vec<u64>,
    walls: Vec<Aabb<f64>>,
    queue: BinaryHeap<Event>,
    now: f64,
}

impl Gas {
    /// `n` balls on a cubic lattice with random velocities (zero mean).
    fn new(n: usize, rng: &mut StdRng) -> Result<Self, Error> {
        let radius = (PACKING * 3.0 / (4.0 * std::f64::consts::PI * n as f64)).cbrt();
        let side = (n as f64).cbrt().ceil() as usize;
        let spacing = 1.0 / side as f64;
        let position: Vec<Point3<f64>> = (0..n)
            .map(|k| {
                let cell = Vector3::new(k % side, k / side % side, k / (side * side));
                Point3::from(cell.map(|c| (c as f64 + 0.5) * spacing))
            })
            .collect();
        let mut velocity: Vec<Vector3<f64>> = (0..n)
            .map(|_| Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0)))
            .collect();
        let mean = velocity.iter().sum::<Vector3<f64>>() / n as f64;
        velocity.iter_mut().for_each(|v| *v -= mean);
        let (lo, hi) = (-WALL, 1.0 + WALL);
        let mut walls = Vec::new();
        for axis in 0..3 {
            for (from, to) in [(lo, 0.0), (1.0, hi)] {
                let mut min = Point3::new(lo, lo, lo);
                let mut max = Point3::new(hi, hi, hi);
                (min[axis], max[axis]) = (from, to);
                walls.push(Aabb::new(min, max)?);
            }
        }
        Ok(Gas {
            radius,
            position,
            since: vec![0.0; n],
            velocity,
            count: vec![0; n],
            walls,
            queue: BinaryHeap::new(),
            now: 0.0,
        })
    }

    /// Ball `i` as it is at the current time.
    fn ball(&self, i: usize) -> Sphere<f64> {
        let at = self.position[i] + self.velocity[i] * (self.now - self.since[i]);
        Sphere::new(at, self.radius).expect("finite positions")
    }

    /// Ball `i` brought to the current time.
    fn advance(&mut self, i: usize) {
        self.position[i] += self.velocity[i] * (self.now - self.since[i]);
        self.since[i] = self.now;
    }

    /// The first collision of ball `i` with a wall or another ball, into the queue. One event
    /// per ball is enough: when its partner collides first, the event goes stale and ball `i` is
    /// predicted again ([`Gas::step`]).
    fn predict(&mut self, i: usize) {
        let ball = self.ball(i);
        let v = self.velocity[i];
        let still = Vector3::zeros();
        let mut first: Option<Event> = None;
        let mut keep = |time: f64, partner: Partner, count: u64| {
            if first.is_none_or(|e| time < e.time) {
                first = Some(Event {
                    time,
                    ball: i,
                    partner,
                    counts: (self.count[i], count),
                });
            }
        };
        for (k, wall) in self.walls.iter().enumerate() {
            if let Some(hit) = ball.time_of_impact(&v, wall, &still, f64::INFINITY) {
                keep(self.now + hit.time, Partner::Wall(k), 0);
            }
        }
        for j in (0..self.position.len()).filter(|&j| j != i) {
            let other = self.ball(j);
            let apart = other.center() - ball.center();
            // Two balls whose distance grows (relative velocity away from the line of centres)
            // never meet: no need to ask.
            if apart.dot(&(v - self.velocity[j])) <= 0.0 {
                continue;
            }
            if let Some(hit) = ball.time_of_impact(&v, &other, &self.velocity[j], f64::INFINITY) {
                keep(self.now + hit.time, Partner::Ball(j), self.count[j]);
            }
        }
        if let Some(e) = first {
            self.queue.push(e);
        }
    }

    /// Whether an event still stands: no ball in it has collided since it was predicted.
    fn valid(&self, e: &Event) -> bool {
        e.counts.0 == self.count[e.ball]
            && match e.partner {
                Partner::Ball(j) => e.counts.1 == self.count[j],
                Partner::Wall(_) => true,
            }
    }

    /// The overlap of ball `i` with its partner, at the current time (negative: apart).
    fn overlap(&self, i: usize, partner: Partner) -> f64 {
        let centre = self.ball(i).center().to_owned();
        let distance = match partner {
            Partner::Ball(j) => self.ball(j).signed_distance(&centre),
            Partner::Wall(k) => self.walls[k].signed_distance(&centre),
        };
        self.radius - distance
    }

    /// The next valid collision, answered: returns the overlap seen at it.
    fn step(&mut self) -> f64 {
        loop {
            let e = self
                .queue
                .pop()
                .expect("a ball in a closed box always hits something");
            if !self.valid(&e) {
                // A partner collided first: predict again if the ball itself has not.
                if e.counts.0 == self.count[e.ball] {
                    self.predict(e.ball);
                }
                continue;
            }
            self.now = e.time;
            let overlap = self.overlap(e.ball, e.partner);
            let i = e.ball;
            self.advance(i);
            match e.partner {
                Partner::Wall(k) => {
                    // The wall's outward normal at the contact: reflect the velocity about it.
                    let ball = self.ball(i);
                    let (_, n) = self.walls[k].closest_point(ball.center());
                    let n = n.into_inner();
                    let normal_speed = self.velocity[i].dot(&n);
                    self.velocity[i] -= n * (2.0 * normal_speed);
                    self.count[i] += 1;
                    self.predict(i);
                }
                Partner::Ball(j) => {
                    self.advance(j);
                    // Equal masses: the velocities exchange their components along the line of
                    // centres.
                    let n = (self.position[i] - self.position[j]).normalize();
                    let exchange = n * (self.velocity[i] - self.velocity[j]).dot(&n);
                    self.velocity[i] -= exchange;
                    self.velocity[j] += exchange;
                    self.count[i] += 1;
                    self.count[j] += 1;
                    self.predict(i);
                    self.predict(j);
                }
            }
            return overlap;
        }
    }

    /// The largest overlap over every pair of balls and every ball and wall, now.
    fn worst_overlap(&self) -> f64 {
        let n = self.position.len();
        let mut worst = f64::NEG_INFINITY;
        for i in 0..n {
            for k in 0..self.walls.len() {
                worst = worst.max(self.overlap(i, Partner::Wall(k)));
            }
            for j in i + 1..n {
                worst = worst.max(self.overlap(i, Partner::Ball(j)));
            }
        }
        worst
    }

    fn kinetic_energy(&self) -> f64 {
        self.velocity.iter().map(|v| 0.5 * v.norm_squared()).sum()
    }
}

fn main() -> Result<ExitCode, Error> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let balls = args.next().and_then(Result::ok).unwrap_or(1000);
    let events = args.next().and_then(Result::ok).unwrap_or(100_000);
    let mut rng = StdRng::seed_from_u64(1959);
    let mut gas = Gas::new(balls, &mut rng)?;
    let energy = gas.kinetic_energy();
    let start = Instant::now();
    for i in 0..balls {
        gas.predict(i);
    }
    let mut worst = gas.worst_overlap();
    let checks = 10;
    for k in 0..events {
        worst = worst.max(gas.step());
        if (k + 1) % (events / checks).max(1) == 0 {
            worst = worst.max(gas.worst_overlap());
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let drift = gas.kinetic_energy() / energy - 1.0;
    println!(
        "{balls} balls of radius {:.4} in the unit box, packing fraction {PACKING}",
        gas.radius
    );
    println!(
        "{events} collisions up to time {:.3} in {seconds:.2} s: {:.0} events per second",
        gas.now,
        events as f64 / seconds
    );
    println!("largest overlap ever seen: {worst:.3e} (negative: never touched)");
    println!("kinetic energy drift: {drift:.3e}");
    if worst > TOLERANCE || drift.abs() > TOLERANCE {
        eprintln!("overlap or energy drift beyond {TOLERANCE:e}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

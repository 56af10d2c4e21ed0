//! The images a ray reaches, in the order it reaches their boxes: the walk behind a periodic
//! scene's casts and spans.
//!
//! Image `k`'s box is the bodies' box moved by `k ∘ size`; on each axis `a` it is the slab
//! `low + k[a]·size .. high + k[a]·size` (grown by a moving ball's radius). A ray's coordinate on
//! `a` moves monotonically, so on each axis the images whose slab holds the ray form a range of
//! `k[a]` that slides along: one `k[a]` enters it at a time and leaves it once. The ray is in
//! image `k`'s box while every axis's range holds `k[a]`, so it reaches the box when the last of
//! its axes enters, and that happens once: the walk keeps each axis's range, takes the axes'
//! entries and exits in order of time (an entry before an exit at the same time), and at each
//! entry of `k[a]` on axis `a` visits the images `{k[a]} × (the other axes' ranges)`, each image
//! exactly once. This is the exact grid walk of Amanatides and Woo ("A fast voxel traversal
//! algorithm for ray tracing", Eurographics 1987) over the slabs' faces instead of the cells'.
//!
//! The times are bounds, not roundings. A body's reported distance puts the point on the ray
//! within the body's box, to within the errors `src/scene/probe/mod.rs` allows a cast (on axis
//! `a`, `τ` of the box's and the moved origin's magnitudes, and along the ray `τ` of the
//! distance); so an entry is computed below the earliest distance any body of the image can
//! report, an exit above the latest, with the slab's faces moved out by `4τ` times every
//! magnitude in the sum (which also holds the sum's own roundings) and the distance scaled by
//! `1 ∓ 4τ` ([`slack`](crate::scene::node::slack)). An image is never reached late, and one
//! reached early only costs its query.
//!
//! The walk stops when the next entry lies beyond the caller's limit (the best hit so far, or
//! the end of the segment), when an axis whose range is empty will never enter another image (an
//! axis that does not repeat, or that the ray runs parallel to), or beyond [`REACH_BOXES`]
//! boxes from the origin's on an axis: a ray along a channel that misses every body ends there.

use num_traits::Float;

use super::Image;
use super::REACH_BOXES;
use super::lattice::{self, LIMIT};

/// A ray (or a moving ball) in `f64`, and the lattice it walks.
pub(crate) struct Walk<'a, const D: usize> {
    /// The ray's origin, its unit direction and the direction's reciprocals.
    pub origin: [f64; D],
    pub dir: [f64; D],
    pub inverse: [f64; D],
    /// The bodies' box, grown by the ball's radius.
    pub low: [f64; D],
    pub high: [f64; D],
    pub size: &'a [f64; D],
    pub repeats: &'a [bool; D],
    /// The width's [`slack`](crate::scene::node::slack).
    pub slack: f64,
}

/// One axis's range of images and its next events.
#[derive(Clone, Copy, Debug)]
struct Axis {
    first: i64,
    last: i64,
    /// `+1` or `−1`: the way `k` goes along the ray; `0` where it never changes.
    step: i64,
    /// The farthest `k` the walk may enter.
    end: i64,
}

impl Axis {
    /// The `k` the ray enters next, if the walk may enter it.
    fn next(&self) -> Option<i64> {
        match self.step {
            0 => None,
            1 => Some(self.last + 1).filter(|&k| k <= self.end),
            _ => Some(self.first - 1).filter(|&k| k >= self.end),
        }
    }

    /// Whether the range is empty and nothing more will enter it: no image is reached again.
    fn spent(&self) -> bool {
        self.first > self.last && self.next().is_none()
    }
}

impl<const D: usize> Walk<'_, D> {
    /// `(enter, exit)`: bounds on the distances along the ray at which it is in image `k[a]`'s
    /// slab on axis `a` (the enter below, the exit above; `(−∞, ∞)` for a slab that holds a
    /// ray parallel to it, `(∞, −∞)` for one that does not).
    fn times(&self, a: usize, k: i64) -> (f64, f64) {
        let v = k as f64 * self.size[a];
        let (o, d) = (self.origin[a], self.dir[a]);
        let bounds = self.low[a].abs().max(self.high[a].abs());
        let m = self.slack * (2.0 * bounds + o.abs() + v.abs());
        let (low, high) = (self.low[a] + v - m, self.high[a] + v + m);
        if d == 0.0 {
            return if low <= o && o <= high {
                (f64::NEG_INFINITY, f64::INFINITY)
            } else {
                (f64::INFINITY, f64::NEG_INFINITY)
            };
        }
        let (near, far) = if d > 0.0 { (low, high) } else { (high, low) };
        // The reciprocal's and the product's roundings, `2^-52` relative, are far below the
        // scaling that follows.
        let inverse = self.inverse[a];
        let (enter, exit) = ((near - o) * inverse, (far - o) * inverse);
        let down = |t: f64| {
            t * if t > 0.0 {
                1.0 - self.slack
            } else {
                1.0 + self.slack
            }
        };
        let up = |t: f64| {
            t * if t > 0.0 {
                1.0 + self.slack
            } else {
                1.0 - self.slack
            }
        };
        (down(enter), up(exit))
    }

    /// The range and the way of axis `a` at distance 0; `None` where the axis will never hold
    /// an image.
    fn start(&self, a: usize) -> Option<Axis> {
        let d = self.dir[a];
        let step = if d > 0.0 {
            1
        } else if d < 0.0 {
            -1
        } else {
            0
        };
        let (lower, upper) = if self.repeats[a] {
            // Those whose slab may hold the origin, widened by one box each way, then narrowed by
            // the times themselves.
            let (o, s) = (self.origin[a], self.size[a]);
            let lower = Float::floor((o - self.high[a]) / s) - 1.0;
            let upper = Float::ceil((o - self.low[a]) / s) + 1.0;
            if !(lower.abs() <= LIMIT && upper.abs() <= LIMIT) {
                return None;
            }
            (lower as i64, upper as i64)
        } else {
            (0, 0)
        };
        let entered = |k: i64| self.times(a, k).0 <= 0.0;
        let not_left = |k: i64| self.times(a, k).1 >= 0.0;
        // Each end cut by the time that grows towards it: the exit below and the entry above
        // for a coordinate that grows along the ray, the other way round for one that falls.
        let keeps_first = |k: i64| match step {
            1 => not_left(k),
            -1 => entered(k),
            _ => entered(k) && not_left(k),
        };
        let keeps_last = |k: i64| match step {
            1 => entered(k),
            -1 => not_left(k),
            _ => entered(k) && not_left(k),
        };
        let (mut first, mut last) = (lower, upper);
        while first <= last && !keeps_first(first) {
            first += 1;
        }
        while last >= first && !keeps_last(last) {
            last -= 1;
        }
        if first > last {
            // None holds the origin: an empty range just before the next the ray enters.
            match step {
                0 => return None,
                1 => {
                    last = upper;
                    while last >= lower && !entered(last) {
                        last -= 1;
                    }
                    first = last + 1;
                }
                _ => {
                    first = lower;
                    while first <= upper && !entered(first) {
                        first += 1;
                    }
                    last = first - 1;
                }
            }
        }
        let end = if self.repeats[a] {
            let base = if step >= 0 { last } else { first };
            (base + step * REACH_BOXES).clamp(-(LIMIT as i64), LIMIT as i64)
        } else {
            0
        };
        let axis = Axis {
            first,
            last,
            step,
            end,
        };
        (!axis.spent()).then_some(axis)
    }

    /// `visit(k)` for each image whose box the ray reaches at a distance up to the limit, nearest
    /// entry first: `limit` at first, then what each visit returns (a hit shortens it), until a
    /// visit returns `None`.
    pub(crate) fn images(&self, limit: f64, mut visit: impl FnMut(&Image<D>) -> Option<f64>) {
        let mut axes = [Axis {
            first: 0,
            last: 0,
            step: 0,
            end: 0,
        }; D];
        for (a, axis) in axes.iter_mut().enumerate() {
            match self.start(a) {
                Some(found) => *axis = found,
                None => return,
            }
        }
        let ranges = |axes: &[Axis; D]| -> [(i64, i64); D] {
            core::array::from_fn(|a| (axes[a].first, axes[a].last))
        };
        // The limit, `None` once a visit has ended the walk.
        let mut state = Some(limit);
        let mut ask = |state: &mut Option<f64>, k: &Image<D>| {
            if state.is_some() {
                *state = visit(k);
            }
        };
        lattice::each_image(&ranges(&axes), |k| ask(&mut state, k));
        while let Some(limit) = state {
            // The next entry over every axis, the earliest; exits before it first.
            let mut next: Option<(f64, usize, i64)> = None;
            for (a, axis) in axes.iter().enumerate() {
                if let Some(k) = axis.next() {
                    let enter = self.times(a, k).0;
                    if next.is_none_or(|(t, _, _)| enter < t) {
                        next = Some((enter, a, k));
                    }
                }
            }
            let Some((enter, a, k)) = next else {
                return;
            };
            if !(enter <= limit) {
                return;
            }
            for (b, axis) in axes.iter_mut().enumerate() {
                while axis.first <= axis.last && axis.step != 0 {
                    let leaving = if axis.step > 0 { axis.first } else { axis.last };
                    if !(self.times(b, leaving).1 < enter) {
                        break;
                    }
                    if axis.step > 0 {
                        axis.first += 1;
                    } else {
                        axis.last -= 1;
                    }
                }
                if axis.spent() {
                    return;
                }
            }
            let axis = &mut axes[a];
            if axis.step > 0 {
                axis.last = k;
            } else {
                axis.first = k;
            }
            let mut around = ranges(&axes);
            around[a] = (k, k);
            lattice::each_image(&around, |k| ask(&mut state, k));
        }
    }
}

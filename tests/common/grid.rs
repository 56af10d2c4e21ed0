//! An exact reference for grid walks, in rational arithmetic (dashu-ratio): every crossing
//! parameter `(min + k·h − o)/n` of every plane the segment meets, sorted; the cells are the
//! intervals between consecutive distinct parameters, each indexed by where its midpoint lies.
//! Nothing here shares code or method with `src/grid/`: no error-free transformations, no
//! merging of per-axis sequences, no tie rule but the definition's.

use dashu_ratio::RBig;

/// A cell of the exact walk: its index and the exact parameters (along the stored direction) at
/// which the line enters and leaves it.
#[derive(Clone, Debug)]
pub struct ExactCell<const D: usize> {
    pub index: [usize; D],
    pub enter: RBig,
    pub exit: RBig,
}

/// `x` exactly.
pub fn exact(x: f64) -> RBig {
    RBig::try_from(x).expect("a finite value")
}

/// The walk of the line `o + t·n` over `t` in `[0, t_max]` (`t_max` exact; `None` for no bound)
/// through the grid of `cells` cells of size `h` from `min`, exactly: every cell it runs through
/// for a positive length, in order.
pub fn exact_walk<const D: usize>(
    o: [f64; D],
    n: [f64; D],
    min: [f64; D],
    h: [f64; D],
    cells: [usize; D],
    t_max: Option<RBig>,
) -> Vec<ExactCell<D>> {
    let plane = |a: usize, k: usize| exact(min[a]) + exact(h[a]) * RBig::from(k);
    // The segment within the grid's closed box.
    let mut lo = RBig::ZERO;
    let mut hi = t_max;
    for a in 0..D {
        let (first, last) = (plane(a, 0), plane(a, cells[a]));
        if n[a] == 0.0 {
            let x = exact(o[a]);
            if x < first || x > last {
                return Vec::new();
            }
            continue;
        }
        let at = |p: RBig| (p - exact(o[a])) / exact(n[a]);
        let (t0, t1) = (at(first), at(last));
        let (near, far) = if t0 <= t1 { (t0, t1) } else { (t1, t0) };
        if near > lo {
            lo = near;
        }
        if hi.as_ref().is_none_or(|h| far < *h) {
            hi = Some(far);
        }
    }
    let Some(hi) = hi else {
        // Only a direction of zero components runs forever inside: not a ray.
        return Vec::new();
    };
    if lo >= hi {
        return Vec::new();
    }
    // Every crossing strictly inside the segment.
    let mut cuts = vec![lo.clone(), hi.clone()];
    for a in 0..D {
        if n[a] == 0.0 {
            continue;
        }
        for k in 0..=cells[a] {
            let t = (plane(a, k) - exact(o[a])) / exact(n[a]);
            if t > lo && t < hi {
                cuts.push(t);
            }
        }
    }
    cuts.sort();
    cuts.dedup();
    cuts.windows(2)
        .map(|w| {
            let mid = (w[0].clone() + w[1].clone()) / RBig::from(2u8);
            let index = core::array::from_fn(|a| {
                // The cell holding the point at `mid` on this axis: floor((x − min)/h), the cell
                // above a plane the point lies on, the last cell on the last plane.
                let x = exact(o[a]) + mid.clone() * exact(n[a]);
                let k =
                    i128::try_from(((x - exact(min[a])) / exact(h[a])).floor()).expect("an index");
                k.clamp(0, cells[a] as i128 - 1) as usize
            });
            ExactCell {
                index,
                enter: w[0].clone(),
                exit: w[1].clone(),
            }
        })
        .collect()
}

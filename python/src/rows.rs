//! Answers computed row by row on a call's threads, in row order whatever the threads, a block of
//! rows at a time ([`Run::blocks`]: a Ctrl-C between blocks ends the call): one answer per row,
//! or several (ragged, gathered in CSR form). A row may fail (a ray `Ray::new` refuses); then the
//! query gives that row's error (some failing row's: the caller names the first). Rows that
//! cannot fail take `E = Infallible`.

use core::ops::Range;

use pyo3::PyResult;
use rayon::prelude::*;
use raysweep::nalgebra::{Point, SVector, Unit};

use crate::arrays::Width;
use crate::threads::{Run, serial};

/// Rows handed to a thread at a time.
const BLOCK: usize = 256;

/// `answer(row)` for every row, in order, or a failing row's error; the call's blocks as
/// [`Run::blocks`] runs them (an interrupt is the outer `Err`).
pub(crate) fn each<A: Send, E: Send>(
    run: &Run<'_>,
    rows: usize,
    answer: impl Fn(usize) -> Result<A, E> + Sync + Send,
) -> PyResult<Result<Vec<A>, E>> {
    let mut all = Vec::with_capacity(rows);
    let done = run.blocks(rows, |range| {
        if serial(&range) {
            for row in range {
                all.push(answer(row)?);
            }
            return Ok(());
        }
        let part: Vec<A> = range
            .into_par_iter()
            .with_min_len(BLOCK / 4)
            .map(&answer)
            .collect::<Result<_, E>>()?;
        all.extend(part);
        Ok(())
    })?;
    Ok(done.map(|()| all))
}

/// CSR rows: `rows + 1` offsets, and every row's answers, row after row.
pub(crate) type Csr<A> = (Vec<i64>, Vec<A>);

/// Several answers per row: `fill(row, answers)` clears `answers` and puts row `row`'s in it
/// (or fails). Gives the CSR offsets (`rows + 1` of them: row `i`'s answers are entries
/// `offsets[i]..offsets[i + 1]`) and every row's answers, row after row.
pub(crate) fn ragged<A: Send, E: Send>(
    run: &Run<'_>,
    rows: usize,
    fill: impl Fn(usize, &mut Vec<A>) -> Result<(), E> + Sync + Send,
) -> PyResult<Result<Csr<A>, E>> {
    ragged_blocks(run, rows, |range, counts, answers| {
        let mut row_answers = Vec::new();
        for row in range {
            fill(row, &mut row_answers)?;
            counts.push(row_answers.len());
            answers.append(&mut row_answers);
        }
        Ok(())
    })
}

/// [`ragged`] a block of rows at a time: `fill(rows, counts, answers)` pushes the number of
/// answers of each row of `rows` (in order) onto `counts` and the answers, row after row, onto
/// `answers` (or fails). (Blocks let a query answer several rows together, as
/// `Scene::within_batch` does.)
pub(crate) fn ragged_blocks<A: Send, E: Send>(
    run: &Run<'_>,
    rows: usize,
    fill: impl Fn(Range<usize>, &mut Vec<usize>, &mut Vec<A>) -> Result<(), E> + Sync + Send,
) -> PyResult<Result<Csr<A>, E>> {
    let mut offsets = Vec::with_capacity(rows + 1);
    let mut all = Vec::new();
    offsets.push(0i64);
    let done = run.blocks(rows, |range| {
        let starts: Vec<usize> = range.clone().step_by(BLOCK).collect();
        let chunk = |start: usize| {
            let mut counts = Vec::with_capacity(BLOCK);
            let mut answers = Vec::new();
            fill(
                start..range.end.min(start + BLOCK),
                &mut counts,
                &mut answers,
            )?;
            Ok((counts, answers))
        };
        let chunks: Vec<(Vec<usize>, Vec<A>)> = if serial(&range) {
            starts.into_iter().map(chunk).collect::<Result<_, E>>()?
        } else {
            starts
                .into_par_iter()
                .map(chunk)
                .collect::<Result<_, E>>()?
        };
        let mut at = *offsets.last().expect("the first offset");
        for (counts, mut answers) in chunks {
            for count in counts {
                at += count as i64;
                offsets.push(at);
            }
            all.append(&mut answers);
        }
        Ok(())
    })?;
    Ok(done.map(|()| (offsets, all)))
}

/// A call's points in the order the proximity batches visit them ([`raysweep::batch_order`]):
/// a query answers the rows in this order, a block of neighbours at a time (each block's points
/// lie close together, and so share their answers' work), and puts the answers back in the
/// rows' order; or a call's rays in the order a scene's ray batches trace them
/// (`Scene::ray_order`).
pub(crate) struct Arranged {
    /// The rows, in the batches' order.
    rows: Vec<usize>,
}

impl Arranged {
    pub(crate) fn new<T: Width, const D: usize>(points: &[Point<T, D>]) -> Self {
        Arranged {
            rows: raysweep::batch_order(points),
        }
    }

    /// The rows in the order `rows` gives (a permutation of them: a scene's `ray_order`).
    pub(crate) fn of_rows(rows: Vec<usize>) -> Self {
        Arranged { rows }
    }

    /// The row answered `k`-th.
    pub(crate) fn row(&self, k: usize) -> usize {
        self.rows[k]
    }

    /// `items` (one per row) in this order.
    pub(crate) fn arrange<A: Copy>(&self, items: &[A]) -> Vec<A> {
        self.rows.iter().map(|&row| items[row]).collect()
    }

    /// Columns of `k` ids per row and points of `D` coordinates, answered in this order, in the
    /// rows' order.
    pub(crate) fn columns<T: Width, const D: usize>(&self, c: Columns<T>, k: usize) -> Columns<T> {
        let n = self.rows.len();
        let mut out = Columns {
            id: vec![-1; n * k],
            value: vec![T::INFINITY; n],
            point: vec![T::NAN; n * D],
            normal: vec![T::NAN; n * D],
        };
        for (at, &row) in self.rows.iter().enumerate() {
            out.id[row * k..(row + 1) * k].copy_from_slice(&c.id[at * k..(at + 1) * k]);
            out.value[row] = c.value[at];
            out.point[row * D..(row + 1) * D].copy_from_slice(&c.point[at * D..(at + 1) * D]);
            out.normal[row * D..(row + 1) * D].copy_from_slice(&c.normal[at * D..(at + 1) * D]);
        }
        out
    }

    /// CSR rows answered in this order, in the rows' order.
    pub(crate) fn csr<A: Copy>(&self, (offsets, all): Csr<A>) -> Csr<A> {
        let mut at_row = vec![0; self.rows.len()];
        for (at, &row) in self.rows.iter().enumerate() {
            at_row[row] = at;
        }
        let mut arranged = Vec::with_capacity(all.len());
        let mut starts = Vec::with_capacity(offsets.len());
        starts.push(0i64);
        for &at in &at_row {
            arranged.extend_from_slice(&all[offsets[at] as usize..offsets[at + 1] as usize]);
            starts.push(arranged.len() as i64);
        }
        (starts, arranged)
    }
}

/// The ids of an answer: a body's, or an instance's and a body's.
pub(crate) trait Ids: Copy + Send + Sync {
    /// How many.
    const COUNT: usize;
    /// Writes them into `out` (`COUNT` entries).
    fn write(self, out: &mut [i64]);
}

impl Ids for usize {
    const COUNT: usize = 1;
    fn write(self, out: &mut [i64]) {
        out[0] = self as i64;
    }
}

impl Ids for (usize, usize) {
    const COUNT: usize = 2;
    fn write(self, out: &mut [i64]) {
        out[0] = self.0 as i64;
        out[1] = self.1 as i64;
    }
}

/// A body and its image in a periodic scene: `1 + D` ids.
impl<const D: usize> Ids for (usize, [i64; D]) {
    const COUNT: usize = 1 + D;
    fn write(self, out: &mut [i64]) {
        out[0] = self.0 as i64;
        out[1..].copy_from_slice(&self.1);
    }
}

/// The answers of a query with one answer of fixed size per row, in columns: the ids
/// ([`Ids::COUNT`] per row), a value, a point and a normal (`D` values each for the last two). A
/// row without an answer keeps the miss: ids -1, value `+∞`, point and normal NaN.
pub(crate) struct Columns<T> {
    pub(crate) id: Vec<i64>,
    pub(crate) value: Vec<T>,
    pub(crate) point: Vec<T>,
    pub(crate) normal: Vec<T>,
}

/// A row's answer for [`columns`]: ids, value, point, normal.
pub(crate) type Answer<T, const D: usize, I = usize> = (I, T, Point<T, D>, Unit<SVector<T, D>>);

/// A block's answers for [`columns`], one per row, `None` where the row has none.
pub(crate) type Answers<T, const D: usize, I = usize> = Vec<Option<Answer<T, D, I>>>;

/// The answers of every row, written into [`Columns`] by each thread a block of rows at a time:
/// `fill(rows, answers)` pushes the answers of `rows` (in order) onto the empty `answers`, or
/// fails. (Blocks let a query answer several rows together, as `Scene::nearest_batch` does; the
/// block's answers stay in cache until they are copied to the columns.)
pub(crate) fn columns<T: Width, const D: usize, I: Ids, E: Send>(
    run: &Run<'_>,
    rows: usize,
    fill: impl Fn(Range<usize>, &mut Answers<T, D, I>) -> Result<(), E> + Sync + Send,
) -> PyResult<Result<Columns<T>, E>> {
    let k = I::COUNT;
    let mut c = Columns {
        id: vec![-1; rows * k],
        value: vec![T::INFINITY; rows],
        point: vec![T::NAN; rows * D],
        normal: vec![T::NAN; rows * D],
    };
    // The answers of `first..first + value.len()` into the columns' slices for those rows.
    let answer = |answers: &mut Answers<T, D, I>, first: usize, out: Out<'_, T>| {
        let (id, value, point, normal) = out;
        answers.clear();
        fill(first..first + value.len(), answers)?;
        for (i, answer) in answers.iter().enumerate() {
            if let Some((which, v, p, n)) = answer {
                which.write(&mut id[i * k..(i + 1) * k]);
                value[i] = *v;
                point[i * D..(i + 1) * D].copy_from_slice(p.coords.as_slice());
                normal[i * D..(i + 1) * D].copy_from_slice(n.as_slice());
            }
        }
        Ok(())
    };
    let done = run.blocks(rows, |range| {
        let start = range.start;
        let id = &mut c.id[range.start * k..range.end * k];
        let value = &mut c.value[range.clone()];
        let point = &mut c.point[range.start * D..range.end * D];
        let normal = &mut c.normal[range.start * D..range.end * D];
        if serial(&range) {
            return answer(&mut Vec::new(), start, (id, value, point, normal));
        }
        id.par_chunks_mut(BLOCK * k)
            .zip(value.par_chunks_mut(BLOCK))
            .zip(point.par_chunks_mut(BLOCK * D))
            .zip(normal.par_chunks_mut(BLOCK * D))
            .enumerate()
            .try_for_each_init(
                Vec::new,
                |answers, (block, (((id, value), point), normal))| {
                    answer(answers, start + block * BLOCK, (id, value, point, normal))
                },
            )
    })?;
    Ok(done.map(|()| c))
}

/// The columns' slices for some rows: ids, values, points, normals.
type Out<'a, T> = (&'a mut [i64], &'a mut [T], &'a mut [T], &'a mut [T]);

/// `fill` for [`columns`] from an answer per row.
pub(crate) fn row_by_row<T: Width, const D: usize, I: Ids, E>(
    answer: impl Fn(usize) -> Result<Option<Answer<T, D, I>>, E> + Sync + Send,
) -> impl Fn(Range<usize>, &mut Answers<T, D, I>) -> Result<(), E> + Sync + Send {
    move |rows, answers| {
        for row in rows {
            answers.push(answer(row)?);
        }
        Ok(())
    }
}

//! Answers computed row by row on the current rayon pool, in row order whatever the threads:
//! one answer per row, or several (ragged, gathered in CSR form).

use rayon::prelude::*;

/// Rows handed to a thread at a time.
const BLOCK: usize = 256;

/// `answer(row)` for every row, in order.
pub(crate) fn each<A: Send>(rows: usize, answer: impl Fn(usize) -> A + Sync + Send) -> Vec<A> {
    (0..rows)
        .into_par_iter()
        .with_min_len(BLOCK / 4)
        .map(answer)
        .collect()
}

/// Several answers per row: `fill(row, answers)` clears `answers` and puts row `row`'s in it.
/// Returns the CSR offsets (`rows + 1` of them: row `i`'s answers are entries
/// `offsets[i]..offsets[i + 1]`) and every row's answers, row after row.
pub(crate) fn ragged<E: Send>(
    rows: usize,
    fill: impl Fn(usize, &mut Vec<E>) + Sync + Send,
) -> (Vec<i64>, Vec<E>) {
    let blocks: Vec<(Vec<usize>, Vec<E>)> = (0..rows.div_ceil(BLOCK))
        .into_par_iter()
        .map(|block| {
            let mut counts = Vec::with_capacity(BLOCK);
            let mut answers = Vec::new();
            let mut row_answers = Vec::new();
            for row in block * BLOCK..rows.min((block + 1) * BLOCK) {
                fill(row, &mut row_answers);
                counts.push(row_answers.len());
                answers.append(&mut row_answers);
            }
            (counts, answers)
        })
        .collect();
    let total = blocks.iter().map(|(_, answers)| answers.len()).sum();
    let mut offsets = Vec::with_capacity(rows + 1);
    let mut all = Vec::with_capacity(total);
    let mut at = 0i64;
    offsets.push(at);
    for (counts, mut answers) in blocks {
        for count in counts {
            at += count as i64;
            offsets.push(at);
        }
        all.append(&mut answers);
    }
    (offsets, all)
}

//! Where a query runs: on rayon's global pool (every core), or on a pool of the threads asked.
//! Each row's answer depends on that row alone, so every thread count gives the same bits.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The most threads a query may ask for.
const MOST: i64 = 4096;

/// Runs `work` on every core (`threads = None`) or on `threads` threads (1 to [`MOST`]).
pub(crate) fn on_threads<R: Send>(
    threads: Option<i64>,
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    match threads {
        None => Ok(work()),
        Some(count) if (1..=MOST).contains(&count) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(usize::try_from(count).unwrap_or(usize::MAX))
                .build()
                .map_err(|err| PyValueError::new_err(format!("threads={count}: {err}")))?;
            Ok(pool.install(work))
        }
        Some(count) => Err(PyValueError::new_err(format!(
            "threads must be from 1 to {MOST} (or None for every core): {count}"
        ))),
    }
}

//! Where a call runs and how Ctrl-C reaches it.
//!
//! Threads: rayon's global pool (every core) for `threads=None` or `-1`, else a pool of that many
//! threads, built once and kept (the few most recently asked counts): building a pool costs tens
//! of microseconds, more than a call on a few rows. Each row's answer depends on that row alone,
//! so every thread count gives the same bits.
//!
//! Interrupts: Python runs a signal's handler (raising `KeyboardInterrupt` for Ctrl-C) only when
//! the interpreter gets to it, which a call into compiled code delays until it returns. So a
//! call's rows run in blocks ([`Run::blocks`]), each on the pool with the GIL released; between
//! blocks the GIL is taken back and the signals checked, and a pending exception ends the call,
//! its partial answers dropped. A block is sized from the rows per second the blocks before it
//! ran, to take about [`BLOCK_SECONDS`]; the first is small. Work that cannot be cut into rows
//! (building a scene) runs on a thread of its own while the caller waits for it and checks the
//! signals ([`Run::apart`]); interrupted, the caller returns at once and the thread's answer is
//! dropped when it is done.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

/// The most threads a query may ask for.
const MOST: i64 = 4096;

/// How many pools of other thread counts are kept.
const KEPT: usize = 4;

/// About how long a block of rows runs between two checks for signals.
const BLOCK_SECONDS: f64 = 0.02;

/// The rows of a call's first block, and the most a block may have to run on the calling thread
/// alone ([`serial`]): a call on a few rows then pays no hand-off to a pool's threads.
pub(crate) const FIRST_BLOCK: usize = 64;

/// How often a caller waiting for work on a thread of its own checks the signals.
const POLL: Duration = Duration::from_millis(10);

/// The pools built for thread counts asked, the most recent last.
static POOLS: Mutex<VecDeque<(usize, Arc<ThreadPool>)>> = Mutex::new(VecDeque::new());

/// The pool a call runs on.
enum Pool {
    /// Rayon's global pool: every core.
    Every,
    /// A pool of its own thread count.
    Own(Arc<ThreadPool>),
}

impl Pool {
    /// The pool for `threads`: `None` or `-1` every core, `1` to [`MOST`] that many threads.
    fn of(threads: Option<i64>) -> PyResult<Self> {
        let count = match threads {
            None | Some(-1) => return Ok(Pool::Every),
            Some(count) if (1..=MOST).contains(&count) => count as usize,
            Some(count) => {
                return Err(PyValueError::new_err(format!(
                    "threads must be from 1 to {MOST}, or -1 or None for every core: {count}"
                )));
            }
        };
        let mut pools = POOLS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(at) = pools.iter().position(|(n, _)| *n == count) {
            let found = pools.remove(at).expect("found above");
            pools.push_back(found.clone());
            return Ok(Pool::Own(found.1));
        }
        let pool = ThreadPoolBuilder::new()
            .num_threads(count)
            .build()
            .map_err(|err| PyValueError::new_err(format!("threads={count}: {err}")))?;
        let pool = Arc::new(pool);
        if pools.len() == KEPT {
            pools.pop_front();
        }
        pools.push_back((count, pool.clone()));
        Ok(Pool::Own(pool))
    }

    /// `work` on this pool.
    fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match self {
            Pool::Every => work(),
            Pool::Own(pool) => pool.install(work),
        }
    }
}

/// Whether a block of rows runs on the calling thread alone: a block of a few rows. Such blocks
/// of [`Run::blocks`] go to no pool, and `crate::rows` answers them without rayon.
pub(crate) fn serial(rows: &Range<usize>) -> bool {
    rows.len() <= FIRST_BLOCK
}

/// A call in progress: the interpreter, and the threads its work runs on.
pub(crate) struct Run<'py> {
    py: Python<'py>,
    pool: Pool,
}

impl<'py> Run<'py> {
    /// A call on `threads` threads (`None` or `-1`: every core; `ValueError` for another
    /// count outside 1 to 4096).
    pub(crate) fn new(py: Python<'py>, threads: Option<i64>) -> PyResult<Self> {
        Ok(Run {
            py,
            pool: Pool::of(threads)?,
        })
    }

    /// The interpreter.
    pub(crate) fn py(&self) -> Python<'py> {
        self.py
    }

    /// `block(range)` for consecutive ranges covering `0..rows`, in order, each on the pool with
    /// the GIL released, the signals checked between them (see the module). Stops at the first
    /// block that fails, with its error inside `Ok`; an exception a signal raised is the `Err`.
    pub(crate) fn blocks<E: Send>(
        &self,
        rows: usize,
        mut block: impl FnMut(Range<usize>) -> Result<(), E> + Send,
    ) -> PyResult<Result<(), E>> {
        let mut start = 0;
        let mut size = FIRST_BLOCK;
        while start < rows {
            let end = rows.min(start.saturating_add(size));
            let began = Instant::now();
            let pool = &self.pool;
            let done = if serial(&(start..end)) {
                self.py.detach(|| block(start..end))
            } else {
                self.py.detach(|| pool.install(|| block(start..end)))
            };
            if let Err(err) = done {
                return Ok(Err(err));
            }
            self.py.check_signals()?;
            let seconds = began.elapsed().as_secs_f64().max(1e-6);
            let rate = (end - start) as f64 / seconds;
            size = ((rate * BLOCK_SECONDS) as usize).clamp(FIRST_BLOCK, size.saturating_mul(8));
            start = end;
        }
        Ok(Ok(()))
    }

    /// `work` on a thread of its own (its rayon calls on the pool), while the caller, the GIL
    /// released, waits for it and checks the signals every few milliseconds; interrupted, the
    /// caller returns the exception at once and the thread's answer is dropped when done.
    pub(crate) fn apart<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> PyResult<R> {
        let pool = match &self.pool {
            Pool::Every => None,
            Pool::Own(pool) => Some(pool.clone()),
        };
        let (sender, answer) = mpsc::channel();
        std::thread::Builder::new()
            .name("raysweep".into())
            .spawn(move || {
                let done = match pool {
                    None => work(),
                    Some(pool) => pool.install(work),
                };
                // The caller may have gone (interrupted): then the answer is dropped here.
                let _ = sender.send(done);
            })
            .map_err(|err| PyRuntimeError::new_err(format!("could not start a thread: {err}")))?;
        let mut answer = answer;
        loop {
            let (got, back) = self.py.detach(move || (answer.recv_timeout(POLL), answer));
            answer = back;
            match got {
                Ok(done) => return Ok(done),
                Err(RecvTimeoutError::Timeout) => self.py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("raysweep's worker thread panicked"));
                }
            }
        }
    }
}

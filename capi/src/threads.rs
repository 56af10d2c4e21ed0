//! Where a batch runs: `threads` 0 on rayon's global pool (every core), 1 on the calling thread,
//! more on a pool of that many, built once and kept (the few most recently asked counts:
//! building a pool costs tens of microseconds, more than a small batch). Each row's answer
//! depends on that row alone, so every thread count gives the same bits.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::status::{Failure, rs_status};

/// The most threads a batch may ask for.
const MOST: usize = 4096;

/// How many pools of other thread counts are kept.
const KEPT: usize = 4;

/// The pools built for thread counts asked, the most recent last.
static POOLS: Mutex<VecDeque<(usize, Arc<ThreadPool>)>> = Mutex::new(VecDeque::new());

/// How a batch runs.
pub(crate) enum Threads {
    /// On the calling thread.
    Caller,
    /// On rayon's global pool.
    Every,
    /// On a pool of its own thread count.
    Own(Arc<ThreadPool>),
}

impl Threads {
    /// The threads for a count asked: 0 every core, 1 the caller, up to `MOST` that many.
    pub(crate) fn of(threads: usize) -> Result<Self, Failure> {
        match threads {
            0 => return Ok(Threads::Every),
            1 => return Ok(Threads::Caller),
            count if count > MOST => {
                return Err(Failure::new(
                    rs_status::RS_INVALID_INPUT,
                    format!("threads: {count} is more than {MOST} (0 means every core)"),
                ));
            }
            _ => {}
        }
        let mut pools = POOLS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(at) = pools.iter().position(|(count, _)| *count == threads) {
            let kept = pools.remove(at).expect("a position found in the pools");
            pools.push_back(kept);
        } else {
            let pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| {
                    Failure::new(
                        rs_status::RS_INVALID_INPUT,
                        format!("threads: no pool of {threads} threads: {e}"),
                    )
                })?;
            if pools.len() == KEPT {
                pools.pop_front();
            }
            pools.push_back((threads, Arc::new(pool)));
        }
        let (_, pool) = pools.back().expect("the pool just kept");
        Ok(Threads::Own(pool.clone()))
    }

    /// Runs `batch` on the caller (`batch(false)`: it runs serially) or on the pool
    /// (`batch(true)`: it runs its `_par` form there).
    pub(crate) fn run<R: Send>(&self, batch: impl FnOnce(bool) -> R + Send) -> R {
        match self {
            Threads::Caller => batch(false),
            Threads::Every => batch(true),
            Threads::Own(pool) => pool.install(|| batch(true)),
        }
    }
}

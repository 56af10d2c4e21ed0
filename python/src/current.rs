//! [`Current`]: a value a Python object holds and changes while queries read it, the lock
//! around a scene (plain or periodic) that `push` changes. A query takes the value as it is (a
//! few `Arc` clones) and runs on that, so a query never waits for more than a change's swap, and
//! a change never waits for a query.

use std::sync::{Mutex, MutexGuard};

use pyo3::Python;

/// A value as it is now, behind a lock that changes hold and queries take only to clone it.
pub(crate) struct Current<V>(Mutex<V>);

impl<V: Clone + Send> Current<V> {
    pub(crate) fn new(value: V) -> Self {
        Current(Mutex::new(value))
    }

    /// The value as it is now (waiting with the GIL released while a change holds it).
    pub(crate) fn now(&self, py: Python<'_>) -> V {
        if let Ok(value) = self.0.try_lock() {
            return value.clone();
        }
        py.detach(|| self.lock().clone())
    }

    /// The value, locked; a lock a panic poisoned is taken as it is (a change swaps whole
    /// values, or pushes bodies one by one, each push leaving a scene whole).
    pub(crate) fn lock(&self) -> MutexGuard<'_, V> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

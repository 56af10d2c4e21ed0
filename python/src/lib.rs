//! raysweep's Python bindings (`raysweep._raysweep`): the crate's scenes on numpy arrays. The
//! Python package `raysweep` (`python/raysweep/`) is the interface users call: it settles
//! dtypes, shapes and layouts, then hands native C-contiguous arrays to the classes here, which
//! run the crate's queries row by row on rayon's threads with the GIL released.

use pyo3::prelude::*;

#[macro_use]
mod kinds;
mod args;
mod arrays;
#[macro_use]
mod bodies;
mod current;
mod grid;
mod impact;
mod instances;
mod periodic;
mod queries;
mod rows;
mod scene;
mod threads;

#[pymodule]
fn _raysweep(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<scene::PyScene>()?;
    module.add_class::<grid::PyGrid>()?;
    module.add_class::<instances::PyInstancedScene>()?;
    module.add_class::<periodic::PyPeriodicScene>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(impact::sphere_time_of_impact, module)?)?;
    Ok(())
}

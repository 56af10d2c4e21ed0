//! The four kinds of scene and grid Python gets (`float32` or `float64`, in 2 or 3 dimensions),
//! each an enum of four variants `F32x2`, `F32x3`, `F64x2`, `F64x3`, and the macros that run
//! generic code on whichever a value holds.

/// `$body` with `$s` bound to the value inside `$value` (an `$enum`), whichever its kind.
macro_rules! on_kind {
    ($enum:ident, $value:expr, $s:ident => $body:expr) => {
        match $value {
            $enum::F32x2($s) => $body,
            $enum::F32x3($s) => $body,
            $enum::F64x2($s) => $body,
            $enum::F64x3($s) => $body,
        }
    };
}

/// `$run::<T, D>($args)?` for the width named `$dtype` ("float32" or "float64") and the
/// dimension `$dim`, in the matching `$enum` variant; a `ValueError` for any other pair.
macro_rules! for_kind {
    ($enum:ident, $dtype:expr, $dim:expr, $run:ident($($arg:expr),*)) => {
        match ($dtype, $dim) {
            ("float32", 2) => $enum::F32x2($run::<f32, 2>($($arg),*)?),
            ("float32", 3) => $enum::F32x3($run::<f32, 3>($($arg),*)?),
            ("float64", 2) => $enum::F64x2($run::<f64, 2>($($arg),*)?),
            ("float64", 3) => $enum::F64x3($run::<f64, 3>($($arg),*)?),
            (dtype, dim) => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "float32 or float64, in 2 or 3 dimensions: not {dtype} in {dim}"
                )))
            }
        }
    };
}

/// `dim()` and `dtype()` for an enum of the four kinds.
macro_rules! kind_names {
    ($enum:ident) => {
        impl $enum {
            /// The dimension: 2 or 3.
            pub(crate) fn dim(&self) -> usize {
                match self {
                    $enum::F32x2(_) | $enum::F64x2(_) => 2,
                    $enum::F32x3(_) | $enum::F64x3(_) => 3,
                }
            }

            /// The width's numpy name.
            pub(crate) fn dtype(&self) -> &'static str {
                match self {
                    $enum::F32x2(_) | $enum::F32x3(_) => "float32",
                    $enum::F64x2(_) | $enum::F64x3(_) => "float64",
                }
            }
        }
    };
}

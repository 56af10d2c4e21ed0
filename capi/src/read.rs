//! Reading the caller's memory and writing answers into it, every pointer checked for NULL and
//! every stride for sense before anything is read, so that bad arguments are a status and not a
//! crash. Rows are read unaligned: a stride in bytes may put a row of an array of structs at any
//! address.

use std::mem::size_of;

use raysweep::Real;
use raysweep::nalgebra::{Point, SVector};

use crate::status::{Failure, rs_status};

/// A NULL `pointer` (the argument `what`) as a failure.
pub(crate) fn non_null<P>(pointer: *const P, what: &str) -> Result<(), Failure> {
    if pointer.is_null() {
        Err(Failure::new(
            rs_status::RS_NULL_POINTER,
            format!("{what} is NULL"),
        ))
    } else {
        Ok(())
    }
}

/// `count` rows of `width` values of `T` from the caller: row `i` at `stride · i` bytes past
/// the start, `stride` 0 meaning rows packed one after the other.
pub(crate) struct Rows<T> {
    start: *const u8,
    stride: usize,
    count: usize,
    width: usize,
    _values: core::marker::PhantomData<T>,
}

impl<T: Copy> Rows<T> {
    /// The rows at `start` (the argument `what`): NULL only where `count` is 0; a stride of 0 or
    /// at least a row's bytes, and the whole array's extent within `isize`.
    pub(crate) fn new(
        start: *const T,
        stride: usize,
        count: usize,
        width: usize,
        what: &str,
    ) -> Result<Self, Failure> {
        let row = width * size_of::<T>();
        let stride = if stride == 0 { row } else { stride };
        if count > 0 {
            non_null(start, what)?;
        }
        if stride < row {
            return Err(Failure::new(
                rs_status::RS_INVALID_INPUT,
                format!("{what}: a stride of {stride} bytes is less than a row's {row} bytes"),
            ));
        }
        let extent = count
            .checked_sub(1)
            .map_or(Some(0), |last| last.checked_mul(stride))
            .and_then(|offset| offset.checked_add(row));
        if extent.is_none_or(|bytes| bytes > isize::MAX as usize) {
            return Err(Failure::new(
                rs_status::RS_INVALID_INPUT,
                format!("{what}: {count} rows of stride {stride} bytes exceed the address space"),
            ));
        }
        Ok(Rows {
            start: start.cast(),
            stride,
            count,
            width,
            _values: core::marker::PhantomData,
        })
    }

    /// Value `j` of row `i`.
    ///
    /// # Safety
    ///
    /// The caller's array holds `count` rows of `width` values at the stride given, and
    /// `i < count`, `j < width`.
    pub(crate) unsafe fn at(&self, i: usize, j: usize) -> T {
        debug_assert!(i < self.count && j < self.width);
        // SAFETY: within the array the caller passed (checked to fit in isize by `new`); read
        // unaligned, since a byte stride may place a row anywhere.
        unsafe {
            self.start
                .add(i * self.stride + j * size_of::<T>())
                .cast::<T>()
                .read_unaligned()
        }
    }
}

impl<T: Real> Rows<T> {
    /// Row `i` as a point.
    ///
    /// # Safety
    ///
    /// As for `Rows::at`; `D` is the rows' width.
    pub(crate) unsafe fn point<const D: usize>(&self, i: usize) -> Point<T, D> {
        // SAFETY: the caller's promise, passed on.
        Point::from(core::array::from_fn(|j| unsafe { self.at(i, j) }))
    }

    /// Row `i` as a vector.
    ///
    /// # Safety
    ///
    /// As for `Rows::at`; `D` is the rows' width.
    pub(crate) unsafe fn vector<const D: usize>(&self, i: usize) -> SVector<T, D> {
        // SAFETY: the caller's promise, passed on.
        unsafe { self.point::<D>(i) }.coords
    }
}

/// One point of `D` values at `values` (the argument `what`), each finite.
///
/// # Safety
///
/// `values` is NULL or points to `D` readable values.
pub(crate) unsafe fn point<T: Real, const D: usize>(
    values: *const T,
    what: &str,
) -> Result<Point<T, D>, Failure> {
    let rows = Rows::new(values, 0, 1, D, what)?;
    // SAFETY: one row of D values, the caller's promise.
    let point = unsafe { rows.point::<D>(0) };
    finite(point.coords.as_slice(), what)?;
    Ok(point)
}

/// A failure naming the first of `values` (the argument `what`) that is NaN or infinite.
pub(crate) fn finite<T: Real>(values: &[T], what: &str) -> Result<(), Failure> {
    match values.iter().position(|v| !v.to_wide().is_finite()) {
        None => Ok(()),
        Some(at) => Err(Failure::new(
            rs_status::RS_NON_FINITE,
            format!("{what}[{at}] is {}", values[at]),
        )),
    }
}

/// `value` (the argument `what`) unless it is NaN.
pub(crate) fn not_nan<T: Real>(value: T, what: &str) -> Result<T, Failure> {
    if value.to_wide().is_nan() {
        Err(Failure::new(
            rs_status::RS_NON_FINITE,
            format!("{what} is NaN"),
        ))
    } else {
        Ok(value)
    }
}

/// `value` (the argument `what`) where it is finite and, unless `signed`, not negative.
pub(crate) fn length<T: Real>(value: T, what: &str, signed: bool) -> Result<T, Failure> {
    if !value.to_wide().is_finite() {
        Err(Failure::new(
            rs_status::RS_NON_FINITE,
            format!("{what} must be finite: {value}"),
        ))
    } else if !signed && value < T::zero() {
        Err(Failure::new(
            rs_status::RS_INVALID_INPUT,
            format!("{what} must not be negative: {value}"),
        ))
    } else {
        Ok(value)
    }
}

/// The caller's output `out` (the argument `what`), checked for NULL.
///
/// # Safety
///
/// `out` is NULL or valid for one write of `O`.
pub(crate) unsafe fn output<'a, O>(out: *mut O, what: &str) -> Result<&'a mut O, Failure> {
    non_null(out, what)?;
    // SAFETY: not NULL; valid and unaliased for the call, the caller's promise.
    Ok(unsafe { &mut *out })
}

/// The caller's array of `count` outputs at `out` (the argument `what`): NULL only where `count`
/// is 0.
///
/// # Safety
///
/// `out` is NULL or valid for `count` writes of `O`, unaliased during the call.
pub(crate) unsafe fn outputs<'a, O>(
    out: *mut O,
    count: usize,
    what: &str,
) -> Result<&'a mut [O], Failure> {
    if count == 0 {
        return Ok(&mut []);
    }
    non_null(out, what)?;
    // SAFETY: not NULL, `count` elements: the caller's promise.
    Ok(unsafe { core::slice::from_raw_parts_mut(out, count) })
}

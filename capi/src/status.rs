//! How a call ends: its [`rs_status`], the message of this thread's last failed call
//! ([`rs_last_error`]), and [`guard`], which runs a call's body, keeps the message of a failure
//! and turns a panic (a bug) into [`rs_status::RS_PANIC`] instead of letting it unwind into the
//! caller's frames, which is undefined behaviour. After errno, kept per thread so that threads
//! sharing a scene do not see each other's messages; after rustls-ffi's `rustls_result`, one
//! status type returned by every fallible function.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a call did. Every function that can fail returns one; anything but `RS_OK` leaves the
/// outputs unwritten (except `RS_BUFFER_TOO_SMALL`, which writes the count needed) and a message
/// for `rs_last_error`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum rs_status {
    /// The call succeeded.
    RS_OK = 0,
    /// A pointer argument the call needs is NULL.
    RS_NULL_POINTER = 1,
    /// An argument is out of its domain: a negative radius, a zero direction, a zero semi-axis,
    /// inverted box bounds, a rotation that is not orthonormal, a bad stride or thread count.
    RS_INVALID_INPUT = 2,
    /// An argument that must be a number (or a finite one) is NaN or infinite.
    RS_NON_FINITE = 3,
    /// The caller's buffer holds fewer answers than there are: the count needed is written, the
    /// buffer is not.
    RS_BUFFER_TOO_SMALL = 4,
    /// A panic inside the library was caught at the boundary: a bug, to be reported with the
    /// message.
    RS_PANIC = 5,
}

/// Why a call failed: its status and the message `rs_last_error` gives.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: rs_status,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(status: rs_status, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// A constructor's or a ray's error for the argument `what` (`"spheres[3]"`): non-finite
    /// input is `RS_NON_FINITE`, every other refusal `RS_INVALID_INPUT`.
    pub(crate) fn of(what: &str, error: raysweep::Error) -> Self {
        let status = match error {
            raysweep::Error::NonFinite { .. } => rs_status::RS_NON_FINITE,
            _ => rs_status::RS_INVALID_INPUT,
        };
        Failure::new(status, format!("{what}: {error}"))
    }
}

/// A call's outcome before it becomes a status.
pub(crate) type Outcome = Result<(), Failure>;

thread_local! {
    /// This thread's last failure's message, NUL-terminated for C.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Keeps `message` as this thread's last error (any NUL inside it ends it early).
fn keep(message: String) {
    let mut bytes = message.into_bytes();
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(nul);
    }
    let message = CString::new(bytes).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = message);
}

/// Runs `body`, the whole of an exported call: its status, the failure's message kept for
/// `rs_last_error`; a panic caught and reported as `RS_PANIC` with the panic's message.
pub(crate) fn guard(body: impl FnOnce() -> Outcome) -> rs_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => rs_status::RS_OK,
        Ok(Err(failure)) => {
            keep(failure.message);
            failure.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string());
            keep(format!("a bug in raysweep (please report it): {what}"));
            rs_status::RS_PANIC
        }
    }
}

/// The message of the last call on this thread that did not return `RS_OK`, or `""` if none
/// has failed. The text is the library's until the next failing call on this thread; copy it
/// to keep it. Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn rs_last_error() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// The version of raysweep the library was built from, e.g. `"0.1.0"`; a static string, never
/// NULL.
#[unsafe(no_mangle)]
pub extern "C" fn rs_version() -> *const c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        // SAFETY: rs_last_error returns a NUL-terminated string this thread owns.
        unsafe { CStr::from_ptr(rs_last_error()) }
            .to_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn a_panic_is_a_status_with_its_message() {
        let status = guard(|| panic!("the test's panic"));
        assert_eq!(status, rs_status::RS_PANIC);
        assert!(last().contains("the test's panic"), "{}", last());
    }

    #[test]
    fn a_failure_keeps_its_message_and_success_leaves_it() {
        assert_eq!(last(), "");
        let status = guard(|| Err(Failure::new(rs_status::RS_INVALID_INPUT, "bad\0hidden")));
        assert_eq!(status, rs_status::RS_INVALID_INPUT);
        assert_eq!(last(), "bad");
        assert_eq!(guard(|| Ok(())), rs_status::RS_OK);
        assert_eq!(last(), "bad");
        let other = std::thread::spawn(last).join().unwrap();
        assert_eq!(other, "", "another thread's last error");
    }

    #[test]
    fn the_version_is_the_crates() {
        // SAFETY: rs_version returns a static NUL-terminated string.
        let version = unsafe { CStr::from_ptr(rs_version()) };
        assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }
}

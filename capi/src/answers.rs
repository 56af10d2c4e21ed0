//! The answers as C structs, one for each width and dimension where the answer has points or
//! normals, and their conversions from the crate's answers (field for field, the same bits).
//! A body is named by its index in the order it was added, as in the crate.

use raysweep::{BodyCrossing, BodyHit, BodyNearest, BodySpan, Span};

/// A first hit in 3D, `double`: as the crate's `BodyHit<f64, 3>`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_hit3d_f64 {
    /// How far along the ray's unit direction the ray (or the moving ball's centre) travels.
    pub distance: f64,
    /// The point of contact, on the body's surface.
    pub point: [f64; 3],
    /// The body's outward unit normal there (the ray's direction reversed where the ray starts
    /// inside).
    pub normal: [f64; 3],
    /// The body's index.
    pub body: usize,
}

/// A first hit in 3D, `float`: as `rs_hit3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_hit3d_f32 {
    pub distance: f32,
    pub point: [f32; 3],
    pub normal: [f32; 3],
    pub body: usize,
}

/// A first hit in 2D, `double`: as `rs_hit3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_hit2d_f64 {
    pub distance: f64,
    pub point: [f64; 2],
    pub normal: [f64; 2],
    pub body: usize,
}

/// A first hit in 2D, `float`: as `rs_hit3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_hit2d_f32 {
    pub distance: f32,
    pub point: [f32; 2],
    pub normal: [f32; 2],
    pub body: usize,
}

/// A crossing of a body's surface in 3D, `double`: as the crate's `BodyCrossing<f64, 3>`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_crossing3d_f64 {
    /// How far along the ray's unit direction it lies: the body's span's `enter` or `exit`.
    pub distance: f64,
    /// The body's outward unit normal there.
    pub normal: [f64; 3],
    /// Whether the ray enters the body there (else it leaves it).
    pub entering: bool,
    /// The body's index.
    pub body: usize,
}

/// A crossing in 3D, `float`: as `rs_crossing3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_crossing3d_f32 {
    pub distance: f32,
    pub normal: [f32; 3],
    pub entering: bool,
    pub body: usize,
}

/// A crossing in 2D, `double`: as `rs_crossing3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_crossing2d_f64 {
    pub distance: f64,
    pub normal: [f64; 2],
    pub entering: bool,
    pub body: usize,
}

/// A crossing in 2D, `float`: as `rs_crossing3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_crossing2d_f32 {
    pub distance: f32,
    pub normal: [f32; 2],
    pub entering: bool,
    pub body: usize,
}

/// The body nearest a point in 3D, `double`: as the crate's `BodyNearest<f64, 3>`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_nearest3d_f64 {
    /// The point's signed distance to the body's surface: negative inside.
    pub signed_distance: f64,
    /// The nearest point of the surface.
    pub point: [f64; 3],
    /// The outward unit normal there.
    pub normal: [f64; 3],
    /// The body's index.
    pub body: usize,
}

/// The nearest body in 3D, `float`: as `rs_nearest3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_nearest3d_f32 {
    pub signed_distance: f32,
    pub point: [f32; 3],
    pub normal: [f32; 3],
    pub body: usize,
}

/// The nearest body in 2D, `double`: as `rs_nearest3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_nearest2d_f64 {
    pub signed_distance: f64,
    pub point: [f64; 2],
    pub normal: [f64; 2],
    pub body: usize,
}

/// The nearest body in 2D, `float`: as `rs_nearest3d_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_nearest2d_f32 {
    pub signed_distance: f32,
    pub point: [f32; 2],
    pub normal: [f32; 2],
    pub body: usize,
}

/// A body's span along a ray's line, `double` (either dimension): as the crate's
/// `BodySpan<f64>`. The span covers the whole line: `enter` is negative where the body begins
/// behind the origin.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_span_f64 {
    /// Where the line enters the body, along the ray's unit direction.
    pub enter: f64,
    /// Where it leaves it (`enter <= exit`).
    pub exit: f64,
    /// The body's index.
    pub body: usize,
}

/// A body's span, `float`: as `rs_span_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_span_f32 {
    pub enter: f32,
    pub exit: f32,
    pub body: usize,
}

/// An interval of a line covered by at least one body, `double` (either dimension): one of the
/// crate's union spans. Both ends are ends of bodies' spans, bit for bit.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_interval_f64 {
    pub enter: f64,
    pub exit: f64,
}

/// An interval covered by the bodies, `float`: as `rs_interval_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rs_interval_f32 {
    pub enter: f32,
    pub exit: f32,
}

/// The conversions of one width and dimension's answers.
macro_rules! answers {
    ($t:ty, $d:literal, $hit:ident, $crossing:ident, $nearest:ident) => {
        impl From<BodyHit<$t, $d>> for $hit {
            fn from(found: BodyHit<$t, $d>) -> Self {
                $hit {
                    distance: found.hit.distance,
                    point: found.hit.point.coords.into(),
                    normal: found.hit.normal.into_inner().into(),
                    body: found.body,
                }
            }
        }

        impl From<BodyCrossing<$t, $d>> for $crossing {
            fn from(found: BodyCrossing<$t, $d>) -> Self {
                $crossing {
                    distance: found.crossing.distance,
                    normal: found.crossing.normal.into_inner().into(),
                    entering: found.crossing.entering,
                    body: found.body,
                }
            }
        }

        impl From<BodyNearest<$t, $d>> for $nearest {
            fn from(found: BodyNearest<$t, $d>) -> Self {
                $nearest {
                    signed_distance: found.signed_distance,
                    point: found.point.coords.into(),
                    normal: found.normal.into_inner().into(),
                    body: found.body,
                }
            }
        }
    };
}
answers!(f64, 3, rs_hit3d_f64, rs_crossing3d_f64, rs_nearest3d_f64);
answers!(f32, 3, rs_hit3d_f32, rs_crossing3d_f32, rs_nearest3d_f32);
answers!(f64, 2, rs_hit2d_f64, rs_crossing2d_f64, rs_nearest2d_f64);
answers!(f32, 2, rs_hit2d_f32, rs_crossing2d_f32, rs_nearest2d_f32);

/// The conversions of one width's spans.
macro_rules! spans {
    ($t:ty, $span:ident, $interval:ident) => {
        impl From<BodySpan<$t>> for $span {
            fn from(found: BodySpan<$t>) -> Self {
                $span {
                    enter: found.span.enter,
                    exit: found.span.exit,
                    body: found.body,
                }
            }
        }

        impl From<Span<$t>> for $interval {
            fn from(span: Span<$t>) -> Self {
                $interval {
                    enter: span.enter,
                    exit: span.exit,
                }
            }
        }
    };
}
spans!(f64, rs_span_f64, rs_interval_f64);
spans!(f32, rs_span_f32, rs_interval_f32);

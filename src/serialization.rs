//! serde support (feature `serde`): the shapes and rays travel as their constructor arguments and
//! come back through the constructors, so a deserialized value satisfies the same invariants as a
//! constructed one and bad input is an [`Error`]; so do grids and periodic lattices. A grid cell
//! travels with its index as a vector, a periodic answer with its image as one. (`Hit`, `Span`
//! and `Error` derive theirs.)

use nalgebra::{Point, Rotation, SVector, Unit};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bounds::Aabb;
use crate::core::unit::UNIT_TOLERANCE;
use crate::error::{Error, check_finite};
use crate::grid::{Grid, GridCell};
use crate::hit::Crossing;
use crate::hit::{Hit, Span};
use crate::ray::Ray;
use crate::real::{Real, widen};
use crate::scene::{
    BodyNearest, PeriodicCrossing, PeriodicHit, PeriodicNearest, PeriodicSpan, Periodicity,
};
use crate::shape::{Ellipsoid, Sphere};

#[derive(Serialize, Deserialize)]
#[serde(rename = "Ray")]
struct RayRepr<T: Real, const D: usize> {
    origin: Point<T, D>,
    dir: SVector<T, D>,
}

impl<T: Real, const D: usize> From<Ray<T, D>> for RayRepr<T, D> {
    fn from(ray: Ray<T, D>) -> Self {
        RayRepr {
            origin: *ray.origin(),
            dir: ray.dir().into_inner(),
        }
    }
}

impl<T: Real, const D: usize> TryFrom<RayRepr<T, D>> for Ray<T, D> {
    type Error = Error;

    /// A direction that is already unit to within the width's rounding (as every serialized ray's
    /// is) is kept bit for bit (but for components below `2^-1022`, stored as zero as by
    /// [`Ray::new`]), so rays round-trip exactly; any other is normalised by [`Ray::new`]. Within
    /// the width's rounding means `||n|² − 1| ≤ 4·D` ulps of 1, and at most `2^-16`, which the
    /// casts along a stored direction rely on (`Shortcut::along_ray`); `Ray::new` stores
    /// directions within `2^-23` (`f32`) in any dimension.
    fn try_from(r: RayRepr<T, D>) -> Result<Self, Error> {
        check_finite("origin", r.origin.iter().map(|v| v.to_wide()))?;
        check_finite("direction", r.dir.iter().map(|v| v.to_wide()))?;
        let length2 = widen(&r.dir).norm_squared();
        let tolerance = (4.0 * D as f64 * T::EPSILON_WIDE).min(UNIT_TOLERANCE);
        if (length2 - 1.0).abs() <= tolerance {
            Ok(Ray::from_unit(r.origin, Unit::new_unchecked(r.dir)))
        } else {
            Ray::new(r.origin, r.dir)
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Sphere")]
struct SphereRepr<T: Real, const D: usize> {
    center: Point<T, D>,
    radius: T,
}

impl<T: Real, const D: usize> From<Sphere<T, D>> for SphereRepr<T, D> {
    fn from(s: Sphere<T, D>) -> Self {
        SphereRepr {
            center: *s.center(),
            radius: s.radius(),
        }
    }
}

impl<T: Real, const D: usize> TryFrom<SphereRepr<T, D>> for Sphere<T, D> {
    type Error = Error;
    fn try_from(r: SphereRepr<T, D>) -> Result<Self, Error> {
        Sphere::new(r.center, r.radius)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Ellipsoid")]
struct EllipsoidRepr<T: Real, const D: usize> {
    center: Point<T, D>,
    semi_axes: SVector<T, D>,
    rotation: Option<Rotation<T, D>>,
}

impl<T: Real, const D: usize> From<Ellipsoid<T, D>> for EllipsoidRepr<T, D> {
    fn from(e: Ellipsoid<T, D>) -> Self {
        EllipsoidRepr {
            center: *e.center(),
            semi_axes: *e.semi_axes(),
            rotation: (!e.is_axis_aligned()).then(|| e.rotation()),
        }
    }
}

impl<T: Real, const D: usize> TryFrom<EllipsoidRepr<T, D>> for Ellipsoid<T, D> {
    type Error = Error;
    fn try_from(r: EllipsoidRepr<T, D>) -> Result<Self, Error> {
        match r.rotation {
            None => Ellipsoid::new(r.center, r.semi_axes),
            Some(rotation) => Ellipsoid::oriented(r.center, r.semi_axes, rotation),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Aabb")]
struct AabbRepr<T: Real, const D: usize> {
    min: Point<T, D>,
    max: Point<T, D>,
}

impl<T: Real, const D: usize> From<Aabb<T, D>> for AabbRepr<T, D> {
    fn from(b: Aabb<T, D>) -> Self {
        AabbRepr {
            min: *b.min(),
            max: *b.max(),
        }
    }
}

impl<T: Real, const D: usize> TryFrom<AabbRepr<T, D>> for Aabb<T, D> {
    type Error = Error;
    fn try_from(r: AabbRepr<T, D>) -> Result<Self, Error> {
        Aabb::new(r.min, r.max)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Grid")]
struct GridRepr<T: Real, const D: usize> {
    min: Point<T, D>,
    cell_size: SVector<T, D>,
    cells: SVector<usize, D>,
}

impl<T: Real, const D: usize> From<Grid<T, D>> for GridRepr<T, D> {
    fn from(g: Grid<T, D>) -> Self {
        GridRepr {
            min: *g.min(),
            cell_size: *g.cell_size(),
            cells: g.cells().into(),
        }
    }
}

impl<T: Real, const D: usize> TryFrom<GridRepr<T, D>> for Grid<T, D> {
    type Error = Error;
    fn try_from(r: GridRepr<T, D>) -> Result<Self, Error> {
        Grid::new(r.min, r.cell_size, r.cells.into())
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "GridCell")]
struct GridCellRepr<T: Real, const D: usize> {
    index: SVector<usize, D>,
    enter: T,
    exit: T,
}

impl<T: Real, const D: usize> From<GridCell<T, D>> for GridCellRepr<T, D> {
    fn from(c: GridCell<T, D>) -> Self {
        GridCellRepr {
            index: c.index.into(),
            enter: c.enter,
            exit: c.exit,
        }
    }
}

impl<T: Real, const D: usize> From<GridCellRepr<T, D>> for GridCell<T, D> {
    fn from(r: GridCellRepr<T, D>) -> Self {
        GridCell {
            index: r.index.into(),
            enter: r.enter,
            exit: r.exit,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename = "Periodicity")]
struct PeriodicityRepr<T: Real, const D: usize> {
    min: Point<T, D>,
    size: SVector<T, D>,
    axes: SVector<bool, D>,
}

impl<T: Real, const D: usize> From<Periodicity<T, D>> for PeriodicityRepr<T, D> {
    fn from(p: Periodicity<T, D>) -> Self {
        PeriodicityRepr {
            min: *p.min(),
            size: *p.size(),
            axes: p.axes().into(),
        }
    }
}

impl<T: Real, const D: usize> TryFrom<PeriodicityRepr<T, D>> for Periodicity<T, D> {
    type Error = Error;
    fn try_from(r: PeriodicityRepr<T, D>) -> Result<Self, Error> {
        Periodicity::along(r.min, r.size, r.axes.into())
    }
}

/// A periodic answer's form: its image (a `[i64; D]`, which serde takes only for a given `D`)
/// as a vector, and `From` both ways.
macro_rules! periodic_repr {
    ($($ty:ident $repr:ident $name:literal $field:ident: $payload:ty),*) => {$(
        #[derive(Serialize, Deserialize)]
        #[serde(rename = $name)]
        struct $repr<T: Real, const D: usize> {
            body: usize,
            image: SVector<i64, D>,
            $field: $payload,
        }

        impl<T: Real, const D: usize> From<$ty<T, D>> for $repr<T, D> {
            fn from(n: $ty<T, D>) -> Self {
                $repr {
                    body: n.body,
                    image: n.image.into(),
                    $field: n.$field,
                }
            }
        }

        impl<T: Real, const D: usize> From<$repr<T, D>> for $ty<T, D> {
            fn from(r: $repr<T, D>) -> Self {
                $ty {
                    body: r.body,
                    image: r.image.into(),
                    $field: r.$field,
                }
            }
        }
    )*};
}

periodic_repr!(
    PeriodicHit PeriodicHitRepr "PeriodicHit" hit: Hit<T, D>,
    PeriodicSpan PeriodicSpanRepr "PeriodicSpan" span: Span<T>,
    PeriodicNearest PeriodicNearestRepr "PeriodicNearest" nearest: BodyNearest<T, D>,
    PeriodicCrossing PeriodicCrossingRepr "PeriodicCrossing" crossing: Crossing<T, D>
);

/// `Serialize` and `Deserialize` for `$ty` through `$repr`: serialized as `$repr::from(value)`,
/// deserialized through `$ty::try_from($repr)`, whose [`Error`] becomes the deserializer's.
macro_rules! through_repr {
    ($($ty:ident $repr:ident),*) => {$(
        impl<T: Real + Serialize, const D: usize> Serialize for $ty<T, D> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                $repr::from(*self).serialize(serializer)
            }
        }

        impl<'de, T: Real + Deserialize<'de>, const D: usize> Deserialize<'de> for $ty<T, D> {
            fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
                $ty::try_from($repr::deserialize(deserializer)?).map_err(De::Error::custom)
            }
        }
    )*};
}

through_repr!(
    Ray RayRepr,
    Sphere SphereRepr,
    Ellipsoid EllipsoidRepr,
    Aabb AabbRepr,
    Grid GridRepr,
    GridCell GridCellRepr,
    Periodicity PeriodicityRepr,
    PeriodicHit PeriodicHitRepr,
    PeriodicSpan PeriodicSpanRepr,
    PeriodicNearest PeriodicNearestRepr,
    PeriodicCrossing PeriodicCrossingRepr
);

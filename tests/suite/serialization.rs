//! serde round trips keep every bit, and deserialization refuses exactly what the constructors
//! refuse (feature `serde`).
#![cfg(feature = "serde")]

use raysweep::nalgebra::{Point2, Point3, Rotation3, Vector2, Vector3};
use raysweep::{Aabb, Cast, Ellipsoid, Error, PeriodicScene, Periodicity, Ray, Span, Sphere};

fn round_trip<V: serde::Serialize + serde::de::DeserializeOwned>(v: &V) -> V {
    serde_json::from_str(&serde_json::to_string(v).unwrap()).unwrap()
}

#[test]
fn shapes_rays_hits_and_spans_round_trip_exactly() {
    let rotation = Rotation3::from_euler_angles(0.1f32, 0.2, 0.3);
    let e = Ellipsoid::oriented(
        Point3::new(1.0, 2.0, 3.0),
        Vector3::new(0.5, 1.5, 2.5),
        rotation,
    )
    .unwrap();
    let s = Sphere::new(Point3::new(0.1, -0.2, 0.3), 0.7f32).unwrap();
    let b = Aabb::new(Point3::new(-1.0, -2.0, -3.0), Point3::new(1.0, 2.0, 3.0f32)).unwrap();
    // A direction that Ray::new normalised to a non-trivial unit vector.
    let ray = Ray::new(
        Point3::new(-10.0, 0.3, 0.1),
        Vector3::new(3.0, -0.1, 0.05f32),
    )
    .unwrap();
    assert_eq!(round_trip(&e), e);
    assert_eq!(round_trip(&s), s);
    assert_eq!(round_trip(&b), b);
    assert_eq!(round_trip(&ray), ray);
    let hit = s.cast_ray(&ray, f32::INFINITY).unwrap();
    assert_eq!(round_trip(&hit), hit);
    let span = b.ray_span(&ray).unwrap();
    assert_eq!(round_trip(&span), span);
    let aligned = Ellipsoid::new(Point2::new(1.0, 2.0), Vector2::new(3.0, 4.0f64)).unwrap();
    assert_eq!(round_trip(&aligned), aligned);
    assert!(round_trip(&aligned).is_axis_aligned());
}

#[test]
fn deserialization_goes_through_the_constructors() {
    let sphere: Result<Sphere<f64>, _> = serde_json::from_str(r#"{"center":[0,0,0],"radius":-1}"#);
    assert!(
        sphere
            .unwrap_err()
            .to_string()
            .contains("the radius is negative: -1")
    );
    let ray: Result<Ray<f64, 2>, _> = serde_json::from_str(r#"{"origin":[0,0],"dir":[0,0]}"#);
    assert!(
        ray.unwrap_err()
            .to_string()
            .contains("the direction is the zero vector")
    );
    let b: Result<Aabb<f32, 2>, _> = serde_json::from_str(r#"{"min":[0,3],"max":[1,2]}"#);
    assert!(
        b.unwrap_err()
            .to_string()
            .contains("min exceeds max on axis 1")
    );
    // nalgebra writes a matrix as its entries in column-major order.
    let skewed = r#"{"center":[0,0],"semi_axes":[1,2],"rotation":[1,0,0.5,1]}"#;
    let e: Result<Ellipsoid<f64, 2>, _> = serde_json::from_str(skewed);
    assert!(e.unwrap_err().to_string().contains("not orthonormal"));
    // A direction that is not unit is normalised, as Ray::new does.
    let ray: Ray<f64, 2> = serde_json::from_str(r#"{"origin":[1,2],"dir":[0,2]}"#).unwrap();
    assert_eq!(ray.dir().into_inner(), Vector2::new(0.0, 1.0));
}

#[test]
fn errors_round_trip() {
    let errors = [
        Error::NonFinite {
            what: "semi_axes",
            index: 1,
            value: f64::INFINITY,
        },
        Error::ZeroDirection,
        Error::NegativeRadius { radius: -2.5 },
        Error::InvertedBounds {
            axis: 2,
            min: 3.0,
            max: 1.0,
        },
        Error::NotOrthonormal { deviation: 1e-3 },
        Error::NonPositiveCellSize {
            axis: 1,
            value: -0.5,
        },
        Error::CellCount {
            axis: 0,
            cells: 0.0,
        },
        Error::GridOverflow {
            axis: 2,
            corner: 1e39,
        },
        Error::Length {
            what: "volume",
            len: 3,
            expected: 64,
        },
        Error::NonPositivePeriod {
            axis: 1,
            value: -4.0,
        },
        Error::NonFinite {
            what: "size",
            index: 2,
            value: 1e300,
        },
    ];
    for e in errors {
        // JSON has no infinity, so that one goes through a format that has: serde's own tokens
        // are not at hand, but the error's Display shows the value survived as far as JSON allows.
        let json = serde_json::to_string(&e).unwrap();
        if let Ok(back) = serde_json::from_str::<Error>(&json) {
            assert_eq!(back.to_string(), e.to_string());
        } else {
            assert!(json.contains("null"), "{json}");
        }
    }
    let unknown = r#"{"NonFinite":{"what":"colour","index":0,"value":1.0}}"#;
    assert!(serde_json::from_str::<Error>(unknown).is_err());
    assert_eq!(
        serde_json::from_str::<Span<f32>>(r#"{"enter":-1.5,"exit":2.0}"#).unwrap(),
        Span {
            enter: -1.5,
            exit: 2.0
        }
    );
}

/// A deserialised `f32` ray whose direction is kept as given, ten ulps off unit (`|n|² − 1 ≈
/// 2^-19.7`, within the `4·D` ulps that deserialisation keeps): the sphere casts, which run along
/// the stored direction, take its length into account, single and batched.
#[test]
fn a_deserialised_direction_off_unit_by_ulps_casts_along_its_unit_vector() {
    let ray: Ray<f32, 3> =
        serde_json::from_str(r#"{"origin":[0,0.5,0],"dir":[1.0000006,0,0]}"#).unwrap();
    assert_eq!(ray.dir().x, 1.0 + 5.0 * f32::EPSILON);
    let ball = Sphere::new(Point3::new(10.0f32, 0.5, 0.0), 2.0).unwrap();
    let hit = ball.cast_ray(&ray, f32::INFINITY).unwrap();
    assert_eq!(hit.distance, 8.0);
    assert_eq!(hit.point, Point3::new(8.0, 0.5, 0.0));
    assert_eq!(hit.normal.into_inner(), Vector3::new(-1.0, 0.0, 0.0));
    let swept = ball.cast_sphere(&ray, 1.0, f32::INFINITY).unwrap();
    assert_eq!(swept.distance, 7.0);
    let rays = [ray; 5];
    let mut hits = [None; 5];
    ball.cast_rays(&rays, f32::INFINITY, &mut hits);
    assert!(hits.iter().all(|h| *h == Some(hit)));
}

/// In 40 dimensions `4·D` ulps would keep an `f32` direction 140 ulps off unit (`|n|² − 1 ≈
/// 2^-15.9`) as given; beyond `2^-16`, which the casts along a stored direction rely on, it is
/// normalised as `Ray::new` does.
#[test]
fn a_deserialised_direction_beyond_2_pow_minus_16_of_unit_is_normalised() {
    let mut dir = vec!["0".to_string(); 40];
    dir[0] = format!("{}", 1.0 + 70.0 * f32::EPSILON);
    let json = format!(r#"{{"origin":{:?},"dir":[{}]}}"#, [0; 40], dir.join(","));
    let ray: Ray<f32, 40> = serde_json::from_str(&json).unwrap();
    assert_eq!(ray.dir()[0], 1.0);
}

#[test]
fn grids_and_their_cells_round_trip_and_deserialize_through_the_constructor() {
    use raysweep::nalgebra::{Point3, Vector3};
    use raysweep::{Grid, GridCell};
    let grid = Grid::new(
        Point3::new(-1.0f32, 0.5, 2.0),
        Vector3::new(0.1, 0.25, 3.0),
        [7, 3, 1],
    )
    .unwrap();
    let json = serde_json::to_string(&grid).unwrap();
    assert_eq!(serde_json::from_str::<Grid<f32>>(&json).unwrap(), grid);
    let bad = r#"{"min":[0,0],"cell_size":[1,0],"cells":[2,2]}"#;
    let err = serde_json::from_str::<Grid<f64, 2>>(bad).unwrap_err();
    assert!(
        err.to_string()
            .contains("cell size 1 is not strictly positive"),
        "{err}"
    );
    let cell = GridCell::<f64, 3> {
        index: [4, 0, 9],
        enter: 0.1,
        exit: 0.30000000000000004,
    };
    let json = serde_json::to_string(&cell).unwrap();
    assert_eq!(
        serde_json::from_str::<GridCell<f64, 3>>(&json).unwrap(),
        cell
    );
}

#[test]
fn impacts_round_trip_exactly() {
    use raysweep::Impact;
    use raysweep::nalgebra::{Point2, Unit, Vector2};
    let impact = Impact::<f32, 2> {
        time: 0.1,
        point: Point2::new(1.0 / 3.0, -2.5),
        normal: Unit::new_normalize(Vector2::new(1.0, 2.0)),
    };
    assert_eq!(round_trip(&impact), impact);
}

#[test]
fn periodic_lattices_and_answers_round_trip_exactly() {
    let period = Periodicity::along(
        Point3::new(-0.1f32, 2.0, 1e-30),
        Vector3::new(0.3, 0.0, 7.5),
        [true, false, true],
    )
    .unwrap();
    assert_eq!(round_trip(&period), period);
    let scene = PeriodicScene::new(
        vec![Sphere::new(Point3::new(0.1f64, 0.2, 0.3), 0.25).unwrap()],
        Periodicity::new(Point3::origin(), Vector3::new(1.0, 1.0, 1.0)).unwrap(),
    );
    let near = scene
        .nearest(&Point3::new(-2.7, 5.5, 0.3), f64::INFINITY)
        .unwrap();
    assert_eq!(near.image, [-3, 5, 0]);
    assert_eq!(round_trip(&near), near);
    let ray = Ray::new(Point3::new(0.6, 0.2, 0.3), Vector3::new(1.0, 0.0, 0.0)).unwrap();
    let hit = scene.cast_ray(&ray, f64::INFINITY).unwrap();
    assert_eq!(hit.image, [1, 0, 0]);
    assert_eq!(round_trip(&hit), hit);
    let mut spans = Vec::new();
    scene.ray_spans(&ray, 3.0, &mut spans);
    assert_eq!(spans.len(), 3);
    assert_eq!(round_trip(&spans), spans);
    // Through the constructor: a zero period on a repeating axis is refused.
    let bad = r#"{"min":[0,0],"size":[1,0],"axes":[true,true]}"#;
    let err = serde_json::from_str::<Periodicity<f64, 2>>(bad).unwrap_err();
    assert!(err.to_string().contains("period on axis 1"), "{err}");
}

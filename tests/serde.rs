//! serde round trips keep every bit, and deserialization refuses exactly what the constructors
//! refuse (feature `serde`).
#![cfg(feature = "serde")]

use raysweep::nalgebra::{Point2, Point3, Rotation3, Vector2, Vector3};
use raysweep::{Aabb, Cast, Ellipsoid, Error, Ray, Span, Sphere};

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

//! The scenarios of the seed documents (`shared/seeds/`), written as segments `A → B` with
//! `Ray::between`, including the inputs where the seeds' own code goes wrong: an origin inside the
//! target (the seeds return no hit), a target behind the origin, a segment that stops short, and a
//! segment parallel to an axis (the seeds' plane test divides by zero).

use raysweep::nalgebra::{Point2, Point3, Vector2, Vector3};
use raysweep::{Aabb, Cast, Circle, Ellipsoid, Ray, Rect, Shape, Sphere};

/// Segment A → B against a sphere (seed 000): the near intersection, and a hit point on the
/// surface with the outward normal.
#[test]
fn segment_to_sphere_finds_the_near_intersection() {
    let sphere = Sphere::new(Point3::new(0.0, 0.0, 10.0), 3.0f64).unwrap();
    let (ray, length) =
        Ray::between(Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 20.0)).unwrap();
    let hit = sphere.cast_ray(&ray, length).unwrap();
    assert_eq!(hit.distance, 7.0);
    assert_eq!(hit.point, Point3::new(0.0, 0.0, 7.0));
    assert_eq!(hit.normal.into_inner(), Vector3::new(0.0, 0.0, -1.0));
}

/// Seed 000 returns no hit when A is inside the sphere; a cast from inside starts in contact.
#[test]
fn segment_starting_inside_the_sphere_hits_at_its_start() {
    let sphere = Sphere::new(Point3::new(1.0, 2.0, 3.0), 5.0f32).unwrap();
    let a = Point3::new(2.0, 2.0, 3.0);
    let (ray, length) = Ray::between(a, Point3::new(30.0, 2.0, 3.0)).unwrap();
    let hit = sphere.cast_ray(&ray, length).unwrap();
    assert_eq!((hit.distance, hit.point), (0.0, a));
    assert_eq!(hit.normal, -*ray.dir());
    // The chord still tells where the segment leaves the sphere.
    assert_eq!(sphere.ray_span(&ray).unwrap().exit, 4.0);
}

/// A sphere behind A (seed 000 checks this by the sign of a projection): no hit, but the span
/// of the whole line is behind the origin.
#[test]
fn sphere_behind_the_segment_is_missed() {
    let sphere = Sphere::new(Point3::new(-10.0, 0.0, 0.0), 2.0f64).unwrap();
    let (ray, length) = Ray::between(Point3::origin(), Point3::new(10.0, 0.0, 0.0)).unwrap();
    assert_eq!(sphere.cast_ray(&ray, length), None);
    let span = sphere.ray_span(&ray).unwrap();
    assert_eq!((span.enter, span.exit), (-12.0, -8.0));
}

/// A segment that ends before the sphere misses; one that ends exactly on it hits (closed ends).
#[test]
fn segment_too_short_misses_and_one_ending_on_the_surface_hits() {
    let sphere = Sphere::new(Point2::new(10.0, 0.0), 2.0f32).unwrap();
    let (short, length) = Ray::between(Point2::origin(), Point2::new(7.9, 0.0)).unwrap();
    assert_eq!(sphere.cast_ray(&short, length), None);
    let (exact, length) = Ray::between(Point2::origin(), Point2::new(8.0, 0.0)).unwrap();
    assert_eq!(sphere.cast_ray(&exact, length).unwrap().distance, 8.0);
}

/// Ray against a sphere and an ellipsoid given as origin, direction and length (seed 003's
/// `P = A + l·Dir`): the ellipsoid's entry is where `((x−c)/a)² + ... = 1`.
#[test]
fn ray_to_sphere_and_ellipsoid() {
    let a = Point3::new(-10.0, 0.5, 0.0);
    let dir = Vector3::new(1.0, 0.0, 0.0);
    let ray = Ray::new(a, dir).unwrap();
    let sphere = Sphere::new(Point3::origin(), 1.0f64).unwrap();
    let hit = sphere.cast_ray(&ray, 100.0).unwrap();
    assert_eq!(hit.distance, 10.0 - 0.75f64.sqrt());
    let shield = Ellipsoid::new(Point3::origin(), Vector3::new(4.0, 1.0, 2.0)).unwrap();
    let hit = shield.cast_ray(&ray, 100.0).unwrap();
    // x = −4·√(1 − 0.5²) = −2√3.
    assert_eq!(hit.distance, 10.0 - 2.0 * 3f64.sqrt());
    assert!((hit.point.x + 2.0 * 3f64.sqrt()).abs() <= 1e-15);
    // Both intersections, entry and exit, as seed 003 describes.
    let span = shield.ray_span(&ray).unwrap();
    assert_eq!(span.enter, 10.0 - 2.0 * 3f64.sqrt());
    assert_eq!(span.exit, 10.0 + 2.0 * 3f64.sqrt());
    // The chord is a difference of two rounded ends near 13.5: within their ulps (2^-49 each).
    assert!((span.length() - 4.0 * 3f64.sqrt()).abs() <= 2.0 * 2f64.powi(-49));
}

/// Segment A → B against a box (seed 002): entry through the face the direction's signs select.
#[test]
fn segment_to_box_enters_through_the_facing_plane() {
    let b = Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(1.0, 1.0, 1.0)).unwrap();
    let (ray, length) =
        Ray::between(Point3::new(-3.0, 2.0, 0.5), Point3::new(1.0, -2.0, 0.5)).unwrap();
    let hit = b.cast_ray(&ray, length).unwrap();
    // The line meets y = 1 at x = −2 (outside) and x = −1 at y = 0 (inside the face): enters -x.
    assert_eq!(hit.normal.into_inner(), Vector3::new(-1.0, 0.0, 0.0));
    assert_eq!(hit.point, Point3::new(-1.0, 0.0, 0.5));
    assert_eq!(hit.distance, 8f64.sqrt());
}

/// An axis-parallel segment: seed 002's plane test divides by `B.y − A.y = 0` here.
#[test]
fn axis_parallel_segment_to_box_is_exact() {
    let b = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 2.0, 2.0)).unwrap();
    let (ray, length) =
        Ray::between(Point3::new(-5.0, 1.0, 1.0), Point3::new(5.0, 1.0, 1.0)).unwrap();
    let hit = b.cast_ray(&ray, length).unwrap();
    assert_eq!((hit.distance, hit.point), (5.0, Point3::new(0.0, 1.0, 1.0)));
    // Along the top face: the box is closed, so it hits; an ulp above, it misses.
    let (on_face, length) =
        Ray::between(Point3::new(-5.0, 2.0, 1.0), Point3::new(5.0, 2.0, 1.0)).unwrap();
    assert_eq!(b.cast_ray(&on_face, length).unwrap().distance, 5.0);
    let above = 2.0f64.next_up();
    let (beside, length) =
        Ray::between(Point3::new(-5.0, above, 1.0), Point3::new(5.0, above, 1.0)).unwrap();
    assert_eq!(b.cast_ray(&beside, length), None);
}

/// Seed 002 finds no hit from inside the box; here the cast starts in contact and the span gives
/// the exit.
#[test]
fn segment_from_inside_the_box() {
    let b = Rect::new(Point2::new(0.0, 0.0), Point2::new(4.0, 2.0)).unwrap();
    let a = Point2::new(1.0, 1.0);
    let (ray, length) = Ray::between(a, Point2::new(10.0, 1.0)).unwrap();
    assert!(b.contains(&a));
    assert_eq!(b.cast_ray(&ray, length).unwrap().distance, 0.0);
    assert_eq!(b.ray_span(&ray).unwrap().exit, 3.0);
}

/// 2D ray against a circle (seed 004): intersecting, tangent and separate.
#[test]
fn ray_to_circle_intersecting_tangent_and_separate() {
    let circle = Circle::new(Point2::new(5.0, 0.0), 2.0f32).unwrap();
    let origin = Point2::new(0.0, 0.0);
    let through = Ray::new(origin, Vector2::new(1.0, 0.0)).unwrap();
    assert_eq!(
        circle.cast_ray(&through, f32::INFINITY).unwrap().point,
        Point2::new(3.0, 0.0)
    );
    let tangent = Ray::new(Point2::new(0.0, 2.0), Vector2::new(1.0, 0.0)).unwrap();
    let hit = circle.cast_ray(&tangent, f32::INFINITY).unwrap();
    assert_eq!(
        (hit.distance, hit.normal.into_inner()),
        (5.0, Vector2::new(0.0, 1.0))
    );
    let separate = Ray::new(Point2::new(0.0, 2.0f32.next_up()), Vector2::new(1.0, 0.0)).unwrap();
    assert_eq!(circle.cast_ray(&separate, f32::INFINITY), None);
}

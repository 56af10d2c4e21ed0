//! Casts a few rays against each shape, in 3D and 2D, in f64 and f32, and prints what they hit.
//!
//! Run with `cargo run --release --example quickstart`.

use raysweep::nalgebra::{Point2, Point3, Rotation3, Vector2, Vector3};
use raysweep::{Aabb, Cast, Circle, Ellipsoid, Error, Hit, Ray, Rect, Span, Sphere};

fn show<const D: usize>(what: &str, hit: Option<Hit<f64, D>>) {
    match hit {
        Some(h) => println!(
            "  {what:<44} hit at distance {:<20} point {:?}  normal {:?}",
            h.distance,
            h.point.coords.as_slice(),
            h.normal.as_slice()
        ),
        None => println!("  {what:<44} no hit"),
    }
}

fn show_span(what: &str, span: Option<Span<f64>>) {
    match span {
        Some(s) => println!(
            "  {what:<44} enters at {}, leaves at {}: chord {}",
            s.enter,
            s.exit,
            s.length()
        ),
        None => println!("  {what:<44} the line misses"),
    }
}

fn main() -> Result<(), Error> {
    println!("3D, f64");
    let ball = Sphere::new(Point3::new(0.0, 0.0, 10.0), 2.0)?;
    let shield = Ellipsoid::oriented(
        Point3::new(6.0, 0.0, 10.0),
        Vector3::new(3.0, 1.0, 0.25),
        Rotation3::from_axis_angle(&Vector3::y_axis(), 0.5),
    )?;
    let crate_box = Aabb::new(Point3::new(-8.0, -1.0, 8.0), Point3::new(-6.0, 1.0, 12.0))?;

    let ray = Ray::new(Point3::origin(), Vector3::z())?;
    show(
        "ray up the z axis vs sphere",
        ball.cast_ray(&ray, f64::INFINITY),
    );
    show("same ray, stopped at 5", ball.cast_ray(&ray, 5.0));
    show_span("same line through the sphere", ball.ray_span(&ray));

    let (segment, length) = Ray::between(Point3::new(6.0, 0.0, 0.0), Point3::new(6.0, 0.0, 20.0))?;
    show(
        "segment into the tilted ellipsoid",
        shield.cast_ray(&segment, length),
    );

    let inside = Ray::new(Point3::new(-7.0, 0.0, 10.0), Vector3::x())?;
    show(
        "ray starting inside the box",
        crate_box.cast_ray(&inside, 100.0),
    );
    show_span("its line through the box", crate_box.ray_span(&inside));

    let level_with_edge = Ray::new(Point3::new(-20.0, 1.5, 12.5), Vector3::x())?;
    show(
        "ball of radius 1 passing the box's corner",
        crate_box.cast_sphere(&level_with_edge, 1.0, 100.0),
    );
    show(
        "ball of radius 0.6 through the corner gap",
        crate_box.cast_sphere(&level_with_edge, 0.6, 100.0),
    );
    show(
        "ball of radius 0.5 onto the ellipsoid",
        shield.cast_sphere(&segment, 0.5, length),
    );

    let along_face = Ray::new(Point3::new(-20.0, 1.0, 10.0), Vector3::x())?;
    show(
        "ray along the box's top face",
        crate_box.cast_ray(&along_face, 100.0),
    );

    println!("\n2D, f32: a unit circle 10^4 away, where the textbook formula is off by 0.87");
    let circle = Circle::new(Point2::new(1e4f32, 0.5), 1.0)?;
    let ray = Ray::new(Point2::origin(), Vector2::x())?;
    let hit = circle
        .cast_ray(&ray, f32::INFINITY)
        .expect("the ray passes the centre at 0.5");
    let exact = 1e4 - 0.75f64.sqrt();
    println!(
        "  distance {} (exact {exact:.7}), point {:?}",
        hit.distance,
        hit.point.coords.as_slice()
    );
    let rect = Rect::new(Point2::new(20.0f32, -1.0), Point2::new(22.0, 1.0))?;
    let up = Ray::new(Point2::new(21.0, -5.0), Vector2::y())?;
    let h = rect
        .cast_ray(&up, 10.0)
        .expect("straight up through the rectangle");
    println!(
        "  rectangle from below: distance {}, normal {:?}",
        h.distance,
        h.normal.as_slice()
    );
    Ok(())
}

//! The public API exactly as `shared/API.md` writes it: outside code is written against these
//! names and signatures, so this file must keep compiling.

// The signatures are spelled out in full on purpose: they are what is being checked.
#![allow(clippy::type_complexity)]

use raysweep::nalgebra::{Point, Rotation, SVector, Unit};
use raysweep::{
    Aabb, Body, BodyHit, BodyNearest, BodySpan, Cast, Circle, Ellipse, Ellipsoid, Error, Grid,
    GridCell, GridWalk, Hit, Impact, PointQuery, Ray, Rect, Scene, Shape, Span, Sphere,
};

fn traits_of_values<V: Clone + Copy + core::fmt::Debug + PartialEq>() {}
fn traits_of_errors<
    E: core::fmt::Debug + core::fmt::Display + Clone + PartialEq + std::error::Error,
>() {
}

fn signatures<T: raysweep::Real, const D: usize>() {
    let _: fn(Point<T, D>, SVector<T, D>) -> Result<Ray<T, D>, Error> = Ray::new;
    let _: fn(Point<T, D>, Point<T, D>) -> Result<(Ray<T, D>, T), Error> = Ray::between;
    let _: fn(&Ray<T, D>) -> &Point<T, D> = Ray::origin;
    let _: fn(&Ray<T, D>) -> &Unit<SVector<T, D>> = Ray::dir;
    let _: fn(&Ray<T, D>, T) -> Point<T, D> = Ray::at;

    let _: fn(Point<T, D>, T) -> Result<Sphere<T, D>, Error> = Sphere::new;
    let _: fn(Point<T, D>, SVector<T, D>) -> Result<Ellipsoid<T, D>, Error> = Ellipsoid::new;
    let _: fn(Point<T, D>, SVector<T, D>, Rotation<T, D>) -> Result<Ellipsoid<T, D>, Error> =
        Ellipsoid::oriented;
    let _: fn(Point<T, D>, Point<T, D>) -> Result<Aabb<T, D>, Error> = Aabb::new;
    let _: fn(Point<T, D>, SVector<T, D>) -> Result<Aabb<T, D>, Error> = Aabb::from_center;

    traits_of_values::<Ray<T, D>>();
    traits_of_values::<Hit<T, D>>();
    traits_of_values::<Span<T>>();
    traits_of_values::<Sphere<T, D>>();
    traits_of_values::<Ellipsoid<T, D>>();
    traits_of_values::<Aabb<T, D>>();
    traits_of_errors::<Error>();

    shape_and_cast::<T, D, Sphere<T, D>>();
    shape_and_cast::<T, D, Ellipsoid<T, D>>();
    shape_and_cast::<T, D, Aabb<T, D>>();
    shape_and_cast::<T, D, Body<T, D>>();

    // Scenes (API.md, "Scenes").
    traits_of_values::<Body<T, D>>();
    traits_of_values::<BodyHit<T, D>>();
    traits_of_values::<BodySpan<T>>();
    let _: Body<T, D> = Sphere::new(Point::origin(), T::zero()).unwrap().into();
    let _: Body<T, D> = Aabb::new(Point::origin(), Point::origin()).unwrap().into();
    let _: Body<T, D> = Ellipsoid::new(Point::origin(), SVector::repeat(T::one()))
        .unwrap()
        .into();
    scene::<T, D, Body<T, D>>();
    scene::<T, D, Sphere<T, D>>();
    let _: Option<Scene<T, D>> = None::<Scene<T, D, Body<T, D>>>;

    // Grids (API.md, "Grids").
    traits_of_values::<Grid<T, D>>();
    traits_of_values::<GridCell<T, D>>();
    let _: fn(Point<T, D>, SVector<T, D>, [usize; D]) -> Result<Grid<T, D>, Error> = Grid::new;
    let _: fn(&Grid<T, D>, &Ray<T, D>, T) -> GridWalk<T, D> = Grid::walk;
    let _: fn(&Grid<T, D>, [usize; D]) -> usize = Grid::flat_index;
    type Projector<T, const D: usize> =
        fn(&Grid<T, D>, &[T], &[Ray<T, D>], T, &mut [T]) -> Result<(), Error>;
    let _: Projector<T, D> = Grid::project;
    let _: Projector<T, D> = Grid::backproject;
    #[cfg(feature = "rayon")]
    let _: Projector<T, D> = Grid::project_par;
    #[cfg(feature = "rayon")]
    let _: Projector<T, D> = Grid::backproject_par;
    walk_of::<T, D, GridWalk<T, D>>();
    let cell = GridCell::<T, D> {
        index: [0; D],
        enter: T::zero(),
        exit: T::one(),
    };
    let _: ([usize; D], T, T) = (cell.index, cell.enter, cell.exit);
    let _: Option<Grid<T>> = None::<Grid<T, 3>>;

    // Point queries and moving bodies (API.md, "Point queries and moving bodies").
    point_query::<T, D, Sphere<T, D>>();
    point_query::<T, D, Ellipsoid<T, D>>();
    point_query::<T, D, Aabb<T, D>>();
    point_query::<T, D, Body<T, D>>();
    traits_of_values::<Impact<T, D>>();
    let impact: fn(
        &Sphere<T, D>,
        &SVector<T, D>,
        &Aabb<T, D>,
        &SVector<T, D>,
        T,
    ) -> Option<Impact<T, D>> = Sphere::time_of_impact::<Aabb<T, D>>;
    let _ = impact;
    let _ = Sphere::<T, D>::time_of_impact::<Body<T, D>>;
    let _ =
        |i: Impact<T, D>| -> (T, Point<T, D>, Unit<SVector<T, D>>) { (i.time, i.point, i.normal) };
    let _: Option<Impact<T>> = None::<Impact<T, 3>>;

    // Scene proximity (API.md, "Scene proximity").
    traits_of_values::<BodyNearest<T, D>>();
    let _ = |n: BodyNearest<T, D>| -> (usize, T, Point<T, D>, Unit<SVector<T, D>>) {
        (n.body, n.signed_distance, n.point, n.normal)
    };
    let _: Option<BodyNearest<T>> = None::<BodyNearest<T, 3>>;
    proximity::<T, D, Body<T, D>>();
    proximity::<T, D, Sphere<T, D>>();
    proximity::<T, D, Ellipsoid<T, D>>();
    proximity::<T, D, Aabb<T, D>>();
}

fn proximity<T: raysweep::Real, const D: usize, S: PointQuery<T, D>>() {
    let _: fn(&Scene<T, D, S>, &Point<T, D>, T) -> Option<BodyNearest<T, D>> = Scene::nearest;
    let _: fn(&Scene<T, D, S>, &Point<T, D>, T, fn(usize) -> bool) -> Option<BodyNearest<T, D>> =
        Scene::nearest_filtered;
    let _: fn(&Scene<T, D, S>, &Point<T, D>, T, &mut Vec<usize>) = Scene::within;
    let _: fn(&Scene<T, D, S>, &Point<T, D>, T, &mut Vec<usize>, fn(usize) -> bool) =
        Scene::within_filtered;
}

fn point_query<T: raysweep::Real, const D: usize, S: PointQuery<T, D>>() {
    let _: fn(&S, &Point<T, D>) -> T = S::signed_distance;
    let _: fn(&S, &Point<T, D>) -> (Point<T, D>, Unit<SVector<T, D>>) = S::closest_point;
    let _: fn(&S, &Point<T, D>, T) -> bool = S::is_within;
}

fn walk_of<T: raysweep::Real, const D: usize, W: Iterator<Item = GridCell<T, D>>>() {}

fn scene<T: raysweep::Real, const D: usize, S: Cast<T, D> + Sync>() {
    let _: fn(Vec<S>) -> Scene<T, D, S> = Scene::new;
    let _: fn(&Scene<T, D, S>) -> &[S] = Scene::bodies;
    let _: fn(&Scene<T, D, S>) -> usize = Scene::len;
    let _: fn(&Scene<T, D, S>) -> bool = Scene::is_empty;
    let _: fn(&Scene<T, D, S>, &Ray<T, D>, T) -> Option<BodyHit<T, D>> = Scene::cast_ray;
    let _: fn(&Scene<T, D, S>, &Ray<T, D>, T, fn(usize) -> bool) -> Option<BodyHit<T, D>> =
        Scene::cast_ray_filtered;
    let _: fn(&Scene<T, D, S>, &Ray<T, D>, T, T) -> Option<BodyHit<T, D>> = Scene::cast_sphere;
    let _: fn(&Scene<T, D, S>, &Ray<T, D>, T) -> bool = Scene::hits_any;
    let _: fn(&Scene<T, D, S>, &Ray<T, D>, &mut Vec<BodySpan<T>>) = Scene::ray_spans;
    let _: fn(&Scene<T, D, S>, &Ray<T, D>, T, &mut Vec<BodySpan<T>>) = Scene::sphere_spans;
    let _: fn(&Scene<T, D, S>, &Point<T, D>, &mut Vec<usize>) = Scene::containing;
    let _: fn(&Scene<T, D, S>, &[Ray<T, D>], T, &mut [Option<BodyHit<T, D>>]) = Scene::cast_rays;
    #[cfg(feature = "rayon")]
    let _: fn(&Scene<T, D, S>, &[Ray<T, D>], T, &mut [Option<BodyHit<T, D>>]) =
        Scene::cast_rays_par;
    let _: fn(&mut Scene<T, D, S>, usize, S) = Scene::set_body;
    let _: fn(&mut Scene<T, D, S>) = Scene::rebuild;
    let _: fn(&mut Scene<T, D, S>, S) -> usize = Scene::push;
}

fn shape_and_cast<T: raysweep::Real, const D: usize, S: Shape<T, D> + Cast<T, D>>() {
    let _: fn(&S) -> Aabb<T, D> = <S as Shape<T, D>>::aabb;
    let _: fn(&S, &Point<T, D>) -> bool = <S as Shape<T, D>>::contains;
    let _: fn(&S, &Ray<T, D>, T) -> Option<Hit<T, D>> = <S as Cast<T, D>>::cast_ray;
    let _: fn(&S, &Ray<T, D>, T, T) -> Option<Hit<T, D>> = <S as Cast<T, D>>::cast_sphere;
    let _: fn(&S, &Ray<T, D>) -> Option<Span<T>> = <S as Cast<T, D>>::ray_span;
    let _: fn(&S, &Ray<T, D>, T) -> Option<Span<T>> = <S as Cast<T, D>>::sphere_span;
    let _: fn(&S, &[Ray<T, D>], T, &mut [Option<Hit<T, D>>]) = <S as Cast<T, D>>::cast_rays;
}

#[test]
fn the_api_of_api_md_exists_in_both_widths_and_dimensions() {
    signatures::<f32, 2>();
    signatures::<f32, 3>();
    signatures::<f64, 2>();
    signatures::<f64, 3>();
    // D defaults to 3, and the 2D aliases are the D = 2 shapes.
    let _: fn(Point<f64, 3>, f64) -> Result<Sphere<f64>, Error> = Sphere::new;
    let _: Option<Circle<f32>> = None::<Sphere<f32, 2>>;
    let _: Option<Ellipse<f32>> = None::<Ellipsoid<f32, 2>>;
    let _: Option<Rect<f64>> = None::<Aabb<f64, 2>>;
    // Hit and Span are plain structs with public fields.
    let hit = Hit::<f64> {
        distance: 1.0,
        point: Point::origin(),
        normal: Unit::new_normalize(SVector::x()),
    };
    let span = Span {
        enter: -1.0,
        exit: hit.distance,
    };
    assert_eq!(span.length(), 2.0);
}

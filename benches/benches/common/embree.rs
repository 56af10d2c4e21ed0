//! Embree 3 as the scene benchmarks compare with it (issue "Scenes at Embree's speed"): a scene
//! of native spheres (`RTC_GEOMETRY_TYPE_SPHERE_POINT`, one geometry holding every ball) built at
//! Embree's default quality, and first hits by `rtcIntersect1`, one ray at a time, on the same
//! balls and rays as raysweep and obvhs.
//!
//! Embree 3 is linked from Debian's `libembree-dev` (3.13.5 when written) through the few
//! declarations below, taken from its headers (`/usr/include/embree3/`); only with the benchmark
//! crate's off-by-default feature `embree`:
//!
//! ```sh
//! apt-get install libembree-dev
//! cargo bench -p raysweep-benches --features embree --bench obvhs
//! ```
//!
//! Embree's answers are not exact (its sphere test is in `f32` and it does not keep the lowest
//! id among equal distances), and a ray from inside a ball hits that ball where it leaves it
//! (raysweep and the textbook test answer it at distance 0), so a ray from inside two
//! overlapping balls may name the other. [`first_hits`] gives `(ball, distance)` as obvhs's
//! helper does, so that the benchmark prints how many rays name the same ball as raysweep.

use std::ffi::{c_char, c_uint, c_void};
use std::ptr;

use raysweep::Ray;
use raysweep::nalgebra::Point3;

type Device = *mut c_void;
type Scene = *mut c_void;
type Geometry = *mut c_void;

/// `RTC_GEOMETRY_TYPE_SPHERE_POINT` (`rtcore_geometry.h`).
const SPHERE_POINT: c_uint = 50;
/// `RTC_BUFFER_TYPE_VERTEX` (`rtcore_buffer.h`).
const VERTEX: c_uint = 1;
/// `RTC_FORMAT_FLOAT4` (`rtcore_common.h`): a sphere's centre and radius.
const FLOAT4: c_uint = 0x9004;
/// `RTC_INVALID_GEOMETRY_ID`.
const INVALID: c_uint = u32::MAX;

/// `struct RTCIntersectContext` as the Debian build declares it (`RTC_MAX_INSTANCE_LEVEL_COUNT`
/// 1, `RTC_MIN_WIDTH` 0).
#[repr(C)]
struct IntersectContext {
    flags: c_uint,
    filter: *const c_void,
    inst_id: [c_uint; 1],
}

/// `struct RTCRayHit`: an `RTCRay` (48 bytes) and an `RTCHit` (32 bytes).
#[repr(C, align(16))]
struct RayHit {
    org: [f32; 3],
    tnear: f32,
    dir: [f32; 3],
    time: f32,
    tfar: f32,
    mask: c_uint,
    id: c_uint,
    flags: c_uint,
    ng: [f32; 3],
    u: f32,
    v: f32,
    prim_id: c_uint,
    geom_id: c_uint,
    inst_id: [c_uint; 1],
}

#[link(name = "embree3")]
unsafe extern "C" {
    fn rtcNewDevice(config: *const c_char) -> Device;
    fn rtcReleaseDevice(device: Device);
    fn rtcGetDeviceError(device: Device) -> c_uint;
    fn rtcNewScene(device: Device) -> Scene;
    fn rtcReleaseScene(scene: Scene);
    fn rtcCommitScene(scene: Scene);
    fn rtcNewGeometry(device: Device, kind: c_uint) -> Geometry;
    fn rtcReleaseGeometry(geometry: Geometry);
    fn rtcCommitGeometry(geometry: Geometry);
    fn rtcAttachGeometry(scene: Scene, geometry: Geometry) -> c_uint;
    fn rtcSetNewGeometryBuffer(
        geometry: Geometry,
        kind: c_uint,
        slot: c_uint,
        format: c_uint,
        stride: usize,
        count: usize,
    ) -> *mut c_void;
    fn rtcIntersect1(scene: Scene, context: *mut IntersectContext, rayhit: *mut RayHit);
}

/// An Embree device and its committed scene of balls.
pub struct Embree {
    device: Device,
    scene: Scene,
}

impl Embree {
    /// The balls of `radius` at `centres` (rounded to `f32`), committed.
    ///
    /// # Panics
    ///
    /// If Embree reports an error.
    pub fn new(centres: &[[f64; 3]], radius: f64) -> Self {
        // SAFETY: the calls follow Embree's API: a device and scene created here and released in
        // `drop`, a geometry attached and then released (the scene keeps it), and a vertex
        // buffer Embree allocated with room for `centres.len()` items of 16 bytes, written
        // before the geometry is committed.
        unsafe {
            let device = rtcNewDevice(ptr::null());
            assert!(!device.is_null(), "rtcNewDevice failed");
            let scene = rtcNewScene(device);
            let geometry = rtcNewGeometry(device, SPHERE_POINT);
            let buffer: *mut [f32; 4] =
                rtcSetNewGeometryBuffer(geometry, VERTEX, 0, FLOAT4, 16, centres.len()).cast();
            assert!(!buffer.is_null(), "rtcSetNewGeometryBuffer failed");
            let items = std::slice::from_raw_parts_mut(buffer, centres.len());
            for (item, c) in items.iter_mut().zip(centres) {
                *item = [c[0] as f32, c[1] as f32, c[2] as f32, radius as f32];
            }
            rtcCommitGeometry(geometry);
            rtcAttachGeometry(scene, geometry);
            rtcReleaseGeometry(geometry);
            rtcCommitScene(scene);
            assert_eq!(rtcGetDeviceError(device), 0, "Embree reported an error");
            Embree { device, scene }
        }
    }

    /// The first ball `ray` meets and the distance Embree gives, or `None`.
    #[inline]
    pub fn first_hit(&self, ray: &Ray<f32>) -> Option<(u32, f32)> {
        let (o, d): (&Point3<f32>, _) = (ray.origin(), ray.dir());
        let mut context = IntersectContext {
            flags: 0,
            filter: ptr::null(),
            inst_id: [INVALID],
        };
        let mut rayhit = RayHit {
            org: [o.x, o.y, o.z],
            tnear: 0.0,
            dir: [d.x, d.y, d.z],
            time: 0.0,
            tfar: f32::INFINITY,
            mask: u32::MAX,
            id: 0,
            flags: 0,
            ng: [0.0; 3],
            u: 0.0,
            v: 0.0,
            prim_id: INVALID,
            geom_id: INVALID,
            inst_id: [INVALID],
        };
        // SAFETY: the scene is committed and both structures are laid out as Embree declares
        // them (`rtcore_common.h`, `rtcore_ray.h`), `rayhit` 16-byte aligned.
        unsafe { rtcIntersect1(self.scene, &mut context, &mut rayhit) };
        (rayhit.geom_id != INVALID).then_some((rayhit.prim_id, rayhit.tfar))
    }
}

impl Drop for Embree {
    fn drop(&mut self) {
        // SAFETY: both were created in `new` and are released once.
        unsafe {
            rtcReleaseScene(self.scene);
            rtcReleaseDevice(self.device);
        }
    }
}

/// Each ray's first hit by Embree into `hits`.
pub fn first_hits(embree: &Embree, rays: &[Ray<f32>], hits: &mut [Option<(u32, f32)>]) {
    for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
        *hit = embree.first_hit(std::hint::black_box(ray));
    }
    std::hint::black_box(hits);
}

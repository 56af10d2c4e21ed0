! raysweep from Fortran: a module over iso_c_binding declaring the C ABI's 3D double-precision
! scenes (capi/include/raysweep.h; docs/c.md is the reference). Scenes are type(c_ptr) handles;
! every function returns a status (RS_OK on success) and rs_message() gives the calling
! thread's last error as a Fortran string. Arrays of points are real(c_double) :: x(3, n), which
! is the packed layout the library reads (stride 0).
!
!   gfortran -c capi/fortran/raysweep.f90
!   gfortran app.f90 raysweep.o target/release/libraysweep_capi.a -lpthread -ldl -lm
module raysweep
  use, intrinsic :: iso_c_binding
  implicit none
  private

  public :: RS_OK, RS_NULL_POINTER, RS_INVALID_INPUT, RS_NON_FINITE, RS_BUFFER_TOO_SMALL, RS_PANIC
  public :: rs_hit3d_f64, rs_crossing3d_f64, rs_nearest3d_f64, rs_span_f64, rs_interval_f64
  public :: rs_scene3d_f64_new_spheres, rs_scene3d_f64_free, rs_scene3d_f64_len
  public :: rs_scene3d_f64_cast_ray, rs_scene3d_f64_cast_sphere, rs_scene3d_f64_hits_any
  public :: rs_scene3d_f64_next_crossing, rs_scene3d_f64_ray_spans, rs_scene3d_f64_union_spans
  public :: rs_scene3d_f64_containing, rs_scene3d_f64_nearest, rs_scene3d_f64_within
  public :: rs_scene3d_f64_cast_rays
  public :: rs_message

  ! rs_status: a C enum, an int.
  integer(c_int), parameter :: RS_OK = 0, RS_NULL_POINTER = 1, RS_INVALID_INPUT = 2, &
                               RS_NON_FINITE = 3, RS_BUFFER_TOO_SMALL = 4, RS_PANIC = 5

  type, bind(c) :: rs_hit3d_f64
    real(c_double) :: distance
    real(c_double) :: point(3)
    real(c_double) :: normal(3)
    integer(c_size_t) :: body   ! from 0, the order the bodies were given in
  end type

  type, bind(c) :: rs_crossing3d_f64
    real(c_double) :: distance
    real(c_double) :: normal(3)
    logical(c_bool) :: entering
    integer(c_size_t) :: body
  end type

  type, bind(c) :: rs_nearest3d_f64
    real(c_double) :: signed_distance
    real(c_double) :: point(3)
    real(c_double) :: normal(3)
    integer(c_size_t) :: body
  end type

  type, bind(c) :: rs_span_f64
    real(c_double) :: enter
    real(c_double) :: exit
    integer(c_size_t) :: body
  end type

  type, bind(c) :: rs_interval_f64
    real(c_double) :: enter
    real(c_double) :: exit
  end type

  interface
    function rs_scene3d_f64_new_spheres(centres, centre_stride, radii, radius_stride, n, scene) &
        bind(c) result(status)
      import :: c_double, c_size_t, c_ptr, c_int
      real(c_double), intent(in) :: centres(*), radii(*)
      integer(c_size_t), value :: centre_stride, radius_stride, n
      type(c_ptr), intent(inout) :: scene
      integer(c_int) :: status
    end function

    subroutine rs_scene3d_f64_free(scene) bind(c)
      import :: c_ptr
      type(c_ptr), value :: scene
    end subroutine

    function rs_scene3d_f64_len(scene) bind(c) result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: scene
      integer(c_size_t) :: n
    end function

    function rs_scene3d_f64_cast_ray(scene, origin, direction, max_distance, hit, found) &
        bind(c) result(status)
      import :: c_ptr, c_double, c_bool, c_int, rs_hit3d_f64
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: origin(3), direction(3)
      real(c_double), value :: max_distance
      type(rs_hit3d_f64), intent(inout) :: hit   ! written only where found
      logical(c_bool), intent(inout) :: found
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_cast_sphere(scene, origin, direction, radius, max_distance, hit, &
        found) bind(c) result(status)
      import :: c_ptr, c_double, c_bool, c_int, rs_hit3d_f64
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: origin(3), direction(3)
      real(c_double), value :: radius, max_distance
      type(rs_hit3d_f64), intent(inout) :: hit
      logical(c_bool), intent(inout) :: found
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_hits_any(scene, origin, direction, max_distance, hit) &
        bind(c) result(status)
      import :: c_ptr, c_double, c_bool, c_int
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: origin(3), direction(3)
      real(c_double), value :: max_distance
      logical(c_bool), intent(inout) :: hit
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_next_crossing(scene, origin, direction, after, max_distance, &
        crossing, found) bind(c) result(status)
      import :: c_ptr, c_double, c_bool, c_int, rs_crossing3d_f64
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: origin(3), direction(3)
      real(c_double), value :: after, max_distance
      type(rs_crossing3d_f64), intent(inout) :: crossing
      logical(c_bool), intent(inout) :: found
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_ray_spans(scene, origin, direction, max_distance, spans, capacity, &
        count) bind(c) result(status)
      import :: c_ptr, c_double, c_size_t, c_int, rs_span_f64
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: origin(3), direction(3)
      real(c_double), value :: max_distance
      type(rs_span_f64), intent(inout) :: spans(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(inout) :: count
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_union_spans(scene, origin, direction, max_distance, intervals, &
        capacity, count) bind(c) result(status)
      import :: c_ptr, c_double, c_size_t, c_int, rs_interval_f64
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: origin(3), direction(3)
      real(c_double), value :: max_distance
      type(rs_interval_f64), intent(inout) :: intervals(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(inout) :: count
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_containing(scene, point, bodies, capacity, count) &
        bind(c) result(status)
      import :: c_ptr, c_double, c_size_t, c_int
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: point(3)
      integer(c_size_t), intent(inout) :: bodies(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(inout) :: count
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_nearest(scene, point, max_distance, nearest, found) &
        bind(c) result(status)
      import :: c_ptr, c_double, c_bool, c_int, rs_nearest3d_f64
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: point(3)
      real(c_double), value :: max_distance
      type(rs_nearest3d_f64), intent(inout) :: nearest
      logical(c_bool), intent(inout) :: found
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_within(scene, point, distance, bodies, capacity, count) &
        bind(c) result(status)
      import :: c_ptr, c_double, c_size_t, c_int
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: point(3)
      real(c_double), value :: distance
      integer(c_size_t), intent(inout) :: bodies(*)
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(inout) :: count
      integer(c_int) :: status
    end function

    function rs_scene3d_f64_cast_rays(scene, origins, directions, n, max_distance, threads, &
        hits, found) bind(c) result(status)
      import :: c_ptr, c_double, c_size_t, c_bool, c_int, rs_hit3d_f64
      type(c_ptr), value :: scene
      real(c_double), intent(in) :: origins(*), directions(*)
      integer(c_size_t), value :: n, threads
      real(c_double), value :: max_distance
      type(rs_hit3d_f64), intent(inout) :: hits(*)
      logical(c_bool), intent(inout) :: found(*)
      integer(c_int) :: status
    end function

    function rs_last_error() bind(c) result(message)
      import :: c_ptr
      type(c_ptr) :: message
    end function

    function c_strlen(text) bind(c, name="strlen") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: text
      integer(c_size_t) :: n
    end function
  end interface

contains

  ! The calling thread's last error, "" if no call on it has failed.
  function rs_message() result(text)
    character(len=:), allocatable :: text
    type(c_ptr) :: message
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    message = rs_last_error()
    n = int(c_strlen(message))
    call c_f_pointer(message, chars, [n])
    allocate(character(len=n) :: text)
    do i = 1, n
      text(i:i) = chars(i)
    end do
  end function
end module raysweep

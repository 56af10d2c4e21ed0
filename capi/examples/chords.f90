! Chords through a pebble bed, from Fortran through raysweep's C ABI: isotropic uniform random
! lines through a lattice of 1,000 pebbles of radius r, every chord a line cuts through a pebble
! (ray_spans), and their mean against Cauchy's 4V/S = 4r/3; the length of each line inside the
! pebbles (union_spans) against its mean for such lines, N V / (pi R^2) (N pebbles of volume V,
! lines meeting a ball of radius R round the bed). Fails (stop 1) if either is off by more than
! five standard errors.
!
!   gfortran -O2 capi/fortran/raysweep.f90 capi/examples/chords.f90 \
!     target/release/libraysweep_capi.a -lpthread -ldl -lm -o chords && ./chords
program chords
  use, intrinsic :: iso_c_binding
  use raysweep
  implicit none
  integer, parameter :: side = 10, pebbles = side**3, lines = 20000, room = 64
  real(c_double), parameter :: radius = 0.9d0, spacing = 2d0, pi = acos(-1d0)
  real(c_double) :: centres(3, pebbles), radii(pebbles), middle(3), reach
  real(c_double) :: u(3), a(3), b(3), p(3), origin(3), s, phi, z, length
  real(c_double) :: total, squares, mean, spread, cauchy, inside, line_total, fraction, error
  type(rs_span_f64) :: spans(room)
  type(rs_interval_f64) :: intervals(room)
  type(c_ptr) :: scene = c_null_ptr
  integer(c_size_t) :: count, k
  integer(c_int) :: status
  integer :: i, j, l, n
  integer, allocatable :: seed(:)
  real(c_double) :: shares(lines)

  n = 0
  do i = 0, side - 1
    do j = 0, side - 1
      do l = 0, side - 1
        n = n + 1
        centres(:, n) = spacing * [real(i, c_double), real(j, c_double), real(l, c_double)]
        radii(n) = radius
      end do
    end do
  end do
  status = rs_scene3d_f64_new_spheres(centres, 0_c_size_t, radii, 0_c_size_t, &
                                      int(pebbles, c_size_t), scene)
  if (status /= RS_OK) then
    print *, 'the scene: ', rs_message()
    stop 1
  end if

  call random_seed(size=n)
  allocate(seed(n))
  seed = 20261202
  call random_seed(put=seed)
  middle = spacing * (side - 1) / 2d0
  reach = sqrt(3d0) * (spacing * (side - 1) / 2d0 + radius) + 1d0
  total = 0
  squares = 0
  count = 0
  n = 0
  do l = 1, lines
    ! An isotropic direction, and a point uniform on the disc of radius `reach` across it: the
    ! line is isotropic uniform random among those meeting the ball round the bed.
    call random_number(z)
    call random_number(phi)
    z = 2 * z - 1
    phi = 2 * pi * phi
    u = [sqrt(1 - z * z) * cos(phi), sqrt(1 - z * z) * sin(phi), z]
    if (abs(u(1)) < 0.9d0) then
      a = [0d0, u(3), -u(2)]
    else
      a = [-u(3), 0d0, u(1)]
    end if
    a = a / norm2(a)
    b = [u(2) * a(3) - u(3) * a(2), u(3) * a(1) - u(1) * a(3), u(1) * a(2) - u(2) * a(1)]
    do
      call random_number(p(1:2))
      p(1:2) = 2 * p(1:2) - 1
      if (sum(p(1:2)**2) <= 1) exit
    end do
    origin = middle + reach * (p(1) * a + p(2) * b) - reach * u
    length = 2 * reach

    status = rs_scene3d_f64_ray_spans(scene, origin, u, length, spans, int(room, c_size_t), count)
    if (status /= RS_OK) then
      print *, 'ray_spans: ', rs_message()
      stop 1
    end if
    do k = 1, count
      s = spans(k)%exit - spans(k)%enter
      total = total + s
      squares = squares + s * s
      n = n + 1
    end do

    status = rs_scene3d_f64_union_spans(scene, origin, u, length, intervals, &
                                        int(room, c_size_t), count)
    if (status /= RS_OK) then
      print *, 'union_spans: ', rs_message()
      stop 1
    end if
    inside = 0
    do k = 1, count
      inside = inside + intervals(k)%exit - intervals(k)%enter
    end do
    shares(l) = inside
  end do
  call rs_scene3d_f64_free(scene)

  mean = total / n
  spread = sqrt((squares / n - mean * mean) / (n - 1))
  cauchy = 4 * radius / 3
  print '(a, i0, a, f9.6, a, f9.6, a, f9.6)', 'chords: ', n, ', mean ', mean, ' +- ', spread, &
    ' against 4r/3 = ', cauchy
  if (abs(mean - cauchy) > 5 * spread) stop 1

  ! Isotropic uniform lines meeting a ball of radius R cross a region of volume W for a mean
  ! length W / (pi R^2) (Crofton): here W the pebbles' volume.
  line_total = sum(shares) / lines
  fraction = pebbles * (4 * pi * radius**3 / 3) / (pi * reach**2)
  error = sqrt((sum(shares**2) / lines - line_total**2) / (lines - 1))
  print '(a, f9.5, a, f9.5, a, f9.5)', 'length inside a line: ', line_total, ' +- ', error, &
    ' against N V / (pi R^2) = ', fraction
  if (abs(line_total - fraction) > 5 * error) stop 1
end program chords

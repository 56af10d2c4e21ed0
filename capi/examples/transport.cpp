// History-based transport through a small pebble bed, from C++ through raysweep's C ABI, by
// surface tracking: a particle flies along its ray to the next crossing of a surface
// (rs_scene3d_f64_next_crossing, `after` the last crossing's distance, so that no surface is
// met twice or missed) unless a collision comes first; it scatters isotropically at each
// collision and is lost when it leaves the bed. Each pebble is a fuel kernel (a ball) inside a
// graphite shell (a larger ball); the material at a point is found from the crossings alone.
//
// The check: particles enter through a sphere round the bed with an isotropic (cosine-weighted)
// inward flux. In a medium that scatters and does not absorb, such a field stays uniform and
// isotropic, so the mean track length a particle leaves in the fuel is 4 V / A (V the fuel's
// volume, A the sphere's area) whatever the cross sections (the invariance property: Blanco and
// Fournier, Europhys. Lett. 61, 168 (2003)). The track-length estimate is compared with it, and
// the program fails if they differ by more than five standard errors.
//
//   g++ -std=c++17 -O2 -I capi/include capi/examples/transport.cpp
//       target/release/libraysweep_capi.a -lpthread -ldl -lm -o transport   (one line)
//   ./transport
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "raysweep.h"

namespace {

constexpr int kSide = 3;                        // pebbles along each axis
constexpr int kPebbles = kSide * kSide * kSide;
constexpr double kSpacing = 2.0, kFuel = 0.5, kShell = 0.9;
constexpr double kSigmaFuel = 2.0, kSigmaGraphite = 1.0;  // per unit length; void: 0
constexpr long kHistories = 400000;
const double kPi = std::acos(-1.0);

struct Vec3 {
  double x, y, z;
};

Vec3 isotropic(std::mt19937_64 &random) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  double z = 2 * uniform(random) - 1, phi = 2 * kPi * uniform(random), s = std::sqrt(1 - z * z);
  return {s * std::cos(phi), s * std::sin(phi), z};
}

// Fails the program with the library's message.
void check(rs_status status, const char *what) {
  if (status != RS_OK) {
    std::fprintf(stderr, "%s: %s\n", what, rs_last_error());
    std::exit(1);
  }
}

}  // namespace

int main() {
  // Bodies 0 .. kPebbles - 1 are the kernels, kPebbles .. 2 kPebbles - 1 the shells.
  std::vector<double> centres, radii;
  for (int body = 0; body < 2 * kPebbles; body++) {
    int i = body % kPebbles;
    centres.insert(centres.end(), {kSpacing * (i % kSide), kSpacing * (i / kSide % kSide),
                                   kSpacing * (i / kSide / kSide)});
    radii.push_back(body < kPebbles ? kFuel : kShell);
  }
  rs_scene3d_f64 *scene = nullptr;
  check(rs_scene3d_f64_new_spheres(centres.data(), 0, radii.data(), 0, radii.size(), &scene),
        "the bed");

  const double middle = kSpacing * (kSide - 1) / 2;
  const double reach = std::sqrt(3.0) * middle + kShell + 0.5;  // the sphere round the bed
  std::mt19937_64 random(20261202);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  double sum = 0, squares = 0;
  long collisions = 0, crossings = 0;
  for (long history = 0; history < kHistories; history++) {
    // A point on the sphere, and a direction into it, cosine-weighted about the inward normal.
    Vec3 n = isotropic(random);
    double mu = std::sqrt(uniform(random)), phi = 2 * kPi * uniform(random);
    Vec3 a = std::fabs(n.x) < 0.9 ? Vec3{0, n.z, -n.y} : Vec3{-n.z, 0, n.x};
    double la = std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
    a = {a.x / la, a.y / la, a.z / la};
    Vec3 b = {n.y * a.z - n.z * a.y, n.z * a.x - n.x * a.z, n.x * a.y - n.y * a.x};
    double s = std::sqrt(1 - mu * mu);
    double origin[3] = {middle + reach * n.x, middle + reach * n.y, middle + reach * n.z};
    double direction[3] = {-mu * n.x + s * (std::cos(phi) * a.x + std::sin(phi) * b.x),
                           -mu * n.y + s * (std::cos(phi) * a.y + std::sin(phi) * b.y),
                           -mu * n.z + s * (std::cos(phi) * a.z + std::sin(phi) * b.z)};
    int in_fuel = 0, in_shell = 0;  // how many kernels and shells hold the particle
    double fuel_track = 0, after = -INFINITY, at = 0;  // `at`: the distance along the ray
    for (;;) {
      double sigma = in_fuel ? kSigmaFuel : in_shell ? kSigmaGraphite : 0.0;
      double flight = sigma > 0 ? -std::log(1 - uniform(random)) / sigma : INFINITY;
      rs_crossing3d_f64 crossing;
      bool found = false;
      check(rs_scene3d_f64_next_crossing(scene, origin, direction, after, INFINITY, &crossing,
                                         &found),
            "next_crossing");
      if (found && crossing.distance <= at + flight) {
        if (in_fuel) fuel_track += crossing.distance - at;
        int change = crossing.entering ? 1 : -1;
        (crossing.body < static_cast<size_t>(kPebbles) ? in_fuel : in_shell) += change;
        at = after = crossing.distance;
        crossings++;
        continue;
      }
      if (!found) break;  // in the void, nothing ahead: the particle has left the bed
      // A collision: scatter isotropically, on a new ray from the collision point.
      if (in_fuel) fuel_track += flight;
      double t = at + flight;
      for (int j = 0; j < 3; j++) origin[j] += t * direction[j];
      Vec3 u = isotropic(random);
      direction[0] = u.x;
      direction[1] = u.y;
      direction[2] = u.z;
      at = 0;
      after = 0;
      collisions++;
    }
    sum += fuel_track;
    squares += fuel_track * fuel_track;
  }
  rs_scene3d_f64_free(scene);

  double mean = sum / kHistories;
  double error = std::sqrt((squares / kHistories - mean * mean) / (kHistories - 1));
  double volume = kPebbles * 4 * kPi * std::pow(kFuel, 3) / 3;
  double expected = 4 * volume / (4 * kPi * reach * reach);
  std::printf("%ld histories, %ld collisions, %ld crossings\n", kHistories, collisions, crossings);
  std::printf("track length in the fuel per particle: %.5f +- %.5f against 4V/A = %.5f\n", mean,
              error, expected);
  return std::fabs(mean - expected) <= 5 * error ? 0 : 1;
}

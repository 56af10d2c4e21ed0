/* The C ABI's cost per ray: a C loop of rs_scene3d_f64_cast_ray over 2^16 rays at 10^5 balls,
 * one thread, against the Rust loop of Scene::cast_ray on the same inputs
 * (capi/benches/first_hit.rs: the same generator, so the same balls and rays; both print the
 * same checksum). Each prints the best of 7 passes, in ns per ray.
 *
 *   cargo build --release -p raysweep-capi --example first-hit
 *   cc -std=c11 -O2 -I capi/include capi/benches/first_hit.c \
 *      target/release/libraysweep_capi.a -lpthread -ldl -lm -o first_hit
 *   ./first_hit; target/release/examples/first-hit
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "raysweep.h"

static uint64_t state = 0x9e3779b97f4a7c15u;

/* xorshift64*, uniform in [low, high): as capi/tests/c/random.rs. */
static double uniform(double low, double high) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  double u = (double)((state * 0x2545f4914f6cdd1du) >> 11) / 9007199254740992.0;
  return low + (high - low) * u;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void) {
  enum { BALLS = 100000, RAYS = 1 << 16, PASSES = 7 };
  double *centres = malloc(3 * BALLS * sizeof(double)), *radii = malloc(BALLS * sizeof(double));
  for (int i = 0; i < BALLS; i++) {
    for (int j = 0; j < 3; j++) centres[3 * i + j] = uniform(0, 100);
    radii[i] = uniform(0.2, 1.0);
  }
  double *origins = malloc(3 * RAYS * sizeof(double)), *directions = malloc(3 * RAYS * sizeof(double));
  for (int i = 0; i < RAYS; i++) {
    for (int j = 0; j < 3; j++) origins[3 * i + j] = uniform(0, 100);
    for (int j = 0; j < 3; j++) directions[3 * i + j] = uniform(-1, 1);
  }
  rs_scene3d_f64 *scene;
  if (rs_scene3d_f64_new_spheres(centres, 0, radii, 0, BALLS, &scene) != RS_OK) {
    fprintf(stderr, "%s\n", rs_last_error());
    return 1;
  }
  double best = INFINITY, checksum = 0;
  for (int pass = 0; pass < PASSES; pass++) {
    double start = now(), sum = 0;
    for (int i = 0; i < RAYS; i++) {
      rs_hit3d_f64 hit;
      bool found;
      rs_scene3d_f64_cast_ray(scene, origins + 3 * i, directions + 3 * i, INFINITY, &hit, &found);
      if (found) sum += hit.distance + (double)hit.body;
    }
    double elapsed = now() - start;
    if (elapsed < best) best = elapsed;
    checksum = sum;
  }
  uint64_t bits;
  memcpy(&bits, &checksum, sizeof bits);
  printf("C ABI loop: %.1f ns per ray (checksum %016llx)\n", best / RAYS * 1e9,
         (unsigned long long)bits);
  rs_scene3d_f64_free(scene);
  return 0;
}

/* The C ABI's test suite, in C: every query of every width and dimension against the Rust
 * crate's answers for the same inputs (the file tests/c/answers.rs writes), bit for bit; every
 * status from bad input, with its message, and nothing written; a scene shared by threads, each
 * thread's last error its own.
 *
 *   cargo run -p raysweep-capi --example c-answers -- answers.txt
 *   cc -std=c11 -Wall -Wextra -Werror -I capi/include capi/tests/c/suite.c \
 *      target/release/libraysweep_capi.a -lpthread -ldl -lm -o suite
 *   ./suite answers.txt
 */

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raysweep.h"

static FILE *input;
static int failures;

#define EXPECT(condition, ...)                                                                  \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      if (failures++ < 20) fprintf(stderr, __VA_ARGS__);                                        \
    }                                                                                           \
  } while (0)

/* A call that must succeed. */
#define CHECK(call)                                                                             \
  do {                                                                                          \
    rs_status checked = (call);                                                                 \
    if (checked != RS_OK) {                                                                     \
      fprintf(stderr, "%s:%d: %s: status %d (%s)\n", __FILE__, __LINE__, #call, (int)checked,   \
              rs_last_error());                                                                 \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

/* The same bits. */
#define SAME(a, b, bytes) (memcmp((a), (b), (bytes)) == 0)

static void token(char *out) {
  if (fscanf(input, "%63s", out) != 1) {
    fprintf(stderr, "the answers file ends early\n");
    exit(1);
  }
}

static size_t count(void) {
  char text[64];
  token(text);
  return (size_t)strtoull(text, NULL, 10);
}

static double get_f64(void) {
  char text[64];
  token(text);
  uint64_t bits = strtoull(text, NULL, 16);
  double value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

static float get_f32(void) {
  char text[64];
  token(text);
  uint32_t bits = (uint32_t)strtoul(text, NULL, 16);
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

/* A section's heading: "section <bits> <dimension>". */
static void heading(int bits, int dimension) {
  char word[64];
  token(word);
  size_t b = count(), d = count();
  if (strcmp(word, "section") != 0 || b != (size_t)bits || d != (size_t)dimension) {
    fprintf(stderr, "expected the section of %d-bit %dD answers\n", bits, dimension);
    exit(1);
  }
}

#define T double
#define D 3
#define GET get_f64
#define BODIES rs_bodies3d_f64
#define SCENE rs_scene3d_f64
#define HIT rs_hit3d_f64
#define CROSSING rs_crossing3d_f64
#define NEAREST rs_nearest3d_f64
#define SPAN rs_span_f64
#define INTERVAL rs_interval_f64
#define B(name) rs_bodies3d_f64_##name
#define F(name) rs_scene3d_f64_##name
#define NAME(x) x##_3d_f64
#include "variant.h"
#undef T
#undef D
#undef GET
#undef BODIES
#undef SCENE
#undef HIT
#undef CROSSING
#undef NEAREST
#undef SPAN
#undef INTERVAL
#undef B
#undef F
#undef NAME

#define T float
#define D 3
#define GET get_f32
#define BODIES rs_bodies3d_f32
#define SCENE rs_scene3d_f32
#define HIT rs_hit3d_f32
#define CROSSING rs_crossing3d_f32
#define NEAREST rs_nearest3d_f32
#define SPAN rs_span_f32
#define INTERVAL rs_interval_f32
#define B(name) rs_bodies3d_f32_##name
#define F(name) rs_scene3d_f32_##name
#define NAME(x) x##_3d_f32
#include "variant.h"
#undef T
#undef D
#undef GET
#undef BODIES
#undef SCENE
#undef HIT
#undef CROSSING
#undef NEAREST
#undef SPAN
#undef INTERVAL
#undef B
#undef F
#undef NAME

#define T double
#define D 2
#define GET get_f64
#define BODIES rs_bodies2d_f64
#define SCENE rs_scene2d_f64
#define HIT rs_hit2d_f64
#define CROSSING rs_crossing2d_f64
#define NEAREST rs_nearest2d_f64
#define SPAN rs_span_f64
#define INTERVAL rs_interval_f64
#define B(name) rs_bodies2d_f64_##name
#define F(name) rs_scene2d_f64_##name
#define NAME(x) x##_2d_f64
#include "variant.h"
#undef T
#undef D
#undef GET
#undef BODIES
#undef SCENE
#undef HIT
#undef CROSSING
#undef NEAREST
#undef SPAN
#undef INTERVAL
#undef B
#undef F
#undef NAME

#define T float
#define D 2
#define GET get_f32
#define BODIES rs_bodies2d_f32
#define SCENE rs_scene2d_f32
#define HIT rs_hit2d_f32
#define CROSSING rs_crossing2d_f32
#define NEAREST rs_nearest2d_f32
#define SPAN rs_span_f32
#define INTERVAL rs_interval_f32
#define B(name) rs_bodies2d_f32_##name
#define F(name) rs_scene2d_f32_##name
#define NAME(x) x##_2d_f32
#include "variant.h"

/* A call expected to fail with `status`, its message containing `words`. */
#define REFUSED(call, status, words)                                                            \
  do {                                                                                          \
    rs_status got = (call);                                                                     \
    EXPECT(got == (status) && strstr(rs_last_error(), (words)) != NULL,                         \
           "%s:%d: %s gave %d (\"%s\"), expected %d with \"%s\"\n", __FILE__, __LINE__, #call,  \
           (int)got, rs_last_error(), (int)(status), (words));                                  \
  } while (0)

/* Every status bad input can bring, each with nothing written. */
static void bad_input(void) {
  EXPECT(strcmp(rs_last_error(), "") == 0, "a last error before any failure: %s\n",
         rs_last_error());
  const char *version = rs_version();
  EXPECT(version != NULL && version[0] >= '0' && version[0] <= '9', "version %s\n", version);

  double centres[] = {0, 0, 0, 3, 0, 0, 6, 0, 0, 9, 0, 0}, radii[] = {1, 1, 1, -1};
  rs_scene3d_f64 *scene = (rs_scene3d_f64 *)&failures; /* a sentinel: must stay unwritten */
  REFUSED(rs_scene3d_f64_new_spheres(centres, 0, radii, 0, 4, &scene), RS_INVALID_INPUT,
          "spheres[3]");
  EXPECT(scene == (rs_scene3d_f64 *)&failures, "a refused scene was written\n");
  radii[3] = NAN;
  REFUSED(rs_scene3d_f64_new_spheres(centres, 0, radii, 0, 4, &scene), RS_NON_FINITE,
          "spheres[3]");
  REFUSED(rs_scene3d_f64_new_spheres(centres, 8, radii, 0, 3, &scene), RS_INVALID_INPUT,
          "stride");
  REFUSED(rs_scene3d_f64_new_spheres(NULL, 0, radii, 0, 3, &scene), RS_NULL_POINTER, "centres");
  REFUSED(rs_scene3d_f64_new_spheres(centres, 0, radii, 0, 3, NULL), RS_NULL_POINTER, "out");
  CHECK(rs_scene3d_f64_new_spheres(centres, 0, radii, 0, 3, &scene));

  rs_bodies3d_f64 *bodies = NULL;
  CHECK(rs_bodies3d_f64_new(&bodies));
  double semi[] = {1, 2, 3}, skew[] = {1, 0.1, 0, 0, 1, 0, 0, 0, 1};
  REFUSED(rs_bodies3d_f64_add_ellipsoids(bodies, centres, 0, semi, 0, skew, 0, 1),
          RS_INVALID_INPUT, "orthonormal");
  double flat[] = {1, 0, 3};
  REFUSED(rs_bodies3d_f64_add_ellipsoids(bodies, centres, 0, flat, 0, NULL, 0, 1),
          RS_INVALID_INPUT, "ellipsoids[0]");
  double low[] = {0, 0, 0}, high[] = {1, -1, 1};
  REFUSED(rs_bodies3d_f64_add_boxes(bodies, low, 0, high, 0, 1), RS_INVALID_INPUT, "boxes[0]");
  REFUSED(rs_bodies3d_f64_add_spheres(NULL, centres, 0, radii, 0, 1), RS_NULL_POINTER, "bodies");
  rs_scene3d_f64 *empty = NULL;
  CHECK(rs_scene3d_f64_new(bodies, &empty));
  EXPECT(rs_scene3d_f64_len(empty) == 0, "refused bodies were added\n");
  rs_scene3d_f64_free(empty);
  rs_bodies3d_f64_free(bodies);

  double origin[] = {-5, 0, 0}, along[] = {1, 0, 0}, zero[] = {0, 0, 0}, nan[] = {NAN, 0, 0};
  rs_hit3d_f64 hit = {0};
  bool found = true;
  REFUSED(rs_scene3d_f64_cast_ray(NULL, origin, along, INFINITY, &hit, &found), RS_NULL_POINTER,
          "scene");
  REFUSED(rs_scene3d_f64_cast_ray(scene, NULL, along, INFINITY, &hit, &found), RS_NULL_POINTER,
          "origin");
  REFUSED(rs_scene3d_f64_cast_ray(scene, origin, zero, INFINITY, &hit, &found), RS_INVALID_INPUT,
          "zero");
  REFUSED(rs_scene3d_f64_cast_ray(scene, nan, along, INFINITY, &hit, &found), RS_NON_FINITE,
          "origin");
  REFUSED(rs_scene3d_f64_cast_ray(scene, origin, along, NAN, &hit, &found), RS_NON_FINITE,
          "max_distance");
  REFUSED(rs_scene3d_f64_cast_ray(scene, origin, along, INFINITY, NULL, &found), RS_NULL_POINTER,
          "hit");
  REFUSED(rs_scene3d_f64_cast_sphere(scene, origin, along, -1, INFINITY, &hit, &found),
          RS_INVALID_INPUT, "radius");
  REFUSED(rs_scene3d_f64_cast_sphere(scene, origin, along, INFINITY, INFINITY, &hit, &found),
          RS_NON_FINITE, "radius");
  EXPECT(found && hit.distance == 0 && hit.body == 0, "a refused query wrote its answer\n");
  CHECK(rs_scene3d_f64_cast_ray(scene, origin, along, INFINITY, &hit, &found));
  EXPECT(found && hit.distance == 4 && hit.body == 0 && hit.normal[0] == -1,
         "cast_ray: body %zu at %g\n", hit.body, hit.distance);
  /* Beyond max_distance: found is false, hit as it was. */
  CHECK(rs_scene3d_f64_cast_ray(scene, origin, along, 3.5, &hit, &found));
  EXPECT(!found && hit.distance == 4, "a miss wrote its hit\n");

  size_t spans = 0;
  rs_span_f64 two[2];
  REFUSED(rs_scene3d_f64_ray_spans(scene, origin, along, INFINITY, two, 2, &spans),
          RS_BUFFER_TOO_SMALL, "3");
  EXPECT(spans == 3, "ray_spans counted %zu, expected 3\n", spans);
  REFUSED(rs_scene3d_f64_ray_spans(scene, origin, along, INFINITY, NULL, 3, &spans),
          RS_NULL_POINTER, "spans");
  REFUSED(rs_scene3d_f64_within(scene, origin, NAN, NULL, 0, &spans), RS_NON_FINITE, "distance");
  REFUSED(rs_scene3d_f64_nearest(scene, nan, INFINITY, NULL, &found), RS_NON_FINITE, "point");

  double origins[8 * 3] = {0}, directions[8 * 3] = {0};
  for (int i = 0; i < 8; i++) directions[3 * i + 1] = 1;
  directions[3 * 7 + 1] = 0;
  rs_hit3d_f64 hits[8];
  bool hits_found[8];
  memset(hits_found, 7, sizeof hits_found);
  REFUSED(rs_scene3d_f64_cast_rays(scene, origins, directions, 8, INFINITY, 1, hits, hits_found),
          RS_INVALID_INPUT, "rays[7]");
  unsigned char sevens[8];
  memset(sevens, 7, sizeof sevens);
  EXPECT(SAME(hits_found, sevens, sizeof sevens), "a refused batch wrote answers\n");
  REFUSED(rs_scene3d_f64_cast_rays(scene, origins, directions, 7, INFINITY, 5000, hits,
                                   hits_found),
          RS_INVALID_INPUT, "threads");
  CHECK(rs_scene3d_f64_cast_rays(scene, origins, directions, 0, INFINITY, 0, NULL, NULL));

  rs_scene3d_f64_free(NULL);
  rs_bodies3d_f64_free(NULL);
  EXPECT(rs_scene3d_f64_len(NULL) == 0, "the length of NULL\n");
  rs_scene3d_f64_free(scene);
}

/* One thread's share: cast every ray of a fixed fan at the shared scene and compare with the
 * answers the main thread computed; then fail one call and read its own message. */
struct share {
  const rs_scene3d_f64 *scene;
  const rs_hit3d_f64 *expected;
  const bool *expected_found;
  int rays;
  int mismatches;
  int message_ok;
};

static void fan(int i, double origin[3], double direction[3]) {
  origin[0] = -20;
  origin[1] = 0.37 * sin(i * 0.61);
  origin[2] = 0.41 * cos(i * 0.83);
  direction[0] = 1;
  direction[1] = 0.01 * (i % 7);
  direction[2] = -0.013 * (i % 5);
}

static void *run_share(void *argument) {
  struct share *share = argument;
  for (int round = 0; round < 20; round++) {
    for (int i = 0; i < share->rays; i++) {
      double origin[3], direction[3];
      fan(i, origin, direction);
      rs_hit3d_f64 hit;
      bool found;
      if (rs_scene3d_f64_cast_ray(share->scene, origin, direction, INFINITY, &hit, &found) !=
              RS_OK ||
          found != share->expected_found[i] ||
          (found && !same_hit_3d_f64(&hit, &share->expected[i])))
        share->mismatches++;
    }
  }
  share->message_ok = strcmp(rs_last_error(), "") == 0;
  double zero[3] = {0, 0, 0};
  rs_hit3d_f64 hit;
  bool found;
  rs_scene3d_f64_cast_ray(share->scene, zero, zero, INFINITY, &hit, &found);
  share->message_ok = share->message_ok && strstr(rs_last_error(), "zero") != NULL;
  return NULL;
}

static void threads(void) {
  enum { BALLS = 1000, RAYS = 500, THREADS = 4 };
  double *centres = malloc(BALLS * 3 * sizeof(double)), *radii = malloc(BALLS * sizeof(double));
  for (int i = 0; i < BALLS; i++) {
    centres[3 * i] = (i % 10) * 2.0;
    centres[3 * i + 1] = ((i / 10) % 10) * 0.3 - 1.5;
    centres[3 * i + 2] = (i / 100) * 0.3 - 1.5;
    radii[i] = 0.05 + 0.01 * (i % 13);
  }
  rs_scene3d_f64 *scene = NULL;
  CHECK(rs_scene3d_f64_new_spheres(centres, 0, radii, 0, BALLS, &scene));
  rs_hit3d_f64 *expected = calloc(RAYS, sizeof *expected);
  bool *expected_found = calloc(RAYS, sizeof *expected_found);
  int hits = 0;
  for (int i = 0; i < RAYS; i++) {
    double origin[3], direction[3];
    fan(i, origin, direction);
    CHECK(rs_scene3d_f64_cast_ray(scene, origin, direction, INFINITY, &expected[i],
                                  &expected_found[i]));
    hits += expected_found[i];
  }
  EXPECT(hits > RAYS / 2, "only %d of the fan's rays hit\n", hits);
  pthread_t thread[THREADS];
  struct share share[THREADS];
  for (int t = 0; t < THREADS; t++) {
    share[t] = (struct share){scene, expected, expected_found, RAYS, 0, 0};
    pthread_create(&thread[t], NULL, run_share, &share[t]);
  }
  for (int t = 0; t < THREADS; t++) {
    pthread_join(thread[t], NULL);
    EXPECT(share[t].mismatches == 0, "thread %d: %d answers differ\n", t, share[t].mismatches);
    EXPECT(share[t].message_ok, "thread %d: its last error was not its own\n", t);
  }
  rs_scene3d_f64_free(scene);
  free(centres);
  free(radii);
  free(expected);
  free(expected_found);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: suite ANSWERS\n");
    return 2;
  }
  input = fopen(argv[1], "r");
  if (!input) {
    perror(argv[1]);
    return 2;
  }
  bad_input();
  heading(64, 3);
  section_3d_f64();
  heading(32, 3);
  section_3d_f32();
  heading(64, 2);
  section_2d_f64();
  heading(32, 2);
  section_2d_f32();
  char rest[64];
  EXPECT(fscanf(input, "%63s", rest) != 1, "the answers file has more than was read\n");
  fclose(input);
  threads();
  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("raysweep C suite: every answer the crate's, every bad input refused\n");
  return 0;
}

/* One width and dimension's part of the C suite, included by suite.c once for each with T, D,
 * GET (the reader of a T), BODIES, SCENE, the answer types, B(name) and F(name) (the
 * functions' names) and NAME(x) (this part's own names) defined.
 *
 * It reads a section of the answers file (tests/c/answers.rs wrote it from the Rust crate),
 * builds the same scenes through the C ABI (bodies added in several calls, from packed arrays,
 * arrays of structs with a stride, one ellipsoid at a time), asks every question and compares
 * every answer bit for bit. */

/* A ball as an array of structs holds it: read with a stride. */
struct NAME(ball) {
  T centre[D];
  T radius;
  int tag;
};

/* A box likewise. */
struct NAME(box) {
  T min[D];
  T max[D];
  char tag;
};

/* Whether two answers are the same, field for field (a struct's padding is not compared). */
static bool NAME(same_hit)(const HIT *a, const HIT *b) {
  return SAME(&a->distance, &b->distance, sizeof(T)) && SAME(a->point, b->point, sizeof a->point) &&
         SAME(a->normal, b->normal, sizeof a->normal) && a->body == b->body;
}

static bool NAME(same_nearest)(const NEAREST *a, const NEAREST *b) {
  return SAME(&a->signed_distance, &b->signed_distance, sizeof(T)) &&
         SAME(a->point, b->point, sizeof a->point) &&
         SAME(a->normal, b->normal, sizeof a->normal) && a->body == b->body;
}

static void NAME(expect_hit)(const char *what, size_t row, rs_status status, bool found,
                             const HIT *hit) {
  EXPECT(status == RS_OK, "%s row %zu: status %d (%s)\n", what, row, (int)status,
         rs_last_error());
  size_t expected = count();
  EXPECT(found == (expected == 1), "%s row %zu: found %d, expected %zu\n", what, row, found,
         expected);
  if (expected == 1) {
    T distance = GET(), point[D], normal[D];
    for (int j = 0; j < D; j++) point[j] = GET();
    for (int j = 0; j < D; j++) normal[j] = GET();
    size_t body = count();
    if (found) {
      EXPECT(SAME(&hit->distance, &distance, sizeof(T)) && SAME(hit->point, point, sizeof point) &&
                 SAME(hit->normal, normal, sizeof normal) && hit->body == body,
             "%s row %zu: body %zu at %.17g, expected body %zu at %.17g\n", what, row, hit->body,
             (double)hit->distance, body, (double)distance);
    }
  }
}

static void NAME(expect_crossing)(size_t row, rs_status status, bool found,
                                  const CROSSING *crossing) {
  EXPECT(status == RS_OK, "next_crossing row %zu: status %d (%s)\n", row, (int)status,
         rs_last_error());
  size_t expected = count();
  EXPECT(found == (expected == 1), "next_crossing row %zu: found %d\n", row, found);
  if (expected == 1) {
    T distance = GET(), normal[D];
    for (int j = 0; j < D; j++) normal[j] = GET();
    size_t entering = count(), body = count();
    if (found) {
      EXPECT(SAME(&crossing->distance, &distance, sizeof(T)) &&
                 SAME(crossing->normal, normal, sizeof normal) &&
                 crossing->entering == (entering == 1) && crossing->body == body,
             "next_crossing row %zu: body %zu at %.17g, expected body %zu at %.17g\n", row,
             crossing->body, (double)crossing->distance, body, (double)distance);
    }
  }
}

/* The bodies a query lists, against the file's list. */
static void NAME(expect_bodies)(const char *what, size_t row, rs_status status,
                                const size_t *bodies, size_t n) {
  EXPECT(status == RS_OK, "%s row %zu: status %d (%s)\n", what, row, (int)status,
         rs_last_error());
  size_t expected = count();
  EXPECT(n == expected, "%s row %zu: %zu bodies, expected %zu\n", what, row, n, expected);
  for (size_t k = 0; k < expected; k++) {
    size_t body = count();
    EXPECT(k >= n || bodies[k] == body, "%s row %zu: body %zu is %zu, expected %zu\n", what, row,
           k, k < n ? bodies[k] : 0, body);
  }
}

/* Every answer for the file's rays and points from `scene`. */
static void NAME(answers)(const SCENE *scene, size_t rays, size_t points) {
  const T radius = (T)0.125, within = (T)0.25;
  T *origins = calloc(rays * D, sizeof(T)), *directions = calloc(rays * D, sizeof(T));
  T *maxs = calloc(rays, sizeof(T));
  HIT *hits = calloc(rays, sizeof(HIT));
  bool *found = calloc(rays, sizeof(bool));
  for (size_t i = 0; i < rays; i++) {
    T *o = origins + i * D, *d = directions + i * D;
    for (int j = 0; j < D; j++) o[j] = GET();
    for (int j = 0; j < D; j++) d[j] = GET();
    maxs[i] = GET();

    rs_status status = F(cast_ray)(scene, o, d, maxs[i], &hits[i], &found[i]);
    NAME(expect_hit)("cast_ray", i, status, found[i], &hits[i]);

    HIT hit;
    bool any;
    status = F(cast_sphere)(scene, o, d, radius, maxs[i], &hit, &any);
    NAME(expect_hit)("cast_sphere", i, status, any, &hit);

    status = F(hits_any)(scene, o, d, maxs[i], &any);
    bool expected_any = count() == 1;
    EXPECT(status == RS_OK && any == expected_any, "hits_any row %zu\n", i);

    CROSSING crossing;
    status = F(next_crossing)(scene, o, d, -INFINITY, maxs[i], &crossing, &any);
    T after = any ? crossing.distance : (T)0;
    NAME(expect_crossing)(i, status, any, &crossing);
    status = F(next_crossing)(scene, o, d, after, maxs[i], &crossing, &any);
    NAME(expect_crossing)(i, status, any, &crossing);

    /* Asked with no room first: the count, and RS_BUFFER_TOO_SMALL where there are spans. */
    size_t n = 12345;
    status = F(ray_spans)(scene, o, d, maxs[i], NULL, 0, &n);
    size_t expected = count();
    EXPECT(n == expected && status == (n ? RS_BUFFER_TOO_SMALL : RS_OK),
           "ray_spans row %zu: count %zu status %d, expected %zu\n", i, n, (int)status, expected);
    SPAN *spans = calloc(expected + 1, sizeof(SPAN));
    status = F(ray_spans)(scene, o, d, maxs[i], spans, expected + 1, &n);
    EXPECT(status == RS_OK && n == expected, "ray_spans row %zu: status %d\n", i, (int)status);
    for (size_t k = 0; k < expected; k++) {
      T enter = GET(), exit = GET();
      size_t body = count();
      EXPECT(SAME(&spans[k].enter, &enter, sizeof(T)) && SAME(&spans[k].exit, &exit, sizeof(T)) &&
                 spans[k].body == body,
             "ray_spans row %zu span %zu: body %zu, expected %zu\n", i, k, spans[k].body, body);
    }
    free(spans);

    expected = count();
    INTERVAL *intervals = calloc(expected + 1, sizeof(INTERVAL));
    status = F(union_spans)(scene, o, d, maxs[i], intervals, expected + 1, &n);
    EXPECT(status == RS_OK && n == expected, "union_spans row %zu: %zu intervals, expected %zu\n",
           i, n, expected);
    for (size_t k = 0; k < expected; k++) {
      T enter = GET(), exit = GET();
      EXPECT(SAME(&intervals[k].enter, &enter, sizeof(T)) &&
                 SAME(&intervals[k].exit, &exit, sizeof(T)),
             "union_spans row %zu interval %zu\n", i, k);
    }
    free(intervals);
  }

  /* The batch, on the caller, on two threads and on every core: each slot as its single cast
   * (the same max_distance for all: the file's first ray's). */
  for (size_t threads = 0; threads < 3; threads++) {
    HIT *batch = calloc(rays, sizeof(HIT));
    bool *batch_found = calloc(rays, sizeof(bool));
    rs_status status = F(cast_rays)(scene, origins, directions, rays, maxs[0], threads, batch,
                                    batch_found);
    EXPECT(status == RS_OK, "cast_rays on %zu threads: status %d\n", threads, (int)status);
    for (size_t i = 0; i < rays; i++) {
      HIT single;
      bool one;
      F(cast_ray)(scene, origins + i * D, directions + i * D, maxs[0], &single, &one);
      EXPECT(batch_found[i] == one && (!one || NAME(same_hit)(&batch[i], &single)),
             "cast_rays on %zu threads, row %zu differs from cast_ray\n", threads, i);
    }
    free(batch);
    free(batch_found);
  }

  T *at = calloc(points * D, sizeof(T));
  for (size_t i = 0; i < points; i++) {
    T *p = at + i * D;
    for (int j = 0; j < D; j++) p[j] = GET();
    size_t bodies[256], n;
    rs_status status = F(containing)(scene, p, bodies, 256, &n);
    NAME(expect_bodies)("containing", i, status, bodies, n);

    NEAREST nearest;
    bool any;
    status = F(nearest)(scene, p, INFINITY, &nearest, &any);
    bool expected_any = count() == 1;
    EXPECT(status == RS_OK && any == expected_any, "nearest row %zu: status %d\n", i,
           (int)status);
    if (expected_any) {
      T distance = GET(), point[D], normal[D];
      for (int j = 0; j < D; j++) point[j] = GET();
      for (int j = 0; j < D; j++) normal[j] = GET();
      size_t body = count();
      EXPECT(any && SAME(&nearest.signed_distance, &distance, sizeof(T)) &&
                 SAME(nearest.point, point, sizeof point) &&
                 SAME(nearest.normal, normal, sizeof normal) && nearest.body == body,
             "nearest row %zu: body %zu, expected %zu\n", i, nearest.body, body);
    }

    status = F(within)(scene, p, within, bodies, 256, &n);
    NAME(expect_bodies)("within", i, status, bodies, n);
  }
  for (size_t threads = 0; threads < 3; threads++) {
    NEAREST *batch = calloc(points, sizeof(NEAREST));
    bool *batch_found = calloc(points, sizeof(bool));
    rs_status status = F(nearest_batch)(scene, at, points, INFINITY, threads, batch, batch_found);
    EXPECT(status == RS_OK, "nearest_batch on %zu threads: status %d\n", threads, (int)status);
    for (size_t i = 0; i < points; i++) {
      NEAREST single;
      bool one;
      F(nearest)(scene, at + i * D, INFINITY, &single, &one);
      EXPECT(batch_found[i] == one && (!one || NAME(same_nearest)(&batch[i], &single)),
             "nearest_batch on %zu threads, row %zu differs from nearest\n", threads, i);
    }
    free(batch);
    free(batch_found);
  }
  free(at);
  free(origins);
  free(directions);
  free(maxs);
  free(hits);
  free(found);
}

/* This width and dimension's section of the file: its bodies, then the answers of the mixed
 * scene and of the scene of the first balls alone. */
static void NAME(section)(void) {
  BODIES *bodies = NULL;
  CHECK(B(new)(&bodies));

  size_t balls = count();
  T *centres = calloc(balls * D, sizeof(T)), *radii = calloc(balls, sizeof(T));
  for (size_t i = 0; i < balls; i++) {
    for (int j = 0; j < D; j++) centres[i * D + j] = GET();
    radii[i] = GET();
  }
  /* Packed arrays, in two calls. */
  CHECK(B(add_spheres)(bodies, centres, 0, radii, 0, balls / 2));
  CHECK(B(add_spheres)(bodies, centres + balls / 2 * D, 0, radii + balls / 2, sizeof(T),
                       balls - balls / 2));

  size_t ovals = count();
  for (size_t i = 0; i < ovals; i++) {
    T centre[D], semi[D], rotation[D * D];
    for (int j = 0; j < D; j++) centre[j] = GET();
    for (int j = 0; j < D; j++) semi[j] = GET();
    bool oriented = count() == 1;
    if (oriented)
      for (int j = 0; j < D * D; j++) rotation[j] = GET();
    CHECK(B(add_ellipsoids)(bodies, centre, 0, semi, 0, oriented ? rotation : NULL, 0, 1));
  }

  size_t cuboids = count();
  struct NAME(box) *boxes = calloc(cuboids, sizeof *boxes);
  for (size_t i = 0; i < cuboids; i++) {
    for (int j = 0; j < D; j++) boxes[i].min[j] = GET();
    for (int j = 0; j < D; j++) boxes[i].max[j] = GET();
  }
  CHECK(B(add_boxes)(bodies, boxes[0].min, sizeof *boxes, boxes[0].max, sizeof *boxes, cuboids));

  size_t more = count();
  struct NAME(ball) *tail = calloc(more, sizeof *tail);
  for (size_t i = 0; i < more; i++) {
    for (int j = 0; j < D; j++) tail[i].centre[j] = GET();
    tail[i].radius = GET();
  }
  CHECK(B(add_spheres)(bodies, tail[0].centre, sizeof *tail, &tail[0].radius, sizeof *tail, more));

  SCENE *mixed = NULL, *alone = NULL;
  CHECK(F(new)(bodies, &mixed));
  B(free)(bodies);
  CHECK(F(new_spheres)(centres, 0, radii, 0, balls, &alone));
  EXPECT(F(len)(mixed) == balls + ovals + cuboids + more && F(len)(alone) == balls,
         "scene lengths %zu and %zu\n", F(len)(mixed), F(len)(alone));

  size_t rays = count(), points = count();
  NAME(answers)(mixed, rays, points);
  NAME(answers)(alone, rays, points);
  F(free)(mixed);
  F(free)(alone);
  free(centres);
  free(radii);
  free(boxes);
  free(tail);
}

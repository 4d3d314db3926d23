//! The `-l` math library, written in bc itself: e, l, s, c, a and j. Each
//! works with guard digits and truncates to the caller's scale at the end.

/// Loaded before any user input when `-l` is given.
pub const SOURCE: &str = r#"
scale = 20

/* e^x: halve x until it is small, sum the series, square back. */
define e(x) {
  auto s, k, t, r, i, m
  s = scale
  if (x < 0) { m = 1; x = -x }
  scale = s + 12 + length(x) + x * .44
  k = 0
  while (x > .5) { x = x / 2; k = k + 1 }
  r = 1
  t = 1
  for (i = 1; 1; i++) {
    t = t * x / i
    if (t == 0) break
    r = r + t
  }
  while (k > 0) { r = r * r; k = k - 1 }
  if (m) r = 1 / r
  scale = s
  return (r / 1)
}

/* Natural logarithm: square roots bring x near 1, then 2*atanh((x-1)/(x+1)). */
define l(x) {
  auto s, k, u, v, t, r, i
  if (x <= 0) return ((1 - 10 ^ scale) / 1)
  s = scale
  scale = s + 20 + length(x)
  k = 0
  while (x >= 2) { x = sqrt(x); k = k + 1 }
  while (x <= .5) { x = sqrt(x); k = k + 1 }
  u = (x - 1) / (x + 1)
  v = u * u
  r = u
  t = u
  for (i = 3; 1; i = i + 2) {
    t = t * v
    if (t / i == 0) break
    r = r + t / i
  }
  r = r * 2 ^ (k + 1)
  scale = s
  return (r / 1)
}

/* Sine: reduce modulo 2*pi, then the Taylor series. */
define s(x) {
  auto s, p, r, t, i, m, v
  s = scale
  scale = s + 15 + length(x)
  p = 4 * a(1)
  if (x < 0) { m = 1; x = -x }
  t = scale
  scale = 0
  i = x / (2 * p)
  scale = t
  x = x - i * 2 * p
  if (x > p) x = x - 2 * p
  v = x * x
  r = x
  t = x
  for (i = 2; 1; i = i + 2) {
    t = -t * v / (i * (i + 1))
    if (t == 0) break
    r = r + t
  }
  if (m) r = -r
  scale = s
  return (r / 1)
}

/* Cosine: reduce modulo 2*pi, then its own series so c(0) is exactly 1. */
define c(x) {
  auto s, p, r, t, i, v
  s = scale
  scale = s + 15 + length(x)
  p = 4 * a(1)
  if (x < 0) x = -x
  t = scale
  scale = 0
  i = x / (2 * p)
  scale = t
  x = x - i * 2 * p
  if (x > p) x = 2 * p - x
  v = x * x
  r = 1
  t = 1
  for (i = 1; 1; i = i + 2) {
    t = -t * v / (i * (i + 1))
    if (t == 0) break
    r = r + t
  }
  scale = s
  return (r / 1)
}

/* Arctangent: fold to 0..1, halve the angle until small, then the series. */
define a(x) {
  auto s, m, k, r, t, i, v, f
  s = scale
  scale = s + 15
  if (x < 0) { m = 1; x = -x }
  if (x > 1) { f = 1; x = 1 / x }
  k = 0
  while (x > .2) { x = x / (1 + sqrt(1 + x * x)); k = k + 1 }
  v = x * x
  r = x
  t = x
  for (i = 3; 1; i = i + 2) {
    t = -t * v
    if (t / i == 0) break
    r = r + t / i
  }
  r = r * 2 ^ k
  if (f) r = 2 * a(1) - r
  if (m) r = -r
  scale = s
  return (r / 1)
}

/* Bessel function of the first kind, integer order n. */
define j(n, x) {
  auto s, m, r, t, k, v
  s = scale
  scale = 0
  n = n / 1
  if (n < 0) { n = -n; if (n % 2 == 1) m = 1 }
  scale = s + 15 + length(x)
  if (x > 0) scale = scale + x
  if (x < 0) scale = scale - x
  t = 1
  for (k = 1; k <= n; k++) t = t * x / (2 * k)
  v = x * x / 4
  r = t
  for (k = 1; 1; k++) {
    t = -t * v / (k * (n + k))
    if (t == 0) break
    r = r + t
  }
  if (m) r = -r
  scale = s
  return (r / 1)
}
"#;

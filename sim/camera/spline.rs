//! Centripetal Catmull–Rom splines (α = 0.5), the curve used for keyframe positions and
//! the roller-coaster track.
//!
//! Centripetal parameterization spaces the knots by the square root of the distance
//! between control points; unlike the uniform variant it never forms cusps or
//! self-intersections inside a segment, and it stays close to the control polygon when
//! points are unevenly spaced (Yuksel, Schaefer & Keyser, 2011). Evaluation uses the
//! Barry–Goldman pyramid.

use glam::DVec3;

/// Knot gaps below this are treated as coincident control points.
const MIN_GAP: f64 = 1e-9;

/// Point and derivative (with respect to `u`) of the centripetal Catmull–Rom segment
/// from `p[1]` to `p[2]` at `u` in [0, 1]; `p[0]` and `p[3]` shape the tangents.
///
/// Coincident neighbours are handled without dividing by zero: a zero-length segment is a
/// point; a zero outer gap borrows the segment's own gap.
pub(crate) fn centripetal(p: [DVec3; 4], u: f64) -> (DVec3, DVec3) {
    let gap = |a: DVec3, b: DVec3| a.distance(b).sqrt();
    let d12 = gap(p[1], p[2]);
    if d12.partial_cmp(&MIN_GAP) != Some(std::cmp::Ordering::Greater) {
        return (p[1].lerp(p[2], u), p[2] - p[1]);
    }
    let mut d01 = gap(p[0], p[1]);
    let mut d23 = gap(p[2], p[3]);
    if d01.partial_cmp(&MIN_GAP) != Some(std::cmp::Ordering::Greater) {
        d01 = d12;
    }
    if d23.partial_cmp(&MIN_GAP) != Some(std::cmp::Ordering::Greater) {
        d23 = d12;
    }
    let (t0, t1) = (0.0, d01);
    let t2 = t1 + d12;
    let t3 = t2 + d23;
    let t = t1 + u * d12;

    // Level A: linear blends of neighbouring points, and their derivatives in t.
    let blend = |a: DVec3, b: DVec3, ta: f64, tb: f64| ((tb - t) * a + (t - ta) * b) / (tb - ta);
    let a1 = blend(p[0], p[1], t0, t1);
    let a2 = blend(p[1], p[2], t1, t2);
    let a3 = blend(p[2], p[3], t2, t3);
    let da1 = (p[1] - p[0]) / (t1 - t0);
    let da2 = (p[2] - p[1]) / (t2 - t1);
    let da3 = (p[3] - p[2]) / (t3 - t2);
    // Level B.
    let b1 = blend(a1, a2, t0, t2);
    let b2 = blend(a2, a3, t1, t3);
    let db1 = (a2 - a1) / (t2 - t0) + blend(da1, da2, t0, t2);
    let db2 = (a3 - a2) / (t3 - t1) + blend(da2, da3, t1, t3);
    // Level C: the curve.
    let c = blend(b1, b2, t1, t2);
    let dc = (b2 - b1) / (t2 - t1) + blend(db1, db2, t1, t2);
    (c, dc * d12)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts() -> [DVec3; 4] {
        [DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 2.0, 0.0), DVec3::new(5.0, 2.5, 1.0), DVec3::new(6.0, 0.0, 3.0)]
    }

    #[test]
    fn interpolates_the_inner_points() {
        let p = pts();
        assert!(centripetal(p, 0.0).0.distance(p[1]) < 1e-12);
        assert!(centripetal(p, 1.0).0.distance(p[2]) < 1e-12);
    }

    #[test]
    fn derivative_matches_finite_differences() {
        let p = pts();
        for i in 1..10 {
            let u = f64::from(i) / 10.0;
            let h = 1e-6;
            let fd = (centripetal(p, u + h).0 - centripetal(p, u - h).0) / (2.0 * h);
            let (_, d) = centripetal(p, u);
            assert!(fd.distance(d) < 1e-6 * d.length().max(1.0), "u={u} {fd} {d}");
        }
    }

    #[test]
    fn evenly_spaced_collinear_points_give_a_straight_line() {
        let p = [0.0, 1.0, 2.0, 3.0].map(|x| DVec3::new(x, 0.0, 0.0));
        for i in 0..=8 {
            let u = f64::from(i) / 8.0;
            let (c, d) = centripetal(p, u);
            assert!(c.distance(DVec3::new(1.0 + u, 0.0, 0.0)) < 1e-12);
            assert!(d.distance(DVec3::X) < 1e-12);
        }
    }

    #[test]
    fn coincident_points_stay_finite() {
        let a = DVec3::ONE;
        let b = DVec3::new(2.0, 1.0, 1.0);
        for p in [[a, a, b, b], [a, a, a, b], [a, b, b, b], [a, a, a, a]] {
            for i in 0..=4 {
                let (c, d) = centripetal(p, f64::from(i) / 4.0);
                assert!(c.is_finite() && d.is_finite(), "{p:?}");
            }
        }
    }
}

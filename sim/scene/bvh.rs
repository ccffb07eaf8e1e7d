//! A bounding-volume hierarchy over the scene's objects, so a ray tests O(log n) objects
//! and scenes with thousands of objects stay cheap.

use super::geometry::{Aabb, Shape, SurfaceHit};
use glam::DVec3;

const LEAF_SIZE: usize = 4;

#[derive(Debug, Clone)]
struct Node {
    bounds: Aabb,
    /// Leaf: `count > 0`, objects `first..first+count` of `order`. Inner: children at
    /// `first` (left) and `first + 1` (right).
    first: u32,
    count: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Bvh {
    nodes: Vec<Node>,
    /// Object indices in leaf order.
    order: Vec<u32>,
}

impl Bvh {
    pub fn build(shapes: &[Shape]) -> Bvh {
        let mut bvh = Bvh { nodes: Vec::new(), order: (0..shapes.len() as u32).collect() };
        if shapes.is_empty() {
            return bvh;
        }
        let bounds: Vec<Aabb> = shapes.iter().map(Shape::bounds).collect();
        bvh.nodes.push(Node { bounds: Aabb::EMPTY, first: 0, count: 0 });
        bvh.split(0, 0, shapes.len(), &bounds);
        bvh
    }

    fn split(&mut self, node: usize, start: usize, end: usize, bounds: &[Aabb]) {
        let node_bounds = self.order[start..end].iter().fold(Aabb::EMPTY, |acc, &i| acc.union(bounds[i as usize]));
        self.nodes[node].bounds = node_bounds;
        if end - start <= LEAF_SIZE {
            self.nodes[node].first = start as u32;
            self.nodes[node].count = (end - start) as u32;
            return;
        }
        let centroids = self.order[start..end].iter().fold(Aabb::EMPTY, |acc, &i| {
            let c = bounds[i as usize].center();
            acc.union(Aabb { min: c, max: c })
        });
        let extent = centroids.max - centroids.min;
        let axis = if extent.x >= extent.y && extent.x >= extent.z {
            0
        } else if extent.y >= extent.z {
            1
        } else {
            2
        };
        let mid = (start + end) / 2;
        self.order[start..end].select_nth_unstable_by(mid - start, |&a, &b| {
            bounds[a as usize].center()[axis].total_cmp(&bounds[b as usize].center()[axis]).then(a.cmp(&b))
        });
        let left = self.nodes.len();
        self.nodes.push(Node { bounds: Aabb::EMPTY, first: 0, count: 0 });
        self.nodes.push(Node { bounds: Aabb::EMPTY, first: 0, count: 0 });
        self.nodes[node].first = left as u32;
        self.split(left, start, mid, bounds);
        self.split(left + 1, mid, end, bounds);
    }

    /// The nearest hit of a ray, with the index of the object hit.
    pub fn nearest(&self, shapes: &[Shape], origin: DVec3, dir: DVec3) -> Option<(u32, SurfaceHit)> {
        let root = self.nodes.first()?;
        let inv = dir.recip();
        let mut best: Option<u32> = None;
        let mut t_max = f64::INFINITY;
        // A median-split tree over ≤ 2^32 objects is < 64 deep: a fixed stack suffices.
        // Entries carry the node's entry distance, so a node is not slab-tested twice: it
        // is still worth visiting iff it is entered before the nearest hit so far.
        let mut stack = [(0u32, 0f64); 128];
        let mut depth = 0usize;
        if let Some(entry) = root.bounds.hit(origin, inv, t_max) {
            stack[0] = (0, entry);
            depth = 1;
        }
        while depth > 0 {
            depth -= 1;
            let (index, entry) = stack[depth];
            if entry > t_max {
                continue;
            }
            let node = &self.nodes[index as usize];
            if node.count > 0 {
                for &object in &self.order[node.first as usize..(node.first + node.count) as usize] {
                    if let Some(t) = shapes[object as usize].hit_distance(origin, dir, t_max) {
                        t_max = t;
                        best = Some(object);
                    }
                }
                continue;
            }
            // Visit the nearer child first so that t_max shrinks early.
            let (l, r) = (node.first, node.first + 1);
            let dl = self.nodes[l as usize].bounds.hit(origin, inv, t_max);
            let dr = self.nodes[r as usize].bounds.hit(origin, inv, t_max);
            let mut push = |n: u32, entry: f64| {
                stack[depth] = (n, entry);
                depth += 1;
            };
            match (dl, dr) {
                (Some(a), Some(b)) if a <= b => {
                    push(r, b);
                    push(l, a);
                }
                (Some(a), Some(b)) => {
                    push(l, a);
                    push(r, b);
                }
                (Some(a), None) => push(l, a),
                (None, Some(b)) => push(r, b),
                (None, None) => {}
            }
        }
        // Surface details only for the winner (same arithmetic, so the same distance).
        let object = best?;
        shapes[object as usize].intersect(origin, dir, f64::INFINITY).map(|hit| (object, hit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn matches_brute_force() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let shapes = crate::scene::test_scenes::cubes_and_spheres(&mut rng, 500, 50.0, 3.0);
        let bvh = Bvh::build(&shapes);
        for _ in 0..2000 {
            let origin = DVec3::new(rng.gen_range(-80.0..80.0), rng.gen_range(-80.0..80.0), rng.gen_range(-80.0..80.0));
            let dir =
                DVec3::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)).normalize();
            let brute = shapes
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.intersect(origin, dir, f64::INFINITY).map(|h| (i as u32, h)))
                .min_by(|a, b| a.1.t.total_cmp(&b.1.t));
            let fast = bvh.nearest(&shapes, origin, dir);
            assert_eq!(brute.map(|b| b.1.t), fast.map(|f| f.1.t));
        }
    }
}

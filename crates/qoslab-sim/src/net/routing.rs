//! Static shortest-path routing (hop count), computed once from the topology.
//!
//! For every destination a breadth-first search over the reversed links gives each node its
//! distance to the destination; the next hop of node `u` towards `d` is the link `u→v` with
//! the smallest distance of `v`, ties broken by the lowest link index (the order links are
//! declared in the scenario), so routes are deterministic.

/// `NO_ROUTE` marks an unreachable destination.
pub const NO_ROUTE: u32 = u32::MAX;

/// next_link[u * n + d]: the link a packet at node `u` takes towards node `d`.
#[derive(Clone, Debug)]
pub struct Routes {
    n: usize,
    next_link: Vec<u32>,
}

impl Routes {
    /// `links[i] = (from, to)`.
    pub fn compute(n: usize, links: &[(usize, usize)]) -> Routes {
        let mut next_link = vec![NO_ROUTE; n * n];
        let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &(_, to)) in links.iter().enumerate() {
            incoming[to].push(i);
        }
        let mut dist = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        for d in 0..n {
            dist.iter_mut().for_each(|x| *x = u32::MAX);
            dist[d] = 0;
            queue.clear();
            queue.push_back(d);
            while let Some(v) = queue.pop_front() {
                for &li in &incoming[v] {
                    let u = links[li].0;
                    if dist[u] == u32::MAX {
                        dist[u] = dist[v] + 1;
                        queue.push_back(u);
                    }
                }
            }
            for (li, &(u, v)) in links.iter().enumerate() {
                if u == d || dist[v] == u32::MAX || dist[u] == u32::MAX {
                    continue;
                }
                if dist[v] + 1 == dist[u] && next_link[u * n + d] == NO_ROUTE {
                    next_link[u * n + d] = li as u32;
                }
            }
        }
        Routes { n, next_link }
    }

    #[inline]
    pub fn next(&self, at: u32, dst: u32) -> u32 {
        self.next_link[at as usize * self.n + dst as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_and_tie_break() {
        // 0 -> 1 -> 3, 0 -> 2 -> 3 (equal length: the lower link index wins), plus reverse 3 -> 0.
        let links = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 0)];
        // Node 4 is isolated.
        let r = Routes::compute(5, &links);
        assert_eq!(r.next(0, 3), 0);
        assert_eq!(r.next(1, 3), 2);
        assert_eq!(r.next(3, 2), 4);
        assert_eq!(r.next(1, 0), 2);
        assert_eq!(r.next(1, 4), NO_ROUTE);
        assert_eq!(r.next(4, 0), NO_ROUTE);
    }
}

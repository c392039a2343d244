//! Static shortest-path routing (hop count), computed once from the topology.
//!
//! The next hop of node `u` towards `d` is the link `u→v` with the smallest distance from
//! `v` to `d`, ties broken by the lowest link index (the order links are declared in the
//! scenario), so routes are deterministic.
//!
//! Storage grows with the routers, not with the square of the nodes (issue 13: a dense
//! n x n table was 1.6 GB and 20,000 breadth-first searches for a 10,000-flow dumbbell).
//! A node with one outgoing link (a host) has that link as its only possible next hop: it is
//! stored once, and the destination's reachability is checked by following the chain of
//! such nodes to the first router. A node with several outgoing links (a router) keeps a
//! full row: one breadth-first search from each router gives its distances, and each
//! outgoing link `u→v` qualifies for the destinations `d` with dist(v, d) + 1 = dist(u, d).
//! Only a router or a chain that leaves `u` elsewhere needs a pass over all destinations; a
//! chain that comes back to `u` (a host hanging off the router) qualifies only for its own
//! nodes. The result is the same table as the dense computation (checked by a property test
//! against it).

/// `NO_ROUTE` marks an unreachable destination.
pub const NO_ROUTE: u32 = u32::MAX;

const NONE: u32 = u32::MAX;
const INF: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Routes {
    n: usize,
    /// Far end of every link.
    link_to: Vec<u32>,
    /// For a node with exactly one outgoing link: that link; otherwise `NONE`.
    single: Vec<u32>,
    /// For a router (two or more outgoing links): its row in `rows`; otherwise `NONE`.
    row_of: Vec<u32>,
    /// rows[r * n + d]: the link router `r` takes towards `d`.
    rows: Vec<u32>,
    /// Per node, for the hot path: its single link, or `ROW | r` for router row `r`, or
    /// `NO_ROUTE` for a node without outgoing links.
    fast: Vec<u32>,
}

const ROW: u32 = 1 << 31;

/// Nodes with their distances along the chain of single-link nodes starting at `v`, and
/// where it ends: `Some(router)` or `None` (dead end, or a cycle of single-link nodes).
fn chain(
    v: usize,
    single: &[u32],
    link_to: &[u32],
    row_of: &[u32],
    stamp: &mut [u32],
    tag: u32,
) -> (Vec<(usize, u32)>, Option<usize>) {
    let mut nodes = Vec::new();
    let mut c = v;
    let mut k = 0u32;
    loop {
        if row_of[c] != NONE {
            return (nodes, Some(c));
        }
        if stamp[c] == tag {
            return (nodes, None); // cycle without a router
        }
        stamp[c] = tag;
        nodes.push((c, k));
        let li = single[c];
        if li == NONE {
            return (nodes, None); // dead end
        }
        c = link_to[li as usize] as usize;
        k += 1;
    }
}

fn bfs(
    from: usize,
    out: &[Vec<u32>],
    link_to: &[u32],
    dist: &mut [u32],
    queue: &mut std::collections::VecDeque<usize>,
) {
    dist.iter_mut().for_each(|x| *x = INF);
    dist[from] = 0;
    queue.clear();
    queue.push_back(from);
    while let Some(u) = queue.pop_front() {
        for &li in &out[u] {
            let v = link_to[li as usize] as usize;
            if dist[v] == INF {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
}

impl Routes {
    pub fn compute(n: usize, links: &[(usize, usize)]) -> Routes {
        let link_to: Vec<u32> = links.iter().map(|&(_, v)| v as u32).collect();
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (li, &(u, _)) in links.iter().enumerate() {
            out[u].push(li as u32);
        }
        let single: Vec<u32> = out
            .iter()
            .map(|o| if o.len() == 1 { o[0] } else { NONE })
            .collect();
        let routers: Vec<usize> = (0..n).filter(|&u| out[u].len() >= 2).collect();
        let mut row_of = vec![NONE; n];
        for (r, &u) in routers.iter().enumerate() {
            row_of[u] = r as u32;
        }
        // Distances from every router.
        let mut dist = vec![INF; routers.len() * n];
        let mut queue = std::collections::VecDeque::new();
        for (r, &u) in routers.iter().enumerate() {
            bfs(u, &out, &link_to, &mut dist[r * n..(r + 1) * n], &mut queue);
        }
        let mut rows = vec![NO_ROUTE; routers.len() * n];
        let mut stamp = vec![0u32; n];
        let mut tag = 0u32;
        let mut dv = vec![INF; n];
        for (r, &u) in routers.iter().enumerate() {
            let du = &dist[r * n..(r + 1) * n];
            for &li in &out[u] {
                let v = link_to[li as usize] as usize;
                tag += 1;
                let (nodes, end) = chain(v, &single, &link_to, &row_of, &mut stamp, tag);
                let row = &mut rows[r * n..(r + 1) * n];
                let take = |d: usize, dvd: u32, row: &mut [u32]| {
                    if d != u
                        && row[d] == NO_ROUTE
                        && dvd != INF
                        && du[d] != INF
                        && dvd + 1 == du[d]
                    {
                        row[d] = li;
                    }
                };
                match end {
                    // The chain returns to `u` (or stops): beyond its own nodes every
                    // destination is farther from `v` than from `u`.
                    Some(e) if e != u => {
                        // dist(v, d): along the chain, else chain length + dist(e, d).
                        let len = nodes.len() as u32;
                        let de = &dist[row_of[e] as usize * n..(row_of[e] as usize + 1) * n];
                        for (d, x) in dv.iter_mut().enumerate() {
                            *x = if de[d] == INF { INF } else { len + de[d] };
                        }
                        for &(c, k) in &nodes {
                            dv[c] = dv[c].min(k);
                        }
                        for (d, &x) in dv.iter().enumerate() {
                            take(d, x, row);
                        }
                    }
                    _ => {
                        for &(c, k) in &nodes {
                            take(c, k, row);
                        }
                    }
                }
            }
        }
        assert!(links.len() < ROW as usize && routers.len() < ROW as usize);
        let fast = (0..n)
            .map(|u| match (row_of[u], single[u]) {
                (NONE, NONE) => NO_ROUTE,
                (NONE, li) => li,
                (r, _) => ROW | r,
            })
            .collect();
        Routes {
            n,
            link_to,
            single,
            row_of,
            rows,
            fast,
        }
    }

    /// `next(at, dst)` for a `dst` known to be reachable from `at` (every packet in flight:
    /// the simulator refuses unroutable flows when it is built): a single-link node's link
    /// without the reachability walk.
    #[inline]
    pub fn next_reachable(&self, at: u32, dst: u32) -> u32 {
        let f = self.fast[at as usize];
        if f == NO_ROUTE || f & ROW == 0 {
            return f;
        }
        self.rows[(f & !ROW) as usize * self.n + dst as usize]
    }

    /// The links a packet takes from node `src` to node `dst`, in order (empty if
    /// `src == dst`; `None` if there is no route). For set-up and descriptions, not the
    /// per-packet path (it allocates).
    pub fn path(&self, src: u32, dst: u32) -> Option<Vec<u32>> {
        let mut links = Vec::new();
        let mut at = src;
        while at != dst {
            let li = self.next(at, dst);
            // A shortest path has fewer hops than there are nodes.
            if li == NO_ROUTE || links.len() >= self.n {
                return None;
            }
            links.push(li);
            at = self.link_to[li as usize];
        }
        Some(links)
    }

    /// The link a packet at node `at` takes towards node `dst` (`NO_ROUTE` if none).
    #[inline]
    pub fn next(&self, at: u32, dst: u32) -> u32 {
        let r = self.row_of[at as usize];
        if r != NONE {
            return self.rows[r as usize * self.n + dst as usize];
        }
        let li = self.single[at as usize];
        if li == NONE || at == dst {
            return NO_ROUTE;
        }
        // `dst` must be reachable from the link's far end: follow single-link nodes.
        let mut c = self.link_to[li as usize];
        for _ in 0..self.n {
            if c == dst {
                return li;
            }
            let r = self.row_of[c as usize];
            if r != NONE {
                return if self.rows[r as usize * self.n + dst as usize] != NO_ROUTE {
                    li
                } else {
                    NO_ROUTE
                };
            }
            let next = self.single[c as usize];
            if next == NONE {
                return NO_ROUTE;
            }
            c = self.link_to[next as usize];
        }
        NO_ROUTE // a cycle of single-link nodes without `dst`
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
        // Whole paths: the same hops, in order.
        assert_eq!(r.path(0, 3), Some(vec![0, 2]));
        assert_eq!(r.path(1, 2), Some(vec![2, 4, 1]));
        assert_eq!(r.path(2, 2), Some(vec![]));
        assert_eq!(r.path(1, 4), None);
        assert_eq!(r.path(4, 0), None);
    }

    /// The dense computation this replaced: a breadth-first search over reversed links for
    /// every destination, lowest link index among the shortest.
    fn dense(n: usize, links: &[(usize, usize)]) -> Vec<u32> {
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
        next_link
    }

    proptest::proptest! {
        #[test]
        fn same_as_dense(n in 1usize..12, raw in proptest::collection::vec((0usize..12, 0usize..12), 0..30)) {
            let links: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).filter(|(a, b)| a != b).collect();
            let r = Routes::compute(n, &links);
            let want = dense(n, &links);
            for u in 0..n {
                for d in 0..n {
                    proptest::prop_assert_eq!(r.next(u as u32, d as u32), want[u * n + d], "u {} d {} links {:?}", u, d, links);
                    if want[u * n + d] != NO_ROUTE {
                        proptest::prop_assert_eq!(r.next_reachable(u as u32, d as u32), want[u * n + d]);
                    }
                }
            }
        }
    }

    #[test]
    fn dumbbell_same_as_dense() {
        // hosts S_i (0..k), G1 = k, G2 = k+1, D_i; duplex links as the bench declares them
        let k = 7;
        let (g1, g2) = (2 * k, 2 * k + 1);
        let mut links = Vec::new();
        for i in 0..k {
            links.push((i, g1));
            links.push((g1, i));
        }
        links.push((g1, g2));
        links.push((g2, g1));
        for i in 0..k {
            links.push((g2, k + i));
            links.push((k + i, g2));
        }
        let n = 2 * k + 2;
        let r = Routes::compute(n, &links);
        let want = dense(n, &links);
        for u in 0..n {
            for d in 0..n {
                assert_eq!(r.next(u as u32, d as u32), want[u * n + d]);
            }
        }
    }
}

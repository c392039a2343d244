//! Reachability between nodes for validation ("no path of links leads there"), in time and
//! memory linear in the network for the topologies scenarios use.
//!
//! The links are condensed into strongly connected components (Kosaraju, iterative so a
//! long chain cannot overflow the stack). Two nodes of one component reach each other; a
//! query across components searches the condensation, whose reachable set is cached per
//! source component. A network of bidirectional links is one component, so a query is
//! O(1) whatever the number of hosts and flows; before this (a BFS over all nodes cached
//! per source node) 100,000 flows took minutes and gigabytes (issue 12).

/// Answers "is there a directed path from `a` to `b`?".
pub(crate) struct Reach {
    comp: Vec<u32>,
    /// Condensation edges, by source component (CSR).
    start: Vec<u32>,
    succ: Vec<u32>,
    /// Components reachable from a component, computed on first use.
    cache: Vec<Option<Vec<bool>>>,
}

impl Reach {
    pub(crate) fn new(n: usize, edges: impl Iterator<Item = (usize, usize)> + Clone) -> Reach {
        let csr = |rev: bool| {
            let mut start = vec![0u32; n + 1];
            for (a, b) in edges.clone() {
                start[if rev { b } else { a } + 1] += 1;
            }
            for i in 0..n {
                start[i + 1] += start[i];
            }
            let mut fill = start.clone();
            let mut succ = vec![0u32; start[n] as usize];
            for (a, b) in edges.clone() {
                let (from, to) = if rev { (b, a) } else { (a, b) };
                succ[fill[from] as usize] = to as u32;
                fill[from] += 1;
            }
            (start, succ)
        };
        let (fs, fsucc) = csr(false);
        let (rs, rsucc) = csr(true);
        // Pass 1: finishing order on the links.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            stack.push((root as u32, fs[root]));
            while let Some(top) = stack.last_mut() {
                let v = top.0 as usize;
                if top.1 < fs[v + 1] {
                    let w = fsucc[top.1 as usize] as usize;
                    top.1 += 1;
                    if !seen[w] {
                        seen[w] = true;
                        stack.push((w as u32, fs[w]));
                    }
                } else {
                    order.push(v as u32);
                    stack.pop();
                }
            }
        }
        // Pass 2: components on the reversed links, in reverse finishing order.
        const NONE: u32 = u32::MAX;
        let mut comp = vec![NONE; n];
        let mut ncomp = 0u32;
        let mut work = Vec::new();
        for &root in order.iter().rev() {
            if comp[root as usize] != NONE {
                continue;
            }
            comp[root as usize] = ncomp;
            work.push(root);
            while let Some(v) = work.pop() {
                let v = v as usize;
                for &w in &rsucc[rs[v] as usize..rs[v + 1] as usize] {
                    if comp[w as usize] == NONE {
                        comp[w as usize] = ncomp;
                        work.push(w);
                    }
                }
            }
            ncomp += 1;
        }
        // The condensation.
        let nc = ncomp as usize;
        let cedges = edges
            .clone()
            .filter(|&(a, b)| comp[a] != comp[b])
            .map(|(a, b)| (comp[a] as usize, comp[b] as usize));
        let mut start = vec![0u32; nc + 1];
        for (a, _) in cedges.clone() {
            start[a + 1] += 1;
        }
        for i in 0..nc {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut succ = vec![0u32; start[nc] as usize];
        for (a, b) in cedges {
            succ[fill[a] as usize] = b as u32;
            fill[a] += 1;
        }
        Reach {
            comp,
            start,
            succ,
            cache: vec![None; nc],
        }
    }

    pub(crate) fn reachable(&mut self, a: usize, b: usize) -> bool {
        let (ca, cb) = (self.comp[a] as usize, self.comp[b] as usize);
        if ca == cb {
            return true;
        }
        let (start, succ) = (&self.start, &self.succ);
        let seen = self.cache[ca].get_or_insert_with(|| {
            let mut seen = vec![false; start.len() - 1];
            let mut work = vec![ca as u32];
            seen[ca] = true;
            while let Some(c) = work.pop() {
                let c = c as usize;
                for &d in &succ[start[c] as usize..start[c + 1] as usize] {
                    if !seen[d as usize] {
                        seen[d as usize] = true;
                        work.push(d);
                    }
                }
            }
            seen
        });
        seen[cb]
    }
}

#[cfg(test)]
mod tests {
    use super::Reach;
    use proptest::prelude::*;

    /// The plain definition: BFS from `a`.
    fn bfs(n: usize, edges: &[(usize, usize)], a: usize, b: usize) -> bool {
        let mut seen = vec![false; n];
        let mut work = vec![a];
        seen[a] = true;
        while let Some(v) = work.pop() {
            for &(x, y) in edges {
                if x == v && !seen[y] {
                    seen[y] = true;
                    work.push(y);
                }
            }
        }
        seen[b]
    }

    #[test]
    fn chains_cycles_and_islands() {
        // 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3, 4 alone, 5 <-> 6.
        let e = [(0, 1), (1, 2), (2, 0), (2, 3), (5, 6), (6, 5)];
        let mut r = Reach::new(7, e.iter().copied());
        assert!(r.reachable(0, 3) && r.reachable(1, 0) && r.reachable(5, 6));
        assert!(!r.reachable(3, 0) && !r.reachable(0, 4) && !r.reachable(4, 0));
        assert!(!r.reachable(0, 5));
    }

    #[test]
    fn a_million_node_chain_does_not_overflow_the_stack() {
        let n = 1_000_000;
        let mut r = Reach::new(n, (0..n - 1).map(|i| (i, i + 1)));
        assert!(r.reachable(0, n - 1));
        assert!(!r.reachable(n - 1, 0));
    }

    proptest! {
        #[test]
        fn agrees_with_bfs(n in 1usize..12, raw in proptest::collection::vec((0usize..12, 0usize..12), 0..30)) {
            let edges: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).collect();
            let mut r = Reach::new(n, edges.iter().copied());
            for a in 0..n {
                for b in 0..n {
                    prop_assert_eq!(r.reachable(a, b), bfs(n, &edges, a, b), "{} -> {}", a, b);
                }
            }
        }
    }
}

//! The PCN domains of the draft's App. A (§10.1): single link (Fig. A.1), RTT (Fig. A.2),
//! parking lots with 2, 3 or 5 bottlenecks (Fig. A.3).
//!
//! Only PCN links are modelled as links (physical FIFO at rate C, a marker at its
//! input). The links that the draft declares unlimited and not PCN-enabled (RTT ingress
//! links, parking-lot vertical links) reduce to pure propagation delays on the path: they
//! neither queue nor mark, so modelling them as links would only add events.

use qoslab_algo::{Duration, Rng};

use super::spec::{PcnSpec, TopologySpec};

/// A PCN-enabled link.
#[derive(Clone, Debug)]
pub struct LinkDef {
    pub name: String,
    pub delay: Duration,
}

/// One hop of an IEA's path: the propagation before reaching `link` (unlimited, unmetered
/// links), then the link.
#[derive(Clone, Copy, Debug)]
pub struct Hop {
    pub pre_delay: Duration,
    pub link: u32,
}

/// An ingress–egress aggregate and its path.
#[derive(Clone, Debug)]
pub struct IeaDef {
    pub name: String,
    pub hops: Vec<Hop>,
    /// Propagation after the last PCN link to the egress.
    pub post_delay: Duration,
    /// Share of each of its links' flow population (termination and static runs).
    pub share: f64,
}

impl IeaDef {
    /// One-way propagation ingress → egress (no transmission times).
    pub fn propagation(&self, links: &[LinkDef]) -> Duration {
        let mut d = self.post_delay.as_nanos();
        for h in &self.hops {
            d += h.pre_delay.as_nanos() + links[h.link as usize].delay.as_nanos();
        }
        Duration(d)
    }
}

/// The built domain.
#[derive(Clone, Debug)]
pub struct Topology {
    pub links: Vec<LinkDef>,
    pub ieas: Vec<IeaDef>,
}

/// Builds the domain of `spec`; RTT ingress delays are drawn from the stream
/// `pcn/topology/ingress{i}/delay` of `seed` (one stream per ingress, so the delay of
/// ingress i does not depend on k).
pub fn build(spec: &PcnSpec, seed: u64) -> Topology {
    match &spec.topology {
        TopologySpec::Single { delay } => Topology {
            links: vec![LinkDef {
                name: "A->B".into(),
                delay: *delay,
            }],
            ieas: vec![IeaDef {
                name: "A->B".into(),
                hops: vec![Hop {
                    pre_delay: Duration::ZERO,
                    link: 0,
                }],
                post_delay: Duration::ZERO,
                share: 1.0,
            }],
        },
        TopologySpec::Rtt {
            ingresses,
            ingress_delay_min,
            ingress_delay_max,
            bottleneck_delay,
        } => {
            let k = *ingresses;
            let ieas = (0..k)
                .map(|i| {
                    // §10.1: "chosen randomly" in 1-100 ms; [G §5.5] uniform, continuous,
                    // redrawn per seed, rounded to the nanosecond.
                    let mut r = Rng::stream(seed, &format!("pcn/topology/ingress{i}/delay"));
                    let lo = ingress_delay_min.as_nanos() as f64;
                    let hi = ingress_delay_max.as_nanos() as f64;
                    let d = if hi > lo {
                        libm::round(r.uniform_range(lo, hi)) as u64
                    } else {
                        ingress_delay_min.as_nanos()
                    };
                    IeaDef {
                        name: format!("I{}->F", i + 1),
                        hops: vec![Hop {
                            pre_delay: Duration(d),
                            link: 0,
                        }],
                        post_delay: Duration::ZERO,
                        share: 1.0 / k as f64,
                    }
                })
                .collect();
            Topology {
                links: vec![LinkDef {
                    name: "D->F".into(),
                    delay: *bottleneck_delay,
                }],
                ieas,
            }
        }
        TopologySpec::ParkingLot {
            bottlenecks,
            link_delay,
            vertical_delay,
        } => {
            let n = *bottlenecks as usize;
            let node = |i: usize| char::from(b'A' + i as u8);
            let vnode = |i: usize| char::from(b'A' + (n + 1 + i) as u8);
            let links: Vec<LinkDef> = (0..n)
                .map(|i| LinkDef {
                    name: format!("{}->{}", node(i), node(i + 1)),
                    delay: *link_delay,
                })
                .collect();
            let share_long = spec.population.long_haul_share;
            let mut ieas = vec![IeaDef {
                name: format!("long-haul {}->{}", node(0), node(n)),
                hops: (0..n)
                    .map(|i| Hop {
                        pre_delay: Duration::ZERO,
                        link: i as u32,
                    })
                    .collect(),
                post_delay: Duration::ZERO,
                share: share_long,
            }];
            for i in 0..n {
                ieas.push(IeaDef {
                    name: format!("{}->{}", vnode(i), vnode(i + 1)),
                    hops: vec![Hop {
                        pre_delay: *vertical_delay,
                        link: i as u32,
                    }],
                    post_delay: *vertical_delay,
                    share: 1.0 - share_long,
                });
            }
            Topology { links, ieas }
        }
    }
}

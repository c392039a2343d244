//! A tiny builder for the scenarios of the experiments (the same `Scenario` the TOML
//! parser produces: duplex links become two unidirectional entries "A->B" and "B->A").

use qoslab_algo::{Duration, Rate};
use qoslab_sim::scenario::spec::{
    ConditionerSpec, FlowKind, FlowSpec, Limit, LinkSpec, NodeKind, NodeSpec, OutputSpec,
    QueueSpec, Scenario,
};

pub struct Net {
    pub sc: Scenario,
}

impl Net {
    pub fn new(name: &str, duration: Duration, warmup: Duration) -> Net {
        Net {
            sc: Scenario {
                name: name.to_string(),
                seed: 1,
                duration,
                warmup,
                nodes: Vec::new(),
                links: Vec::new(),
                flows: Vec::new(),
                webs: Vec::new(),
                output: OutputSpec {
                    sample_interval: None,
                    monitor: Vec::new(),
                    tcp_series: false,
                },
            },
        }
    }

    pub fn node(&mut self, name: &str, kind: NodeKind) -> usize {
        self.sc.nodes.push(NodeSpec {
            name: name.to_string(),
            kind,
        });
        self.sc.nodes.len() - 1
    }

    /// Two directions a->b (queue `q_ab`) and b->a (queue `q_ba`).
    pub fn duplex(
        &mut self,
        a: usize,
        b: usize,
        rate: Rate,
        delay: Duration,
        q_ab: QueueSpec,
        q_ba: QueueSpec,
    ) {
        for (from, to, queue) in [(a, b, q_ab), (b, a, q_ba)] {
            let name = format!("{}->{}", self.sc.nodes[from].name, self.sc.nodes[to].name);
            self.sc.links.push(LinkSpec {
                name,
                from,
                to,
                rate,
                delay,
                queue,
                loss: None,
                conditioner: None,
            });
        }
    }

    pub fn flow(&mut self, name: &str, src: usize, dst: usize, kind: FlowKind) {
        self.sc.flows.push(FlowSpec {
            name: name.to_string(),
            src,
            dst,
            start: Duration::ZERO,
            start_jitter: Duration::ZERO,
            stop: None,
            kind,
        });
    }

    /// Puts an ingress conditioner on the link named "A->B" (panics on a name not built).
    pub fn condition(&mut self, link: &str, spec: ConditionerSpec) {
        let l = self
            .sc
            .links
            .iter_mut()
            .find(|l| l.name == link)
            .expect("conditioned link exists");
        l.conditioner = Some(spec);
    }

    /// Reports and samples the link named "A->B" (panics on a name not built: a bug in an
    /// experiment definition, caught by its tests).
    pub fn monitor(&mut self, link: &str, sample_interval: Option<Duration>) {
        let i = self
            .sc
            .links
            .iter()
            .position(|l| l.name == link)
            .expect("monitored link exists");
        self.sc.output.monitor.push(i);
        self.sc.output.sample_interval = sample_interval;
    }
}

/// A drop-tail queue of `n` packets.
pub fn drop_tail(n: u32) -> QueueSpec {
    QueueSpec::DropTail {
        limit: Limit::Packets(n),
    }
}

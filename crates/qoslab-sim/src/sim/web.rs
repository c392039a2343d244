//! Web-traffic pools in the engine: the ns-2 WebTraf-style session model
//! ([`crate::traffic::web`]) opens TCP transfers in recycled agent slots; this module turns
//! its requests into transfers (with the request leg, `traffic::web` choice 5) and its
//! completions back into model events.

use qoslab_algo::Time;

use super::{Agent, AgentKind, Simulator, TcpWire};
use crate::event::{Event, EventQueue};
use crate::traffic::web::{Request as WebRequest, RequestLeg, WebTraffic};
use crate::transport::tcp::{App, TcpConfig, TcpReceiver, TcpSender};

/// Which web object a transfer agent carries.
#[derive(Clone, Copy, Debug)]
pub struct WebTag {
    pub pool: u32,
    pub session: u32,
    pub page: u32,
    pub object: u32,
    /// `Some(bytes)` while this transfer is the object's request leg: the response of
    /// `bytes` starts when it completes (`traffic::web`, choice 5).
    pub response: Option<u64>,
}

/// A web-traffic pool: the session model and what its transfers need.
pub struct WebPool {
    pub name: String,
    pub model: WebTraffic,
    pub(super) clients: Vec<u32>,
    pub(super) servers: Vec<u32>,
    pub(super) cfg: TcpConfig,
    pub(super) header: u32,
    pub(super) ack_size: u32,
    pub(super) flow: u32,
    pub(super) armed: Time,
}

impl Simulator {
    /// Schedules the web pool's next model event.
    pub(super) fn arm_web(&mut self, w: u32) {
        let now = self.now;
        let pool = &mut self.webs[w as usize];
        let next = pool.model.next_event_time();
        self.events
            .arm(&mut pool.armed, next, now, Event::Web { pool: w });
    }

    pub(super) fn on_web(&mut self, w: u32) {
        let now = self.now;
        EventQueue::disarm(&mut self.webs[w as usize].armed, now);
        while let Some(req) = self.webs[w as usize].model.poll(now) {
            self.start_transfer(w, req);
        }
        self.arm_web(w);
    }

    /// Opens a web object's first transfer: its one-segment request from client to server
    /// (ns-2 WebTraf `launch-req`), or with `request = "none"` its response at once.
    fn start_transfer(&mut self, w: u32, req: WebRequest) {
        let pool = &self.webs[w as usize];
        let (server, client) = (
            pool.servers[req.server as usize],
            pool.clients[req.client as usize],
        );
        let bytes = req.bytes.max(1);
        let mut tag = WebTag {
            pool: w,
            session: req.session,
            page: req.page,
            object: req.object,
            response: None,
        };
        match pool.model.params().settings().request {
            RequestLeg::Segment => {
                // `advanceby 1`: one full segment of the pool's TCP.
                let seg = u64::from(pool.cfg.params().mss);
                tag.response = Some(bytes);
                self.open_transfer(tag, client, server, seg);
            }
            RequestLeg::None => self.open_transfer(tag, server, client, bytes),
        }
    }

    /// Opens a TCP transfer of `bytes` for a web object from node `from` to node `to`.
    fn open_transfer(&mut self, tag: WebTag, from: u32, to: u32, bytes: u64) {
        let now = self.now;
        let w = tag.pool;
        let pool = &self.webs[w as usize];
        let sender = TcpSender::new(&pool.cfg, App::Bytes(bytes));
        let receiver = TcpReceiver::new(&pool.cfg);
        let (flow, header, ack_size) = (pool.flow, pool.header, pool.ack_size);
        let s = match self.free_pairs.pop() {
            Some(s) => s,
            None => {
                let s = self.agents.len() as u32;
                for _ in 0..2 {
                    self.agents.push(Agent {
                        node: 0,
                        flow,
                        peer_node: 0,
                        peer_agent: 0,
                        kind: AgentKind::Free,
                        armed: Time::NEVER,
                        gen: 0,
                        web: None,
                    });
                }
                s
            }
        };
        let snd = &mut self.agents[s as usize];
        snd.node = from;
        snd.flow = flow;
        snd.peer_node = to;
        snd.peer_agent = s + 1;
        snd.web = Some(tag);
        snd.kind = AgentKind::TcpSender {
            tcp: sender,
            wire: TcpWire { header },
            start: now,
            stop: Time::NEVER,
            started: false,
        };
        let rcv = &mut self.agents[s as usize + 1];
        rcv.node = to;
        rcv.flow = flow;
        rcv.peer_node = from;
        rcv.peer_agent = s;
        rcv.web = Some(tag);
        rcv.kind = AgentKind::TcpReceiver {
            tcp: receiver,
            ack_size,
        };
        self.arm(s);
    }

    /// A web transfer is fully acknowledged: tell the model, free both slots.
    pub(super) fn finish_transfer(&mut self, s: u32) {
        let now = self.now;
        let Some(tag) = self.agents[s as usize].web else {
            return;
        };
        if let AgentKind::TcpSender { tcp, .. } = &self.agents[s as usize].kind {
            let f = &mut self.flows[self.agents[s as usize].flow as usize];
            f.closed_timeouts += tcp.stats().timeouts;
            f.closed_fast_recoveries += tcp.stats().fast_recoveries;
        }
        let (from, to) = (
            self.agents[s as usize].node,
            self.agents[s as usize].peer_node,
        );
        for k in [s, s + 1] {
            let a = &mut self.agents[k as usize];
            a.kind = AgentKind::Free;
            a.web = None;
            a.gen = a.gen.wrapping_add(1);
            a.armed = Time::NEVER;
        }
        self.free_pairs.push(s);
        if let Some(bytes) = tag.response {
            // ns-2 WebTraf `done-req` -> `job_arrival` (server mode 0) -> `launch-resp`: the
            // request is acknowledged; the response starts now over a fresh TCP.
            let resp = WebTag {
                response: None,
                ..tag
            };
            self.open_transfer(resp, to, from, bytes);
            return;
        }
        let pool = &mut self.webs[tag.pool as usize];
        pool.model
            .on_transfer_complete(now, tag.session, tag.page, tag.object);
        self.arm_web(tag.pool);
    }
}
